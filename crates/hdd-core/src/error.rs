//! Why a reduction stopped early: the engine's one error type.

use crate::exec::BoxError;

/// Why a reduction stopped early.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The executor could not run a test (why: the source).
    #[error("running the test")]
    Executor(#[source] BoxError),
    /// The observer (e.g. writing the best result to disk) failed (why: the source).
    #[error("saving the result")]
    Observer(#[source] BoxError),
    /// The original input is not interesting.
    #[error("the original input is not interesting")]
    OriginalNotInteresting,
    /// The grammar could not be loaded or the input could not be parsed.
    #[error("{0}")]
    Parser(String),
    /// A range to confine the reduction to that does not fit the input
    /// ([`Session::set_range`]).
    ///
    /// [`Session::set_range`]: crate::Session::set_range
    #[error("{0}")]
    Range(String),
    /// The executor asked the reduction to stop ([`Executor::stop_requested`]).
    ///
    /// [`Executor::stop_requested`]: crate::Executor::stop_requested
    #[error("stopped on request")]
    Stopped,
}
