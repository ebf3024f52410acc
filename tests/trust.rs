//! What makes a run trustworthy: progress and JSON events, the sanity checks around the
//! test (weak, flaky), `--confirm`, and a second Ctrl-C.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{
    assert_no_survivor, case_with_log, hdd, log_dir, oracle_env, script, stderr, wait_for,
};

const INPUT: &str = "int unused(int a) { return a * 2; }\n\
                     int keep(void) { int z = 3; return z + 0x5eed; }\n\
                     struct s { int a; char *b; };\n";

fn setup(test: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    script(&tmp.path().join("test.sh"), test);
    tmp
}

fn events(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn kind(e: &Value) -> &str {
    e["event"].as_str().expect("every event names itself")
}

#[test]
fn json_events_describe_the_run() {
    let tmp = setup("grep -q 0x5eed in.c");
    let out = hdd(tmp.path(), &["reduce", "--json", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let events = events(&out.stdout);
    let start = &events[0];
    assert_eq!(kind(start), "start");
    assert_eq!(start["bytes"], INPUT.len());
    assert_eq!(start["language"], "c");
    assert_eq!(start["file"], "in.c");
    let done = events.last().unwrap();
    assert_eq!(kind(done), "done");
    assert_eq!(done["status"], "ok");
    let on_disk = fs::read(tmp.path().join("in.c")).unwrap();
    assert_eq!(done["after"]["bytes"], on_disk.len());
    assert_eq!(done["before"]["bytes"], INPUT.len());
    assert!(done["tests"].as_u64().unwrap() > 4);
    assert!(!done["passes"].as_array().unwrap().is_empty());
    for pass in done["passes"].as_array().unwrap() {
        let tests = pass["tests"].as_f64().unwrap();
        let per_test = pass["bytes_per_test"].as_f64().unwrap();
        let expected = if tests == 0.0 {
            0.0
        } else {
            pass["bytes_saved"].as_f64().unwrap() / tests
        };
        assert!((per_test - expected).abs() <= 0.05, "{pass}");
    }
    // Every accepted best is smaller than the one before (shortlex: no longer, and as
    // long only when it comes first in byte order) and the last is the result.
    let accepted: Vec<u64> = events
        .iter()
        .filter(|e| kind(e) == "accepted")
        .map(|e| e["bytes"].as_u64().unwrap())
        .collect();
    assert!(!accepted.is_empty());
    assert!(accepted.windows(2).all(|w| w[1] <= w[0]), "{accepted:?}");
    assert_eq!(*accepted.last().unwrap() as usize, on_disk.len());
    // Passes start and end in pairs, inside rounds.
    let starts = events.iter().filter(|e| kind(e) == "pass_start").count();
    let ends = events.iter().filter(|e| kind(e) == "pass_end").count();
    assert_eq!(starts, ends);
    assert!(events.iter().any(|e| kind(e) == "round_start"));
}

#[test]
fn progress_lines_when_stderr_is_not_a_terminal_and_none_when_quiet() {
    let tmp = setup("grep -q 0x5eed in.c");
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(err.contains("hdd: [00:00:"), "{err}");
    assert!(err.contains("round 1 starting"), "{err}");
    assert!(err.contains("% interesting"), "{err}");
    assert!(err.contains("hdd: reduced in.c -> in.c"), "{err}");

    let tmp = setup("grep -q 0x5eed in.c");
    let out = hdd(tmp.path(), &["reduce", "-q", "in.c", "./test.sh"]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
    assert!(out.stdout.is_empty());
}

/// On a terminal (a pseudo-terminal made by `script`, from util-linux, which every
/// Debian has), the progress is one line redrawn in place, then the summary.
#[test]
fn progress_is_one_live_line_on_a_terminal() {
    let tmp = setup("sleep 0.2; grep -q 0x5eed in.c");
    let command = format!("{} reduce in.c ./test.sh", env!("CARGO_BIN_EXE_hdd"));
    let out = oracle_env(&mut Command::new("script"))
        .args(["-qec", &command, "/dev/null"])
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    // `script` copies what the terminal showed to its stdout.
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    // Redrawn in place: a carriage return and "erase the line" before each new state.
    let redraws = shown.matches("\r\x1b[2K").count();
    assert!(redraws >= 5, "{redraws} redraws: {shown:?}");
    // The round, the pass's place among all of them (`5/16`), its name.
    let digits = |c: char| c.is_ascii_digit();
    assert!(
        shown.split("round 1, pass ").skip(1).any(|rest| {
            let rest = rest.trim_start_matches(digits);
            rest.strip_prefix('/')
                .is_some_and(|r| r.trim_start_matches(digits).starts_with(" hdd ·"))
        }),
        "{shown:?}"
    );
    assert!(
        shown.contains(&format!("% of {})", INPUT.len())),
        "{shown:?}"
    );
    // Not the plain lines of a log.
    assert!(!shown.contains("hdd: [00:00:"), "{shown:?}");
    assert!(shown.contains("hdd: reduced in.c -> in.c"), "{shown:?}");
    assert!(
        fs::read_to_string(tmp.path().join("in.c"))
            .unwrap()
            .contains("0x5eed")
    );
}

#[test]
fn a_test_that_accepts_an_empty_file_is_called_weak() {
    let tmp = setup("exit 0");
    let out = hdd(tmp.path(), &["reduce", "--json", "in.c", "./test.sh"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("warning: the test also accepts an empty file"),
        "{err}"
    );
    assert!(err.contains("is empty"), "{err}");
    assert!(err.contains("--allow-empty"), "{err}");
    assert_eq!(fs::read(tmp.path().join("in.c")).unwrap(), b"");
    assert_eq!(
        fs::read_to_string(tmp.path().join("in.c.orig")).unwrap(),
        INPUT
    );
    let events = events(&out.stdout);
    assert!(
        events
            .iter()
            .any(|e| kind(e) == "warning" && e["message"].as_str().unwrap().contains("empty file"))
    );
    let done = events.iter().find(|e| kind(e) == "done").unwrap();
    assert_eq!(done["status"], "empty");
    assert_eq!(kind(events.last().unwrap()), "error");
    assert_eq!(events.last().unwrap()["exit_code"], 5);

    let tmp = setup("exit 0");
    let out = hdd(
        tmp.path(),
        &["reduce", "--allow-empty", "in.c", "./test.sh"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(tmp.path().join("in.c")).unwrap(), b"");
}

#[test]
fn a_test_that_answers_differently_on_the_original_is_called_flaky() {
    // The first run passes, the second (the original again) fails, later ones pass.
    let (tmp, _log) = case_with_log(
        "in.c",
        INPUT,
        "grep -q 0x5eed in.c || exit 1\n\
         mkdir {log}/first 2>/dev/null && exit 0\n\
         mkdir {log}/second 2>/dev/null && exit 1\n\
         exit 0",
    );
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: the original was interesting once and not on a second run"),
        "{err}"
    );
    assert!(err.contains("--confirm"), "{err}");
}

/// A test that says yes once to any text without `drop_me`, then no: `--confirm 1`
/// sees through it; without it, the result is not interesting any more (exit 4).
#[test]
fn confirm_reruns_every_success_before_trusting_it() {
    let input = format!("{INPUT}int drop_me;\n");
    let flaky_test = |log: &Path| {
        format!(
            "grep -q 0x5eed in.c || exit 1\n\
             grep -q drop_me in.c && exit 0\n\
             h=$(cksum < in.c | tr ' ' _)\n\
             mkdir {log}/$h 2>/dev/null",
            log = log.display()
        )
    };
    let run = |extra: &[&str]| {
        let tmp = tempfile::tempdir().unwrap();
        let log = log_dir(tmp.path());
        fs::write(tmp.path().join("in.c"), &input).unwrap();
        script(&tmp.path().join("test.sh"), &flaky_test(&log));
        let mut args = vec!["reduce", "-j", "2"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["in.c", "./test.sh"]);
        let out = hdd(tmp.path(), &args);
        let result = fs::read_to_string(tmp.path().join("in.c")).unwrap();
        (out, result)
    };

    let (out, result) = run(&["--confirm", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        result.contains("drop_me") && result.contains("0x5eed"),
        "{result}"
    );
    assert!(result.len() < input.len(), "{result}");

    let (out, _) = run(&[]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
}

/// A first Ctrl-C while the original is checked waits for that test to end; a second
/// one quits at once, killing every test's process group, the input untouched.
#[test]
fn a_second_ctrl_c_quits_at_once() {
    let (tmp, log) = case_with_log("in.c", INPUT, "{linger}\nsleep 4\ngrep -q 0x5eed in.c");
    let child = oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
        .args(["reduce", "in.c", "./test.sh"])
        .current_dir(tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let signal = || {
        let kill = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
    };
    // Once the original's test runs.
    wait_for(&log.join("pids"));
    signal();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    signal();
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "hdd took {:?} to quit after a second Ctrl-C",
        sent.elapsed()
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("press Ctrl-C again to quit at once"), "{err}");
    assert_eq!(fs::read_to_string(tmp.path().join("in.c")).unwrap(), INPUT);
    assert_eq!(assert_no_survivor(&log), 1, "the original's test");
}

/// A target that takes the candidate's path as its argument (`@@`), or reads it on
/// stdin, as fuzz targets do; `in.c` is left untouched with `-o`.
#[test]
fn a_command_after_two_dashes_gets_the_candidate_as_at_at_or_on_stdin() {
    for (target, with_path) in [("grep -q 0x5eed \"$1\"", true), ("grep -q 0x5eed", false)] {
        let tmp = setup("exit 1");
        let exe = tmp.path().join("target");
        script(&exe, target);
        let exe = exe.to_str().unwrap();
        let mut args = vec!["reduce", "-o", "out.c", "in.c", "--", exe];
        if with_path {
            args.push("@@");
        }
        let out = hdd(tmp.path(), &args);
        assert!(out.status.success(), "{target}: {}", stderr(&out));
        let result = fs::read_to_string(tmp.path().join("out.c")).unwrap();
        assert!(
            result.contains("0x5eed") && result.len() < INPUT.len() / 2,
            "{result}"
        );
        assert_eq!(fs::read_to_string(tmp.path().join("in.c")).unwrap(), INPUT);
    }
}

/// A crash by signal is exit code 128 + N; `--same-crash` keeps the reduction on the
/// first bug's message when another bug's crash would also do.
#[test]
fn interesting_exit_code_and_same_crash_keep_the_crash_that_was_asked_for() {
    let input = format!("{INPUT}int other(void) {{ return 0xdead; }}\n");
    let run = |target: &str, flags: &[&str]| {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("in.c"), &input).unwrap();
        let exe = tmp.path().join("target");
        script(&exe, target);
        let mut args = vec!["reduce", "-o", "out.c"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["in.c", "--", exe.to_str().unwrap(), "@@"]);
        let out = hdd(tmp.path(), &args);
        let result = fs::read_to_string(tmp.path().join("out.c")).unwrap_or_default();
        (out, result)
    };
    // Dies by SIGSEGV (11): exit code 139.
    let (out, result) = run(
        "grep -q 0x5eed \"$1\" && kill -SEGV $$\nexit 0",
        &["--interesting-exit-code", "139"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(result.contains("0x5eed") && result.len() < 60, "{result}");
    let (out, _) = run("grep -q 0x5eed \"$1\" && kill -SEGV $$\nexit 0", &[]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("killed by signal 11"),
        "{}",
        stderr(&out)
    );

    // Two bugs, both exit 1, each with its own message: --same-crash holds on to the
    // first.
    let two_bugs = "if grep -q 0x5eed \"$1\"; then echo 'ERROR: bug A' >&2; exit 1; fi\n\
                    if grep -q 0xdead \"$1\"; then echo 'ERROR: bug B' >&2; exit 1; fi\n\
                    exit 0";
    let (out, result) = run(
        two_bugs,
        &["--interesting-exit-code", "1", "--same-crash", "bug A"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(result.contains("0x5eed"), "{result}");
    assert!(!result.contains("0xdead"), "{result}");
}

/// `--mem-limit` caps every test's address space: a test that needs 40 MB fails under
/// 20 MB and passes under 500.
#[test]
fn mem_limit_caps_each_test() {
    let test = "python3 -c 'b = bytearray(40_000_000); b[-1] = 1' || exit 9\n\
                grep -q 0x5eed in.c";
    let tmp = setup(test);
    let out = hdd(
        tmp.path(),
        &["reduce", "--mem-limit", "20", "in.c", "./test.sh"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(tmp.path().join("in.c")).unwrap(), INPUT);
    let tmp = setup(test);
    let out = hdd(
        tmp.path(),
        &["reduce", "--mem-limit", "500", "in.c", "./test.sh"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn shell_completions_know_the_commands_and_options() {
    let tmp = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = hdd(tmp.path(), &["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["reduce", "same-crash", "deterministic"] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    let out = hdd(tmp.path(), &["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn verbose_logs_show_the_checks_output_then_passes_then_every_test() {
    let tmp = setup("echo 'said by the test' >&2\ngrep -q 0x5eed in.c");
    let out = hdd(tmp.path(), &["reduce", "-v", "in.c", "./test.sh"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(err.contains("check: an empty file"), "{err}");
    assert!(err.contains("said by the test"), "{err}");
    assert!(
        err.contains("pass started") && err.contains("accepted"),
        "{err}"
    );
    assert!(!err.contains("test ended"), "{err}");

    let tmp = setup("grep -q 0x5eed in.c");
    let out = hdd(tmp.path(), &["reduce", "-vv", "in.c", "./test.sh"]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("test ended interesting=false"));
}
