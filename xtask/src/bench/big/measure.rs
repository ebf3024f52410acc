//! One run of the release hdd on a big input, measured from outside: its `--json` events
//! as they arrive, when its test first ran on a candidate (the test script notes the time
//! of each of its runs), its peak memory (`VmHWM` of `/proc/<pid>/status`, polled), and,
//! when asked, how long it takes to exit after a SIGINT.

use std::fs;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result};
use serde_json::Value;

/// What one run needs: the program, the input and its test, where the test notes its
/// runs and where the result goes.
pub(super) struct Setup<'a> {
    pub(super) hdd: &'a Path,
    pub(super) input: &'a Path,
    pub(super) lang: Option<&'a str>,
    pub(super) test: &'a Path,
    /// The file the test appends the time of each of its runs to.
    pub(super) log: &'a Path,
    pub(super) jobs: u32,
    /// `-o`: the input is left as it is.
    pub(super) output: PathBuf,
}

/// What a run showed. Times are seconds from the start of the process.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Measured {
    /// The `start` event: the input read, checked and parsed.
    pub(crate) started: Option<f64>,
    /// The first test of a candidate (the first run of the test after `start`).
    pub(crate) first_test: Option<f64>,
    /// The first `accepted` event.
    pub(crate) first_accepted: Option<f64>,
    /// Until the process ended.
    pub(crate) total: f64,
    /// Stopped (SIGINT) at the time limit.
    pub(crate) timed_out: bool,
    pub(crate) exit_code: Option<i32>,
    /// From the `done` event.
    pub(crate) tests: Option<u64>,
    pub(crate) final_bytes: Option<u64>,
    /// The peak resident memory of the hdd process, in kB.
    pub(crate) peak_rss_kb: Option<u64>,
    /// From the SIGINT sent by [`run`]'s `interrupt_after` to the end of the process.
    pub(crate) sigint_to_exit: Option<f64>,
}

/// How often the process's memory is looked at.
const POLL: Duration = Duration::from_millis(20);
/// How long a process stopped at the time limit may take to exit before it is killed.
const GRACE: Duration = Duration::from_secs(30);

/// Runs hdd on `setup`'s input, stopping it with SIGINT at `limit` (then killing it after
/// a grace period), and with SIGINT at `interrupt_after` if given.
pub(super) fn run(
    setup: &Setup<'_>,
    limit: Duration,
    interrupt_after: Option<Duration>,
) -> Result<Measured> {
    let _ = fs::remove_file(setup.log);
    let _ = fs::remove_file(&setup.output);
    let mut command = Command::new(setup.hdd);
    // Verdicts kept by an earlier run of the same input would spare tests: every run
    // (and the SIGINT run after it) starts from nothing.
    command.args([
        "reduce",
        "--json",
        "--no-cache",
        "-j",
        &setup.jobs.to_string(),
    ]);
    if let Some(lang) = setup.lang {
        command.args(["--lang", lang]);
    }
    command
        .arg("-o")
        .arg(&setup.output)
        .arg(setup.input)
        .arg(setup.test)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let spawned_at = SystemTime::now();
    let spawned = Instant::now();
    let mut child = command
        .spawn()
        .with_context(|| format!("starting {}", setup.hdd.display()))?;
    let lines = read_lines(&mut child, spawned);
    let mut measured = Measured::default();
    let mut peak = None;
    let mut sigint_at: Option<Instant> = None;
    let status = loop {
        if let Some(kb) = peak_rss_kb(child.id()) {
            peak = Some(peak.map_or(kb, |p: u64| p.max(kb)));
        }
        if let Some(status) = child.try_wait().context("waiting for hdd")? {
            break status;
        }
        let elapsed = spawned.elapsed();
        if sigint_at.is_none()
            && let Some(at) = interrupt_after
            && elapsed >= at
        {
            interrupt(&child)?;
            sigint_at = Some(Instant::now());
        }
        if elapsed >= limit && !measured.timed_out {
            measured.timed_out = true;
            interrupt(&child)?;
        }
        if elapsed >= limit + GRACE {
            let _ = child.kill();
        }
        std::thread::sleep(POLL);
    };
    let ended = Instant::now();
    measured.total = (ended - spawned).as_secs_f64();
    measured.sigint_to_exit = sigint_at.map(|at| (ended - at).as_secs_f64());
    measured.exit_code = status.code();
    measured.peak_rss_kb = peak;
    let events: Vec<(f64, String)> = lines.try_iter().collect();
    read_events(&events, &mut measured);
    let runs = test_runs(setup.log, spawned_at);
    measured.first_test = measured
        .started
        .and_then(|started| runs.into_iter().find(|&t| t >= started));
    Ok(measured)
}

/// The child's stdout, line by line, each with the seconds since `spawned` at which it
/// was read (by a thread of its own).
fn read_lines(child: &mut Child, spawned: Instant) -> mpsc::Receiver<(f64, String)> {
    let (tx, rx) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((spawned.elapsed().as_secs_f64(), line)).is_err() {
                    break;
                }
            }
        });
    }
    rx
}

/// Fills in what the `--json` events say: when `start` and the first `accepted` came,
/// and the `done` event's tests and final size.
fn read_events(events: &[(f64, String)], measured: &mut Measured) {
    for (at, line) in events {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        match event["event"].as_str() {
            Some("start") => measured.started = measured.started.or(Some(*at)),
            Some("accepted") => measured.first_accepted = measured.first_accepted.or(Some(*at)),
            Some("done") => {
                measured.tests = event["tests"].as_u64();
                measured.final_bytes = event["after"]["bytes"].as_u64();
            }
            _ => {}
        }
    }
}

/// The times (seconds since `since`) at which the test ran, as it noted them in `log`
/// (one `date +%s.%N` a line), in order.
fn test_runs(log: &Path, since: SystemTime) -> Vec<f64> {
    let since = since
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let mut runs: Vec<f64> = fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse::<f64>().ok())
        .map(|t| t - since)
        .collect();
    runs.sort_by(f64::total_cmp);
    runs
}

/// The test script: notes the time of its run in `log`, then runs `body`.
pub(super) fn test_script(log: &Path, body: &str) -> String {
    format!(
        "#!/bin/sh\ndate +%s.%N >> '{}'\n{body}\n",
        log.display().to_string().replace('\'', r"'\''")
    )
}

/// `VmHWM` (the peak resident set) of process `pid`, in kB.
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_vm_hwm(&status)
}

fn parse_vm_hwm(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Sends SIGINT to `child` (as Ctrl-C would).
fn interrupt(child: &Child) -> Result<()> {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .context("running kill")?;
    // The process may have ended meanwhile: that is not an error.
    let _ = status;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_give_the_start_the_first_success_and_the_result() {
        let events = vec![
            (0.5, r#"{"event":"start","bytes":100}"#.to_owned()),
            (0.7, r#"{"event":"pass_start","pass":"hdd"}"#.to_owned()),
            (1.5, r#"{"event":"accepted","bytes":50}"#.to_owned()),
            (1.9, r#"{"event":"accepted","bytes":20}"#.to_owned()),
            (2.0, "not json".to_owned()),
            (
                2.5,
                r#"{"event":"done","tests":42,"after":{"bytes":7}}"#.to_owned(),
            ),
        ];
        let mut measured = Measured::default();
        read_events(&events, &mut measured);
        assert_eq!(measured.started, Some(0.5));
        assert_eq!(measured.first_accepted, Some(1.5));
        assert_eq!(measured.tests, Some(42));
        assert_eq!(measured.final_bytes, Some(7));
    }

    #[test]
    fn peak_memory_is_read_from_proc_status() {
        let status = "Name:\thdd\nVmPeak:\t  999 kB\nVmHWM:\t  12345 kB\nVmRSS:\t 100 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(12_345));
        assert_eq!(parse_vm_hwm("Name:\thdd\n"), None);
        assert!(peak_rss_kb(std::process::id()).is_some_and(|kb| kb > 0));
    }

    #[test]
    fn the_test_notes_its_runs_and_they_are_read_back_in_order() {
        let tmp = tempfile::tempdir().unwrap();
        let log = tmp.path().join("runs");
        let since = SystemTime::now() - Duration::from_secs(10);
        let base = since.duration_since(UNIX_EPOCH).unwrap().as_secs_f64();
        fs::write(&log, format!("{}\n{}\n", base + 3.0, base + 1.0)).unwrap();
        let runs = test_runs(&log, since);
        assert_eq!(runs.len(), 2);
        assert!((runs[0] - 1.0).abs() < 1e-3 && (runs[1] - 3.0).abs() < 1e-3);
        let script = test_script(Path::new("/tmp/it's"), "grep -q x \"$HDD_FILE\"");
        assert!(script.starts_with("#!/bin/sh\ndate +%s.%N >> '/tmp/it'\\''s'\n"));
    }
}
