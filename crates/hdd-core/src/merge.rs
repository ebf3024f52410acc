//! Successes found against an older best, waiting to be tested together on the current
//! one: every waiting success joins one merge test; a merge that fails is halved and each
//! half tested alone.

use std::collections::VecDeque;

use crate::edit::EditSet;
use crate::history::History;

/// Successes against the best `version`, waiting for a merge test.
#[derive(Debug)]
struct Merge {
    version: u64,
    parts: Vec<EditSet>,
    /// A half of a merge that failed: tested on its own, not joined with the others.
    alone: bool,
}

/// The next merge to test: `union` (against the current best) does every edit set of
/// `parts`.
#[derive(Debug)]
pub(crate) struct Group {
    pub(crate) union: EditSet,
    pub(crate) parts: Vec<EditSet>,
    /// Successes dropped because they clash with the current best.
    pub(crate) clashed: u64,
}

/// The merges waiting, in the order they are tested.
#[derive(Debug, Default)]
pub(crate) struct Merges {
    queue: VecDeque<Merge>,
}

impl Merges {
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Interesting `parts` against best `version` that could not be accepted at once
    /// (the best moved on while they were tested): they join the next merge.
    pub(crate) fn push(&mut self, version: u64, parts: Vec<EditSet>) {
        self.queue.push_back(Merge {
            version,
            parts,
            alone: false,
        });
    }

    /// A merge of `parts` (against best `version`) was not interesting: its halves are
    /// tested next, each on its own; a single success that fails on a newer best is
    /// dropped.
    pub(crate) fn halve(&mut self, version: u64, mut parts: Vec<EditSet>) {
        if parts.len() < 2 {
            return;
        }
        let second = parts.split_off(parts.len() / 2);
        for half in [second, parts] {
            self.queue.push_front(Merge {
                version,
                parts: half,
                alone: true,
            });
        }
    }

    /// The next merge, rebased onto the current best of `history`: every waiting
    /// success put together, or a half of a merge that failed, alone. Those that clash
    /// with the current best are dropped (counted in [`Group::clashed`]); one that
    /// overlaps another waits for the following merge. `None` when nothing is left.
    pub(crate) fn next(&mut self, history: &History) -> Option<Group> {
        let mut waiting = Vec::new();
        while let Some(merge) = self.queue.pop_front() {
            let alone = merge.alone;
            if alone && !waiting.is_empty() {
                self.queue.push_front(merge);
                break;
            }
            waiting.push(merge);
            if alone || self.queue.front().is_some_and(|m| m.alone) {
                break;
            }
        }
        if waiting.is_empty() {
            return None;
        }
        let mut group = Group {
            union: EditSet::default(),
            parts: Vec::new(),
            clashed: 0,
        };
        let mut overlapping = Vec::new();
        for merge in waiting {
            for part in merge.parts {
                match history.rebase(merge.version, &part) {
                    None => group.clashed += 1,
                    Some(part) if part.is_empty() => {}
                    Some(part) => match group.union.merge(&part) {
                        Some(joined) => {
                            group.union = joined;
                            group.parts.push(part);
                        }
                        None => overlapping.push(part),
                    },
                }
            }
        }
        if !overlapping.is_empty() {
            self.push(history.version(), overlapping);
        }
        Some(group)
    }
}
