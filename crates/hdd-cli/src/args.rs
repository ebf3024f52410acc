//! Command-line arguments, as typed.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit codes:
  0  done: the result is on disk and interesting
  1  failed while reducing (the best result so far is on disk)
  2  bad command line or input (unknown language, missing file, test not executable, FILE.orig exists, -o naming the input or the test)
  3  the original input is not interesting
  4  the final result was not interesting on re-check (flaky test)
  5  the result is empty and --allow-empty was not given (the test is probably too weak)
  6  someone else changed FILE (or OUT) during the run: hdd left it as it is and wrote its result to FILE.hdd-best
  101  hdd failed (a bug): reported in one line; the best result so far is on disk
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP): tests killed, the best result so far is on disk";

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
    /// TEST runs in a private temporary folder that holds the candidate under FILE's
    /// name; HDD_FILE names the candidate's path, and the candidate is also its stdin.
    /// Instead of TEST, a command can follow `--`, with `@@` for the candidate's path
    /// (as fuzzers do): `hdd reduce -o min.json crash.json -- ./target @@`. FILE is
    /// reduced in place, its original kept as FILE.orig, unless -o is given.
    #[command(after_help = EXIT_CODES)]
    Reduce(Box<ReduceArgs>),
    /// A language server on stdin and stdout: "minimize selection" in your editor.
    ///
    /// The code action "hdd: minimize selection" reduces the selected text in place with
    /// the test of the workspace's .hdd.toml (`test = "./test.sh"`), which runs nothing
    /// until you trust it, or of the client's initializationOptions. See the README for
    /// Neovim, Helix and VS Code.
    Lsp,
    /// List the languages hdd knows, with their file extensions and grammar versions.
    Langs,
    /// Print a shell completion script: `hdd completions bash > ~/.local/share/bash-completion/completions/hdd`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
pub(crate) struct ReduceArgs {
    /// The input to shrink.
    pub(crate) file: PathBuf,
    /// The interestingness test: an executable that exits 0 when the bug still shows.
    #[arg(required_unless_present = "command")]
    pub(crate) test: Option<PathBuf>,
    /// A test command with its arguments, after `--`; `@@` stands for the candidate's
    /// path (without `@@`, the candidate is on its stdin).
    #[arg(last = true, value_name = "COMMAND", conflicts_with = "test")]
    pub(crate) command: Vec<OsString>,
    /// The exit code that means interesting (a test killed by signal N ends with
    /// 128 + N, as in a shell: 134 is SIGABRT, 139 SIGSEGV).
    #[arg(long, value_name = "CODE", default_value_t = 0)]
    pub(crate) interesting_exit_code: i32,
    /// Interesting only if the test's stderr also matches REGEX (the same crash, not
    /// another one).
    #[arg(long, value_name = "REGEX")]
    pub(crate) same_crash: Option<String>,
    /// Limit each test's address space to MB megabytes.
    #[arg(long, value_name = "MB")]
    pub(crate) mem_limit: Option<u64>,
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
    /// Hand the test only candidates that parse as well as the input. By default a
    /// reduction with a grammar ends with a lenient tail when the test still passes with
    /// a syntax error appended: token deletions the grammar refuses (the smallest input
    /// that crashes a parser is often not valid syntax)
    #[arg(long)]
    pub(crate) valid_only: bool,
    /// Change only lines START to END of FILE (counted from 1, both included; the newline
    /// ending line END stays): every node, token or line reaching outside them stays as
    /// it is, byte for byte; the test still gets the whole file. Also turns the lenient
    /// tail off.
    #[arg(long, value_name = "START:END", value_parser = crate::range::parse_pair)]
    pub(crate) range: Option<(usize, usize)>,
    /// As --range, in bytes: START counted from 0, END excluded.
    #[arg(long, value_name = "START:END", value_parser = crate::range::parse_pair, conflicts_with = "range")]
    pub(crate) byte_range: Option<(usize, usize)>,
    /// When FILE.orig exists (say, from an interrupted run), keep it and back up the
    /// original to a fresh name (FILE.orig.1, …) instead of stopping. A backup is never
    /// overwritten.
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
    /// Test every candidate, even one an earlier run of the same test has tested. By
    /// default verdicts are kept in $HDD_CACHE_DIR, else ~/.cache/hdd/verdicts (64 MiB
    /// at most), keyed by the test script's path and content, its arguments and the
    /// options that change a verdict; a test that reads other files, or tools upgraded
    /// since, are not seen.
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// How the passes' ddmin runs shrink their parts: `weighted` (the default: halving,
    /// HDD's parts of equal weight, WDD's), `halving` (ddmin's) or `counter` (CDD's). For
    /// measuring them side by side.
    #[arg(long, value_name = "SCHEDULE", default_value = "weighted", hide = true)]
    pub(crate) list_schedule: ListSchedule,
    /// Print events as JSON lines on stdout (start, round_start, pass_start, pass_end,
    /// accepted, warning, done, error; see the README).
    #[arg(long)]
    pub(crate) json: bool,
    /// No progress line and no summary; warnings and errors only.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Log what happens on stderr: -v passes, accepted candidates and the checks' test
    /// output; -vv every test's verdict too. Progress then comes as plain lines.
    #[arg(long, short = 'v', action = clap::ArgAction::Count)]
    pub(crate) verbose: u8,
}

/// `--list-schedule`: how the passes' ddmin runs shrink their parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ListSchedule {
    /// ddmin's halving.
    Halving,
    /// CDD's counter.
    Counter,
    /// Halving, HDD's parts of equal weight (WDD).
    Weighted,
}
