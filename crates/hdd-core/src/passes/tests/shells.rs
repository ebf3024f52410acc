//! Shell scripts: every candidate the tree passes hand the test is one Bash itself
//! accepts (`bash -n`), not only one tree-sitter-bash parses.

use std::io::Write;
use std::process::{Command, Stdio};

use hdd_grammar::Lang;

use super::super::*;
use crate::event::Event;
use crate::exec::ClosureExecutor;
use crate::session::Session;

/// Whether Bash parses `script` (`bash -n`, reading it from stdin).
fn bash_accepts(script: &[u8]) -> bool {
    let mut child = Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("bash runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(script)
        .expect("bash reads its stdin");
    child.wait().expect("bash ends").success()
}

/// Reduces the Bash sample with every default pass in turn, keeping what `needles` name,
/// and returns the result, the test count, and the candidates `bash -n` refuses.
fn reduce_sample(needles: &[&str]) -> (String, u64, Vec<String>) {
    let input = include_str!("../../../../../grammars/bash/sample.sh");
    assert!(bash_accepts(input.as_bytes()));
    let mut refused = Vec::new();
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        if !bash_accepts(t) {
            refused.push(String::from_utf8_lossy(t).into_owned());
        }
        let text = String::from_utf8_lossy(t);
        needles.iter().all(|n| text.contains(n))
    });
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(
        Some(Lang::Bash),
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
    (result, stats.tests, refused)
}

#[test]
fn bash_accepts_every_candidate_of_the_default_passes() {
    let needles: [&[&str]; 3] = [
        &["for file in", "gzip"],
        &["case", "exit 2", "getopts"],
        &["<<", "usage", "mapfile"],
    ];
    for needles in needles {
        let (result, tests, refused) = reduce_sample(needles);
        assert!(result.len() < 100, "{needles:?}: only down to {result:?}");
        assert!(tests > 40, "{needles:?}: only {tests} tests");
        assert!(
            refused.is_empty(),
            "{needles:?}: bash -n refuses {} of {tests} candidates, first:\n{}",
            refused.len(),
            refused[0]
        );
    }
}
