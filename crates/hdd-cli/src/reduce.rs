//! `hdd reduce`: check the inputs, back up the original, reduce, keep the best on disk,
//! re-check the result, print the summary. Each step is a function of its own module:
//! `setup` (arguments to a language, a test and jobs), `checks` (the test runs around the
//! reduction), `files` (backup, atomic writes), `report` (progress and events) and
//! `summary`.

use std::ffi::OsString;
use std::fs;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use hdd::{Event, Executor as _, Reducer, Reduction};
use hdd_exec::{LocalExecutor, TestCommand, VerdictStore, interrupted, stop_on_signals};
use serde_json::json;

use crate::args::{ListSchedule, ReduceArgs};
use crate::checks::{check_original, sanity_checks};
use crate::exit::{CHANGED, EMPTY, FLAKY, Failure, INTERRUPTED};
use crate::files::Output;
use crate::range::confined_range;
use crate::report::Reporter;
use crate::setup::{BYTES, TEXT, bytes_mode, choose_lang, jobs, test_command, timeout, work_root};
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

/// The store of this test's verdicts, with those of earlier runs (`--no-cache` goes
/// without).
fn open_verdicts(command: &TestCommand, confirm: u32) -> anyhow::Result<VerdictStore> {
    let root = VerdictStore::default_root()
        .ok_or_else(|| anyhow!("no cache folder (set HDD_CACHE_DIR or HOME)"))?;
    Ok(VerdictStore::open(
        &root,
        command,
        confirm,
        hdd_exec::DEFAULT_MAX_BYTES,
    )?)
}

fn reduce(args: &ReduceArgs, reporter: &mut Reporter) -> Result<(), Failure> {
    let started = Instant::now();
    let lang = choose_lang(args)?;
    let timeout = timeout(args.timeout)?;
    let input = read_input(&args.file)?;
    let file_name: OsString = args
        .file
        .file_name()
        .ok_or_else(|| Failure::usage(anyhow!("{} is not a file name", args.file.display())))?
        .to_owned();
    let command = test_command(args, file_name, timeout)?;
    let range = confined_range(args.range, args.byte_range, &args.file, &input)?;
    let jobs = jobs(args)?;
    let (mut output, notes) = Output::plan(args, &command.program, &input)?;
    let mut executor = match work_root(args)? {
        Some(root) => {
            LocalExecutor::with_root(command.clone(), jobs, std::sync::Arc::default(), &root)
        }
        None => LocalExecutor::new(command.clone(), jobs),
    }
    .map_err(Failure::failed)?;
    executor.set_confirmations(args.confirm);
    reporter.about(json!({
        "file": args.file,
        "output": output.dest(),
        "language": match lang {
            Some(lang) => lang.name(),
            None if bytes_mode(args) => BYTES,
            None => TEXT,
        },
        "jobs": jobs,
        "deterministic": args.deterministic,
        "valid_only": args.valid_only,
        "range": range.as_ref().map(|r| [r.start, r.end]),
        "timeout": args.timeout,
    }));
    for note in &notes {
        reporter.warn(note);
    }
    if !args.no_cache {
        match open_verdicts(&command, args.confirm) {
            Ok(store) => executor.set_verdict_store(store),
            Err(e) => reporter.warn(&format!(
                "the verdicts of earlier runs are not used nor kept: {e:#}"
            )),
        }
    }

    stop_on_signals()
        .context("listening for Ctrl-C")
        .map_err(Failure::failed)?;
    let untouched = || Failure {
        error: anyhow!(
            "interrupted before reducing; {} is untouched",
            args.file.display()
        ),
        code: INTERRUPTED,
    };
    let checked = check_original(&executor, &input, &command, &args.file)
        .and_then(|()| sanity_checks(&executor, &input));
    let (warnings, accepts_empty) = match checked {
        Err(_) if interrupted() => return Err(untouched()),
        checked => checked?,
    };
    for warning in &warnings {
        reporter.warn(warning);
    }
    if interrupted() {
        return Err(untouched());
    }
    output.write_backup(&input, &args.file)?;

    let outcome = {
        let mut observe = |event: Event<'_>| -> Result<(), hdd::BoxError> {
            if let Event::Best(doc) = event
                && let Some(beside) = output.save(doc.text())?
            {
                reporter.warn(&changed_warning(output.dest(), &beside));
            }
            reporter.event(&event);
            Ok(())
        };
        let reducer = Reducer::new(lang);
        let reducer = match &range {
            Some(range) => reducer.range(range.clone()),
            None => reducer,
        };
        reducer
            .original_checked(true)
            .deterministic(args.deterministic)
            .valid_only(args.valid_only)
            .bytes(bytes_mode(args))
            .schedule(match args.list_schedule {
                ListSchedule::Counter => hdd::Schedule::Counter,
                ListSchedule::Halving => hdd::Schedule::Halving,
                ListSchedule::Weighted => hdd::Schedule::Weighted,
            })
            .reduce_partial(input, &mut executor, &mut observe)
    };
    let reduction = match outcome {
        Ok(reduction) => reduction,
        Err(stopped) if interrupted() => {
            drop(executor);
            if let Some(r) = &stopped.reduction {
                if let Some(beside) = output.settle(&r.text).map_err(Failure::failed)? {
                    reporter.warn(&changed_warning(output.dest(), &beside));
                }
                reporter.done("interrupted", jobs, r);
                if !args.quiet {
                    print_summary(
                        args,
                        jobs,
                        output.best_path(),
                        r,
                        started.elapsed(),
                        "interrupted",
                    );
                }
            }
            return Err(Failure {
                error: anyhow!("interrupted; every test was stopped, {}", output.kept()),
                code: INTERRUPTED,
            });
        }
        Err(stopped) => return Err(Failure::failed(anyhow!(stopped.error))),
    };
    if reduction.stats.accepted == 0
        && output.backup().is_none()
        && let Some(beside) = output.save(&reduction.text).map_err(Failure::failed)?
    {
        reporter.warn(&changed_warning(output.dest(), &beside));
    }
    if let Some(beside) = output.settle(&reduction.text).map_err(Failure::failed)? {
        reporter.warn(&changed_warning(output.dest(), &beside));
    }
    conclude(
        args,
        &executor,
        &reduction,
        &output,
        accepts_empty,
        reporter,
        started,
    )
}

/// What hdd says when someone else changed the file it writes.
fn changed_warning(dest: &Path, beside: &Path) -> String {
    format!(
        "{} was changed by someone else during the run: hdd leaves it as it is now and \
         writes its best result to {} instead",
        dest.display(),
        beside.display()
    )
}

/// The input's bytes; an empty input is refused (there is nothing to reduce), and so is
/// anything but a regular file (a folder; a FIFO or a device would block the read or
/// could not be written back).
fn read_input(file: &Path) -> Result<Vec<u8>, Failure> {
    let meta = fs::metadata(file)
        .with_context(|| format!("reading {}", file.display()))
        .map_err(Failure::usage)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(Failure::usage(anyhow!(
            "{} is {what}: hdd reduces a regular file",
            file.display()
        )));
    }
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
    output: &Output,
    accepts_empty: bool,
    reporter: &mut Reporter,
    started: Instant,
) -> Result<(), Failure> {
    let recheck = match executor.run_one(&reduction.text, false) {
        Ok(recheck) => recheck,
        Err(_) if interrupted() => {
            return Err(Failure {
                error: anyhow!(
                    "interrupted during the final check of the result; {}",
                    output.kept()
                ),
                code: INTERRUPTED,
            });
        }
        Err(e) => return Err(Failure::failed(e)),
    };
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
            output.best_path(),
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
                output.best_path().display(),
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
                output.best_path().display(),
                if accepts_empty { "" } else { "now " },
                output
                    .backup()
                    .map(|b| format!("; the original is in {}", b.display()))
                    .unwrap_or_default()
            ),
            code: EMPTY,
        });
    }
    if let Some(beside) = output.diverted() {
        return Err(Failure {
            error: anyhow!(
                "{} was changed by someone else during the run, so hdd left it as it is; \
                 the result is in {}{}",
                output.dest().display(),
                beside.display(),
                output
                    .backup()
                    .map(|b| format!(" and the original in {}", b.display()))
                    .unwrap_or_default()
            ),
            code: CHANGED,
        });
    }
    Ok(())
}
