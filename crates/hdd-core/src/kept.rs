//! What a reduction confined to a range keeps as it is: so many bytes at the start of
//! the text, so many at its end ([`Session::set_range`](crate::Session::set_range)).

use std::ops::Range;

use crate::edit::Edit;

/// What a confined reduction keeps: so many bytes at the start, so many at the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kept {
    prefix: usize,
    suffix: usize,
}

impl Kept {
    /// Keeps `prefix` bytes at the start and `suffix` at the end.
    #[must_use]
    pub fn new(prefix: usize, suffix: usize) -> Kept {
        Kept { prefix, suffix }
    }

    /// The range that may change in a best of `len` bytes.
    #[must_use]
    pub fn range_of(&self, len: usize) -> Range<usize> {
        let start = self.prefix.min(len);
        start..len.saturating_sub(self.suffix).max(start)
    }

    /// Whether every edit of `edits`, against a best of `len` bytes, lies inside its
    /// range.
    #[must_use]
    pub fn inside(&self, len: usize, edits: &[Edit]) -> bool {
        if *self == Kept::default() {
            return true;
        }
        let range = self.range_of(len);
        edits
            .iter()
            .all(|e| range.start <= e.range.start && e.range.end <= range.end)
    }
}
