//! `hdd reduce`: check the inputs, back up the original, reduce, keep the best on disk,
//! re-check the result, print the summary. Each step is a function of its own module:
//! `setup` (arguments to a language, a test and jobs), `checks` (the test runs around the
//! reduction), `files` (backup, atomic writes), `report` (progress and events) and
//! `summary`.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use hdd::{Event, Executor as _, Lang, Reducer, Reduction};
use hdd_exec::{LocalExecutor, interrupted, stop_on_signals};
use serde_json::json;

use crate::args::ReduceArgs;
use crate::checks::{check_original, sanity_checks};
use crate::exit::{EMPTY, FLAKY, Failure, INTERRUPTED};
use crate::files::{destinations, write_atomically};
use crate::report::Reporter;
use crate::setup::{TEXT, choose_lang, jobs, test_command};
use crate::summary::print_summary;

pub(crate) fn run(args: &ReduceArgs) -> Result<(), Failure> {
    if args.verbose > 0 {
        let level = if args.verbose == 1 {
            tracing::Level::INFO
        } else {
            tracing::Level::DEBUG
        };
        let _ = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_max_level(level)
            .with_target(false)
            .with_timer(tracing_subscriber::fmt::time::uptime())
            .try_init();
    }
    let mut reporter = Reporter::new(args.quiet, args.json, args.verbose > 0);
    let result = reduce(args, &mut reporter);
    if let Err(failure) = &result {
        reporter.error(&format!("{:#}", failure.error), failure.code);
    }
    result
}

/// Where the run writes: the best result, and the original's backup (in place only).
struct Destination {
    dest: PathBuf,
    backup: Option<PathBuf>,
}

impl Destination {
    /// "the best result so far is in X and the original in X.orig", for messages.
    fn kept(&self) -> String {
        format!(
            "the best result so far is in {}{}",
            self.dest.display(),
            self.backup
                .as_ref()
                .map(|b| format!(" and the original in {}", b.display()))
                .unwrap_or_default()
        )
    }
}

fn reduce(args: &ReduceArgs, reporter: &mut Reporter) -> Result<(), Failure> {
    let started = Instant::now();
    let lang = choose_lang(args)?;
    let input = read_input(&args.file)?;
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(Failure::usage(anyhow!(
            "--timeout must be a positive number of seconds"
        )));
    }
    let file_name: OsString = args
        .file
        .file_name()
        .ok_or_else(|| Failure::usage(anyhow!("{} is not a file name", args.file.display())))?
        .to_owned();
    let command = test_command(args, file_name)?;
    let jobs = jobs(args)?;
    let mut executor = LocalExecutor::new(command.clone(), jobs).map_err(Failure::failed)?;
    executor.set_confirmations(args.confirm);
    reporter.about(json!({
        "file": args.file,
        "output": args.output.as_ref().unwrap_or(&args.file),
        "language": lang.map_or(TEXT, Lang::name),
        "jobs": jobs,
        "deterministic": args.deterministic,
        "timeout": args.timeout,
    }));

    let (dest, backup) = destinations(args)?;
    let to = Destination { dest, backup };
    stop_on_signals()
        .context("listening for Ctrl-C")
        .map_err(Failure::failed)?;
    check_original(&executor, &input, &command, &args.file)?;
    let (warnings, accepts_empty) = sanity_checks(&executor, &input)?;
    for warning in &warnings {
        reporter.warn(warning);
    }
    if interrupted() {
        return Err(Failure {
            error: anyhow!(
                "interrupted before reducing; {} is untouched",
                args.file.display()
            ),
            code: INTERRUPTED,
        });
    }
    if let Some(backup) = &to.backup {
        fs::write(backup, &input)
            .with_context(|| format!("writing the backup {}", backup.display()))
            .map_err(Failure::failed)?;
    }

    let outcome = {
        let mut observe = |event: Event<'_>| -> Result<(), hdd::BoxError> {
            if let Event::Best(doc) = event {
                write_atomically(&to.dest, doc.text())?;
            }
            reporter.event(&event);
            Ok(())
        };
        Reducer::new(lang)
            .original_checked(true)
            .deterministic(args.deterministic)
            .reduce_partial(input, &mut executor, &mut observe)
    };
    let reduction = match outcome {
        Ok(reduction) => reduction,
        Err(stopped) if interrupted() => {
            drop(executor);
            if let Some(r) = &stopped.reduction {
                reporter.done("interrupted", jobs, r);
                if !args.quiet {
                    print_summary(args, jobs, &to.dest, r, started.elapsed(), "interrupted");
                }
            }
            return Err(Failure {
                error: anyhow!("interrupted; every test was stopped, {}", to.kept()),
                code: INTERRUPTED,
            });
        }
        Err(stopped) => return Err(Failure::failed(anyhow!(stopped.error))),
    };
    if reduction.stats.accepted == 0 && to.backup.is_none() {
        write_atomically(&to.dest, &reduction.text).map_err(Failure::failed)?;
    }
    conclude(
        args,
        &executor,
        &reduction,
        &to,
        accepts_empty,
        reporter,
        started,
    )
}

/// The input's bytes; an empty input is refused (there is nothing to reduce).
fn read_input(file: &Path) -> Result<Vec<u8>, Failure> {
    let input = fs::read(file)
        .with_context(|| format!("reading {}", file.display()))
        .map_err(Failure::usage)?;
    if input.is_empty() {
        return Err(Failure::usage(anyhow!(
            "{} is empty: there is nothing to reduce",
            file.display()
        )));
    }
    Ok(input)
}

/// After the reduction: the result is tested once more (flaky?), refused if empty
/// without `--allow-empty`, and summed up.
fn conclude(
    args: &ReduceArgs,
    executor: &LocalExecutor,
    reduction: &Reduction,
    to: &Destination,
    accepts_empty: bool,
    reporter: &mut Reporter,
    started: Instant,
) -> Result<(), Failure> {
    let recheck = executor
        .run_one(&reduction.text, false)
        .map_err(Failure::failed)?;
    let empty = reduction.text.is_empty() && !args.allow_empty;
    let status = if !recheck.interesting {
        "flaky"
    } else if empty {
        "empty"
    } else {
        "ok"
    };
    let jobs = executor.jobs();
    reporter.done(status, jobs, reduction);
    if !args.quiet {
        print_summary(
            args,
            jobs,
            &to.dest,
            reduction,
            started.elapsed(),
            "reduced",
        );
    }
    if !recheck.interesting {
        return Err(Failure {
            error: anyhow!(
                "the result in {} was interesting when found but not on a second run ({}): \
                 the test is flaky",
                to.dest.display(),
                recheck.status
            ),
            code: FLAKY,
        });
    }
    if empty {
        return Err(Failure {
            error: anyhow!(
                "the result in {} is empty: the test {}accepts an empty file, so it is \
                 probably too weak (it should check for the bug itself){}; pass \
                 --allow-empty if an empty result is what you want",
                to.dest.display(),
                if accepts_empty { "" } else { "now " },
                to.backup
                    .as_ref()
                    .map(|b| format!("; the original is in {}", b.display()))
                    .unwrap_or_default()
            ),
            code: EMPTY,
        });
    }
    Ok(())
}
