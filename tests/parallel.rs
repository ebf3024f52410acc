//! Parallel runs: `--deterministic` gives the same bytes for any -j, with real tests; no
//! test process outlives a run, whether it ends, fails or is interrupted.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{assert_no_survivor, hdd, linger, log_dir, oracle_env, root, script, stderr};

/// A corpus case reduced by the binary with `--deterministic` at -j 1 and -j 4, with its
/// real test and real processes: byte-identical. (Every corpus input is checked the same
/// way in-process, with a quick predicate, by `corpus.rs`; these two cases have cheap
/// tests: sqlite3 and gcc.)
fn deterministic_output_is_the_same_at_any_job_count(case: &str) {
    let case = root().join("corpus").join(case);
    let input = fs::read_dir(&case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| !["test.sh", "README.md"].contains(&&*p.file_name().unwrap().to_string_lossy()))
        .expect("an input besides test.sh and README.md");
    let name = input.file_name().unwrap().to_string_lossy().into_owned();
    let results: Vec<Vec<u8>> = ["1", "4"]
        .iter()
        .map(|jobs| {
            let tmp = tempfile::tempdir().unwrap();
            fs::copy(&input, tmp.path().join(&name)).unwrap();
            fs::copy(case.join("test.sh"), tmp.path().join("test.sh")).unwrap();
            let out = hdd(
                tmp.path(),
                &[
                    "reduce",
                    "--deterministic",
                    "-j",
                    jobs,
                    "-o",
                    "out",
                    &name,
                    "./test.sh",
                ],
            );
            assert!(
                out.status.success(),
                "{}: -j {jobs}: {}",
                case.display(),
                stderr(&out)
            );
            fs::read(tmp.path().join("out")).unwrap()
        })
        .collect();
    assert!(
        results[0] == results[1],
        "{}: --deterministic -j 1 and -j 4 differ:\n{}\n---\n{}",
        case.display(),
        String::from_utf8_lossy(&results[0]),
        String::from_utf8_lossy(&results[1])
    );
}

#[test]
fn deterministic_sql_with_its_real_test() {
    deterministic_output_is_the_same_at_any_job_count("sql/no-such-column-shop-report");
}

#[test]
fn deterministic_c_with_its_real_test() {
    deterministic_output_is_the_same_at_any_job_count("c/warn-shift-overflow-framer");
}

const INPUT: &str = "int a1(void) { return 1; }\nint a2(void) { return 2; }\n\
                     int a3(void) { return 3; }\nint a4(void) { return 4; }\n\
                     int keep(void) { int z = 3; return z + 0x5eed; }\n\
                     int a5(void) { return 5; }\nint a6(void) { return 6; }\n\
                     int a7(void) { int q = 7; q = q * q + 1; return q; }\n";

/// A slow test that leaves a grandchild behind ([`linger`]).
fn lingering_test(dir: &Path, log: &Path) {
    script(
        &dir.join("test.sh"),
        &format!("{}\nsleep 0.3\ngrep -q 0x5eed in.c", linger(log)),
    );
}

#[test]
fn no_test_process_outlives_a_parallel_run() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_dir(tmp.path());
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    lingering_test(tmp.path(), &log);
    let out = hdd(tmp.path(), &["reduce", "-j", "4", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        fs::read_to_string(tmp.path().join("in.c"))
            .unwrap()
            .contains("0x5eed")
    );
    assert!(assert_no_survivor(&log) > 4);
}

/// Ctrl-C (SIGINT), or SIGTERM, at several points of a -j 4 run: exit 130, every test
/// killed, the best result on disk interesting, the original's backup intact.
#[test]
fn ctrl_c_stops_every_test_and_keeps_the_best() {
    for (delay, signal) in [(400, "-INT"), (1200, "-TERM"), (2500, "-INT")] {
        let tmp = tempfile::tempdir().unwrap();
        let log = log_dir(tmp.path());
        fs::write(tmp.path().join("in.c"), INPUT).unwrap();
        lingering_test(tmp.path(), &log);
        let child = oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
            .args(["reduce", "-j", "4", "in.c", "./test.sh"])
            .current_dir(tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let sent = Instant::now();
        let kill = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let out = child.wait_with_output().unwrap();
        assert!(
            sent.elapsed() < Duration::from_secs(3),
            "hdd took {:?} to stop after {signal}",
            sent.elapsed()
        );
        let err = stderr(&out);
        if out.status.code() == Some(0) {
            // The run ended before the signal: nothing to interrupt.
            continue;
        }
        assert_eq!(
            out.status.code(),
            Some(130),
            "{signal} after {delay} ms: {err}"
        );
        assert!(err.contains("interrupted"), "{err}");
        match fs::read_to_string(tmp.path().join("in.c.orig")) {
            // Interrupted while reducing: the summary, and the backup intact.
            Ok(backup) => {
                assert_eq!(backup, INPUT, "the backup of the original changed");
                assert!(err.contains("hdd: interrupted in.c -> in.c"), "{err}");
            }
            // Interrupted while the test was checked, before any backup: the input is
            // untouched.
            Err(_) => assert_eq!(fs::read_to_string(tmp.path().join("in.c")).unwrap(), INPUT),
        }
        let best = fs::read_to_string(tmp.path().join("in.c")).unwrap();
        assert!(
            best.contains("0x5eed"),
            "the best on disk is not interesting: {best}"
        );
        assert_no_survivor(&log);
    }
}
