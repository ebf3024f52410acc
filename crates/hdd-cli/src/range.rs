//! `--range` and `--byte-range`: the part of FILE a reduction may change.

use std::ops::Range;
use std::path::Path;

use anyhow::anyhow;

use crate::exit::Failure;

/// A `START:END` pair as typed (clap's value parser).
pub(crate) fn parse_pair(text: &str) -> Result<(usize, usize), String> {
    let (start, end) = text
        .split_once(':')
        .ok_or_else(|| format!("'{text}' is not START:END"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{s}' in '{text}' is not a number"))
    };
    Ok((number(start)?, number(end)?))
}

/// The byte range of `input` (the content of `file`) that `--range` (`lines`: 1-based,
/// both ends included) or `--byte-range` (`bytes`: 0-based, the end excluded) names;
/// `None` without either.
pub(crate) fn confined_range(
    lines: Option<(usize, usize)>,
    bytes: Option<(usize, usize)>,
    file: &Path,
    input: &[u8],
) -> Result<Option<Range<usize>>, Failure> {
    if let Some((start, end)) = bytes {
        if start > end || end > input.len() {
            return Err(Failure::usage(anyhow!(
                "--byte-range {start}:{end} is not inside {} ({} bytes; START <= END <= the size)",
                file.display(),
                input.len()
            )));
        }
        return Ok(Some(start..end));
    }
    let Some((first, last)) = lines else {
        return Ok(None);
    };
    line_bytes(input, first, last).map(Some).ok_or_else(|| {
        let count = input.split_inclusive(|&b| b == b'\n').count();
        Failure::usage(anyhow!(
            "--range {first}:{last} is not inside {} ({count} lines; lines count from 1, \
             START <= END)",
            file.display()
        ))
    })
}

/// The bytes of lines `first..=last` of `text` (counted from 1), without the newline that
/// ends the last one: it separates the range from the next line, which must not be glued
/// to it.
pub(crate) fn line_bytes(text: &[u8], first: usize, last: usize) -> Option<Range<usize>> {
    if first == 0 || first > last {
        return None;
    }
    let mut start = None;
    let mut at = 0;
    for (i, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = i + 1;
        if number == first {
            start = Some(at);
        }
        at += line.len();
        if number == last {
            let end = at - usize::from(line.ends_with(b"\n"));
            return start.map(|s| s..end);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs() {
        assert_eq!(parse_pair("3:7"), Ok((3, 7)));
        assert!(parse_pair("3").is_err());
        assert!(parse_pair("a:7").is_err());
    }

    #[test]
    fn line_ranges() {
        let text = b"a\nbb\nccc\n";
        assert_eq!(line_bytes(text, 1, 1), Some(0..1));
        assert_eq!(line_bytes(text, 2, 3), Some(2..8));
        assert_eq!(line_bytes(b"a\nbb", 2, 2), Some(2..4));
        assert_eq!(line_bytes(text, 0, 1), None);
        assert_eq!(line_bytes(text, 3, 2), None);
        assert_eq!(line_bytes(text, 2, 4), None);
    }
}
