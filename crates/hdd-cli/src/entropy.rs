//! `hdd entropy`: the smallest entropy budget (size, seed) at which a system under test
//! fails (`hdd_search::smallest_failing`), its replay, and the shrinking of its stream
//! with `hdd reduce --lang bytes`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use hdd_exec::{LocalExecutor, Status, TestCommand, stop_on_signals};
use hdd_search::{SizeSearch, Trial, smallest_failing, stream};
use serde_json::json;

use crate::args::{EntropyArgs, ListSchedule, ReduceArgs};
use crate::exit::Failure;
use crate::setup::{command_here, jobs_or_default, ran, timeout};

/// The name of the stream's file in a run's folder (`@@`, `HDD_FILE`).
const FILE_NAME: &str = "entropy";

/// The biggest stream hdd makes (`--max-size`, `--replay`): 1 GiB.
const MAX_SIZE: usize = 1 << 30;

pub(crate) fn run(args: &EntropyArgs) -> Result<u8, Failure> {
    if let Some(replay) = &args.replay {
        let size = usize::try_from(replay[0])
            .ok()
            .filter(|&size| size <= MAX_SIZE)
            .ok_or_else(|| {
                Failure::usage(anyhow!(
                    "--replay: SIZE {} is over {MAX_SIZE} bytes",
                    replay[0]
                ))
            })?;
        return self::replay(args, size, replay[1]);
    }
    let started = Instant::now();
    let command = command(args)?;
    let jobs = jobs_or_default(args.jobs)?;
    if args.attempts == 0
        || args.min_size == 0
        || args.max_size < args.min_size
        || args.max_size > MAX_SIZE
    {
        return Err(Failure::usage(anyhow!(
            "--attempts and --min-size must be at least 1, and --max-size at least \
             --min-size and at most {MAX_SIZE} bytes"
        )));
    }
    if let Some(path) = &args.output
        && path.exists()
    {
        return Err(Failure::usage(anyhow!(
            "{} exists: hdd does not overwrite it; pick another -o",
            path.display()
        )));
    }
    let executor = LocalExecutor::new(command.clone(), jobs).map_err(Failure::failed)?;
    stop_on_signals()
        .context("listening for Ctrl-C")
        .map_err(Failure::failed)?;
    let search = SizeSearch {
        min_size: args.min_size,
        max_size: args.max_size,
        attempts: args.attempts,
        first_seed: args.seed,
        batch: jobs,
    };
    let mut failures: HashMap<(usize, u64), Status> = HashMap::new();
    let mut last_size = 0;
    let found = smallest_failing(&search, |trials: &[Trial]| {
        let streams: Vec<Vec<u8>> = trials.iter().map(|t| stream(t.size, t.seed)).collect();
        let refs: Vec<&[u8]> = streams.iter().map(Vec::as_slice).collect();
        let mut failed = Vec::new();
        for (trial, outcome) in trials.iter().zip(executor.run_all(&refs)) {
            let outcome = ran(outcome, "run", "running the SUT")?;
            if !outcome.interesting {
                failures.insert((trial.size, trial.seed), outcome.status);
            }
            failed.push(!outcome.interesting);
        }
        if !args.quiet && !args.json && trials[0].size != last_size {
            last_size = trials[0].size;
            eprintln_safe!("hdd: size {last_size}");
        }
        Ok(failed)
    })?;
    let found = match found {
        Ok(found) => found,
        Err(runs) => {
            return Err(Failure::failed(anyhow!(
                "no seed failed up to {} bytes ({runs} runs, seeds {}..{} at each size); \
                 raise --max-size or --attempts",
                args.max_size,
                args.seed,
                args.seed.saturating_add(args.attempts - 1)
            )));
        }
    };
    let Trial { size, seed } = found.trial;
    let status = failures[&(size, seed)];
    let sut = hdd_exec::shell_words(&args.command);
    if args.json {
        println_safe!(
            "{}",
            json!({
                "event": "found",
                "size": size,
                "seed": seed,
                "status": status.to_string(),
                "passing_size": found.passing_size,
                "runs": found.runs,
                "seconds": started.elapsed().as_secs_f64(),
            })
        );
    } else {
        println_safe!("size={size} seed={seed}");
        if !args.quiet {
            eprintln_safe!(
                "hdd: the SUT failed ({status}) at {size} bytes of seed {seed}; every seed tried \
                 passed at {}; {} runs, {:.1} s\nhdd: replay: hdd entropy --replay {size} \
                 {seed} -- {sut}",
                found
                    .passing_size
                    .map_or("no smaller size".to_owned(), |s| format!("{s} bytes")),
                found.runs,
                started.elapsed().as_secs_f64()
            );
        }
    }
    drop(executor);
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| fresh_name(size, seed));
    if args.output.is_some() || args.shrink {
        write_new(&output, &stream(size, seed))?;
        if !args.quiet && !args.json {
            eprintln_safe!("hdd: the failing stream is in {}", output.display());
        }
    }
    if args.shrink {
        shrink(args, &command, &output, status)?;
    }
    Ok(crate::exit::OK)
}

/// `--replay SIZE SEED`: the SUT on that stream, its output shown; its exit status.
fn replay(args: &EntropyArgs, size: usize, seed: u64) -> Result<u8, Failure> {
    let command = command(args)?;
    let dir = tempfile::tempdir()
        .context("making a temporary folder")
        .map_err(Failure::failed)?;
    let file = dir.path().join(FILE_NAME);
    let bytes = stream(size, seed);
    std::fs::write(&file, &bytes)
        .context("writing the stream")
        .map_err(Failure::failed)?;
    let stdin = std::fs::File::open(&file)
        .context("reading the stream")
        .map_err(Failure::failed)?;
    let status: Status = std::process::Command::new(&command.program)
        .args(command.args_for(&file, &bytes))
        .env("HDD_FILE", &file)
        .stdin(stdin)
        .status()
        .with_context(|| format!("running {}", command.program.display()))
        .map_err(Failure::failed)?
        .into();
    let code = status
        .code()
        .and_then(|c| u8::try_from(c).ok())
        .unwrap_or(1);
    if !args.quiet {
        let what = if code == 0 { "passed" } else { "failed" };
        eprintln_safe!("hdd: the SUT {what} ({status}) on {size} bytes of seed {seed}");
    }
    Ok(code)
}

/// `--shrink`: `hdd reduce --lang bytes` on the stream in `file`, interesting when the
/// SUT ends as it did (`status`).
fn shrink(
    args: &EntropyArgs,
    command: &TestCommand,
    file: &Path,
    status: Status,
) -> Result<(), Failure> {
    let Some(code) = status.code() else {
        return Err(Failure::failed(anyhow!(
            "the SUT timed out: a hang cannot be told from a slow run, so hdd does not \
                 shrink it (the stream is in {})",
            file.display()
        )));
    };
    let reduce = ReduceArgs {
        file: file.to_owned(),
        test: None,
        command: args.command.clone(),
        interesting_exit_code: code,
        same_crash: None,
        mem_limit: None,
        lang: Some(crate::setup::BYTES.into()),
        output: None,
        timeout: args.timeout,
        jobs: args.jobs,
        deterministic: args.deterministic,
        valid_only: false,
        range: None,
        byte_range: None,
        force: false,
        allow_empty: false,
        confirm: 0,
        no_cache: false,
        list_schedule: ListSchedule::Weighted,
        json: args.json,
        quiet: args.quiet,
        verbose: 0,
        current_dir: command.current_dir.clone(),
        exec: None,
        work_root: None,
    };
    crate::reduce::run(&reduce)
}

/// The SUT, run in the current folder.
fn command(args: &EntropyArgs) -> Result<TestCommand, Failure> {
    command_here(&args.command, FILE_NAME, timeout(args.timeout)?)
}

/// `entropy-SIZE-SEED.bin`, or `entropy-SIZE-SEED-N.bin` with the first N that names no
/// file.
fn fresh_name(size: usize, seed: u64) -> PathBuf {
    let plain = PathBuf::from(format!("entropy-{size}-{seed}.bin"));
    if !plain.exists() && !plain.with_extension("bin.orig").exists() {
        return plain;
    }
    (1..)
        .map(|n| PathBuf::from(format!("entropy-{size}-{seed}-{n}.bin")))
        .find(|p| !p.exists() && !p.with_extension("bin.orig").exists())
        .expect("some number names no file")
}

/// Writes `bytes` to `path`, which must not exist.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))
        .map_err(Failure::failed)?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))
        .map_err(Failure::failed)
}
