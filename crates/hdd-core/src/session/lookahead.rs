//! Which candidate a call starts next when it has a job to fill: the first, in the
//! pass's order, whose edits touch none of the call's running tests, looking a few
//! candidates ahead.
//!
//! Why: with many jobs, a call draws candidates far ahead of the verdicts. A candidate
//! overlapping a running one (a quarter of a level's nodes while the half holding it is
//! tested, a node's child while the node is) is wasted when that one succeeds: its edits
//! are then partly made, or clash, and its verdict says little about what is left. A
//! disjoint candidate's verdict still holds after any success of the others (a failure
//! predicts, a success is merged). The candidates held back are started, in order, as
//! soon as they are disjoint from what runs, or when nothing else is left to start: a
//! job is never left idle for them.

use super::Session;
use crate::edit::EditSet;
use crate::lookahead::{Held, LOOKAHEAD, overlap};

impl Session<'_> {
    /// The next candidate `call` should start (its index and its edits against the best
    /// of version `base`), `None` when the candidates are exhausted and none is held.
    /// Prefers the first candidate disjoint from the call's running tests; draws up to
    /// [`LOOKAHEAD`] candidates ahead for one; else the first held.
    pub(super) fn next_candidate(
        &self,
        call: u64,
        base: Option<u64>,
        held: &mut Held,
        candidates: &mut dyn Iterator<Item = (usize, Option<EditSet>)>,
    ) -> Option<(usize, EditSet)> {
        let now = self.version();
        let running: Vec<&EditSet> = self.flights.now_of_call(call);
        let free = |edits: &EditSet| -> bool {
            let edits = match base {
                Some(from) if from != now => match self.history.rebase(from, edits) {
                    Some(edits) => edits,
                    // A clash: it is dropped when prepared, at no test's cost.
                    None => return true,
                },
                _ => edits.clone(),
            };
            running.iter().all(|r| !overlap(r, &edits))
        };
        if running.is_empty() {
            if let Some(first) = held.held.pop_front() {
                return Some(first);
            }
            for (i, candidate) in &mut *candidates {
                if let Some(candidate) = candidate {
                    return Some((i, candidate));
                }
            }
            return None;
        }
        if let Some(at) = held.held.iter().position(|(_, c)| free(c)) {
            return held.held.remove(at);
        }
        while held.held.len() < LOOKAHEAD {
            let Some((i, candidate)) = candidates.next() else {
                break;
            };
            let Some(candidate) = candidate else {
                continue;
            };
            if free(&candidate) {
                return Some((i, candidate));
            }
            held.held.push_back((i, candidate));
        }
        held.held.pop_front()
    }
}
