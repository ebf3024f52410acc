//! hdd is never stuck: a stop request (Ctrl-C, SIGTERM) is obeyed within a second in
//! every phase (parsing a big input, generating candidates, the checks around the
//! reduction), and the best result so far stays on disk.

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{oracle_env, parse_c, script, stderr};

/// A C file of about `bytes` bytes: small functions, one of them (in the middle) named
/// `MAGIC`, the one the test needs.
fn big_c(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 100);
    let mut i = 0;
    while text.len() < bytes / 2 {
        text.push_str(&format!(
            "int f{i}(int a) {{ int b = a * {i}; return b + {}; }}\n",
            i * 7 % 1000
        ));
        i += 1;
    }
    text.push_str("int MAGIC(int a) { return a; }\n");
    while text.len() < bytes {
        text.push_str(&format!(
            "int f{i}(int a) {{ int b = a * {i}; return b + {}; }}\n",
            i * 7 % 1000
        ));
        i += 1;
    }
    text
}

/// How long hdd took to exit after `signal` was sent `delay` into a run on `input` (C,
/// as `big.c`) with an instant test, and its output; the folder is checked: the result
/// on disk is interesting and parses, the backup of the original is intact (or, when the
/// stop came before the backup, the input is untouched).
fn stop_after(input: &str, delay: Duration, signal: &str) -> (Duration, std::process::Output) {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("big.c"), input).unwrap();
    script(&tmp.path().join("test.sh"), "grep -q MAGIC big.c");
    let child = oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
        .args(["reduce", "--valid-only", "-j", "2", "big.c", "./test.sh"])
        .current_dir(tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    let best = fs::read_to_string(tmp.path().join("big.c")).unwrap();
    assert!(
        best.contains("MAGIC"),
        "the best on disk is not interesting"
    );
    assert_eq!(
        parse_c(best.as_bytes()).0,
        0,
        "the best on disk does not parse"
    );
    match fs::read_to_string(tmp.path().join("big.c.orig")) {
        Ok(backup) => assert!(backup == input, "the backup of the original changed"),
        Err(_) => assert!(best == input, "the input changed without a backup"),
    }
    (took, out)
}

/// Ctrl-C or SIGTERM while hdd parses a 2 MB C input, cuts it down and works out the
/// candidates of its first passes (long stretches without a test, as the test is instant):
/// hdd exits with 130 within seconds, not when it next waits for a test.
#[test]
fn a_stop_between_tests_on_a_big_input_is_obeyed_at_once() {
    let input = big_c(2_000_000);
    let mut interrupted = 0;
    for (delay, signal) in [(1000, "-INT"), (2000, "-TERM"), (3500, "-INT")] {
        let (took, out) = stop_after(&input, Duration::from_millis(delay), signal);
        let err = stderr(&out);
        assert!(
            took < Duration::from_secs(4),
            "hdd took {took:?} to stop after {signal} {delay} ms into the run: {err}"
        );
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
        interrupted += 1;
    }
    assert!(interrupted > 0, "every run ended before its signal");
}
