//! What makes a run trustworthy: progress and JSON events, the sanity checks around the
//! test (weak, flaky), `--confirm`, and a second Ctrl-C.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{hdd, script, stderr};

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
    // Every accepted size is smaller than the one before and the last is the result.
    let accepted: Vec<u64> = events
        .iter()
        .filter(|e| kind(e) == "accepted")
        .map(|e| e["bytes"].as_u64().unwrap())
        .collect();
    assert!(!accepted.is_empty());
    assert!(accepted.windows(2).all(|w| w[1] < w[0]), "{accepted:?}");
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
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    fs::create_dir(&log).unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    // The first run passes, the second (the original again) fails, later ones pass.
    script(
        &tmp.path().join("test.sh"),
        &format!(
            "grep -q 0x5eed in.c || exit 1\n\
             mkdir {log}/first 2>/dev/null && exit 0\n\
             mkdir {log}/second 2>/dev/null && exit 1\n\
             exit 0",
            log = log.display()
        ),
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
        let log = tmp.path().join("log");
        fs::create_dir(&log).unwrap();
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
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    fs::create_dir(&log).unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    script(
        &tmp.path().join("test.sh"),
        &format!(
            "(sleep 2; touch {log}/SURVIVOR) &\nsleep 4\ngrep -q 0x5eed in.c",
            log = log.display()
        ),
    );
    let child = Command::new(env!("CARGO_BIN_EXE_hdd"))
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
    std::thread::sleep(Duration::from_millis(500));
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
    std::thread::sleep(Duration::from_millis(2500));
    assert!(
        !log.join("SURVIVOR").exists(),
        "a test's process outlived hdd"
    );
}
