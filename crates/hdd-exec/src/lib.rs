//! Runs hdd's interestingness test as local processes.
//!
//! The protocol (C-Reduce's, see the README): each test runs in a private temporary
//! folder that holds the candidate under the original file name, with that folder as the
//! current directory and `HDD_FILE` set to the candidate's path; the candidate is also
//! its standard input. The test is a script, or a command whose arguments may hold `@@`
//! for the candidate's path (fuzz targets). By default exit status 0 means interesting;
//! [`TestCommand::interesting_exit_code`] picks another code (a death by signal N counts
//! as 128 + N) and [`TestCommand::same_crash`] also requires stderr to match a regex. Any
//! other ending, or a timeout, means not interesting.
//!
//! Each test runs in a process group of its own: a timeout kills the whole group, and so
//! does the end of a test (no grandchild outlives it). Tests the engine cancels, and every
//! test still running when the executor is dropped, are killed the same way. With
//! [`stop_on_signals`], Ctrl-C and SIGTERM stop every test and let the caller keep its
//! best result.
#![deny(missing_docs)]

mod command;
mod error;
mod groups;
mod process;
mod signals;

pub use crate::command::{Status, TestCommand};
pub use crate::error::Error;
pub use crate::process::{LocalExecutor, Outcome};
pub use crate::signals::{interrupted, stop_on_signals};
