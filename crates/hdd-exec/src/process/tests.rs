//! The local executor's tests: tests started, cancelled, timed out, stopped.

use std::os::unix::fs::PermissionsExt as _;
use std::time::Instant;

use super::*;

fn script(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("test.sh");
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn executor(dir: &Path, body: &str, timeout: Duration) -> LocalExecutor {
    let test = script(dir, body);
    LocalExecutor::new(TestCommand::new(&test, "in.c".into(), timeout).unwrap(), 2).unwrap()
}

#[test]
fn test_sees_the_candidate_under_its_name_in_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut exec = executor(
        dir.path(),
        r#"[ "$HDD_FILE" = "$PWD/in.c" ] && grep -q keep in.c"#,
        Duration::from_secs(10),
    );
    exec.start(1, b"keep").unwrap();
    exec.start(2, b"drop").unwrap();
    let mut verdicts = vec![exec.wait().unwrap().unwrap(), exec.wait().unwrap().unwrap()];
    verdicts.sort_unstable();
    assert_eq!(verdicts, vec![(1, true), (2, false)]);
    assert_eq!(exec.wait().unwrap(), None);
}

/// A test that starts a grandchild which would touch `marker` after a while.
/// A test that starts a grandchild and notes its pid in `pids`, then waits.
fn lingering(dir: &Path, pids: &Path, timeout: Duration) -> LocalExecutor {
    executor(
        dir,
        &format!("sleep 60 & echo $! >> {}\nsleep 30", pids.display()),
        timeout,
    )
}

/// Waits until `pids` lists `n` processes, then returns them.
fn started(pids: &Path, n: usize) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let listed: Vec<u32> = fs::read_to_string(pids)
            .unwrap_or_default()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        if listed.len() >= n {
            return listed;
        }
        assert!(Instant::now() < deadline, "the tests did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Checks (allowing a second for the kill to land) that no process of `pids` is
/// still running; a zombie waiting to be reaped counts as gone.
fn assert_gone(pids: &[u32], what: &str) {
    let deadline = Instant::now() + Duration::from_secs(1);
    let running = |pid: &u32| {
        fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.contains("(sleep) ") && !stat.contains(") Z "))
    };
    while pids.iter().any(running) {
        assert!(Instant::now() < deadline, "a grandchild of {what} survived");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn cancelled_and_dropped_tests_leave_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let cancelled = dir.path().join("cancelled");
    let dropped = dir.path().join("dropped");
    let mut exec = lingering(dir.path(), &cancelled, Duration::from_secs(60));
    exec.start(1, b"x").unwrap();
    let pids = started(&cancelled, 1);
    exec.cancel(&[1]);
    assert_eq!(
        exec.wait().unwrap(),
        None,
        "a cancelled test has no verdict"
    );
    assert_gone(&pids, "a cancelled test");
    let mut exec = lingering(dir.path(), &dropped, Duration::from_secs(60));
    exec.start(1, b"x").unwrap();
    exec.start(2, b"y").unwrap();
    let pids = started(&dropped, 2);
    let begun = Instant::now();
    drop(exec);
    assert!(
        begun.elapsed() < Duration::from_secs(5),
        "drop waited for the tests"
    );
    assert_gone(&pids, "a test still running when the executor was dropped");
}

#[test]
fn timeout_kills_the_test_and_its_grandchildren() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let exec = lingering(dir.path(), &pids, Duration::from_millis(200));
    let outcome = exec.run_one(b"x", false).unwrap();
    assert_eq!(outcome.status, Status::TimedOut);
    assert_gone(&started(&pids, 1), "a test that timed out");
}

#[test]
fn kept_folder_and_stderr_tail_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let exec = executor(dir.path(), "echo boom >&2; exit 3", Duration::from_secs(10));
    let outcome = exec.run_one(b"x", true).unwrap();
    assert_eq!(outcome.status, Status::Exited(3));
    assert_eq!(outcome.stderr_tail, "boom");
    let kept = outcome.kept_dir.unwrap();
    assert_eq!(fs::read(kept.join("in.c")).unwrap(), b"x");
    fs::remove_dir_all(kept.parent().unwrap()).unwrap();
}

/// A test whose grandchildren leave its process group: one in a session of its own,
/// one in a group of its own (`timeout` makes one), one through a double fork; each
/// notes its pid. All are killed by the time `run_one` returns, and none of them is
/// left a zombie.
#[test]
fn leftovers_outside_the_group_are_killed_and_reaped() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let exec = executor(
        dir.path(),
        &format!(
            "setsid sleep 60 & echo $! >> {p}\n\
             timeout 60 sleep 60 & echo $! >> {p}\n\
             ( ( sleep 60 & echo $! >> {p} ) & )\n\
             sleep 0.2",
            p = pids.display()
        ),
        Duration::from_secs(10),
    );
    let outcome = exec.run_one(b"x", false).unwrap();
    assert_eq!(outcome.status, Status::Exited(0));
    let pids = started(&pids, 3);
    // Tests of other unit tests that started before these leftovers may still run,
    // and spare them (they might be theirs) until they end: sweep until they are gone.
    let deadline = Instant::now() + Duration::from_secs(10);
    while let Some(pid) = pids
        .iter()
        .find(|pid| Path::new(&format!("/proc/{pid}")).exists())
    {
        assert!(
            Instant::now() < deadline,
            "{pid} is still there: {:?}",
            fs::read_to_string(format!("/proc/{pid}/stat"))
        );
        orphans::sweep(PATIENCE, false);
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_test_that_deletes_its_folder_is_named_when_its_folder_is_wanted() {
    let dir = tempfile::tempdir().unwrap();
    let failing = executor(
        dir.path(),
        r#"rm -rf "$PWD"; exit 1"#,
        Duration::from_secs(10),
    );
    let err = failing.run_one(b"x", true).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the test deleted its own folder"),
        "{err}"
    );
    assert!(format!("{:?}", err).contains("exit code 1"), "{err:?}");
    let passing = executor(
        dir.path(),
        r#"rm -rf "$PWD"; exit 0"#,
        Duration::from_secs(10),
    );
    let outcome = passing.run_one(b"x", true).unwrap();
    assert!(outcome.interesting);
    let kept = outcome.kept_dir.unwrap();
    fs::remove_dir_all(kept.parent().unwrap()).unwrap();
}

#[test]
fn its_own_stop_flag_kills_its_tests_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut exec = executor(dir.path(), "sleep 30", Duration::from_secs(60));
    exec.start(1, b"x").unwrap();
    let stop = exec.stop_flag();
    assert!(!exec.stop_requested());
    let started = Instant::now();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let err = exec.wait().unwrap_err();
    assert!(err.to_string().contains("interrupted"), "{err}");
    assert!(exec.stop_requested());
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(exec.run_one(b"x", false), Err(Error::Interrupted)));
}

#[test]
fn bad_tests_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = TestCommand::new(&dir.path().join("nope"), "a".into(), Duration::from_secs(1));
    assert!(matches!(missing, Err(Error::TestMissing { .. })));
    let plain = dir.path().join("plain.sh");
    fs::write(&plain, "exit 0\n").unwrap();
    let err = TestCommand::new(&plain, "a".into(), Duration::from_secs(1)).unwrap_err();
    assert!(err.to_string().contains("chmod +x"), "{err}");
    fs::set_permissions(&plain, fs::Permissions::from_mode(0o755)).unwrap();
    let exec = LocalExecutor::new(
        TestCommand::new(&plain, "a".into(), Duration::from_secs(1)).unwrap(),
        1,
    )
    .unwrap();
    let err = exec.run_one(b"", false).unwrap_err();
    assert!(err.to_string().contains("#!"), "{err}");
}

/// An executor whose tests run through `template`, with the test `body`.
fn through(dir: &Path, body: &str, template: &str, timeout: Duration) -> LocalExecutor {
    let test = script(dir, body);
    let mut command = TestCommand::new(&test, "in.c".into(), timeout).unwrap();
    command.exec = Some(template.to_owned());
    LocalExecutor::new(command, 2).unwrap()
}

#[test]
fn a_template_runs_the_test_and_its_status_is_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let template = format!(
        "echo \"{{id}} {{name}} $(basename {{dir}})\" >> {}; cd {{dir}} && test -f {{file}} && {{cmd}}",
        log.display()
    );
    let exec = through(
        dir.path(),
        "grep -q yes in.c",
        &template,
        Duration::from_secs(10),
    );
    let outcomes = exec.run_all(&[b"yes", b"no"]);
    let verdicts: Vec<bool> = outcomes
        .iter()
        .map(|o| o.as_ref().unwrap().interesting)
        .collect();
    assert_eq!(verdicts, [true, false]);
    let log = fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = log.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["0 in.c work", "1 in.c work"], "{log}");
}

#[test]
fn a_cancelled_or_timed_out_template_gets_sigterm_first() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    // The template stands for `srun`: on SIGTERM it "cancels its remote step" (notes it)
    // and ends.
    let template = format!(
        "trap 'echo term {{id}} >> {}; exit 143' TERM; {{cmd}} & wait",
        log.display()
    );
    let mut exec = through(
        dir.path(),
        "exec sleep 30",
        &template,
        Duration::from_millis(300),
    );
    let begun = Instant::now();
    let timed_out = exec.run_one(b"x", false).unwrap();
    assert_eq!(timed_out.status, Status::TimedOut);
    exec.start(7, b"y").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    exec.cancel(&[7]);
    assert_eq!(
        exec.wait().unwrap(),
        None,
        "a cancelled test has no verdict"
    );
    drop(exec);
    assert!(
        begun.elapsed() < Duration::from_secs(5),
        "{:?}",
        begun.elapsed()
    );
    let log = fs::read_to_string(&log).unwrap();
    assert_eq!(log.lines().count(), 2, "both got SIGTERM: {log}");
}

#[test]
fn a_template_that_ignores_sigterm_is_killed_after_the_grace() {
    let dir = tempfile::tempdir().unwrap();
    let template = "trap '' TERM; {cmd}";
    let exec = through(
        dir.path(),
        "exec sleep 60",
        template,
        Duration::from_millis(100),
    );
    let begun = Instant::now();
    let outcome = exec.run_one(b"x", false).unwrap();
    assert_eq!(outcome.status, Status::TimedOut);
    let took = begun.elapsed();
    assert!(
        took >= crate::launch::GRACE && took < crate::launch::GRACE * 3,
        "{took:?}"
    );
}

#[test]
fn the_grace_lasts_until_the_whole_group_has_ended() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    // The template's shell dies at SIGTERM at once (it runs `true` first, so it does not
    // exec the test); the test needs a second to clean up, and gets it.
    let body = format!(
        "trap 'sleep 1; echo cleaned >> {}; exit 1' TERM\nsleep 30 & wait",
        log.display()
    );
    let exec = through(dir.path(), &body, "true; {cmd}", Duration::from_millis(300));
    let outcome = exec.run_one(b"x", false).unwrap();
    assert_eq!(outcome.status, Status::TimedOut);
    assert_eq!(fs::read_to_string(&log).unwrap_or_default(), "cleaned\n");
}
