//! The executor trait: how the engine has candidates tested, without knowing how.

/// An error from an executor (the test could not be run at all), or from the observer.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Runs the interestingness test on candidate texts.
///
/// Implementations: local processes (`hdd-exec`), a closure (`ClosureExecutor`), later a
/// remote engine. The engine hands over up to [`Executor::jobs`] texts at once and uses
/// the first interesting one in order, so a batch may be run in parallel.
pub trait Executor {
    /// How many texts the executor can test at once.
    fn jobs(&self) -> usize;

    /// Tests every text; `Ok(v)` has one verdict per text (`true` = interesting).
    ///
    /// # Errors
    /// When a test could not be run at all (not when it failed or timed out: that is a
    /// `false` verdict).
    fn run(&mut self, texts: &[&[u8]]) -> Result<Vec<bool>, BoxError>;
}

/// An executor that asks a closure, one text at a time.
pub struct ClosureExecutor<F> {
    predicate: F,
}

impl<F: FnMut(&[u8]) -> bool> ClosureExecutor<F> {
    /// Wraps `predicate` (`true` = interesting).
    pub fn new(predicate: F) -> ClosureExecutor<F> {
        ClosureExecutor { predicate }
    }
}

impl<F: FnMut(&[u8]) -> bool> Executor for ClosureExecutor<F> {
    fn jobs(&self) -> usize {
        1
    }

    fn run(&mut self, texts: &[&[u8]]) -> Result<Vec<bool>, BoxError> {
        Ok(texts.iter().map(|t| (self.predicate)(t)).collect())
    }
}
