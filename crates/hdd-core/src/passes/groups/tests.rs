//! Tests of text mode's shape (items, groups, blocks read from brackets and indentation)
//! and of the groups pass on small texts.

use super::*;
use crate::edit::EditSet;
use crate::event::Event;
use crate::exec::ClosureExecutor;

/// The items of `text` on `level`, as text.
fn items(text: &str, level: usize) -> Vec<&str> {
    Shape::of(text.as_bytes())
        .items
        .iter()
        .filter(|item| item.level == level)
        .map(|item| &text[item.range.clone()])
        .collect()
}

/// `text` after each unwrap of `level`, one at a time.
fn unwrapped(text: &str, level: usize) -> Vec<String> {
    Shape::of(text.as_bytes())
        .unwraps
        .iter()
        .filter(|unwrap| unwrap.level == level)
        .map(|unwrap| {
            let set = EditSet::new(unwrap.edits.clone()).expect("edits of one unwrap");
            String::from_utf8(set.apply(text.as_bytes())).unwrap()
        })
        .collect()
}

#[test]
fn brace_languages_split_into_statements_and_blocks() {
    let text = "int f(int a, int b) {\n  if (a) { g(); } else { h(); }\n  return a;\n}\nint x;\n";
    assert_eq!(
        items(text, 0),
        [
            "int f(int a, int b) {\n  if (a) { g(); } else { h(); }\n  return a;\n}",
            "int x;"
        ]
    );
    assert_eq!(
        items(text, 1),
        [
            "int a,",
            "int b",
            "if (a) { g(); } else { h(); }",
            "return a;"
        ]
    );
    assert_eq!(items(text, 2), ["a", "g();", "h();"]);
}

#[test]
fn minified_rules_end_at_their_closing_brace() {
    let text = "a{color:red}.b{x:1;y:2}@media print{c{d:e}}";
    assert_eq!(
        items(text, 0),
        ["a{color:red}", ".b{x:1;y:2}", "@media print{c{d:e}}"]
    );
    assert_eq!(items(text, 1), ["color:red", "x:1;", "y:2", "c{d:e}"]);
    assert_eq!(items(text, 2), ["d:e"]);
}

#[test]
fn indented_lines_are_a_block_of_the_line_above() {
    let text = "def f(a):\n    if a:\n        return 1\n    return 2\nf(0)\n";
    assert_eq!(
        items(text, 0),
        [
            "def f(a):\n    if a:\n        return 1\n    return 2",
            "f(0)"
        ]
    );
    assert_eq!(
        items(text, 1),
        ["a", "if a:\n        return 1", "return 2", "0"]
    );
    assert_eq!(items(text, 2), ["return 1"]);
    // Keeping only a block dedents it to its owner's column.
    assert!(
        unwrapped(text, 0).contains(&"if a:\n    return 1\nreturn 2\nf(0)\n".to_string()),
        "{:?}",
        unwrapped(text, 0)
    );
    assert!(
        unwrapped(text, 1).contains(&"def f(a):\n    return 1\n    return 2\nf(0)\n".to_string())
    );
}

#[test]
fn unwrapping_a_group_keeps_its_inside_without_the_word_before_it() {
    assert_eq!(unwrapped("f(g(x))", 0), ["g(x)"]);
    assert_eq!(unwrapped("f(g(x))", 1), ["f(x)"]);
    assert_eq!(unwrapped("a = [1, 2];", 0), ["a = 1, 2;"]);
    assert_eq!(unwrapped("if (a)b;", 0), ["if a b;"]);
}

#[test]
fn stray_brackets_and_open_quotes_are_plain_tokens() {
    let text = "a ) b;\nc ( d;\ndon't e;\n";
    assert_eq!(items(text, 0), ["a ) b;", "c ( d;", "don't e;"]);
    // A string holds its brackets and semicolons.
    assert_eq!(items("x = \"a;(\"; y;", 0), ["x = \"a;(\";", "y;"]);
}

#[test]
fn deep_nesting_reads_without_recursion() {
    let depth = 200_000;
    let text = format!("{}x{}", "[".repeat(depth), "]".repeat(depth));
    let shape = Shape::of(text.as_bytes());
    assert_eq!(shape.items.len(), depth + 1);
    assert_eq!(shape.unwraps.len(), depth);
}

/// Runs the pass to a fixpoint in text mode with a test that needs every string of
/// `needs`.
fn reduce(input: &str, needs: &[&str]) -> String {
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        needs.iter().all(|n| t.contains(n))
    });
    let mut observer = |_: Event<'_>| Ok(());
    let mut session =
        Session::new(None, input.as_bytes().to_vec(), &mut exec, &mut observer).unwrap();
    session.check_original().unwrap();
    loop {
        let before = session.current().text().len();
        session.run_pass(&mut Groups).unwrap();
        if session.current().text().len() == before {
            break;
        }
    }
    String::from_utf8(session.finish().0.text().to_vec()).unwrap()
}

#[test]
fn whole_functions_and_rules_go_in_one_piece() {
    let css = "a {\n  color: red;\n}\n\n@media print {\n  b { y: 2; }\n}\n";
    // (The blank lines are the whitespace pass's.)
    assert_eq!(reduce(css, &["b {", "y: 2"]).trim(), "b { y: 2; }");
    let python = "import os\n\ndef f(a):\n    if a:\n        return 1\n    return 2\n\nf(0)\n";
    assert_eq!(reduce(python, &["return 1"]).trim(), "return 1");
    assert_eq!(
        reduce(python, &["def f(", "return 1"]).trim(),
        "def f():\n    return 1"
    );
}
