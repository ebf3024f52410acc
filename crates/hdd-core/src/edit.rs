//! Edits and edit sets: a candidate is a set of non-overlapping byte-range replacements
//! against a base text.
//!
//! Parallel runs need two more operations (DESIGN.md, "edit sets"): [`EditSet::merge`]
//! (two candidates against the same base, as one) and [`EditSet::rebase`] (a candidate
//! made against an older best, re-expressed against the text after an accepted set).

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
            if edit.range.is_empty() && edit.replacement.is_empty() {
                // Changes nothing: sets that differ only by such edits are equal.
                continue;
            }
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

    /// Both sets as one (against the same base), or `None` when an edit of one overlaps
    /// an edit of the other and they are not both deletions or the same edit. Deletions
    /// that overlap are joined: deleting a byte twice deletes it once.
    #[must_use]
    pub fn merge(&self, other: &EditSet) -> Option<EditSet> {
        EditSet::new(self.edits.iter().chain(&other.edits).cloned().collect())
    }

    /// This set (against a text `T`) re-expressed against `accepted.apply(T)`, where
    /// `accepted` is another set against `T`: what this set would still change once
    /// `accepted` is done. `None` on a conflict: an edit of this set overlaps an edit of
    /// `accepted` and the two are not both deletions, nor the same edit. An edit that
    /// `accepted` already made is dropped; the part of a deletion that `accepted` already
    /// deleted is too.
    ///
    /// Costs as much as `accepted` has edits (the session rebases many sets through one
    /// accepted set prepared once, with its shifts computed a single time).
    #[must_use]
    pub fn rebase(&self, accepted: &EditSet) -> Option<EditSet> {
        self.rebase_with(&accepted.edits, &shifts(&accepted.edits))
    }

    /// [`EditSet::rebase`] through a set prepared once: costs `log` of its size per edit
    /// of this set.
    #[must_use]
    pub(crate) fn rebase_through(&self, accepted: &Onto) -> Option<EditSet> {
        self.rebase_with(&accepted.set.edits, &accepted.shifts)
    }

    fn rebase_with(&self, done: &[Edit], shifts: &[isize]) -> Option<EditSet> {
        let mut out = Vec::with_capacity(self.edits.len());
        for edit in &self.edits {
            if let Some(edit) = rebase_edit(edit, done, shifts).ok()? {
                out.push(edit);
            }
        }
        EditSet::new(out)
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

/// An accepted edit set that others are rebased through ([`EditSet::rebase_through`]),
/// with what that needs computed once: how many bytes the edits before each of its edits
/// removed. (Rebasing through a bare [`EditSet`] computes it every time: a level of
/// 100,000 units rebased one by one through a set of 100,000 edits would cost 10^10.)
#[derive(Debug, Clone, Default)]
pub(crate) struct Onto {
    set: EditSet,
    /// `shifts[i]`: how many bytes `set.edits[..i]` remove.
    shifts: Vec<isize>,
}

impl Onto {
    /// Prepares `set`.
    #[must_use]
    pub(crate) fn new(set: EditSet) -> Onto {
        let shifts = shifts(&set.edits);
        Onto { set, shifts }
    }

    /// `edit` (against the text this set applies to) against the text after it, as
    /// [`EditSet::rebase`] would rebase a set of this one edit: `Ok(None)` when nothing
    /// is left of it.
    pub(crate) fn rebase_edit(&self, edit: &Edit) -> Result<Option<Edit>, Clash> {
        rebase_edit(edit, &self.set.edits, &self.shifts)
    }
}

/// An edit overlaps an accepted edit, and they are not both deletions nor the same edit.
#[derive(Debug)]
pub(crate) struct Clash;

/// `shifts[i]`: how many bytes `edits[..i]` remove.
fn shifts(edits: &[Edit]) -> Vec<isize> {
    let mut shifts = Vec::with_capacity(edits.len() + 1);
    shifts.push(0isize);
    for a in edits {
        shifts.push(shifts.last().copied().unwrap_or(0) + a.saving());
    }
    shifts
}

/// One edit through `done` (with its [`shifts`]): see [`Onto::rebase_edit`].
fn rebase_edit(edit: &Edit, done: &[Edit], shifts: &[isize]) -> Result<Option<Edit>, Clash> {
    let map = |at: usize, end: bool| {
        // Edits wholly before `at`; an insertion at `at` is before it unless `at` ends a
        // range (a range's end stays before what is inserted there).
        let i = done.partition_point(|a| {
            a.range.end <= at && !(end && a.range.is_empty() && a.range.start == at)
        });
        match done.get(i) {
            // Inside a replaced range: the start of its replacement.
            Some(a) if a.range.start < at && at < a.range.end => {
                a.range.start.saturating_add_signed(-shifts[i])
            }
            _ => at.saturating_add_signed(-shifts[i]),
        }
    };
    let first = done.partition_point(|a| a.range.end < edit.range.start);
    let near = done[first..]
        .iter()
        .take_while(|a| a.range.start <= edit.range.end);
    let mut same = false;
    for a in near {
        if a == edit {
            same = true;
        } else if overlap(&a.range, &edit.range)
            && (!a.replacement.is_empty() || !edit.replacement.is_empty())
        {
            return Err(Clash);
        }
    }
    if same {
        return Ok(None);
    }
    let start = map(edit.range.start, false);
    let end = if edit.range.is_empty() {
        start
    } else {
        map(edit.range.end, true)
    };
    if start == end && edit.replacement.is_empty() {
        return Ok(None);
    }
    Ok(Some(Edit {
        range: start..end,
        replacement: edit.replacement.clone(),
    }))
}

/// Whether two ranges share a byte, or an empty range (an insertion) falls strictly
/// inside the other.
fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    if a.is_empty() || b.is_empty() {
        return (a.start > b.start && a.start < b.end) || (b.start > a.start && b.start < a.end);
    }
    a.start < b.end && b.start < a.end
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

    #[test]
    fn rebase_drops_what_was_done_and_shifts_the_rest() {
        let text = b"a,b,c,d";
        let accepted = EditSet::new(vec![Edit::delete(0..2)]).unwrap();
        let mine = EditSet::new(vec![Edit::delete(0..2), Edit::replace(6..7, "x")]).unwrap();
        let rebased = mine.rebase(&accepted).unwrap();
        assert_eq!(rebased.edits(), &[Edit::replace(4..5, "x")]);
        assert_eq!(rebased.apply(&accepted.apply(text)), b"b,c,x".to_vec());
    }

    #[test]
    fn rebase_refuses_a_replacement_over_an_accepted_edit() {
        let accepted = EditSet::new(vec![Edit::delete(2..4)]).unwrap();
        let mine = EditSet::new(vec![Edit::replace(3..5, "y")]).unwrap();
        assert!(mine.rebase(&accepted).is_none());
        let insertion = EditSet::new(vec![Edit::replace(3..3, "y")]).unwrap();
        assert!(insertion.rebase(&accepted).is_none());
    }

    mod algebra {
        use super::*;
        use proptest::prelude::*;

        const LEN: usize = 40;

        /// A text whose every byte is different, so results can be compared by content.
        fn text() -> Vec<u8> {
            (0..LEN as u8).map(|i| b'0' + i).collect()
        }

        fn edit() -> impl Strategy<Value = Edit> {
            (0..LEN, 0usize..6, prop::option::of("[A-Z]{0,3}")).prop_map(|(start, len, r)| {
                let end = (start + len).min(LEN);
                match r {
                    None => Edit::delete(start..end),
                    Some(r) => Edit::replace(start..end, r),
                }
            })
        }

        fn deletion() -> impl Strategy<Value = Edit> {
            (0..LEN, 1usize..6).prop_map(|(start, len)| Edit::delete(start..(start + len).min(LEN)))
        }

        fn set(edit: impl Strategy<Value = Edit>) -> impl Strategy<Value = EditSet> {
            prop::collection::vec(edit, 0..5).prop_filter_map("overlapping", EditSet::new)
        }

        /// The bytes of `text()` that a set of deletions keeps.
        fn kept(sets: &[&EditSet]) -> Vec<u8> {
            let t = text();
            (0..LEN)
                .filter(|i| {
                    !sets
                        .iter()
                        .any(|s| s.edits().iter().any(|e| e.range.contains(i)))
                })
                .map(|i| t[i])
                .collect()
        }

        fn disjoint(a: &EditSet, b: &EditSet) -> bool {
            a.edits().iter().all(|x| {
                b.edits()
                    .iter()
                    .all(|y| !overlap(&x.range, &y.range) && x.range != y.range)
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

            #[test]
            fn disjoint_sets_merge_and_rebase_to_the_same_text(a in set(edit()), b in set(edit())) {
                prop_assume!(disjoint(&a, &b));
                let merged = a.merge(&b).expect("disjoint sets merge");
                let after_a = a.apply(&text());
                let rebased = b.rebase(&a).expect("disjoint sets rebase");
                prop_assert_eq!(rebased.apply(&after_a), merged.apply(&text()));
                let other_way = a.rebase(&b).expect("disjoint sets rebase");
                prop_assert_eq!(other_way.apply(&b.apply(&text())), merged.apply(&text()));
            }

            #[test]
            fn deletions_always_merge_and_rebase(a in set(deletion()), b in set(deletion())) {
                let expected = kept(&[&a, &b]);
                prop_assert_eq!(a.merge(&b).unwrap().apply(&text()), expected.clone());
                let rebased = b.rebase(&a).expect("deletions never conflict");
                prop_assert_eq!(rebased.apply(&a.apply(&text())), expected);
            }

            #[test]
            fn a_replacement_over_another_edit_is_refused(a in set(edit()), b in set(edit())) {
                let clash = a.edits().iter().any(|x| b.edits().iter().any(|y| {
                    overlap(&x.range, &y.range)
                        && x != y
                        && !(x.replacement.is_empty() && y.replacement.is_empty())
                }));
                prop_assert_eq!(a.merge(&b).is_none(), clash);
                prop_assert_eq!(b.rebase(&a).is_none(), clash);
            }

            #[test]
            fn rebasing_onto_itself_leaves_nothing(a in set(edit())) {
                prop_assert!(a.rebase(&a).unwrap().is_empty());
            }
        }
    }
}
