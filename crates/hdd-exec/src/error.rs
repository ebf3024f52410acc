//! Why a test could not be run at all.

use std::path::PathBuf;

/// Why a test could not be run at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The test program does not exist.
    #[error("test {path} does not exist")]
    TestMissing {
        /// The path given.
        path: PathBuf,
    },
    /// The test is not a regular file.
    #[error("test {path} is not a file")]
    TestNotAFile {
        /// The path given.
        path: PathBuf,
    },
    /// The test lacks the execute permission.
    #[error("test {path} is not executable (fix: chmod +x {path})")]
    TestNotExecutable {
        /// The path given.
        path: PathBuf,
    },
    /// The kernel refused to run the test (usually a script without a `#!` line).
    #[error(
        "cannot execute test {path}: {source} (does the script start with a line like #!/bin/sh?)"
    )]
    TestNotRunnable {
        /// The path given.
        path: PathBuf,
        /// What the kernel said.
        source: std::io::Error,
    },
    /// A file or folder of the test's sandbox could not be made.
    #[error("{what} {path}: {source}")]
    Io {
        /// What hdd was doing.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// SIGINT or SIGTERM arrived (see [`stop_on_signals`](crate::stop_on_signals));
    /// running tests were stopped.
    #[error("interrupted")]
    Interrupted,
}
