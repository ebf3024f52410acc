//! Tests of one text outside the passes' candidates: the original's check, and the
//! probe before the lenient tail ([`Session::probe`]).

use super::Session;
use crate::cache::TextKey;
use crate::error::Error;

impl Session<'_> {
    /// Checks that the current (original) text is interesting (DESIGN.md invariant 6).
    ///
    /// # Errors
    /// [`Error::OriginalNotInteresting`] when it is not, or an executor error.
    pub fn check_original(&mut self) -> Result<(), Error> {
        if self.test_once(None)? {
            Ok(())
        } else {
            Err(Error::OriginalNotInteresting)
        }
    }

    /// Whether `text` is interesting, by one test that changes nothing (none when its
    /// verdict is known, from this run or an earlier one): `text` need not be smaller than
    /// the best, nor parse (the probe before the lenient tail).
    ///
    /// # Errors
    /// An executor error.
    pub fn probe(&mut self, text: &[u8]) -> Result<bool, Error> {
        if let Some(verdict) = self.cache.get(TextKey::of(text)) {
            self.stats.cache_hits += 1;
            return Ok(verdict);
        }
        self.test_once(Some(text))
    }

    /// Tests `text`, or the current best, once, and waits for its verdict.
    fn test_once(&mut self, text: Option<&[u8]>) -> Result<bool, Error> {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        let text = text.unwrap_or(self.current.text());
        let key = TextKey::of(text);
        self.executor.start(ticket, text).map_err(Error::Executor)?;
        self.count_test();
        loop {
            let (t, verdict) = self.wait()?;
            if t != ticket {
                self.landed(t, verdict)?;
                continue;
            }
            self.cache.insert(key, verdict);
            return Ok(verdict);
        }
    }
}
