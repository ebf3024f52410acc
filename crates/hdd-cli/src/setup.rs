//! From the command line to what a run needs: the language, the test command, the
//! number of jobs.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::anyhow;
use hdd::Lang;
use hdd_exec::{Outcome, TestCommand, interrupted};

use crate::args::ReduceArgs;
use crate::exit::{Failure, INTERRUPTED};

/// The name of the language-agnostic mode.
pub(crate) const TEXT: &str = "text";

/// The name of the mode for choice sequences and binary inputs.
pub(crate) const BYTES: &str = "bytes";

/// Whether `--lang bytes` asks for the passes of choice sequences and binary inputs.
pub(crate) fn bytes_mode(args: &ReduceArgs) -> bool {
    args.lang
        .as_deref()
        .is_some_and(|name| name.eq_ignore_ascii_case(BYTES))
}

/// Default job count cap. A test usually keeps a core busy, so the default is the core
/// count, but not above 16: once the cores are busy, more jobs only add speculative tests
/// (on 2 cores, c-warn-300-slow: -j 8 ran 1,541 tests in 63.9 s, -j 16 2,675 in 93.8 s;
/// corpus/BENCH.md), and the coordinator that derives every candidate is one thread. Not
/// measured on a machine with more than 2 cores; `-j` sets any number.
const MAX_DEFAULT_JOBS: usize = 16;

/// The number of tests to run at once: `-j`, or the core count up to
/// [`MAX_DEFAULT_JOBS`].
pub(crate) fn jobs(args: &ReduceArgs) -> Result<usize, Failure> {
    jobs_or_default(args.jobs)
}

/// `-j`'s value, or the core count up to [`MAX_DEFAULT_JOBS`]; 0 is refused.
pub(crate) fn jobs_or_default(jobs: Option<usize>) -> Result<usize, Failure> {
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(MAX_DEFAULT_JOBS)
    });
    if jobs == 0 {
        return Err(Failure::usage(anyhow!("-j must be at least 1")));
    }
    Ok(jobs)
}

/// The language to reduce in: `None` is the language-agnostic text mode (lines, words,
/// bytes), chosen by `--lang text` or by an extension no grammar claims, or the bytes
/// mode ([`bytes_mode`]).
pub(crate) fn choose_lang(args: &ReduceArgs) -> Result<Option<Lang>, Failure> {
    let Some(name) = &args.lang else {
        return Ok(Lang::from_path(&args.file));
    };
    if name.eq_ignore_ascii_case(TEXT) || name.eq_ignore_ascii_case(BYTES) {
        return Ok(None);
    }
    Lang::from_name(name).map(Some).ok_or_else(|| {
        let known: Vec<&str> = Lang::ALL
            .iter()
            .map(|l| l.name())
            .chain([TEXT, BYTES])
            .collect();
        Failure::usage(anyhow!(
            "unknown language '{name}' (known: {})",
            known.join(", ")
        ))
    })
}

/// The test to run: TEST, or the command after `--`, with what makes it interesting.
pub(crate) fn test_command(
    args: &ReduceArgs,
    file_name: OsString,
    timeout: Duration,
) -> Result<TestCommand, Failure> {
    let (program, rest) = match (&args.test, args.command.split_first()) {
        (Some(test), _) => (test.clone(), &[][..]),
        (None, Some((program, rest))) => (PathBuf::from(program), rest),
        (None, None) => return Err(Failure::usage(anyhow!("no test given"))),
    };
    let mut command = command_of(&program, rest, file_name, timeout)?;
    command.current_dir.clone_from(&args.current_dir);
    if let Some(template) = &args.exec {
        TestCommand::check_template(template)
            .map_err(|e| Failure::usage(anyhow!("--exec: {e}")))?;
        if args.mem_limit.is_some() {
            return Err(Failure::usage(anyhow!(
                "--mem-limit limits processes on this machine, and with --exec the test \
                 runs elsewhere: put the limit in the template (`srun --mem=2G …`)"
            )));
        }
        command.exec = Some(template.clone());
    }
    command.interesting_exit_code = args.interesting_exit_code;
    command.same_crash = args
        .same_crash
        .as_deref()
        .map(regex::bytes::Regex::new)
        .transpose()
        .map_err(|e| Failure::usage(anyhow!("--same-crash: {e}")))?;
    command.mem_limit = match args.mem_limit {
        Some(0) => return Err(Failure::usage(anyhow!("--mem-limit must be at least 1 MB"))),
        Some(mb) => Some(mb.saturating_mul(1 << 20)),
        None => None,
    };
    Ok(command)
}

/// `--timeout`: a positive number of seconds that a duration can hold.
pub(crate) fn timeout(seconds: f64) -> Result<Duration, Failure> {
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(Failure::usage(anyhow!(
            "--timeout must be a positive number of seconds"
        )));
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| Failure::usage(anyhow!("--timeout {seconds} is too long")))
}

/// The test `program` (looked up on PATH when it is a bare name) with its arguments.
fn command_of(
    program: &Path,
    args: &[OsString],
    file_name: OsString,
    timeout: Duration,
) -> Result<TestCommand, Failure> {
    let program = TestCommand::find_program(program);
    let mut command = TestCommand::new(&program, file_name, timeout).map_err(Failure::usage)?;
    command.args = args.to_vec();
    Ok(command)
}

/// The command of `hdd bisect` or `hdd entropy` (`words`: the program and its
/// arguments, after `--`), run in the current folder; its input file is `file_name`.
pub(crate) fn command_here(
    words: &[OsString],
    file_name: &str,
    timeout: Duration,
) -> Result<TestCommand, Failure> {
    let (program, rest) = words
        .split_first()
        .ok_or_else(|| Failure::usage(anyhow!("no command given after --")))?;
    let mut command = command_of(Path::new(program), rest, file_name.into(), timeout)?;
    command.current_dir = Some(
        std::env::current_dir().map_err(|e| Failure::failed(anyhow!("the current folder: {e}")))?,
    );
    Ok(command)
}

/// What a run of `hdd bisect`'s or `hdd entropy`'s command came to: its outcome, or the
/// failure that ends the command: a stop request (exit 130, every `runs` stopped), or
/// an error while `doing` the run.
pub(crate) fn ran(
    outcome: Result<Outcome, hdd_exec::Error>,
    runs: &str,
    doing: &str,
) -> Result<Outcome, Failure> {
    match outcome {
        Ok(outcome) => Ok(outcome),
        Err(_) if interrupted() => Err(Failure {
            error: anyhow!("interrupted; every {runs} was stopped"),
            code: INTERRUPTED,
        }),
        Err(e) => Err(Failure::failed(anyhow!("{doing}: {e}"))),
    }
}

/// `--work-root`, checked and made absolute: where the tests' folders are made
/// instead of the system temporary folder.
pub(crate) fn work_root(args: &ReduceArgs) -> Result<Option<PathBuf>, Failure> {
    let Some(dir) = &args.work_root else {
        return Ok(None);
    };
    if !dir.is_dir() {
        return Err(Failure::usage(anyhow!(
            "--work-root {}: not a folder",
            dir.display()
        )));
    }
    std::fs::canonicalize(dir)
        .map(Some)
        .map_err(|e| Failure::usage(anyhow!("--work-root {}: {e}", dir.display())))
}
