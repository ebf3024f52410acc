//! Exit codes of `hdd`, documented in the README and in `hdd --help`.

/// The reduction finished; the result is on disk and interesting.
pub(crate) const OK: u8 = 0;
/// Something went wrong while reducing (an I/O error, a test that could not be run).
/// The best result so far is on disk.
pub(crate) const FAILED: u8 = 1;
/// Bad command line or bad input: unknown language, missing file, test not executable,
/// backup already present.
pub(crate) const USAGE: u8 = 2;
/// The original input is not interesting: the test rejects it.
pub(crate) const NOT_INTERESTING: u8 = 3;
/// The final result was not interesting when re-checked: the test is flaky.
pub(crate) const FLAKY: u8 = 4;

/// The result is empty and `--allow-empty` was not given: the test is probably too
/// weak. The empty result is on disk, the original in its backup.
pub(crate) const EMPTY: u8 = 5;

/// The result's file was changed by someone else during the run: hdd stopped writing it
/// and wrote its best result beside it (`FILE.hdd-best`).
pub(crate) const CHANGED: u8 = 6;

/// hdd itself failed: a bug (a panic), reported in one line; the best result so far is
/// on disk.
pub(crate) const INTERNAL: u8 = 101;

/// SIGINT (Ctrl-C) or SIGTERM: every test was stopped; the best result so far is on
/// disk and the original's backup is intact (128 + SIGINT, the shell convention).
pub(crate) const INTERRUPTED: u8 = 130;

/// An error with the exit code it maps to.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, with context.
    pub error: anyhow::Error,
    /// The process exit code.
    pub code: u8,
}

impl Failure {
    pub(crate) fn usage(error: impl Into<anyhow::Error>) -> Failure {
        Failure {
            error: error.into(),
            code: USAGE,
        }
    }

    pub(crate) fn failed(error: impl Into<anyhow::Error>) -> Failure {
        Failure {
            error: error.into(),
            code: FAILED,
        }
    }
}
