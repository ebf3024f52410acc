//! The test runs around a reduction: the original must be interesting (else a full
//! report: exit code, stderr, the kept folder, a command to reproduce), and is run again
//! (flaky?) with an empty file (too weak?).

use std::fs;
use std::path::Path;

use anyhow::anyhow;
use hdd_exec::{LocalExecutor, TestCommand};

use crate::exit::{Failure, NOT_INTERESTING};

/// Test runs outside the reduction: the original (checked, then again for flakiness),
/// an empty file, and the result at the end. Counted in the summary's tests.
pub(crate) const CHECKS: u64 = 4;

/// Runs the test on the original, keeping its folder when it is not interesting.
pub(crate) fn check_original(
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

/// Two more runs before reducing, at once: the original again (a different answer
/// means the test is flaky) and an empty file (a test that accepts it is probably too
/// weak). Both are warnings, returned with whether the empty file was interesting.
pub(crate) fn sanity_checks(
    executor: &LocalExecutor,
    input: &[u8],
) -> Result<(Vec<String>, bool), Failure> {
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
    let mut warnings = Vec::new();
    if !again.interesting {
        warnings.push(format!(
            "the original was interesting once and not on a second run ({}): the test \
             looks flaky, results may not reproduce (--confirm K re-runs every success K \
             more times)",
            again.status
        ));
    }
    let accepts_empty = empty.interesting && !input.is_empty();
    if accepts_empty {
        warnings.push(
            "the test also accepts an empty file: it is probably too weak (it should check \
             for the bug itself, e.g. grep the error message); the run will fail if the \
             result is empty, unless --allow-empty"
                .to_owned(),
        );
    }
    Ok((warnings, accepts_empty))
}
