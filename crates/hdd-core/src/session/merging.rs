//! Merging the successes of tests that end after the best moved on: they wait in
//! [`Merges`], are tested together one merge at a time, and a merge that fails is halved.

use super::{Session, Skip};
use crate::error::Error;
use crate::exec::Ticket;
use crate::flight::Flight;
use crate::merge::Group;

impl Session<'_> {
    /// The verdict of a test of no running call: a merge, or a test left running when
    /// its call ended.
    pub(super) fn landed(&mut self, ticket: Ticket, verdict: bool) -> Result<(), Error> {
        let Some(flight) = self.flights.remove(ticket) else {
            return Ok(());
        };
        self.cache.insert(flight.key, verdict);
        if !verdict {
            if flight.call.is_none() {
                self.merges.halve(flight.version, flight.parts);
            } else {
                self.stats.wasted += 1;
                if let Some(failed) = self.history.rebase(flight.version, &flight.edits)
                    && !failed.is_empty()
                {
                    self.failures.remember(failed);
                }
            }
            return Ok(());
        }
        if flight.call.is_some() {
            self.merges.push(flight.version, vec![flight.edits]);
        } else if flight.version == self.version() {
            self.stats.merged += flight.parts.len() as u64;
            return self.accept(flight.doc, flight.edits);
        } else {
            // Interesting, but the best moved on while it ran: it waits for the next
            // merge, with whatever else came in.
            self.merges.push(flight.version, flight.parts);
        }
        Ok(())
    }

    /// Whether a merge should start now: one is waiting and none is running (the
    /// successes that come in while one runs wait, to be tested together).
    pub(super) fn merge_due(&self) -> bool {
        !self.merges.is_empty() && !self.flights.merging()
    }

    /// Starts the test of the next merge ([`Merges::next`]); one that is not valid, or
    /// known to fail, is halved at once; one known to be interesting is accepted.
    pub(super) fn start_merge(&mut self) -> Result<(), Error> {
        let Some(Group {
            union,
            parts,
            clashed,
        }) = self.merges.next(&self.history)
        else {
            return Ok(());
        };
        self.stats.wasted += clashed;
        if parts.is_empty() {
            return Ok(());
        }
        let now = self.version();
        let prepared = match self.prepare(Some(now), Some(union)) {
            Ok(prepared) => prepared,
            // The same text is being tested: its verdict will do.
            Err(Skip::Testing) => return Ok(()),
            Err(Skip::Stopped) => return Err(Error::Stopped),
            Err(Skip::Other) => {
                // Not valid (or predicted to fail) together: each half on its own.
                self.merges.halve(now, parts);
                return Ok(());
            }
        };
        match self.cache.get(prepared.key) {
            Some(true) => {
                self.stats.merged += parts.len() as u64;
                self.accept(prepared.doc, prepared.edits)
            }
            Some(false) => {
                self.merges.halve(now, parts);
                Ok(())
            }
            None => self.start(Flight::new(None, 0, prepared, parts)).map(drop),
        }
    }
}
