//! Command-line arguments, as typed.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit codes:
  0  done: the result is on disk and interesting
  1  failed while reducing (the best result so far is on disk)
  2  bad command line or input (unknown language, missing file, test not executable, FILE.orig exists)
  3  the original input is not interesting
  4  the final result was not interesting on re-check (flaky test)
  5  the result is empty and --allow-empty was not given (the test is probably too weak)
  130  interrupted (Ctrl-C, SIGTERM): tests killed, the best result so far is on disk";

/// hdd: a fast, grammar-aware test-case reducer.
#[derive(Debug, Parser)]
#[command(name = "hdd", version, after_help = EXIT_CODES)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Shrink FILE while TEST keeps saying it is interesting (exit 0).
    ///
    /// TEST runs with no arguments in a private temporary folder that holds the
    /// candidate under FILE's name; HDD_FILE names the candidate's path. FILE is reduced
    /// in place, its original kept as FILE.orig, unless -o is given.
    #[command(after_help = EXIT_CODES)]
    Reduce(ReduceArgs),
    /// List the languages hdd knows, with their file extensions and grammar versions.
    Langs,
}

#[derive(Debug, Args)]
pub(crate) struct ReduceArgs {
    /// The input to shrink.
    pub(crate) file: PathBuf,
    /// The interestingness test: an executable that exits 0 when the bug still shows.
    pub(crate) test: PathBuf,
    /// The input's language, or `text` for any bytes (default: from FILE's extension,
    /// `text` when no grammar claims it; see `hdd langs`).
    #[arg(long, short = 'l', value_name = "LANG")]
    pub(crate) lang: Option<String>,
    /// Write the result to OUT and leave FILE untouched.
    #[arg(long, short = 'o', value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,
    /// Kill a test running longer than this many seconds (it counts as not interesting).
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub(crate) timeout: f64,
    /// Tests to run at once (default: the number of cores, at most 16; tests that
    /// mostly wait, e.g. on a remote machine or a sleep, gain from more: pass -j).
    #[arg(long, short = 'j', value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// The same result for any -j: successes are used in candidate order, as with one
    /// job (tests running past a success are stopped, not merged). For reproducible
    /// reductions, e.g. in a bug report; slower with many jobs.
    #[arg(long)]
    pub(crate) deterministic: bool,
    /// Overwrite an existing FILE.orig backup.
    #[arg(long)]
    pub(crate) force: bool,
    /// Accept an empty result (by default an empty result is an error: the test is
    /// probably too weak).
    #[arg(long)]
    pub(crate) allow_empty: bool,
    /// Re-run the test K more times on every interesting candidate and trust it only if
    /// every run agrees (for flaky tests).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub(crate) confirm: u32,
    /// Print events as JSON lines on stdout (start, round_start, pass_start, pass_end,
    /// accepted, warning, done, error; see the README).
    #[arg(long)]
    pub(crate) json: bool,
    /// No progress line and no summary; warnings and errors only.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
}
