//! `hdd reduce`: check the inputs, back up the original, reduce, keep the best on disk,
//! re-check the result, print the summary.

use std::ffi::OsString;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow};
use hdd::{Event, Lang, Reducer, Reduction};
use hdd_exec::{LocalExecutor, TestCommand, interrupted, stop_on_signals};
use serde_json::json;

use crate::args::ReduceArgs;
use crate::exit::{EMPTY, FLAKY, Failure, INTERRUPTED, NOT_INTERESTING};
use crate::report::Reporter;

/// The name of the language-agnostic mode.
pub(crate) const TEXT: &str = "text";

/// Default job count cap. A test usually keeps a core busy, so the default is the core
/// count, but not above 16: once the cores are busy, more jobs only add speculative tests
/// (on 2 cores, c-warn-300-slow: -j 8 ran 1,541 tests in 63.9 s, -j 16 2,675 in 93.8 s;
/// corpus/BENCH.md), and the coordinator that derives every candidate is one thread. Not
/// measured on a machine with more than 2 cores; `-j` sets any number.
const MAX_DEFAULT_JOBS: usize = 16;

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

fn reduce(args: &ReduceArgs, reporter: &mut Reporter) -> Result<(), Failure> {
    let started = Instant::now();
    let lang = choose_lang(args)?;
    let input = fs::read(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))
        .map_err(Failure::usage)?;
    if input.is_empty() {
        return Err(Failure::usage(anyhow!(
            "{} is empty: there is nothing to reduce",
            args.file.display()
        )));
    }
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
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(MAX_DEFAULT_JOBS)
    });
    if jobs == 0 {
        return Err(Failure::usage(anyhow!("-j must be at least 1")));
    }
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
    stop_on_signals();
    check_original(&executor, &input, &command, &args.file)?;
    let accepts_empty = sanity_checks(&executor, &input, reporter)?;
    if interrupted() {
        return Err(Failure {
            error: anyhow!(
                "interrupted before reducing; {} is untouched",
                args.file.display()
            ),
            code: INTERRUPTED,
        });
    }
    if let Some(backup) = &backup {
        fs::write(backup, &input)
            .with_context(|| format!("writing the backup {}", backup.display()))
            .map_err(Failure::failed)?;
    }

    let outcome = {
        let mut observe = |event: Event<'_>| -> Result<(), hdd::BoxError> {
            if let Event::Best(doc) = event {
                write_atomically(&dest, doc.text())?;
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
            let kept = format!(
                "the best result so far is in {}{}",
                dest.display(),
                backup
                    .as_ref()
                    .map(|b| format!(" and the original in {}", b.display()))
                    .unwrap_or_default()
            );
            if let Some(r) = &stopped.reduction {
                reporter.done("interrupted", jobs, r);
                if !args.quiet {
                    print_summary(args, jobs, &dest, r, started.elapsed(), "interrupted");
                }
            }
            return Err(Failure {
                error: anyhow!("interrupted; every test was stopped, {kept}"),
                code: INTERRUPTED,
            });
        }
        Err(stopped) => return Err(Failure::failed(anyhow!(stopped.error))),
    };
    if reduction.stats.accepted == 0 && backup.is_none() {
        write_atomically(&dest, &reduction.text).map_err(Failure::failed)?;
    }

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
    reporter.done(status, jobs, &reduction);
    if !args.quiet {
        print_summary(args, jobs, &dest, &reduction, started.elapsed(), "reduced");
    }
    if !recheck.interesting {
        return Err(Failure {
            error: anyhow!(
                "the result in {} was interesting when found but not on a second run ({}): \
                 the test is flaky",
                dest.display(),
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
                dest.display(),
                if accepts_empty { "" } else { "now " },
                backup
                    .as_ref()
                    .map(|b| format!("; the original is in {}", b.display()))
                    .unwrap_or_default()
            ),
            code: EMPTY,
        });
    }
    Ok(())
}

/// Two more runs before reducing, at once: the original again (a different answer
/// means the test is flaky) and an empty file (a test that accepts it is probably too
/// weak). Both are warnings; returns whether the empty file was interesting.
fn sanity_checks(
    executor: &LocalExecutor,
    input: &[u8],
    reporter: &mut Reporter,
) -> Result<bool, Failure> {
    let mut runs = executor.run_all(&[input, b""]).into_iter();
    let mut next = || {
        runs.next()
            .expect("one run per text")
            .map_err(Failure::failed)
    };
    let (again, empty) = (next()?, next()?);
    tracing::info!(
        status = %again.status,
        interesting = again.interesting,
        stderr = again.stderr_tail.as_str(),
        "check: the original, a second time"
    );
    tracing::info!(
        status = %empty.status,
        interesting = empty.interesting,
        stderr = empty.stderr_tail.as_str(),
        "check: an empty file"
    );
    if !again.interesting {
        reporter.warn(&format!(
            "the original was interesting once and not on a second run ({}): the test \
             looks flaky, results may not reproduce (--confirm K re-runs every success K \
             more times)",
            again.status
        ));
    }
    let accepts_empty = empty.interesting && !input.is_empty();
    if accepts_empty {
        reporter.warn(
            "the test also accepts an empty file: it is probably too weak (it should check \
             for the bug itself, e.g. grep the error message); the run will fail if the \
             result is empty, unless --allow-empty",
        );
    }
    Ok(accepts_empty)
}

/// The test to run: TEST, or the command after `--`, with what makes it interesting.
fn test_command(args: &ReduceArgs, file_name: OsString) -> Result<TestCommand, Failure> {
    let (program, rest) = match (&args.test, args.command.split_first()) {
        (Some(test), _) => (test.clone(), &[][..]),
        (None, Some((program, rest))) => (PathBuf::from(program), rest),
        (None, None) => return Err(Failure::usage(anyhow!("no test given"))),
    };
    let program = if program.components().count() == 1 && !program.exists() {
        // A bare name, as a shell would find it.
        find_in_path(&program).unwrap_or(program)
    } else {
        program
    };
    let mut command = TestCommand::new(&program, file_name, Duration::from_secs_f64(args.timeout))
        .map_err(Failure::usage)?;
    command.args = rest.to_vec();
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

fn find_in_path(name: &Path) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Test runs outside the reduction: the original (checked, then again for flakiness),
/// an empty file, and the result at the end. Counted in the summary's tests.
pub(crate) const CHECKS: u64 = 4;

/// The language to reduce in: `None` is the language-agnostic text mode (lines, words,
/// bytes), chosen by `--lang text` or by an extension no grammar claims.
fn choose_lang(args: &ReduceArgs) -> Result<Option<Lang>, Failure> {
    let Some(name) = &args.lang else {
        return Ok(Lang::from_path(&args.file));
    };
    if name.eq_ignore_ascii_case(TEXT) {
        return Ok(None);
    }
    Lang::from_name(name).map(Some).ok_or_else(|| {
        let known: Vec<&str> = Lang::ALL.iter().map(|l| l.name()).chain([TEXT]).collect();
        Failure::usage(anyhow!(
            "unknown language '{name}' (known: {})",
            known.join(", ")
        ))
    })
}

/// Where results go, and where the original is backed up (in-place mode only).
fn destinations(args: &ReduceArgs) -> Result<(PathBuf, Option<PathBuf>), Failure> {
    if let Some(out) = &args.output {
        return Ok((out.clone(), None));
    }
    let mut backup = args.file.clone().into_os_string();
    backup.push(".orig");
    let backup = PathBuf::from(backup);
    if backup.exists() && !args.force {
        return Err(Failure::usage(anyhow!(
            "{} already exists; pass --force to overwrite it, or -o OUT to leave {} untouched",
            backup.display(),
            args.file.display()
        )));
    }
    Ok((args.file.clone(), Some(backup)))
}

fn check_original(
    executor: &LocalExecutor,
    input: &[u8],
    command: &TestCommand,
    file: &Path,
) -> Result<(), Failure> {
    let outcome = executor.run_one(input, true).map_err(Failure::usage)?;
    let kept = outcome
        .kept_dir
        .expect("run_one keeps the folder when asked");
    if outcome.interesting {
        let _ = fs::remove_dir_all(kept.parent().unwrap_or(&kept));
        return Ok(());
    }
    let mut msg = format!(
        "the original {} is not interesting: the test ended with {} (interesting means {})",
        file.display(),
        outcome.status,
        command.expectation()
    );
    if outcome.stderr_tail.is_empty() {
        msg.push_str("\n  (the test wrote nothing to stderr)");
    } else {
        msg.push_str("\n  last lines of its stderr:");
        for line in outcome.stderr_tail.lines() {
            msg.push_str("\n    ");
            msg.push_str(line);
        }
    }
    let candidate = kept.join(&command.file_name);
    for arg in &command.args {
        let path = Path::new(arg);
        if path.is_relative() && *arg != command.file_name && path.exists() {
            msg.push_str(&format!(
                "\n  hint: the argument {} is a path relative to this folder, but the test \
                 runs in a temporary one: give it as an absolute path",
                path.display()
            ));
        }
    }
    let mut argv = vec![shell_quote(&command.program)];
    argv.extend(command.args.iter().map(|arg| {
        if arg == TestCommand::PATH_PLACEHOLDER {
            shell_quote(&candidate)
        } else {
            shell_quote(Path::new(arg))
        }
    }));
    msg.push_str(&format!(
        "\n  the test's folder is kept: {}\n  to reproduce: cd {} && HDD_FILE={} {} < {}; echo $?",
        kept.display(),
        shell_quote(&kept),
        shell_quote(&candidate),
        argv.join(" "),
        shell_quote(&candidate),
    ));
    Err(Failure {
        error: anyhow!(msg),
        code: NOT_INTERESTING,
    })
}

fn shell_quote(path: &Path) -> String {
    let s = path.to_string_lossy();
    if s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,".contains(&b))
    {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Writes `bytes` to `dest` through a temporary file in the same folder and a rename,
/// so `dest` always holds either the old or the new content, never a partial one.
fn write_atomically(dest: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".hdd-")
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_data())
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    if let Ok(meta) = fs::metadata(dest) {
        let _ = fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(dest)
        .with_context(|| format!("replacing {}", dest.display()))?;
    Ok(())
}

pub(crate) fn percent(after: usize, before: usize) -> String {
    if before == 0 {
        return "-".into();
    }
    #[expect(clippy::cast_precision_loss, reason = "a percentage for display")]
    let p = after as f64 * 100.0 / before as f64;
    format!("{p:.1}%")
}

#[expect(clippy::print_stderr, reason = "the summary goes to stderr")]
fn print_summary(
    args: &ReduceArgs,
    jobs: usize,
    dest: &Path,
    r: &Reduction,
    elapsed: Duration,
    what: &str,
) {
    let (b, a) = (r.before, r.after);
    eprintln!("hdd: {what} {} -> {}", args.file.display(), dest.display());
    eprintln!(
        "  bytes  {:>9} -> {:<9} ({})",
        b.bytes,
        a.bytes,
        percent(a.bytes, b.bytes)
    );
    eprintln!(
        "  tokens {:>9} -> {:<9} ({})",
        b.tokens,
        a.tokens,
        percent(a.tokens, b.tokens)
    );
    eprintln!(
        "  lines  {:>9} -> {:<9} ({})",
        b.lines,
        a.lines,
        percent(a.lines, b.lines)
    );
    let s = &r.stats;
    eprintln!(
        "  tests run {}, cache hits {}, invalid candidates filtered {}, accepted {}, time {:.1} s",
        s.tests + CHECKS,
        s.cache_hits,
        s.invalid,
        s.accepted,
        elapsed.as_secs_f64()
    );
    eprintln!(
        "  jobs {jobs}{}, merged successes {}, wasted tests {}, predicted failures {}",
        if args.deterministic {
            " (deterministic)"
        } else {
            ""
        },
        s.merged,
        s.wasted,
        s.predicted
    );
    if r.input_errors > 0 {
        eprintln!("  the input had {} syntax error nodes", r.input_errors);
    }
    eprintln!(
        "  {:<10} {:>7} {:>9} {:>12} {:>9} {:>13}",
        "pass", "tests", "accepted", "bytes saved", "time", "stopped early"
    );
    for p in &s.passes {
        eprintln!(
            "  {:<10} {:>7} {:>9} {:>12} {:>8.1}s {:>13}",
            p.name,
            p.tests,
            p.accepted,
            p.bytes_saved,
            p.time.as_secs_f64(),
            p.stopped_early
        );
    }
    eprintln!(
        "  rounds {} (stopped early = the pass's last tests saved too little)",
        s.rounds
    );
}
