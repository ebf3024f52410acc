//! Edits and edit sets: a candidate is a set of non-overlapping byte-range replacements
//! against a base text.

use std::ops::Range;

/// Replace the bytes of `range` in the base text by `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    /// The byte range of the base text that is replaced.
    pub range: Range<usize>,
    /// The new bytes.
    pub replacement: Vec<u8>,
}

impl Edit {
    /// An edit that deletes `range`.
    #[must_use]
    pub fn delete(range: Range<usize>) -> Edit {
        Edit {
            range,
            replacement: Vec::new(),
        }
    }

    /// An edit that replaces `range` by `replacement`.
    #[must_use]
    pub fn replace(range: Range<usize>, replacement: impl Into<Vec<u8>>) -> Edit {
        Edit {
            range,
            replacement: replacement.into(),
        }
    }

    /// How many bytes the edit removes from the text (negative if it grows it).
    #[must_use]
    pub fn saving(&self) -> isize {
        self.range.len().cast_signed() - self.replacement.len().cast_signed()
    }
}

/// A set of edits against one base text, sorted by position, pairwise disjoint.
///
/// Overlapping or touching *deletions* are coalesced when the set is built (deleting
/// `a,` and `,b` from `a,b` deletes `a,b`); a replacement that overlaps another edit
/// makes the set invalid and [`EditSet::new`] returns `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct EditSet {
    edits: Vec<Edit>,
}

impl EditSet {
    /// Builds a set from edits in any order; `None` if two edits overlap and one of
    /// them is not a deletion.
    #[must_use]
    pub fn new(mut edits: Vec<Edit>) -> Option<EditSet> {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        let mut out: Vec<Edit> = Vec::with_capacity(edits.len());
        for edit in edits {
            if let Some(last) = out.last_mut()
                && edit.range.start < last.range.end
            {
                if !last.replacement.is_empty() || !edit.replacement.is_empty() {
                    if edit.range == last.range && edit.replacement == last.replacement {
                        continue;
                    }
                    return None;
                }
                last.range.end = last.range.end.max(edit.range.end);
                continue;
            }
            out.push(edit);
        }
        Some(EditSet { edits: out })
    }

    /// The edits, sorted by position.
    #[must_use]
    pub fn edits(&self) -> &[Edit] {
        &self.edits
    }

    /// Whether the set changes nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// Bytes removed from the base text by the whole set.
    #[must_use]
    pub fn saving(&self) -> isize {
        self.edits.iter().map(Edit::saving).sum()
    }

    /// The base text with every edit applied.
    #[must_use]
    pub fn apply(&self, base: &[u8]) -> Vec<u8> {
        let len = base.len().saturating_add_signed(-self.saving());
        let mut out = Vec::with_capacity(len);
        let mut at = 0;
        for edit in &self.edits {
            out.extend_from_slice(&base[at..edit.range.start]);
            out.extend_from_slice(&edit.replacement);
            at = edit.range.end;
        }
        out.extend_from_slice(&base[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_replaces_and_deletes_in_order() {
        let set = EditSet::new(vec![Edit::replace(10..16, "{}"), Edit::delete(0..4)]).unwrap();
        assert_eq!(set.apply(b"int main(){ x; }"), b"main(){}".to_vec());
    }

    #[test]
    fn overlapping_deletions_coalesce() {
        let set = EditSet::new(vec![Edit::delete(0..2), Edit::delete(1..3)]).unwrap();
        assert_eq!(set.edits(), &[Edit::delete(0..3)]);
        assert_eq!(set.apply(b"a,b,c"), b",c".to_vec());
    }

    #[test]
    fn overlapping_replacement_is_refused() {
        assert!(EditSet::new(vec![Edit::replace(0..2, "x"), Edit::delete(1..3)]).is_none());
    }

    #[test]
    fn adjacent_edits_do_not_overlap() {
        let set = EditSet::new(vec![Edit::replace(0..1, "x"), Edit::replace(1..2, "y")]).unwrap();
        assert_eq!(set.apply(b"ab"), b"xy".to_vec());
    }
}
