//! Inputs and tests that try to break hdd: no panic, no corrupted byte, no touched
//! file of the user's, no process left behind.

use std::fs;
use std::time::{Duration, Instant};

use crate::common::{assert_no_survivor, case_with_log, done, hdd, script, stderr};

const INPUT: &str = "int unused(int a) { return a * 2; }\n\
                     int keep(void) { int z = 3; return z + 0x5eed; }\n\
                     struct s { int a; char *b; };\n";

#[test]
fn an_empty_input_is_refused_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), "").unwrap();
    script(&tmp.path().join("test.sh"), "exit 0");
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("in.c is empty: there is nothing to reduce"),
        "{err}"
    );
    assert!(!tmp.path().join("in.c.orig").exists());
}

/// NULs and bytes that are not UTF-8 in a grammar language: the bytes the test needs
/// come out exactly as they went in.
#[test]
fn nul_and_non_utf8_bytes_are_kept_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let mut input = INPUT.as_bytes().to_vec();
    input.extend_from_slice(b"char *raw = \"\xff\xfe\x00\x80 bytes\"; /* \xc3\x28 */\n");
    fs::write(tmp.path().join("in.c"), &input).unwrap();
    // Interesting while the byte 0xff is there and the marker too.
    script(
        &tmp.path().join("test.sh"),
        "od -An -tx1 -v in.c | grep -q ff && grep -q 0x5eed in.c",
    );
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read(tmp.path().join("in.c")).unwrap();
    assert!(result.contains(&0xff), "{result:?}");
    assert!(result.len() < input.len() / 2, "{result:?}");
    assert_eq!(fs::read(tmp.path().join("in.c.orig")).unwrap(), input);
}

#[test]
fn crlf_line_endings_reduce() {
    let tmp = tempfile::tempdir().unwrap();
    let input = INPUT.replace('\n', "\r\n");
    fs::write(tmp.path().join("in.c"), &input).unwrap();
    script(&tmp.path().join("test.sh"), "grep -q 0x5eed in.c");
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read_to_string(tmp.path().join("in.c")).unwrap();
    assert!(result.contains("0x5eed") && result.len() < 40, "{result:?}");
}

/// A test that hangs on some candidates is killed at the timeout (with what it
/// started) and the hang counts as not interesting.
#[test]
fn a_hanging_test_is_killed_at_the_timeout() {
    let (tmp, log) = case_with_log(
        "in.c",
        INPUT,
        "grep -q 0x5eed in.c || exit 1\n\
         grep -q unused in.c || { {linger}; sleep 1000; }\n\
         exit 0",
    );
    let started = Instant::now();
    let out = hdd(
        tmp.path(),
        &["reduce", "--timeout", "0.5", "in.c", "./test.sh"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(started.elapsed() < Duration::from_secs(60));
    let result = fs::read_to_string(tmp.path().join("in.c")).unwrap();
    assert!(
        result.contains("unused") && result.contains("0x5eed"),
        "{result}"
    );
    assert!(assert_no_survivor(&log) > 0, "no test hung");
}

/// A test that deletes and writes files where it runs only touches its own folder.
#[test]
fn a_test_that_writes_and_deletes_files_touches_only_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
    script(
        &tmp.path().join("test.sh"),
        "grep -q 0x5eed in.c; ok=$?\nrm -rf ./* 2>/dev/null\necho junk > junk.txt\nexit $ok",
    );
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut names: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["in.c", "in.c.orig", "notes.txt", "test.sh"]);
    assert_eq!(
        fs::read_to_string(tmp.path().join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(
        fs::read_to_string(tmp.path().join("in.c"))
            .unwrap()
            .contains("0x5eed")
    );
}

/// 10 MB of text, one line of which matters.
#[test]
fn a_ten_megabyte_input_reduces_to_its_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let mut input = String::with_capacity(10_500_000);
    let mut i = 0u64;
    while input.len() < 10_000_000 {
        if i == 51_234 {
            input.push_str("the BUG is here\n");
        }
        input.push_str(&format!(
            "line {i} {}\n",
            "x".repeat((i * 7919 % 190 + 10) as usize)
        ));
        i += 1;
    }
    fs::write(tmp.path().join("big.log"), &input).unwrap();
    script(&tmp.path().join("test.sh"), "grep -q BUG big.log");
    let out = hdd(tmp.path(), &["reduce", "big.log", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(tmp.path().join("big.log")).unwrap(),
        "BUG"
    );
    assert_eq!(
        fs::read(tmp.path().join("big.log.orig")).unwrap().len(),
        input.len()
    );
}

/// JSON nested 100,000 deep (a parser's stack overflow), with a test that needs 300
/// levels of it and the value at the bottom: no stack overflow in hdd, and the result is
/// exactly that deep (a few dozen tests, not one per level).
#[test]
fn json_nested_100_000_deep_reduces_to_the_depth_the_test_needs() {
    deep_json_reduces_to("[", "]", 300);
}

/// The same with JSON objects, `{"a":{"a":…42…}}`: between two objects there is a `pair`
/// and a key, so neither HDD's chains of one-node levels nor hoisting's chains of single
/// compatible descendants saw the nesting, and the run went one level at a time (65 bytes
/// in 200 s). Now it is a few dozen tests, as with arrays. (The test needs 100 levels, not
/// 300: each level it keeps has a key, a literal the later passes must try.)
#[test]
fn json_objects_nested_100_000_deep_reduce_like_arrays() {
    deep_json_reduces_to("{\"a\":", "}", 100);
}

/// `42` inside 100,000 levels of `open` … `close`, with a test that needs `needed` levels
/// of `open` and the 42: reduced (`--valid-only`) to exactly that many levels, in fewer
/// than 2,000 tests, the original kept beside.
fn deep_json_reduces_to(open: &str, close: &str, needed: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let nested = |depth: usize| format!("{}42{}\n", open.repeat(depth), close.repeat(depth));
    let input = nested(100_000);
    fs::write(tmp.path().join("deep.json"), &input).unwrap();
    script(
        &tmp.path().join("test.sh"),
        &format!(
            "grep -q 42 deep.json && grep -qF '{}' deep.json",
            open.repeat(needed)
        ),
    );
    let out = hdd(
        tmp.path(),
        // Verdicts in candidate order: the count must not depend on the machine's load
        // (without, under the whole suite's load, which of two jobs' lifts ended first
        // decided, and the objects took 2,742 tests once where a quiet run takes 1,000).
        &[
            "reduce",
            "--deterministic",
            "--valid-only",
            "--json",
            "deep.json",
            "./test.sh",
        ],
    );
    let tests = done(&out)["tests"].as_u64().unwrap();
    assert_eq!(
        fs::read_to_string(tmp.path().join("deep.json")).unwrap(),
        nested(needed)
    );
    assert!(tests < 2_000, "{tests} tests");
    assert_eq!(
        fs::read_to_string(tmp.path().join("deep.json.orig")).unwrap(),
        input
    );
}
