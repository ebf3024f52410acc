//! Every case under corpus/ reduces end to end: the result is interesting, parses with no
//! error, stays under the bound in the case's README; no candidate with a parse error
//! and no text twice reached the test (a logging wrapper records every input).

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{hdd, lexer_tokens, parse, root, script, stderr};

fn bound(readme: &str) -> usize {
    readme
        .lines()
        .find_map(|l| {
            l.strip_prefix("bound: ")?
                .strip_suffix(" tokens")?
                .parse()
                .ok()
        })
        .expect("the case README has a line `bound: N tokens`")
}

fn check_case(case: &Path) {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let readme = fs::read_to_string(case.join("README.md")).unwrap();
    let input = fs::read_dir(case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap();
            name != "test.sh" && name != "README.md"
        })
        .expect("an input file besides test.sh and README.md");
    let lang = hdd_grammar::Lang::from_path(&input);
    let file_name = input.file_name().unwrap().to_string_lossy().into_owned();
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let log = tmp.path().join("log");
    fs::create_dir_all(&work).unwrap();
    fs::create_dir_all(&log).unwrap();
    fs::copy(&input, work.join(&file_name)).unwrap();
    fs::copy(case.join("test.sh"), tmp.path().join("real-test.sh")).unwrap();
    script(
        &work.join("logging-test.sh"),
        &format!(
            "cp \"$HDD_FILE\" \"$(mktemp {log}/in.XXXXXXXX)\"\nexec {real}",
            log = log.display(),
            real = tmp.path().join("real-test.sh").display()
        ),
    );
    let out = hdd(
        &work,
        &["reduce", "-j", "2", &file_name, "./logging-test.sh"],
    );
    assert!(
        out.status.success(),
        "{name}: hdd failed:\n{}",
        stderr(&out)
    );

    let original = fs::read(&input).unwrap();
    assert_eq!(
        fs::read(work.join(format!("{file_name}.orig"))).unwrap(),
        original
    );
    let result = fs::read(work.join(&file_name)).unwrap();
    let original = fs::read(&input).unwrap();
    let (original_errors, _) = parse(lang, &original);
    let (errors, _) = parse(lang, &result);
    let tokens = lexer_tokens(&result);
    assert!(
        errors <= original_errors,
        "{name}: the result has new parse errors"
    );
    let limit = bound(&readme);
    assert!(
        tokens <= limit,
        "{name}: {tokens} tokens > bound {limit}:\n{}",
        String::from_utf8_lossy(&result)
    );

    let check = tempfile::tempdir().unwrap();
    fs::write(check.path().join(&file_name), &result).unwrap();
    let status = Command::new(case.join("test.sh").canonicalize().unwrap())
        .current_dir(check.path())
        .status()
        .unwrap();
    assert!(status.success(), "{name}: the result is not interesting");

    let mut seen = HashSet::new();
    for entry in fs::read_dir(&log).unwrap() {
        let text = fs::read(entry.unwrap().path()).unwrap();
        assert!(
            parse(lang, &text).0 <= original_errors,
            "{name}: a candidate with a new parse error reached the test:\n{}",
            String::from_utf8_lossy(&text)
        );
        // The checks around the reduction run the original twice, an empty file once
        // and the result once more. Every other text exactly once.
        if text != original && text != result && !text.is_empty() {
            assert!(seen.insert(text), "{name}: a text reached the test twice");
        }
    }
    assert!(
        seen.len() > 10,
        "{name}: suspiciously few candidates tested"
    );
}

fn cases(lang: &str) -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = fs::read_dir(root().join("corpus").join(lang))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_c_case_reduces() {
    let cases = cases("c");
    assert!(cases.len() >= 3, "corpus/c holds at least three cases");
    cases.iter().for_each(|c| check_case(c));
}

#[test]
fn every_rust_case_reduces() {
    let cases = cases("rust");
    assert!(cases.len() >= 2, "corpus/rust holds at least two cases");
    cases.iter().for_each(|c| check_case(c));
}

#[test]
fn every_javascript_case_reduces() {
    let cases = cases("javascript");
    assert!(
        cases.len() >= 2,
        "corpus/javascript holds at least two cases"
    );
    cases.iter().for_each(|c| check_case(c));
}

#[test]
fn every_json_case_reduces() {
    let cases = cases("json");
    assert!(cases.len() >= 2, "corpus/json holds at least two cases");
    cases.iter().for_each(|c| check_case(c));
}

#[test]
fn every_sql_case_reduces() {
    let cases = cases("sql");
    assert!(cases.len() >= 2, "corpus/sql holds at least two cases");
    cases.iter().for_each(|c| check_case(c));
}

#[test]
fn every_text_case_reduces() {
    let cases = cases("text");
    assert!(cases.len() >= 2, "corpus/text holds at least two cases");
    cases.iter().for_each(|c| check_case(c));
}

#[test]
fn bound_counter_agrees_with_the_bench_lexer_on_known_files() {
    // Counts the bench harness's tokens.py gives for these files.
    assert_eq!(lexer_tokens(b"int x=1&&5;\n"), 7);
    assert_eq!(lexer_tokens(b"void f(int w){int u=w+7-7;}\n"), 17);
    assert_eq!(
        lexer_tokens(b"[{\"name\":{\"common\":0},\"currencies\":[]}]\n"),
        16
    );
    assert_eq!(lexer_tokens(b"chunk=_=>undefined.valueOf;chunk()\n"), 11);
    assert_eq!(lexer_tokens(b"const X:()=1;\n"), 8);
}
