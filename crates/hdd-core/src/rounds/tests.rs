//! Tests of the round loop's lenient tail: after the grammar's passes, token deletions
//! the grammar refuses, unless the session keeps every candidate valid.

use hdd_grammar::Lang;

use crate::document::count_errors;
use crate::event::Event;
use crate::exec::ClosureExecutor;
use crate::session::Session;

const INPUT: &str = "int helper(int v) { return v * 2; }\n\
                     int main(void) { return helper(7) + crash(1, 2); }\n";

/// A test that wants only the words `crash` and `2` in that order: the smallest
/// interesting text is not C.
fn crash_then_two(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    text.find("crash")
        .is_some_and(|at| text[at..].contains('2'))
}

/// Reduces `INPUT` with the default passes; returns the result and the most errors a
/// candidate the test saw had.
fn reduce(lenient_tail: bool) -> (String, usize) {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&Lang::C.ts_language()).unwrap();
    let mut most_errors = 0;
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let tree = parser.parse(t, None).unwrap();
        most_errors = most_errors.max(count_errors(tree.root_node(), t));
        crash_then_two(t)
    });
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(
        Some(Lang::C),
        INPUT.as_bytes().to_vec(),
        &mut exec,
        &mut observer,
    )
    .unwrap();
    session.set_lenient_tail(lenient_tail);
    session.check_original().unwrap();
    session.reduce().unwrap();
    let (doc, _) = session.finish();
    drop(exec);
    (
        String::from_utf8_lossy(doc.text()).into_owned(),
        most_errors,
    )
}

#[test]
fn the_lenient_tail_goes_below_what_the_grammar_allows() {
    let (valid, valid_errors) = reduce(false);
    assert_eq!(
        valid_errors, 0,
        "a candidate with a syntax error: {valid:?}"
    );
    let (lenient, _) = reduce(true);
    assert!(
        lenient.len() < valid.len(),
        "lenient {lenient:?}, valid only {valid:?}"
    );
    assert_eq!(lenient.split_whitespace().collect::<String>(), "crash2");
}
