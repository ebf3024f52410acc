//! Bad input gets a clear message and exit code 2, never a panic, and touches nothing.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::{hdd, script, stderr};

fn setup() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), "int x;\n").unwrap();
    script(&tmp.path().join("test.sh"), "exit 0");
    tmp
}

fn expect_usage_error(args: &[&str], message: &str) {
    let tmp = setup();
    let out = hdd(tmp.path(), args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "expected {message:?} in:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        fs::read_to_string(tmp.path().join("in.c")).unwrap(),
        "int x;\n"
    );
}

#[test]
fn missing_file() {
    expect_usage_error(&["reduce", "nope.c", "./test.sh"], "reading nope.c");
}

#[test]
fn missing_test() {
    expect_usage_error(
        &["reduce", "in.c", "./nope.sh"],
        "test ./nope.sh does not exist",
    );
}

#[test]
fn test_not_executable() {
    let tmp = setup();
    fs::set_permissions(
        tmp.path().join("test.sh"),
        fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("chmod +x"), "{}", stderr(&out));
}

#[test]
fn test_without_shebang() {
    let tmp = setup();
    fs::write(tmp.path().join("test.sh"), "exit 0\n").unwrap();
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("#!"), "{}", stderr(&out));
}

#[test]
fn unknown_language() {
    expect_usage_error(
        &["reduce", "--lang", "cobol", "in.c", "./test.sh"],
        "unknown language 'cobol'",
    );
}

#[test]
fn unknown_extension_reduces_as_text() {
    let tmp = setup();
    fs::write(tmp.path().join("in.zz"), "one\ntwo needle three\nfour\n").unwrap();
    script(&tmp.path().join("test.sh"), "grep -q needle in.zz");
    let out = hdd(tmp.path(), &["reduce", "in.zz", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(tmp.path().join("in.zz")).unwrap(),
        "needle"
    );
}

#[test]
fn langs_lists_c() {
    let tmp = setup();
    let out = hdd(tmp.path(), &["langs"]);
    assert!(out.status.success());
    let listing = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(listing.contains("tree-sitter-c 0.24.2"), "{listing}");
    assert!(listing.contains("text"), "{listing}");
}

#[test]
fn range_outside_the_file() {
    expect_usage_error(
        &["reduce", "--range", "2:3", "in.c", "./test.sh"],
        "--range 2:3 is not inside in.c (1 lines",
    );
    expect_usage_error(
        &["reduce", "--byte-range", "3:99", "in.c", "./test.sh"],
        "--byte-range 3:99 is not inside in.c (7 bytes",
    );
    expect_usage_error(
        &["reduce", "--range", "3", "in.c", "./test.sh"],
        "'3' is not START:END",
    );
}
