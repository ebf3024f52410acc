//! Every case under corpus/ has two tests of its own:
//! - `reduces`: the `hdd` binary reduces it end to end with the case's real test and
//!   `--valid-only`: the result is interesting, parses with no new error and stays under
//!   the bound in the case's README; no candidate with a parse error and no text twice
//!   reached the test (a logging wrapper records every input);
//! - `same_result_at_any_job_count`: through the library, in-process, `--deterministic`
//!   gives the same bytes with one job and with four whose verdicts come back in
//!   scrambled orders ([`ClosureExecutor::with_jobs`]). Determinism is a property of the
//!   engine, so this runs on every corpus input with a quick predicate (some of the
//!   input's words must stay) instead of the case's test; `parallel.rs` checks the same
//!   end to end, with real tests, on two cases.

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use hdd::{ClosureExecutor, Reducer};

use crate::common::{hdd, lexer_tokens, oracle_env, parse, root, script, stderr};

/// One module per corpus case, each with both tests; `CASES` lists them.
macro_rules! corpus_cases {
    ($($name:ident => $path:literal,)*) => {
        $(
            mod $name {
                #[test]
                fn reduces() {
                    super::check_case($path);
                }

                #[test]
                fn same_result_at_any_job_count() {
                    super::check_determinism($path);
                }
            }
        )*

        /// Every case with tests, as `<lang>/<name>` under corpus/.
        const CASES: &[&str] = &[$($path),*];
    };
}

corpus_cases! {
    c_crash_planted_matrix => "c/crash-planted-matrix",
    c_error_struct_assign_lexer => "c/error-struct-assign-lexer",
    c_warn_shift_overflow_framer => "c/warn-shift-overflow-framer",
    c_warn_stale_macro_huffcode => "c/warn-stale-macro-huffcode",
    c_warn_tautological_hashtab => "c/warn-tautological-hashtab",
    cpp_error_no_member_scheduler => "cpp/error-no-member-scheduler",
    css_panic_media_and_print_dashboard => "css/panic-media-and-print-dashboard",
    javascript_typeerror_not_a_function_resolver => "javascript/typeerror-not-a-function-resolver",
    javascript_typeerror_undefined_author_blog => "javascript/typeerror-undefined-author-blog",
    json_typeerror_methods_string_gateway => "json/typeerror-methods-string-gateway",
    json_typeerror_null_cost_inventory => "json/typeerror-null-cost-inventory",
    python_keyerror_config_merge => "python/keyerror-config-merge",
    rust_error_mismatched_types_ledger => "rust/error-mismatched-types-ledger",
    rust_error_no_method_tokenizer => "rust/error-no-method-tokenizer",
    sql_no_such_column_shop_report => "sql/no-such-column-shop-report",
    sql_unique_violation_registrar => "sql/unique-violation-registrar",
    text_valueerror_reset_conn_log => "text/valueerror-reset-conn-log",
    text_zerodivision_sensor_bin => "text/zerodivision-sensor-bin",
    typescript_typeerror_ledger_events => "typescript/typeerror-ledger-events",
}

/// Without `--valid-only`, the lenient tail takes the CSS crash below the smallest valid
/// CSS that shows it: lightningcss panics on `@media and print` (4 tokens), where the
/// grammar's passes stop at `@media(a)and print{}` (9).
#[test]
fn the_lenient_tail_goes_below_valid_css() {
    let result = Case::open("css/panic-media-and-print-dashboard").reduced(&[]);
    assert!(
        lexer_tokens(&result) <= 5,
        "{}",
        String::from_utf8_lossy(&result)
    );
    let (errors, _) = parse(Some(hdd_grammar::Lang::Css), &result);
    assert!(errors > 0, "{}", String::from_utf8_lossy(&result));
}

/// The stale name lives only in a macro's body, which tree-sitter leaves unparsed: hdd
/// reduces inside the body and puts what is left of the macro in place of its `#define`
/// line, ending at the statement `nextHi;` (2 tokens) where the directive `#define nextHi`
/// (3) is the best a reducer that keeps directives whole can do.
#[test]
fn a_stale_macro_ends_as_a_statement() {
    let result = Case::open("c/warn-stale-macro-huffcode").reduced(&["--valid-only"]);
    assert_eq!(String::from_utf8_lossy(&result).trim(), "nextHi;");
}

/// A case added to corpus/ without a line in `corpus_cases!` would go untested.
#[test]
fn every_corpus_case_has_its_tests() {
    let mut found = Vec::new();
    for lang in fs::read_dir(root().join("corpus")).unwrap() {
        let lang = lang.unwrap().path();
        if !lang.is_dir() {
            continue;
        }
        for case in fs::read_dir(&lang).unwrap() {
            let case = case.unwrap().path();
            if case.is_dir() {
                let rel = case.strip_prefix(root().join("corpus")).unwrap();
                found.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| (*c).to_owned()).collect();
    listed.sort();
    assert_eq!(
        found, listed,
        "add the new case to corpus_cases! in tests/corpus.rs"
    );
}

/// A case folder: its input file, the input's name, and the README's bound.
struct Case {
    dir: PathBuf,
    input: PathBuf,
    file_name: String,
    bound: usize,
}

impl Case {
    /// The case reduced by the binary at -j 2 with `flags`, in a temporary copy.
    fn reduced(&self, flags: &[&str]) -> Vec<u8> {
        let tmp = tempfile::tempdir().unwrap();
        fs::copy(&self.input, tmp.path().join(&self.file_name)).unwrap();
        fs::copy(self.dir.join("test.sh"), tmp.path().join("test.sh")).unwrap();
        let mut args = vec!["reduce", "-j", "2"];
        args.extend_from_slice(flags);
        args.extend([self.file_name.as_str(), "./test.sh"]);
        let out = hdd(tmp.path(), &args);
        assert!(out.status.success(), "hdd failed:\n{}", stderr(&out));
        fs::read(tmp.path().join(&self.file_name)).unwrap()
    }

    fn open(path: &str) -> Case {
        let dir = root().join("corpus").join(path);
        let readme = fs::read_to_string(dir.join("README.md")).unwrap();
        let input = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                let name = p.file_name().unwrap();
                name != "test.sh" && name != "README.md"
            })
            .expect("an input file besides test.sh and README.md");
        let file_name = input.file_name().unwrap().to_string_lossy().into_owned();
        Case {
            dir,
            input,
            file_name,
            bound: bound(&readme),
        }
    }
}

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

fn check_case(path: &str) {
    let case = Case::open(path);
    let lang = hdd_grammar::Lang::from_path(&case.input);
    let file_name = &case.file_name;
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let log = tmp.path().join("log");
    fs::create_dir_all(&work).unwrap();
    fs::create_dir_all(&log).unwrap();
    fs::copy(&case.input, work.join(file_name)).unwrap();
    fs::copy(case.dir.join("test.sh"), tmp.path().join("real-test.sh")).unwrap();
    script(
        &work.join("logging-test.sh"),
        &format!(
            "{record}\nrecord in < \"$HDD_FILE\"\nexec {real}",
            record = crate::common::recorder(&log),
            real = tmp.path().join("real-test.sh").display()
        ),
    );
    let out = hdd(
        &work,
        &[
            "reduce",
            "--valid-only",
            "-j",
            "2",
            file_name,
            "./logging-test.sh",
        ],
    );
    assert!(
        out.status.success(),
        "{path}: hdd failed:\n{}",
        stderr(&out)
    );

    let original = fs::read(&case.input).unwrap();
    assert_eq!(
        fs::read(work.join(format!("{file_name}.orig"))).unwrap(),
        original
    );
    let result = fs::read(work.join(file_name)).unwrap();
    let (original_errors, _) = parse(lang, &original);
    let (errors, _) = parse(lang, &result);
    let tokens = lexer_tokens(&result);
    assert!(
        errors <= original_errors,
        "{path}: the result has new parse errors"
    );
    assert!(
        tokens <= case.bound,
        "{path}: {tokens} tokens > bound {}:\n{}",
        case.bound,
        String::from_utf8_lossy(&result)
    );

    let check = tempfile::tempdir().unwrap();
    fs::write(check.path().join(file_name), &result).unwrap();
    let status = oracle_env(&mut Command::new(case.dir.join("test.sh")))
        .current_dir(check.path())
        .status()
        .unwrap();
    assert!(status.success(), "{path}: the result is not interesting");

    let mut seen = HashSet::new();
    for entry in fs::read_dir(&log).unwrap() {
        let text = fs::read(entry.unwrap().path()).unwrap();
        assert!(
            parse(lang, &text).0 <= original_errors,
            "{path}: a candidate with a new parse error reached the test:\n{}",
            String::from_utf8_lossy(&text)
        );
        // The checks around the reduction run the original twice, an empty file once
        // and the result once more. Every other text exactly once.
        if text != original && text != result && !text.is_empty() {
            assert!(seen.insert(text), "{path}: a text reached the test twice");
        }
    }
    assert!(
        seen.len() > 10,
        "{path}: suspiciously few candidates tested"
    );
}

/// Five words of the input (runs of at least four letters, digits or `_`), one from
/// each fifth: a reduction must keep them all.
fn needles(input: &[u8]) -> Vec<Vec<u8>> {
    let words: Vec<&[u8]> = input
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter(|w| w.len() >= 4)
        .collect();
    assert!(words.len() >= 5, "too few words in the input");
    (0..5)
        .map(|fifth| words[(2 * fifth + 1) * words.len() / 10].to_vec())
        .collect()
}

/// The case's input reduced in-process with `--deterministic` at one job and at four
/// (verdicts in two scrambled orders): the same bytes, and every needle kept.
fn check_determinism(path: &str) {
    let case = Case::open(path);
    let lang = hdd_grammar::Lang::from_path(&case.input);
    let input = fs::read(&case.input).unwrap();
    let needles = needles(&input);
    let keeps = |text: &[u8]| {
        needles
            .iter()
            .all(|n| text.windows(n.len()).any(|w| w == n))
    };
    let reduce = |jobs: usize, seed: u64| -> Vec<u8> {
        let mut exec = ClosureExecutor::new(keeps).with_jobs(jobs, seed);
        let r = Reducer::new(lang)
            .deterministic(true)
            .reduce_with(input.clone(), &mut exec, &mut |_| Ok(()))
            .unwrap_or_else(|e| panic!("{path}: -j {jobs}: {e}"));
        // Four jobs must have tested past a winner (their tests then cancelled).
        assert!(r.stats.tests > 50, "{path}: -j {jobs}: {:?}", r.stats);
        assert_eq!(
            r.stats.wasted > 0,
            jobs > 1,
            "{path}: -j {jobs}: {:?}",
            r.stats
        );
        r.text
    };
    let one = reduce(1, 0);
    assert!(keeps(&one), "{path}: the result lost a needle");
    assert!(one.len() < input.len() / 4, "{path}: barely reduced");
    for seed in [1, 2] {
        let four = reduce(4, seed);
        assert!(
            four == one,
            "{path}: --deterministic -j 1 and -j 4 (seed {seed}) differ:\n{}\n---\n{}",
            String::from_utf8_lossy(&one),
            String::from_utf8_lossy(&four)
        );
    }
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
