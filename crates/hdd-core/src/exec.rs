//! The executor trait: how the engine has candidates tested, without knowing how.

use std::collections::VecDeque;

use crate::cache::TextKey;

/// An error from an executor (the test could not be run at all), or from the observer.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Names one started test; chosen by the engine, unique within a run.
pub type Ticket = u64;

/// Runs the interestingness test on candidate texts, up to [`Executor::jobs`] at once.
///
/// Implementations: local processes (`hdd-exec`), a closure (`ClosureExecutor`), later a
/// remote engine. The engine starts tests, then waits for them to end in whatever order
/// they do; it never has more than `jobs` running. Tests it no longer needs it cancels.
pub trait Executor {
    /// How many tests the executor runs at once.
    fn jobs(&self) -> usize;

    /// Starts testing `text`; its verdict comes back from [`Executor::wait`] with
    /// `ticket`.
    ///
    /// # Errors
    /// When the test could not be started at all.
    fn start(&mut self, ticket: Ticket, text: &[u8]) -> Result<(), BoxError>;

    /// Blocks until one started test ends and returns its ticket and verdict (`true` =
    /// interesting), or `None` when no test is running.
    ///
    /// # Errors
    /// When a test could not be run at all (not when it failed or timed out: that is a
    /// `false` verdict), or the run was interrupted.
    fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError>;

    /// Stops the tests of `tickets` (and every process they started); their verdicts
    /// never come. Tickets that already ended are ignored.
    fn cancel(&mut self, tickets: &[Ticket]);

    /// Whether whoever runs the reduction asked it to stop (Ctrl-C): the engine looks
    /// between pieces of work that need no test (parsing, generating candidates) and
    /// stops with [`Error::Stopped`](crate::Error::Stopped). The default never asks.
    fn stop_requested(&self) -> bool {
        false
    }

    /// Verdicts the executor knows from earlier runs of the same test (a cache kept on
    /// disk, as `hdd-exec`'s `LocalExecutor` keeps one): the session starts with them in
    /// its cache, so texts tested in an earlier run are not tested again. Each is handed
    /// out once (a second call gives nothing new). The default knows none.
    fn earlier_verdicts(&mut self) -> Vec<(TextKey, bool)> {
        Vec::new()
    }
}

/// An executor that asks a closure, one text at a time, when the engine waits.
///
/// By default it runs one test at a time, in the order they were started. With
/// [`ClosureExecutor::with_jobs`] it pretends to run several at once and answers them in
/// a pseudo-random order fixed by a seed, as parallel tests of different lengths would
/// end: a way to check, without processes, that a reduction does not depend on the
/// order tests end in.
pub struct ClosureExecutor<F> {
    predicate: F,
    queued: VecDeque<(Ticket, Vec<u8>)>,
    jobs: usize,
    /// The state of the generator that picks which running test ends next.
    seed: u64,
}

impl<F: FnMut(&[u8]) -> bool> ClosureExecutor<F> {
    /// Wraps `predicate` (`true` = interesting).
    pub fn new(predicate: F) -> ClosureExecutor<F> {
        ClosureExecutor {
            predicate,
            queued: VecDeque::new(),
            jobs: 1,
            seed: 0,
        }
    }

    /// Pretends to run up to `jobs` tests at once; which running test ends next is
    /// picked by a linear congruential generator started from `seed`.
    #[must_use]
    pub fn with_jobs(mut self, jobs: usize, seed: u64) -> ClosureExecutor<F> {
        self.jobs = jobs.max(1);
        self.seed = seed;
        self
    }

    /// The position in `queued` of the test that ends next.
    fn next_to_end(&mut self) -> usize {
        if self.jobs == 1 {
            return 0;
        }
        // Knuth's MMIX multiplier and increment; the high bits are the better ones.
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.seed >> 33).unwrap_or(0) % self.queued.len()
    }
}

impl<F: FnMut(&[u8]) -> bool> Executor for ClosureExecutor<F> {
    fn jobs(&self) -> usize {
        self.jobs
    }

    fn start(&mut self, ticket: Ticket, text: &[u8]) -> Result<(), BoxError> {
        debug_assert!(
            self.queued.len() < self.jobs,
            "the engine started more tests than jobs"
        );
        self.queued.push_back((ticket, text.to_vec()));
        Ok(())
    }

    fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError> {
        if self.queued.is_empty() {
            return Ok(None);
        }
        let next = self.next_to_end();
        Ok(self
            .queued
            .remove(next)
            .map(|(ticket, text)| (ticket, (self.predicate)(&text))))
    }

    fn cancel(&mut self, tickets: &[Ticket]) {
        self.queued.retain(|(t, _)| !tickets.contains(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_jobs_answers_every_test_once_in_a_scrambled_order() {
        let mut exec = ClosureExecutor::new(|t: &[u8]| t[0].is_multiple_of(2)).with_jobs(4, 7);
        for ticket in 0..4 {
            exec.start(ticket, &[u8::try_from(ticket).unwrap()])
                .unwrap();
        }
        let mut ended = Vec::new();
        while let Some((ticket, verdict)) = exec.wait().unwrap() {
            assert_eq!(verdict, ticket.is_multiple_of(2));
            ended.push(ticket);
        }
        assert_ne!(ended, [0, 1, 2, 3], "ended in the order started");
        ended.sort_unstable();
        assert_eq!(ended, [0, 1, 2, 3]);
    }
}
