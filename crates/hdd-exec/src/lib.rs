//! Runs hdd's interestingness test as local processes.
//!
//! The protocol (C-Reduce's, see the README): each test runs in a private temporary
//! folder that holds the candidate under the original file name, with that folder as the
//! current directory, `HDD_FILE` set to the candidate's path, no standard input, and in a
//! process group of its own. Exit status 0 means interesting; any other status, a signal
//! or a timeout means not. A timeout kills the whole group, and so does the end of a test
//! (no grandchild outlives it). Tests the engine cancels, and every test still running
//! when the executor is dropped, are killed the same way.
#![deny(missing_docs)]

mod process;

pub use crate::process::{
    Error, LocalExecutor, Outcome, Status, TestCommand, interrupted, stop_on_signals,
};
