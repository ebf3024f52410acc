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
//! [`stop_on_signals`], Ctrl-C, SIGTERM and SIGHUP stop every test at once and let the
//! caller keep its best result.
//!
//! No process outlives its test, nor hdd:
//! - What leaves its test's process group (`setsid`, a double fork, `timeout`'s own
//!   group) comes back to hdd, a child subreaper, when its parent dies, and is killed
//!   and reaped once no test that was running when it started still runs (`orphans.rs`).
//! - If hdd dies without cleaning up (SIGKILL), a watchdog process kills the groups of
//!   the tests that were running (`watchdog.rs`); without one, each test's leader gets
//!   a parent-death signal (`launch.rs`).
//! - An executor's root folder is named after its owner (pid and start time); the next
//!   executor removes those whose owner died (`stamps.rs`).
#![deny(missing_docs)]

mod command;
mod error;
mod groups;
mod launch;
mod orphans;
mod process;
mod procfs;
mod signals;
mod stamps;
mod template;
mod verdicts;
mod watchdog;

pub use crate::command::{Status, TestCommand};
pub use crate::error::Error;
pub use crate::process::{LocalExecutor, Outcome};

/// The CPU time hdd itself has used so far (every thread, not the tests), from
/// `/proc/self/stat`; `None` where that cannot be read.
#[must_use]
pub fn own_cpu_time() -> Option<std::time::Duration> {
    procfs::own_cpu_time()
}
pub use crate::signals::{interrupted, stop_on_signals};
pub use crate::template::shell_words;
pub use crate::verdicts::{DEFAULT_MAX_BYTES, VerdictStore};
