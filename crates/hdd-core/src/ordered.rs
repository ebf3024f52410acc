//! The candidates of one call in candidate order, for deterministic runs: their
//! verdicts are used in that order, whatever order their tests end in.

use std::collections::VecDeque;

use crate::cache::{Cache, TextKey};
use crate::document::Document;
use crate::edit::EditSet;
use crate::exec::Ticket;

/// A candidate of the running call.
pub(crate) struct Slot {
    /// Its position in the call.
    pub(crate) index: usize,
    pub(crate) key: TextKey,
    /// Its test, until its verdict is known; `None` when the cache (or an earlier slot
    /// with the same text) will answer.
    pub(crate) ticket: Option<Ticket>,
    verdict: Option<bool>,
    /// For a slot the cache answers: its edits and document, in case it says yes.
    pub(crate) cached: Option<(EditSet, Document)>,
}

/// The candidates of a call not yet decided, in candidate order.
#[derive(Default)]
pub(crate) struct Slots {
    queue: VecDeque<Slot>,
}

impl Slots {
    /// A candidate whose text was tested before (or is being tested for an earlier slot).
    pub(crate) fn push_cached(
        &mut self,
        index: usize,
        key: TextKey,
        edits: EditSet,
        doc: Document,
    ) {
        self.queue.push_back(Slot {
            index,
            key,
            ticket: None,
            verdict: None,
            cached: Some((edits, doc)),
        });
    }

    /// A candidate whose test `ticket` is running.
    pub(crate) fn push_tested(&mut self, index: usize, key: TextKey, ticket: Ticket) {
        self.queue.push_back(Slot {
            index,
            key,
            ticket: Some(ticket),
            verdict: None,
            cached: None,
        });
    }

    /// Whether a slot holds the text with this key.
    pub(crate) fn holds(&self, key: TextKey) -> bool {
        self.queue.iter().any(|s| s.key == key)
    }

    /// The test `ticket` ended (a ticket of no slot is ignored).
    pub(crate) fn record(&mut self, ticket: Ticket, verdict: bool) {
        if let Some(slot) = self.queue.iter_mut().find(|s| s.ticket == Some(ticket)) {
            slot.verdict = Some(verdict);
        }
    }

    /// Whether a slot's test is still running.
    pub(crate) fn waiting(&self) -> bool {
        self.queue
            .iter()
            .any(|s| s.ticket.is_some() && s.verdict.is_none())
    }

    /// The first slot's verdict, if known: its test's, or the cache's (no verdict in the
    /// cache counts as not interesting).
    pub(crate) fn front_verdict(&self, cache: &Cache) -> Option<bool> {
        let slot = self.queue.front()?;
        match slot.ticket {
            Some(_) => slot.verdict,
            None => Some(cache.get(slot.key).unwrap_or(false)),
        }
    }

    pub(crate) fn pop_front(&mut self) -> Option<Slot> {
        self.queue.pop_front()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}
