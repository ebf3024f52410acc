//! The executor trait: how the engine has candidates tested, without knowing how.

use std::collections::VecDeque;

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
}

/// An executor that asks a closure, one text at a time, when the engine waits.
pub struct ClosureExecutor<F> {
    predicate: F,
    queued: VecDeque<(Ticket, Vec<u8>)>,
}

impl<F: FnMut(&[u8]) -> bool> ClosureExecutor<F> {
    /// Wraps `predicate` (`true` = interesting).
    pub fn new(predicate: F) -> ClosureExecutor<F> {
        ClosureExecutor {
            predicate,
            queued: VecDeque::new(),
        }
    }
}

impl<F: FnMut(&[u8]) -> bool> Executor for ClosureExecutor<F> {
    fn jobs(&self) -> usize {
        1
    }

    fn start(&mut self, ticket: Ticket, text: &[u8]) -> Result<(), BoxError> {
        self.queued.push_back((ticket, text.to_vec()));
        Ok(())
    }

    fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError> {
        Ok(self
            .queued
            .pop_front()
            .map(|(ticket, text)| (ticket, (self.predicate)(&text))))
    }

    fn cancel(&mut self, tickets: &[Ticket]) {
        self.queued.retain(|(t, _)| !tickets.contains(t));
    }
}
