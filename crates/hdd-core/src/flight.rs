//! The tests the executor is running, and what each is for: the coordinator's view of
//! the jobs.

use std::collections::HashMap;

use crate::cache::TextKey;
use crate::document::Document;
use crate::edit::{EditSet, Onto};
use crate::exec::Ticket;

/// A test the executor is running.
pub(crate) struct Flight {
    /// The [`Session::first_interesting`](crate::Session::first_interesting) call it
    /// belongs to (`None`: a merge, which belongs to no call).
    pub(crate) call: Option<u64>,
    /// Its candidate's position in that call.
    pub(crate) index: usize,
    pub(crate) key: TextKey,
    /// The best it was derived from, and its edits against that best.
    pub(crate) version: u64,
    pub(crate) edits: EditSet,
    pub(crate) doc: Document,
    /// For a merge: the successes it puts together (against `version`), whose union is
    /// `edits`; empty for a candidate.
    pub(crate) parts: Vec<EditSet>,
    /// `edits` against the current best, kept up to date as bests are accepted.
    pub(crate) now: EditSet,
}

impl Flight {
    /// The test of `prepared`, the `index`-th candidate of `call` (`None` for a merge
    /// of `parts`).
    pub(crate) fn new(
        call: Option<u64>,
        index: usize,
        prepared: Prepared,
        parts: Vec<EditSet>,
    ) -> Flight {
        let Prepared {
            version,
            key,
            edits,
            doc,
        } = prepared;
        Flight {
            call,
            index,
            key,
            version,
            now: edits.clone(),
            edits,
            doc,
            parts,
        }
    }
}

/// A candidate ready for its test: smaller than the best, valid, not known to fail.
pub(crate) struct Prepared {
    /// The best its edits are against.
    pub(crate) version: u64,
    /// Its text's key.
    pub(crate) key: TextKey,
    pub(crate) edits: EditSet,
    pub(crate) doc: Document,
}

/// The running tests, by ticket.
#[derive(Default)]
pub(crate) struct Flights {
    running: HashMap<Ticket, Flight>,
}

impl Flights {
    pub(crate) fn len(&self) -> usize {
        self.running.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    pub(crate) fn insert(&mut self, ticket: Ticket, flight: Flight) {
        self.running.insert(ticket, flight);
    }

    pub(crate) fn get(&self, ticket: Ticket) -> Option<&Flight> {
        self.running.get(&ticket)
    }

    pub(crate) fn remove(&mut self, ticket: Ticket) -> Option<Flight> {
        self.running.remove(&ticket)
    }

    /// Every running test's ticket, in start order.
    pub(crate) fn tickets(&self) -> Vec<Ticket> {
        let mut tickets: Vec<Ticket> = self.running.keys().copied().collect();
        tickets.sort_unstable();
        tickets
    }

    /// The tickets of the tests of `call`, in start order.
    pub(crate) fn of_call(&self, call: u64) -> Vec<Ticket> {
        let mut tickets: Vec<Ticket> = self
            .running
            .iter()
            .filter(|(_, f)| f.call == Some(call))
            .map(|(t, _)| *t)
            .collect();
        tickets.sort_unstable();
        tickets
    }

    /// Whether a test of `call` is running.
    pub(crate) fn has_call(&self, call: u64) -> bool {
        self.running.values().any(|f| f.call == Some(call))
    }

    /// Whether a test of the text with this key is running.
    pub(crate) fn testing(&self, key: TextKey) -> bool {
        self.running.values().any(|f| f.key == key)
    }

    /// Whether a merge is being tested.
    pub(crate) fn merging(&self) -> bool {
        self.running.values().any(|f| f.call.is_none())
    }

    /// Whether a test of these edits (against the current best, of version `now`) is
    /// running against an older best: its verdict will do (a success is merged, a
    /// failure predicts).
    pub(crate) fn running_elsewhere(&self, edits: &EditSet, now: u64) -> bool {
        self.running
            .values()
            .any(|f| f.version != now && f.now == *edits)
    }

    /// `accepted` is becoming the best: every test's edits follow it ([`Flight::now`]).
    /// Returns, in start order, the tests of candidates whose edits it all made: their
    /// text is bigger than the new best's, so it will never be tested again and no
    /// verdict of it is needed. (A test whose edits clash with it runs on: its success
    /// cannot be used, but its text may come back, a node replaced whole whatever
    /// changed inside it, and its verdict is then in the cache. Merges run on: a clash of
    /// the whole may spare a part.)
    pub(crate) fn follow(&mut self, accepted: &Onto) -> Vec<Ticket> {
        let mut doomed: Vec<Ticket> = self
            .running
            .iter_mut()
            .filter_map(|(ticket, flight)| {
                let now = flight.now.rebase_through(accepted);
                let done = now.as_ref().is_some_and(EditSet::is_empty);
                // Not expressible on the new best: matches no candidate any more.
                flight.now = now.unwrap_or_default();
                (done && flight.call.is_some()).then_some(*ticket)
            })
            .collect();
        doomed.sort_unstable();
        doomed
    }
}
