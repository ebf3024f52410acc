//! Deep nesting: a chain of one-node levels, the units beside it, and lifts along it,
//! each in far fewer tests than one per level.

use hdd_grammar::Lang;

use super::super::*;
use super::run_to_fixpoint;
use crate::exec::ClosureExecutor;

/// Runs `pass` alone to a fixpoint on `input` with `interesting`; the result and how many
/// tests it took.
fn count_tests(
    lang: Lang,
    pass: &mut dyn Pass,
    input: &str,
    interesting: impl Fn(&str) -> bool,
) -> (String, usize) {
    let tests = std::cell::Cell::new(0);
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        tests.set(tests.get() + 1);
        interesting(&String::from_utf8_lossy(t))
    });
    let (doc, _) = run_to_fixpoint(lang, pass, input, &mut exec);
    (
        String::from_utf8_lossy(doc.text()).into_owned(),
        tests.get(),
    )
}

fn nested(depth: usize, inside: &str) -> String {
    format!("{}{inside}{}\n", "[".repeat(depth), "]".repeat(depth))
}

/// `depth` levels that alternate `{"kN": [N, "sN", …]}` and `[N, …]` around `true`.
fn nested_with_sides(depth: usize) -> String {
    let mut text = String::new();
    for level in 0..depth {
        if level % 2 == 0 {
            text.push_str(&format!("{{\"k{level}\": [{level}, \"s{level}\", "));
        } else {
            text.push_str(&format!("[{level}, "));
        }
    }
    text.push_str("true");
    for level in (0..depth).rev() {
        text.push_str(if level % 2 == 0 { "]}" } else { "]" });
    }
    text.push('\n');
    text
}

#[test]
fn hdd_cuts_deep_nesting_with_a_binary_search() {
    // One test per level would be 4,096 tests; the search over the one-node levels takes
    // a few dozen.
    let needs = "[".repeat(100);
    let (out, tests) = count_tests(Lang::Json, &mut Hdd, &nested(4096, "42"), |t| {
        t.contains(&needs)
    });
    assert_eq!(out, nested(99, "[]"));
    assert!(tests < 40, "{tests} tests");
}

#[test]
fn hdd_clears_the_sides_of_a_deep_chain_together() {
    // A parser that needs 300 levels of nesting, and whose objects need a string key
    // (`{0: …}`, which the grammar allows, is refused). Once the chain is cut to 300
    // levels, the elements beside the nested ones and the keys' contents go in a few
    // tests, not one or more a level.
    let needs = |t: &str| t.matches(['[', '{']).count() >= 300 && !t.contains("{0");
    let input = nested_with_sides(1000);
    let (out, tests) = count_tests(Lang::Json, &mut Hdd, &input, needs);
    assert!(needs(&out));
    assert_eq!(out.matches(['[', '{']).count(), 300, "{out}");
    // Nothing left of the sides but the keys, emptied.
    let sides = out.replace("{\"\": ", "").replace(['[', ']', '}'], "");
    assert_eq!(sides.trim(), "", "{out}");
    assert!(tests < 150, "{tests} tests");
}

#[test]
fn hoist_lifts_the_bottom_of_a_deep_chain_at_once() {
    let (out, tests) = count_tests(Lang::Json, &mut Hoist, &nested(4096, "42"), |t| {
        t.contains("42")
    });
    assert_eq!(out, "42\n");
    assert!(tests <= 3, "{tests} tests");
    // A test that needs some of the nesting keeps just that much.
    let needs = "[".repeat(100);
    let (out, tests) = count_tests(Lang::Json, &mut Hoist, &nested(4096, "42"), |t| {
        t.contains(&needs)
    });
    assert_eq!(out, nested(100, "42"));
    // Only the links 1, 2, 4, … below a chain's top try the jumps of their own (113
    // tests when every link did).
    assert!(tests < 80, "{tests} tests");
}

#[test]
fn hoist_tries_few_jumps_along_a_chain_the_test_needs() {
    // Every lift fails: the links' jumps would be about ten each.
    let needs = "[".repeat(1000);
    let (out, tests) = count_tests(Lang::Json, &mut Hoist, &nested(1000, "42"), |t| {
        t.contains(&needs)
    });
    assert_eq!(out, nested(1000, "42"));
    assert!(tests < 100, "{tests} tests");
}

#[test]
fn window_tries_few_links_of_a_chain_the_test_needs() {
    // Each group's removal fails: one test per level would be 300 (1,002 tests on 1,000
    // levels when every link was tried); the first 32 links and the links 64, 128 and
    // 256 are tried.
    let needs = "[".repeat(300);
    let (out, tests) = count_tests(Lang::Json, &mut Window, &nested(300, "42"), |t| {
        t.contains(&needs)
    });
    assert_eq!(out, nested(300, ""));
    assert!(tests < 60, "{tests} tests");
}
