//! The edit sets accepted so far, one per best: how an edit set found against an older
//! best is carried onto the current one (rebased), and which failures of tests that ended
//! late are kept as hints.

use std::collections::VecDeque;

use crate::edit::{Clash, Edit, EditSet, Onto};

/// `sets[v]`: the edits that made best `v + 1` of best `v`. Best 0 is the original; the
/// current best's version is the number of sets.
#[derive(Debug, Default)]
pub(crate) struct History {
    sets: Vec<Onto>,
}

impl History {
    /// The version of the current best.
    pub(crate) fn version(&self) -> u64 {
        self.sets.len() as u64
    }

    /// The best moved on by `accepted`.
    pub(crate) fn push(&mut self, accepted: Onto) {
        self.sets.push(accepted);
    }

    /// `edits` (against best `from`) against the current best, through every set
    /// accepted since; `None` on a clash.
    pub(crate) fn rebase(&self, from: u64, edits: &EditSet) -> Option<EditSet> {
        let from = usize::try_from(from).ok()?;
        let mut edits = edits.clone();
        for accepted in self.sets.get(from..)? {
            edits = edits.rebase_through(accepted)?;
        }
        Some(edits)
    }

    /// Each of `edits` (against best `from`) on its own against the current best:
    /// `Ok(None)` for one that is done, `Err` for one that clashes with what was accepted
    /// since. As many [`History::rebase`]s of one edit each, at a cost of `log` of the
    /// accepted sets' sizes per edit.
    pub(crate) fn rebase_each(
        &self,
        from: u64,
        edits: &[Edit],
    ) -> Vec<Result<Option<Edit>, Clash>> {
        let since = usize::try_from(from)
            .ok()
            .and_then(|from| self.sets.get(from..));
        edits
            .iter()
            .map(|edit| {
                let mut edit = edit.clone();
                for accepted in since.ok_or(Clash)? {
                    match accepted.rebase_edit(&edit)? {
                        Some(rebased) => edit = rebased,
                        None => return Ok(None),
                    }
                }
                Ok(Some(edit))
            })
            .collect()
    }
}

/// How many failures of tests that ended after the best moved on are kept as hints.
const MAX_FAILURES: usize = 256;

/// Edits that failed against an older best (tests that ended after the best moved on),
/// rebased onto the current best: a candidate with the same edits is predicted to fail
/// while hints are on. The oldest are forgotten first.
#[derive(Debug, Default)]
pub(crate) struct Failures {
    sets: VecDeque<EditSet>,
}

impl Failures {
    /// Remembers `failed` (against the current best).
    pub(crate) fn remember(&mut self, failed: EditSet) {
        if self.sets.len() >= MAX_FAILURES {
            self.sets.pop_front();
        }
        self.sets.push_back(failed);
    }

    /// Whether exactly these edits failed.
    pub(crate) fn contains(&self, edits: &EditSet) -> bool {
        self.sets.contains(edits)
    }

    /// The best moved on by `accepted`: every failure is rebased onto it (those that
    /// clash with it or that it all made are dropped).
    pub(crate) fn follow(&mut self, accepted: &Onto) {
        self.sets = std::mem::take(&mut self.sets)
            .into_iter()
            .filter_map(|f| f.rebase_through(accepted).filter(|f| !f.is_empty()))
            .collect();
    }
}
