//! What a session tells its observer as the reduction goes: the CLI's progress line,
//! `--json` events and logs, and the writing of each new best to disk, all start here.

use crate::document::Document;
use crate::exec::BoxError;
use crate::stats::PassStats;

/// What a session tells its [`Observer`] as the reduction goes.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Event<'e> {
    /// [`Session::reduce`](crate::Session::reduce) starts on this document (the
    /// original).
    Started(&'e Document),
    /// A new best: interesting, and smaller than the one before. Whoever must keep the
    /// best (the CLI writes it to disk) keeps this one.
    Best(&'e Document),
    /// A round of all passes starts; rounds count from 1.
    RoundStarted {
        /// The round's number.
        round: u64,
    },
    /// A pass starts, the `index`-th (from 0) of the `count` passes of a round.
    PassStarted {
        /// The pass's name.
        pass: &'static str,
        /// Its position in the round.
        index: usize,
        /// How many passes the round runs.
        count: usize,
    },
    /// A pass ended; `run` holds what this run of it did (`stopped_early` is 1 when its
    /// patience ran out).
    PassEnded {
        /// This run's counters.
        run: &'e PassStats,
    },
    /// A test ended.
    Tested {
        /// Its verdict.
        interesting: bool,
    },
}

/// Called with every [`Event`]; an error stops the run.
pub type Observer<'a> = dyn FnMut(Event<'_>) -> Result<(), BoxError> + 'a;
