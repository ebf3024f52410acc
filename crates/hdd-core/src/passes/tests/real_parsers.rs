//! Languages whose tree-sitter grammar accepts more than the language: every candidate
//! the default passes hand the test must be one the language's own parser accepts
//! (`bash -n` for Bash, PyYAML for YAML), not only one tree-sitter parses.

use std::io::Write;
use std::process::{Command, Stdio};

use hdd_grammar::Lang;

use super::super::*;
use crate::event::Event;
use crate::exec::ClosureExecutor;
use crate::session::Session;

/// Reduces `input` with every default pass in turn, keeping what `needles` name, and
/// returns the result, the test count and every candidate the test saw.
fn reduce(lang: Lang, input: &str, needles: &[&str]) -> (String, u64, Vec<String>) {
    let mut candidates = Vec::new();
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let text = String::from_utf8_lossy(t).into_owned();
        let keep = needles.iter().all(|n| text.contains(n));
        candidates.push(text);
        keep
    });
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(
        Some(lang),
        input.as_bytes().to_vec(),
        &mut exec,
        &mut observer,
    )
    .unwrap();
    session.check_original().unwrap();
    for mut pass in default_passes(true) {
        session.run_pass(pass.as_mut()).unwrap();
    }
    let (result, stats) = session.finish();
    drop(exec);
    let result = String::from_utf8_lossy(result.text()).into_owned();
    assert!(stats.tests > 40, "{needles:?}: only {} tests", stats.tests);
    assert!(
        result.len() < input.len() / 5,
        "{needles:?}: only down to {result:?}"
    );
    (result, stats.tests, candidates)
}

/// Runs `program` with `stdin`; returns whether it exited 0, and its stdout. Panics if it
/// cannot be started.
fn run(program: &str, args: &[&str], stdin: &[u8]) -> (bool, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin)
        .expect("the child reads its stdin");
    let out = child.wait_with_output().expect("the child ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn bash_accepts_every_candidate_of_the_default_passes() {
    let input = include_str!("../../../../../grammars/bash/sample.sh");
    assert!(run("bash", &["-n"], input.as_bytes()).0);
    let needles: [&[&str]; 3] = [
        &["for file in", "gzip"],
        &["case", "exit 2", "getopts"],
        &["<<", "usage", "mapfile"],
    ];
    for needles in needles {
        let (_, tests, candidates) = reduce(Lang::Bash, input, needles);
        let refused: Vec<&String> = candidates
            .iter()
            .filter(|c| !run("bash", &["-n"], c.as_bytes()).0)
            .collect();
        assert!(
            refused.is_empty(),
            "{needles:?}: bash -n refuses {} of {tests} candidates, first:\n{}",
            refused.len(),
            refused[0]
        );
    }
}

/// Parses and composes each YAML stream of its stdin (separated by NUL bytes) with PyYAML,
/// in one Python process, and prints the indices of those it refuses: a syntax error or
/// an undefined alias. Not constructed into Python values: what a merge key (`<<`, a
/// YAML 1.1 type) may hold is the schema's business, not the syntax's.
const PYYAML_CHECK: &str = "import sys, yaml
for i, text in enumerate(sys.stdin.buffer.read().split(b'\\0')):
    try:
        list(yaml.compose_all(text))
    except yaml.YAMLError:
        print(i)
";

#[test]
fn pyyaml_accepts_every_candidate_of_the_default_passes() {
    let input = include_str!("../../../../../grammars/yaml/sample.yaml");
    let needles: [&[&str]; 5] = [
        &["prd-billing-2", "retries"],
        &["UPDATE invoices", "requires"],
        &["<<: *defaults", "page the on-call"],
        &["multi-line", "accepted"],
        &["billing-", "Deploying", "tier-1"],
    ];
    for needles in needles {
        let (_, tests, candidates) = reduce(Lang::Yaml, input, needles);
        let mut all = vec![input.to_owned()];
        all.extend(candidates);
        let (ok, out) = run("python3", &["-c", PYYAML_CHECK], all.join("\0").as_bytes());
        assert!(ok, "python3 with PyYAML runs");
        let refused: Vec<usize> = out.lines().map(|l| l.parse().unwrap()).collect();
        assert!(
            refused.is_empty(),
            "{needles:?}: PyYAML refuses {} of {tests} candidates, first:\n{}",
            refused.len(),
            all[refused[0]]
        );
    }
}
