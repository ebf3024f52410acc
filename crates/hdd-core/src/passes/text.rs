//! Bytes and tokens as the passes see them: words, spaces, names, and how a deletion
//! takes the whitespace after it without gluing two words together.

/// Whether `byte` is ASCII whitespace.
pub(super) fn is_space(byte: u8) -> bool {
    byte.is_ascii_whitespace()
}

/// Whether a leaf is a name: an identifier token of any kind (`identifier`,
/// `type_identifier`, `field_identifier`, `property_identifier`, …).
pub(super) fn is_name(leaf: tree_sitter::Node<'_>) -> bool {
    leaf.is_named() && is_name_kind(leaf.kind())
}

/// Whether a node kind names a name (`identifier`, `type_identifier`, …).
pub(super) fn is_name_kind(kind: &str) -> bool {
    kind.ends_with("identifier")
}

pub(super) fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// Extends a deletion of `range` over the whitespace that follows it, unless that would
/// glue two words together (`int x` must not become `intx`), so deleting a node or a
/// token leaves no gap behind. A newline is swallowed only when the deletion starts its
/// line: a line's end is never joined to the next line (a C `#include` line would take
/// the next declaration with it).
pub(super) fn swallow_space(text: &[u8], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    // Only the blanks just before the range are looked at (a single-line text of
    // megabytes must not be scanned back to its start for every deletion).
    let mut blank = range.start;
    while blank > 0 && text[blank - 1] != b'\n' && is_space(text[blank - 1]) {
        blank -= 1;
    }
    let starts_line = blank == 0 || text[blank - 1] == b'\n';
    let mut end = range.end;
    while end < text.len() && is_space(text[end]) && (starts_line || text[end] != b'\n') {
        let newline = text[end] == b'\n';
        end += 1;
        if newline {
            break;
        }
    }
    let mut start = range.start;
    if end == range.end {
        // Nothing to swallow after it (`b FROM t;`): take the spaces before instead.
        while start > 0 && matches!(text[start - 1], b' ' | b'\t') {
            start -= 1;
        }
    }
    let before = start.checked_sub(1).map(|i| text[i]);
    let after = text.get(end).copied();
    if before.is_some_and(is_word)
        && after.is_some_and(is_word)
        && (end, start) != (range.end, range.start)
    {
        // Keep one space between the two words.
        return if end > range.end {
            range.start..end - 1
        } else {
            start + 1..range.end
        };
    }
    start..end
}

/// The edit that deletes `range` as [`swallow_space`] does, and writes one space in its
/// place where nothing around it was a space and it sat between two words
/// (`@media(i` without its `(` is `@media i`, not `@mediai`).
pub(super) fn spaced_deletion(text: &[u8], range: std::ops::Range<usize>) -> crate::edit::Edit {
    apart_deletion(text, swallow_space(text, range))
}

/// The edit that deletes exactly `range`, or writes one space in its place when it sits
/// between two words that would otherwise touch.
pub(super) fn apart_deletion(text: &[u8], range: std::ops::Range<usize>) -> crate::edit::Edit {
    apart_replacement(text, range, b"")
}

/// The replacement of `text[range]` by `with`, with a space added on a side where `with`
/// would glue onto a word (`struct{}a` with `void` in place of `struct{}` is `void a`, not
/// `voida`); with nothing, one space between two words that would otherwise touch.
pub(super) fn apart_replacement(
    text: &[u8],
    range: std::ops::Range<usize>,
    with: &[u8],
) -> crate::edit::Edit {
    let before = range.start.checked_sub(1).map(|i| text[i]);
    let after = text.get(range.end).copied();
    // What ends up next to the text before the range: `with`, or what follows it.
    let next = with.first().copied().or(after);
    let mut replacement = Vec::with_capacity(with.len() + 2);
    if before.is_some_and(is_word) && next.is_some_and(is_word) {
        replacement.push(b' ');
    }
    replacement.extend_from_slice(with);
    if !with.is_empty() && after.is_some_and(is_word) && with.last().copied().is_some_and(is_word) {
        replacement.push(b' ');
    }
    crate::edit::Edit::replace(range, replacement)
}

#[cfg(test)]
mod tests {
    use super::{spaced_deletion, swallow_space};
    use crate::edit::Edit;

    #[test]
    fn a_deletion_between_two_words_leaves_a_space() {
        let text = b"@media(i print";
        assert_eq!(
            spaced_deletion(text, 6..7),
            Edit::replace(6..7, b" ".to_vec())
        );
        assert_eq!(spaced_deletion(text, 9..14), Edit::delete(8..14));
        assert_eq!(spaced_deletion(b"a(b)", 3..4), Edit::delete(3..4));
    }

    #[test]
    fn deletions_never_join_a_line_to_the_next() {
        let text = b"#include <x.h> /* c */\nint a;\n  int b;\n";
        let find = |s: &[u8]| text.windows(s.len()).position(|w| w == s).unwrap();
        let comment = find(b"/* c */");
        // At the end of a line: the newline stays, the space before goes.
        assert_eq!(
            swallow_space(text, comment..comment + 7),
            comment - 1..comment + 7
        );
        // A whole line: its newline goes with it.
        let a = find(b"int a;");
        assert_eq!(swallow_space(text, a..a + 6), a..a + 7);
        // An indented line: the newline goes, the indentation before stays.
        let b = find(b"int b;");
        assert_eq!(swallow_space(text, b..b + 6), b..b + 7);
    }
}
