//! LSP positions (line, UTF-16 column) to byte offsets and back, and `file:` URIs to
//! paths.

use std::path::PathBuf;

use lsp_types::Position;

/// The byte offset of `pos` in `text`; a column past the end of its line means the end of
/// the line (as the protocol says), a line past the end means the end of the text.
#[must_use]
pub fn offset(text: &str, pos: Position) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..line_end].char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

/// The position of byte `offset` (a char boundary) in `text`.
#[must_use]
pub fn position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(character).unwrap_or(u32::MAX),
    )
}

/// The path of a `file:` URI, percent-decoded; `None` for another scheme.
#[must_use]
pub fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only a local (empty or localhost) host is a path here.
    let path = match rest.strip_prefix("localhost") {
        Some(p) => p,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = path.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\nçé𝄞x\n";
        assert_eq!(offset(text, Position::new(0, 1)), 1);
        assert_eq!(offset(text, Position::new(1, 0)), 3);
        // ç and é are one unit each, 𝄞 two.
        assert_eq!(offset(text, Position::new(1, 4)), 3 + 2 + 2 + 4);
        assert_eq!(offset(text, Position::new(1, 99)), text.len() - 1);
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
        for at in [0, 1, 3, 5, 7, 11, 12, text.len()] {
            assert_eq!(offset(text, position(text, at)), at, "{at}");
        }
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            uri_path("file:///tmp/a%20b.c"),
            Some(PathBuf::from("/tmp/a b.c"))
        );
        assert_eq!(uri_path("file://localhost/x"), Some(PathBuf::from("/x")));
        assert_eq!(uri_path("untitled:1"), None);
    }
}
