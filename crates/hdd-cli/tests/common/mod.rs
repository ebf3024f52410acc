//! Helpers: temp folders with scripts, running the binary, parsing results.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Writes an executable shell script.
pub(crate) fn script(path: &Path, body: &str) {
    fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `hdd` with `args` in `dir`.
pub(crate) fn hdd(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hdd"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the hdd binary runs")
}

/// stderr as text.
pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Parses C and returns (error nodes, tokens).
pub(crate) fn parse_c(text: &[u8]) -> (usize, usize) {
    parse(Some(hdd_grammar::Lang::C), text)
}

/// Parses `text` in `lang` and returns (error nodes, tokens); without a language, no
/// errors and whitespace-separated words, as hdd counts them.
pub(crate) fn parse(lang: Option<hdd_grammar::Lang>, text: &[u8]) -> (usize, usize) {
    let Some(lang) = lang else {
        return (0, hdd_core::Document::plain(text.to_vec()).token_count());
    };
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.ts_language()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    (
        hdd_core::count_errors(tree.root_node()),
        hdd_core::leaves(tree.root_node()).len(),
    )
}

/// Counts tokens the way the corpus bounds are stated (the bench harness's
/// language-agnostic lexer, re-implemented): quoted strings and template literals are one
/// token each, then hex and decimal numbers with suffixes, identifiers, the longest of a
/// set of multi-character operators, and any other non-space character.
pub(crate) fn lexer_tokens(text: &[u8]) -> usize {
    const OPS: &[&[u8]] = &[
        b">>>=", b"<<=", b">>=", b">>>", b"...", b"===", b"!==", b"**=", b"??=", b"..=", b"?.",
        b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"::", b"=>",
        b"+=", b"-=", b"*=", b"/=", b"%=", b"&=", b"|=", b"^=", b"**", b"??", b"##", b"..",
    ];
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut count = 0;
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        count += 1;
        if matches!(b, b'"' | b'\'' | b'`') {
            i += 1;
            while i < text.len() && text[i] != b && (b == b'`' || text[i] != b'\n') {
                i += if text[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(text.len().max(i));
        } else if word(b) {
            while i < text.len() && (word(text[i]) || (b.is_ascii_digit() && text[i] == b'.')) {
                i += 1;
            }
        } else if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(op)) {
            i += op.len();
        } else {
            i += 1;
        }
    }
    count
}

/// A folder `log` in `dir` for tests' scripts to leave marks in (`SURVIVOR`: a process
/// a test started outlived it).
pub(crate) fn log_dir(dir: &Path) -> PathBuf {
    let log = dir.join("log");
    fs::create_dir(&log).unwrap();
    log
}

/// A temp folder holding `name` with `input`, an empty `log` folder, and a `test.sh`
/// that runs `body`, in which `{log}` stands for the log folder's path.
pub(crate) fn case_with_log(
    name: &str,
    input: impl AsRef<[u8]>,
    body: &str,
) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_dir(tmp.path());
    fs::write(tmp.path().join(name), input).unwrap();
    let body = body.replace("{log}", &log.display().to_string());
    script(&tmp.path().join("test.sh"), &body);
    (tmp, log)
}

/// Waits `ms` (long enough for a stray process to wake up), then checks that none left
/// its mark in `log`.
pub(crate) fn assert_no_survivor(log: &Path, ms: u64) {
    std::thread::sleep(std::time::Duration::from_millis(ms));
    assert!(
        !log.join("SURVIVOR").exists(),
        "a process started by a test outlived it"
    );
}
