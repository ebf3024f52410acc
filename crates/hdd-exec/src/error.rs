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
    /// The script's `#!` line names an interpreter that does not exist.
    #[error(
        "test {path} names the interpreter {interpreter} in its #! line, and there is no \
         such file"
    )]
    TestInterpreterMissing {
        /// The path given.
        path: PathBuf,
        /// The interpreter's path, as written.
        interpreter: String,
    },
    /// The script's `#!` line ends with a carriage return: the system would look for an
    /// interpreter whose name ends with `\r`.
    #[error(
        "test {path} has Windows line endings: its #! line ends with a carriage return \
         (\\r), so no interpreter can be found; convert it (e.g. dos2unix {path})"
    )]
    TestShebangCarriageReturn {
        /// The path given.
        path: PathBuf,
    },
    /// The kernel refused to run the test; the message the kernel gave follows (as the
    /// source) after the hint.
    #[error("cannot execute test {path}{}", hint(.source))]
    TestNotRunnable {
        /// The path given.
        path: PathBuf,
        /// What the kernel said.
        source: std::io::Error,
    },
    /// A file or folder of the test's sandbox could not be made (what the system said
    /// follows, as the source).
    #[error("{what} {path}")]
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

/// What to add to "cannot execute test X" for what the kernel said.
fn hint(error: &std::io::Error) -> &'static str {
    // ENOEXEC: neither a binary nor a script with a #! line.
    if error.raw_os_error() == Some(8) {
        " (a script needs a first line like #!/bin/sh)"
    } else {
        ""
    }
}
