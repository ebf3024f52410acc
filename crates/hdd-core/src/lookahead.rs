//! Candidates a call drew but has not started: held back while they touch one of the
//! call's running tests (the choice is `Session::next_candidate`, in
//! `session/lookahead.rs`, which says why).

use std::collections::VecDeque;

use crate::edit::EditSet;

/// How many candidates a call holds back before it starts the first of them anyway.
pub(crate) const LOOKAHEAD: usize = 32;

/// The candidates a call drew but has not started yet, in the pass's order: each its
/// index in the call and its edits against the call's base.
#[derive(Default)]
pub(crate) struct Held {
    pub(crate) held: VecDeque<(usize, EditSet)>,
}

/// Whether an edit of `a` and an edit of `b` touch the same bytes (or insert at the same
/// place); both sets against the same text.
pub(crate) fn overlap(a: &EditSet, b: &EditSet) -> bool {
    let (a, b) = (a.edits(), b.edits());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (&a[i].range, &b[j].range);
        if x.start < y.end && y.start < x.end || x.start == y.start {
            return true;
        }
        if x.end <= y.start {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Edit;

    fn set(ranges: &[(usize, usize)]) -> EditSet {
        EditSet::new(ranges.iter().map(|&(a, b)| Edit::delete(a..b)).collect()).expect("deletions")
    }

    #[test]
    fn overlap_is_any_shared_byte_or_insertion_point() {
        assert!(!overlap(
            &set(&[(0, 2), (10, 12)]),
            &set(&[(2, 4), (12, 20)])
        ));
        assert!(overlap(
            &set(&[(0, 2), (10, 12)]),
            &set(&[(3, 4), (11, 20)])
        ));
        assert!(overlap(&set(&[(5, 9)]), &set(&[(0, 2), (6, 7)])));
        let insert = EditSet::new(vec![Edit::replace(4..4, "x")]).expect("one edit");
        assert!(overlap(
            &insert,
            &EditSet::new(vec![Edit::replace(4..4, "y")]).expect("one")
        ));
        assert!(!overlap(&insert, &set(&[(0, 4)])));
        assert!(!overlap(&set(&[]), &set(&[(0, 9)])));
    }
}
