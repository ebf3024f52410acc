//! No process outlives its test, whatever the test does (`setsid`, double forks) and
//! however hdd ends (normally, Ctrl-C, SIGTERM, SIGHUP, SIGKILL); no temporary folder is
//! left behind.
//!
//! Each case lives in a folder whose name holds a unique marker, and its test's processes
//! carry it in their command lines (the test script's path, `sleep MARKER`), so the
//! processes left are found by scanning `/proc/*/cmdline`; they are killed when the case
//! is dropped, so a failing test leaks nothing. hdd runs with a private `TMPDIR`, which
//! must be empty afterwards.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::common::{oracle_env, processes_with, script, stderr, wait_for};

const INPUT: &str = "int a1(void) { return 1; }\nint a2(void) { return 2; }\n\
                     int keep(void) { int z = 3; return z + 0x5eed; }\n";

/// A case: a folder named after a unique marker, holding `in.c` and `test.sh`, and a
/// private temporary folder for hdd.
struct Case {
    dir: tempfile::TempDir,
    tmp: tempfile::TempDir,
    marker: String,
}

impl Case {
    /// A case whose test runs `body`, in which `{marker}` stands for the marker (a
    /// number: `sleep {marker}` sleeps for 20 minutes) and `{dir}` for the case's folder.
    fn new(body: &str) -> Case {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let marker = format!(
            "1234.{}{:09}{}",
            std::process::id(),
            nanos,
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let dir = tempfile::Builder::new()
            .prefix(&format!("case-{marker}-"))
            .tempdir()
            .unwrap();
        let tmp = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("in.c"), INPUT).unwrap();
        let case = Case { dir, tmp, marker };
        case.test(body);
        case
    }

    /// Rewrites the test.
    fn test(&self, body: &str) {
        let body = body
            .replace("{marker}", &self.marker)
            .replace("{dir}", &self.path().display().to_string());
        script(&self.path().join("test.sh"), &body);
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `hdd reduce ARGS in.c ./test.sh`, in the case's folder, with its private TMPDIR.
    fn hdd(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hdd"));
        oracle_env(&mut command)
            .env("TMPDIR", self.tmp.path())
            .current_dir(self.path())
            .arg("reduce")
            .args(args)
            .args(["in.c", "./test.sh"]);
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.hdd(args).output().expect("the hdd binary runs")
    }

    /// Starts hdd and waits until its test has run `runs` times (the test must append a
    /// line to `{dir}/runs` each time).
    fn start(&self, args: &[&str], runs: usize) -> Child {
        let child = self
            .hdd(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.runs() < runs {
            assert!(Instant::now() < deadline, "the test never ran {runs} times");
            std::thread::sleep(Duration::from_millis(10));
        }
        child
    }

    fn runs(&self) -> usize {
        fs::read_to_string(self.path().join("runs")).map_or(0, |r| r.lines().count())
    }

    /// The live processes whose command line holds the marker.
    fn survivors(&self) -> Vec<u32> {
        processes_with(&self.marker)
    }

    /// Checks, allowing `patience` for the kills to land, that no process of the case's
    /// is left.
    fn assert_no_survivor(&self, patience: Duration) {
        let deadline = Instant::now() + patience;
        loop {
            let left = self.survivors();
            if left.is_empty() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "processes of the test outlived it: {}",
                describe(&left)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What is left in the private TMPDIR.
    fn folders(&self) -> Vec<String> {
        fs::read_dir(self.tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    fn assert_no_folder(&self) {
        assert_eq!(
            self.folders(),
            Vec::<String>::new(),
            "temporary folders left"
        );
    }
}

impl Drop for Case {
    fn drop(&mut self) {
        for pid in self.survivors() {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
    }
}

/// `ps`-like lines for `pids`, for messages.
fn describe(pids: &[u32]) -> String {
    pids.iter()
        .map(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            format!(
                "\n  {}",
                stat.split(' ').take(8).collect::<Vec<_>>().join(" ")
            )
        })
        .collect()
}

/// Sends `signal` (`-INT`, `-KILL`, …) to `child`.
fn signal(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits for `child`, failing after `limit`.
fn exit_within(mut child: Child, limit: Duration) -> (ExitStatus, String) {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (status, stderr(&out));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("hdd took more than {limit:?} to exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A normal run of a test that leaves a process behind; the result must be right, and
/// nothing left.
fn nothing_outlives_a_run(body: &str, args: &[&str]) -> Case {
    let case = Case::new(body);
    let out = case.run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    let reduced = fs::read_to_string(case.path().join("in.c")).unwrap();
    assert!(
        reduced.contains("0x5eed") && reduced.len() < INPUT.len(),
        "{reduced}"
    );
    case.assert_no_survivor(Duration::from_secs(1));
    case.assert_no_folder();
    case
}

#[test]
fn what_a_test_starts_in_a_new_session_dies_with_it() {
    let _ = nothing_outlives_a_run("setsid sleep {marker} &\ngrep -q 0x5eed in.c", &["-j", "2"]);
}

/// `timeout` puts itself and its command in a process group of their own.
#[test]
fn what_a_test_starts_in_a_group_of_its_own_dies_with_it() {
    let _ = nothing_outlives_a_run(
        "timeout 1000 sleep {marker} &\ngrep -q 0x5eed in.c",
        &["-j", "2"],
    );
}

/// (The double-forked process stays in the test's group: the group kill took it before
/// hdd was a subreaper; now hdd reaps it too.)
#[test]
fn what_a_test_starts_through_a_double_fork_dies_with_it() {
    let _ = nothing_outlives_a_run(
        "( ( sleep {marker} & ) & )\ngrep -q 0x5eed in.c",
        &["-j", "2"],
    );
}

/// The first two tests of the reduction (after the three checks) hang, in a `sleep`
/// that carries the marker too, and time out; every test leaves one process in a new
/// session and one through a double fork.
#[test]
fn what_a_test_that_times_out_starts_dies_with_it() {
    let case = nothing_outlives_a_run(
        "echo >> {dir}/runs\nsetsid sleep {marker} &\n( ( sleep {marker} & ) & )\n\
         n=$(wc -l < {dir}/runs)\n[ \"$n\" -le 3 ] || [ \"$n\" -ge 6 ] || sleep {marker}\n\
         grep -q 0x5eed in.c",
        &["-j", "2", "--timeout", "1"],
    );
    assert!(case.runs() > 5, "the hanging tests did not run");
}

/// A signal in the middle of a -j 2 reduction whose tests leave processes in their group
/// and in new sessions: exit 130 at once, nothing left.
fn a_signal_stops_everything(sig: &str) {
    let case = Case::new(
        "echo >> {dir}/runs\nsetsid sleep {marker} &\nsleep {marker} &\n\
         grep -q 0x5eed in.c || exit 1\nsleep 0.3",
    );
    // Three runs check the original, an empty file, the original again.
    let hdd = case.start(&["-j", "2"], 5);
    signal(&hdd, sig);
    let (status, err) = exit_within(hdd, Duration::from_secs(3));
    assert_eq!(status.code(), Some(130), "{sig}: {err}");
    assert!(err.contains("interrupted"), "{err}");
    case.assert_no_survivor(Duration::from_secs(1));
    case.assert_no_folder();
}

#[test]
fn sigint_leaves_no_process_and_no_folder() {
    a_signal_stops_everything("-INT");
}

#[test]
fn sigterm_leaves_no_process_and_no_folder() {
    a_signal_stops_everything("-TERM");
}

#[test]
fn sighup_is_handled_like_sigterm() {
    a_signal_stops_everything("-HUP");
}

/// Under `nohup` (SIGHUP ignored from the start) SIGHUP does not stop the run.
#[test]
fn sighup_under_nohup_does_not_stop_the_run() {
    let case = Case::new("echo >> {dir}/runs\ngrep -q 0x5eed in.c || exit 1\nsleep 0.1");
    let mut nohup = Command::new("nohup");
    nohup.arg(env!("CARGO_BIN_EXE_hdd"));
    let hdd = oracle_env(&mut nohup)
        .env("TMPDIR", case.tmp.path())
        .current_dir(case.path())
        .args(["reduce", "-j", "2", "in.c", "./test.sh"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while case.runs() < 5 {
        assert!(Instant::now() < deadline, "the test never ran 5 times");
        std::thread::sleep(Duration::from_millis(10));
    }
    signal(&hdd, "-HUP");
    let (status, err) = exit_within(hdd, Duration::from_secs(10));
    assert!(status.success(), "{err}");
    assert!(!err.contains("interrupted"), "{err}");
    case.assert_no_folder();
}

/// hdd killed by SIGKILL while its tests hang: the tests (the scripts, which carry the
/// marker in their path, their `sleep`, and a `sleep` each started in a new session) die
/// all the same, and the next run removes the dead run's temporary folder.
#[test]
fn sigkill_kills_the_tests_and_the_next_run_removes_the_folder() {
    let case = Case::new(
        "echo >> {dir}/runs\n\
         if [ \"$(wc -l < {dir}/runs)\" -gt 3 ]; then\n\
           setsid sleep {marker} < /dev/null > /dev/null 2>&1 &\n\
           sleep {marker}\n\
         fi\n\
         grep -q 0x5eed in.c",
    );
    let mut hdd = case.start(&["-j", "2"], 5);
    // Both reduction tests are hanging: the scripts, their `sleep` and the one in a new
    // session.
    let deadline = Instant::now() + Duration::from_secs(5);
    while case.survivors().len() < 6 {
        assert!(Instant::now() < deadline, "{}", describe(&case.survivors()));
        std::thread::sleep(Duration::from_millis(10));
    }
    signal(&hdd, "-KILL");
    hdd.wait().unwrap();
    case.assert_no_survivor(Duration::from_secs(1));
    let left = case.folders();
    let stamp = format!("hdd-{}-", hdd.id());
    assert!(
        left.len() == 1 && left[0].starts_with(&stamp),
        "expected the dead run's {stamp}* folder: {left:?}"
    );
    case.test("grep -q 0x5eed in.c");
    let out = case.run(&["-o", "out.c"]);
    assert!(out.status.success(), "{}", stderr(&out));
    case.assert_no_folder();
}

/// Ctrl-C while the test checks the original (and would sleep for 20 minutes): hdd kills
/// it at once and exits 130, the input untouched.
#[test]
fn ctrl_c_during_the_check_of_the_original_stops_at_once() {
    let case = Case::new("touch {dir}/started\nsleep {marker}\ngrep -q 0x5eed in.c");
    let hdd = case.hdd(&[]).stderr(Stdio::piped()).spawn().unwrap();
    wait_for(&case.path().join("started"));
    signal(&hdd, "-INT");
    let (status, err) = exit_within(hdd, Duration::from_secs(2));
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("in.c is untouched"), "{err}");
    assert_eq!(fs::read_to_string(case.path().join("in.c")).unwrap(), INPUT);
    assert!(!case.path().join("in.c.orig").exists());
    case.assert_no_survivor(Duration::from_secs(1));
    case.assert_no_folder();
}

/// A test that deletes its own folder leaves nothing for hdd to keep when the original is
/// not interesting: hdd says so, and leaves no empty `hdd-check-*` folder.
#[test]
fn a_test_that_deletes_its_own_folder_is_named() {
    let case = Case::new("rm -rf \"$PWD\"\nexit 1");
    let out = case.run(&[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the test deleted its own folder"),
        "{}",
        stderr(&out)
    );
    case.assert_no_folder();
}

/// The helpers' own check: a marker in a live process's command line is found.
#[test]
fn survivors_are_found_by_their_marker() {
    let case = Case::new("exit 0");
    let mut sleeper = Command::new("sleep").arg(&case.marker).spawn().unwrap();
    // Just after exec the new command line may not be set up yet.
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut found = case.survivors();
    while found.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
        found = case.survivors();
    }
    sleeper.kill().unwrap();
    sleeper.wait().unwrap();
    assert_eq!(found, vec![sleeper.id()]);
    assert!(case.survivors().is_empty());
}
