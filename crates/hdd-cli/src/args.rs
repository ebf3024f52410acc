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

const BISECT_EXIT_CODES: &str = "\
Exit codes:
  0  found: the first bad value (and the last good one) are printed;
     also when skipped values sit between the last good and the first bad one: they are printed, any of them may be the first bad
  1  a probe failed (a signal, an exit code above 127, a timeout, a command that cannot run)
  2  bad command line (no {} in COMMAND, equal ends, an empty list)
  3  --check-ends: the good end is not good or the bad end not bad
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP): every probe was stopped";

const ENTROPY_EXIT_CODES: &str = "\
Exit codes:
  0  a failing size and seed were found (and, with --shrink, the stream shrunk)
  1  no seed failed up to --max-size, or the SUT could not be run
  2  bad command line
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP)
With --replay, hdd exits as the SUT did (128 + N for a signal N).";

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
    /// Find the first bad value between a good one and a bad one: `hdd bisect --good 0
    /// --bad 5000 -- clang -O2 -mllvm -opt-bisect-limit={} -c crash.c`.
    ///
    /// Each probe runs COMMAND with `{}` replaced by a value (alone or inside an
    /// argument), in the current folder: exit 0 means good, 1 to 127 bad, except 125:
    /// the value cannot be tested (skip it and try a neighbour, as `git bisect run`
    /// does). Anything else (a signal, a code above 127, a timeout) stops the bisection
    /// with an error. With -j N, N values are probed at once (an (N+1)-ary search).
    #[command(after_help = BISECT_EXIT_CODES)]
    Bisect(Box<BisectArgs>),
    /// Find the smallest entropy budget at which a system under test fails, or replay one.
    ///
    /// SUT reads its entropy from stdin (or from the file `@@` names): the first SIZE
    /// bytes of the stream of SEED (SplitMix64, little-endian, fixed across versions:
    /// see the README). Any exit but 0, a signal, or a timeout counts as a failure. hdd
    /// doubles the size until some seed fails, then narrows it down, and prints the
    /// smallest failing `size=... seed=...`; `--replay SIZE SEED` runs that trial again
    /// with the SUT's output shown, and `--shrink` shrinks its stream with `--lang
    /// bytes`.
    #[command(after_help = ENTROPY_EXIT_CODES)]
    Entropy(Box<EntropyArgs>),
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
    /// The input's language, `text` for any text, or `bytes` for a choice sequence or a
    /// binary input (blocks deleted and zeroed, integers lowered, blocks sorted; default:
    /// from FILE's extension, `text` when no grammar claims it; see `hdd langs`).
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
    /// Run every test through TEMPLATE, a shell command (`/bin/sh -c`) whose exit status
    /// is the test's: `{cmd}` stands for the test with its arguments, `{dir}` for its
    /// folder, `{file}` the candidate, `{name}` its file name, `{id}` a number unique in
    /// the run, each shell-quoted. A timeout or a stop sends SIGTERM to the template's
    /// process group, SIGKILL 5 s later. On a Slurm allocation:
    /// `--exec 'srun -Q --exact -n1 -c1 --chdir={dir} {cmd}'` (see the README).
    #[arg(long, value_name = "TEMPLATE")]
    pub(crate) exec: Option<String>,
    /// Make the tests' folders under DIR instead of the system temporary folder: with
    /// --exec, a file system every machine sees.
    #[arg(long, value_name = "DIR")]
    pub(crate) work_root: Option<PathBuf>,
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
    /// Where the test runs instead of its private folder (`hdd entropy --shrink` runs
    /// the SUT where its search did).
    #[arg(skip)]
    pub(crate) current_dir: Option<PathBuf>,
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

/// `hdd bisect`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct BisectArgs {
    /// The good end: an integer (the bug is not there).
    #[arg(long, value_name = "N", allow_hyphen_values = true, requires = "bad")]
    pub(crate) good: Option<i64>,
    /// The bad end: an integer (the bug is there). It may be below --good.
    #[arg(long, value_name = "N", allow_hyphen_values = true, requires = "good")]
    pub(crate) bad: Option<i64>,
    /// Bisect the lines of FILE instead, from a good one (the first line) to a bad one
    /// (the last): commit ids (`git rev-list --reverse GOOD^..BAD`), flags, file names.
    /// Blank lines are left out.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["good", "bad"], required_unless_present = "good")]
    pub(crate) list: Option<PathBuf>,
    /// Probe both ends first (two more runs) and stop unless the good one is good and
    /// the bad one bad. By default they are taken on trust, as `git bisect` does.
    #[arg(long)]
    pub(crate) check_ends: bool,
    /// Values to probe at once (default 1: probes often share a working tree, as a
    /// `git checkout` does; give each its own, `git worktree`, before raising it).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    pub(crate) jobs: usize,
    /// Stop with an error when a probe runs longer than this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub(crate) timeout: f64,
    /// Print each probe and the result as JSON lines on stdout.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print the result only.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// The command, after `--`, with `{}` where the value goes.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub(crate) command: Vec<OsString>,
}

/// `hdd entropy`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct EntropyArgs {
    /// Seeds tried at each size.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub(crate) attempts: u64,
    /// The first seed tried at each size (then SEED + 1, …).
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub(crate) seed: u64,
    /// The first size tried, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 1)]
    pub(crate) min_size: usize,
    /// The biggest size tried, in bytes (at most 1 GiB): no failure up to it is exit 1.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    pub(crate) max_size: usize,
    /// Run the SUT once on SIZE bytes of SEED's stream, its output shown; hdd exits as
    /// it did.
    #[arg(long, num_args = 2, value_names = ["SIZE", "SEED"], conflicts_with = "shrink")]
    pub(crate) replay: Option<Vec<u64>>,
    /// Then shrink the failing stream with `hdd reduce --lang bytes`, keeping the same
    /// failure (the same exit code or signal), into the file of -o.
    #[arg(long)]
    pub(crate) shrink: bool,
    /// Write the failing stream to FILE (with --shrink, default
    /// `entropy-SIZE-SEED.bin`; it is shrunk in place, the found stream kept as
    /// FILE.orig). An existing FILE is not overwritten.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Runs at once (default: the number of cores, at most 16).
    #[arg(long, short = 'j', value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// With --shrink: the same result for any -j.
    #[arg(long)]
    pub(crate) deterministic: bool,
    /// A run longer than this many seconds is killed and counts as a failure (a hang).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub(crate) timeout: f64,
    /// Print the result (and --shrink's events) as JSON lines on stdout.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print the result only.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// The system under test and its arguments, after `--` (`@@`: the stream's path;
    /// without it, the stream is on its stdin). It runs in the current folder.
    #[arg(last = true, required = true, value_name = "SUT")]
    pub(crate) command: Vec<OsString>,
}
