//! Passes: each proposes candidates (edit sets) and learns which one was interesting.

mod bytes;
mod hdd;
mod hoist;
mod lines;
mod literals;
mod perses;
mod rename;
mod tokens;
mod whitespace;
mod window;

use crate::ddmin::{DdminOptions, ddmin};
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::session::{Error, Session};

pub use self::bytes::Bytes;
pub use self::hdd::Hdd;
pub use self::hoist::Hoist;
pub use self::lines::Lines;
pub use self::literals::Literals;
pub use self::perses::Perses;
pub use self::rename::Rename;
pub use self::tokens::Tokens;
pub use self::whitespace::Whitespace;
pub use self::window::Window;

/// A reduction pass. It proposes candidates through [`Session::first_interesting`]
/// and never runs a test itself.
pub trait Pass {
    /// A short name for statistics (`hdd`, `lines`, `tokens`).
    fn name(&self) -> &'static str;

    /// Runs the pass once over the session's current document.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error>;
}

/// The passes of a run, in the order a round runs them: the tree first (coarse, cheap),
/// then lines and tokens (fine, language-agnostic), then the cleanups: literals and
/// names with a grammar, bytes without one, whitespace last.
#[must_use]
pub fn default_passes(grammar: bool) -> Vec<Box<dyn Pass>> {
    let mut passes: Vec<Box<dyn Pass>> = Vec::new();
    if grammar {
        passes.push(Box::new(Hdd));
        passes.push(Box::new(Hoist));
    }
    passes.push(Box::new(Lines));
    passes.push(Box::new(Tokens));
    passes.push(Box::new(Window));
    if grammar {
        passes.push(Box::new(Literals));
        passes.push(Box::new(Rename));
    } else {
        passes.push(Box::new(Bytes));
    }
    passes.push(Box::new(Whitespace));
    passes
}

/// ddmin over `units` (edits against `base`): a configuration keeps some units, and its
/// candidate applies the edits of all the others. Returns whether anything was accepted.
fn ddmin_units(
    session: &mut Session<'_>,
    base: &Document,
    units: &[Edit],
    try_empty: bool,
) -> Result<bool, Error> {
    let mut progress = false;
    ddmin(
        units.len(),
        DdminOptions {
            try_empty,
            complements_only: true,
            resume: true,
        },
        &mut |configs| {
            let mut candidates = configs.map(|kept| {
                let mut keep = vec![false; units.len()];
                for k in kept {
                    keep[k] = true;
                }
                let removed = units
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| !**k)
                    .map(|(e, _)| e.clone())
                    .collect();
                EditSet::new(removed)
            });
            let found = session.first_interesting(base, &mut candidates)?;
            progress |= found.is_some();
            Ok(found)
        },
    )?;
    Ok(progress)
}

/// Whether `byte` is ASCII whitespace.
fn is_space(byte: u8) -> bool {
    byte.is_ascii_whitespace()
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// Extends a deletion of `range` over the whitespace that follows it, unless that would
/// glue two words together (`int x` must not become `intx`), so deleting a node or a
/// token leaves no gap behind. A newline is swallowed only when the deletion starts its
/// line: a line's end is never joined to the next line (a C `#include` line would take
/// the next declaration with it).
fn swallow_space(text: &[u8], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let line_start = text[..range.start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let starts_line = text[line_start..range.start].iter().all(|&b| is_space(b));
    let mut end = range.end;
    while end < text.len() && is_space(text[end]) && (starts_line || text[end] != b'\n') {
        let newline = text[end] == b'\n';
        end += 1;
        if newline {
            break;
        }
    }
    let mut start = range.start;
    if end == range.end {
        // Nothing to swallow after it (`b FROM t;`): take the spaces before instead.
        while start > line_start && matches!(text[start - 1], b' ' | b'\t') {
            start -= 1;
        }
    }
    let before = start.checked_sub(1).map(|i| text[i]);
    let after = text.get(end).copied();
    if before.is_some_and(is_word)
        && after.is_some_and(is_word)
        && (end, start) != (range.end, range.start)
    {
        // Keep one space between the two words.
        return if end > range.end {
            range.start..end - 1
        } else {
            start + 1..range.end
        };
    }
    start..end
}

#[cfg(test)]
mod tests {
    //! Data-driven pass tests: input, oracle (substrings that must survive), expected output.

    use hdd_grammar::Lang;

    use super::*;
    use crate::exec::ClosureExecutor;

    /// Runs `pass` alone to a fixpoint on `input` (C) with a test that needs every string of
    /// `needs`; checks the result against `expect`.
    fn check_pass(pass: &mut dyn Pass, input: &str, needs: &[&str], expect: &str) {
        check_pass_in(Lang::C, pass, input, needs, expect);
    }

    /// [`check_pass`] in any language.
    fn check_pass_in(lang: Lang, pass: &mut dyn Pass, input: &str, needs: &[&str], expect: &str) {
        let mut exec = ClosureExecutor::new(|t: &[u8]| {
            let t = String::from_utf8_lossy(t);
            needs.iter().all(|n| t.contains(n))
        });
        let mut observer = |_: &Document| Ok(());
        let mut session = Session::new(
            Some(lang),
            input.as_bytes().to_vec(),
            &mut exec,
            &mut observer,
        )
        .unwrap();
        session.check_original().unwrap();
        loop {
            let before = session.current().text().len();
            session.run_pass(pass).unwrap();
            if session.current().text().len() == before {
                break;
            }
        }
        let (doc, _) = session.finish();
        assert_eq!(String::from_utf8_lossy(doc.text()), expect);
    }

    #[test]
    fn hdd_removes_whole_definitions() {
        check_pass(
            &mut Hdd,
            "int f(void) { a(); b(); }\nint g;\nstruct s { int x; };\n",
            &["int g;"],
            "int g;\n",
        );
    }

    #[test]
    fn hdd_replaces_required_children_by_their_supertypes_minimal_yield() {
        check_pass(
            &mut Hdd,
            "void f(int c) { if (c) { c = 1; c = 2; } else { c = 3; } }\n",
            &["void f(int c)", "if (c)"],
            "void f(int c) { if (c) ; }\n",
        );
    }

    #[test]
    fn hdd_removes_list_elements_with_their_separator() {
        check_pass(
            &mut Hdd,
            "int f(int a, int b, int c) { return g(a, b, c); }\n",
            &["int f(", "int b", "return g("],
            "int f(int b) { return g(); }\n",
        );
    }

    #[test]
    fn hdd_removes_json_pairs_and_elements_with_their_commas() {
        check_pass_in(
            Lang::Json,
            &mut Hdd,
            r#"{"a": 1, "b": [1, 2, {"c": true}], "d": null}"#,
            &[r#""b""#, r#""c""#, "true"],
            r#"{"b": [{"c": true}]}"#,
        );
    }

    #[test]
    fn hdd_removes_javascript_arguments_with_their_commas() {
        check_pass_in(
            Lang::JavaScript,
            &mut Hdd,
            "f(1, g(2, 3), 4);\nlet x = [5, 6];\n",
            &["f(", "g("],
            "f(g());\n",
        );
    }

    #[test]
    fn hdd_removes_sql_columns_with_their_commas() {
        check_pass_in(
            Lang::Sql,
            &mut Hdd,
            "SELECT a, b, c FROM t WHERE a > 1;\n",
            &["SELECT", "b"],
            "SELECT b;\n",
        );
    }

    #[test]
    fn rename_shortens_names_and_never_merges_two() {
        // `b` is taken, so `counter` and `total` must get two other names.
        check_pass(
            &mut Rename,
            "int counter; int total; int b;\nint f(void) { return counter + total + b; }\n",
            &["return", " + ", "+ b;"],
            "int a; int c; int b;\nint f(void) { return a + c + b; }\n",
        );
    }

    #[test]
    fn rename_keeps_names_the_test_needs() {
        check_pass(
            &mut Rename,
            "int keep_me(int value) { return value; }\n",
            &["keep_me("],
            "int keep_me(int a) { return a; }\n",
        );
    }

    #[test]
    fn literals_become_the_shortest_of_their_kind() {
        check_pass(
            &mut Literals,
            "char *s = \"a long string\"; int n = 123456; int m = 0x7fff;\n",
            &["n = "],
            "char *s = \"\"; int n = 0; int m = 0;\n",
        );
    }

    #[test]
    fn literals_keep_the_values_the_test_needs() {
        check_pass(
            &mut Literals,
            "int n = 123456; int m = 0x7fff;\n",
            &["0x7fff"],
            "int n = 0; int m = 0x7fff;\n",
        );
    }

    #[test]
    fn whitespace_collapses_when_the_test_allows() {
        check_pass(
            &mut Whitespace,
            "int   f ( int a ,  int b )\n\n\n{  return a ;  }\n",
            &["return"],
            "int f(int a,int b)\n{return a;}\n",
        );
    }

    #[test]
    fn perses_hoists_and_reduces_lists() {
        check_pass(
            &mut Perses,
            "int g(int a, int b, int c) { return a; }\n\
             void f(int x) { if (x) { while (x) x = g(1, x << 40, 3); } }\n",
            &["void f(int x) {", "<< 40", "int g("],
            "int g() ;\nvoid f(int x) { x << 40; }\n",
        );
    }

    #[test]
    fn perses_removes_json_members_largest_first() {
        check_pass_in(
            Lang::Json,
            &mut Perses,
            r#"{"big": {"x": [1, 2, 3, 4, 5, 6]}, "keep": [true, false], "small": 1}"#,
            &["keep", "[true"],
            r#"{"keep": [true]}"#,
        );
    }

    #[test]
    fn deletions_never_join_a_line_to_the_next() {
        let text = b"#include <x.h> /* c */\nint a;\n  int b;\n";
        let find = |s: &[u8]| text.windows(s.len()).position(|w| w == s).unwrap();
        let comment = find(b"/* c */");
        // At the end of a line: the newline stays, the space before goes.
        assert_eq!(
            swallow_space(text, comment..comment + 7),
            comment - 1..comment + 7
        );
        // A whole line: its newline goes with it.
        let a = find(b"int a;");
        assert_eq!(swallow_space(text, a..a + 6), a..a + 7);
        // An indented line: the newline goes, the indentation before stays.
        let b = find(b"int b;");
        assert_eq!(swallow_space(text, b..b + 6), b..b + 7);
    }

    #[test]
    fn hoist_replaces_a_statement_by_an_inner_one() {
        check_pass(
            &mut Hoist,
            "void f(int x) { if (x) { while (x) x = x << 40; } }\n",
            &["void f(int x) {", "<< 40"],
            "void f(int x) { x << 40; }\n",
        );
    }

    #[test]
    fn hoist_replaces_an_expression_by_an_operand() {
        check_pass(
            &mut Hoist,
            "int y = (3 + (1 << 40)) * 2;\n",
            &["<< 40"],
            "int y = 1 << 40;\n",
        );
    }

    #[test]
    fn window_removes_runs_of_tokens() {
        check_pass(
            &mut Window,
            "static const unsigned int x = 1;\n",
            &["int x = 1"],
            "int x = 1;\n",
        );
    }

    #[test]
    fn lines_and_tokens_work_without_a_grammar() {
        let mut exec = ClosureExecutor::new(|t: &[u8]| t.windows(3).any(|w| w == b"bug"));
        let mut observer = |_: &Document| Ok(());
        let mut session = Session::new(
            None,
            b"first line\nsecond bug line\nthird\n".to_vec(),
            &mut exec,
            &mut observer,
        )
        .unwrap();
        session.reduce().unwrap();
        assert_eq!(session.current().text(), b"bug");
    }

    #[test]
    fn text_mode_keeps_arbitrary_bytes_exactly() {
        // Invalid UTF-8, NUL bytes, CRLF, no final newline.
        let input: Vec<u8> =
            b"head\r\n\x00\xff\xfe mid \x80\r\nkeep \xc3\x28 this\r\ntail\x00".to_vec();
        let needed: &[&[u8]] = &[b"\xc3\x28", b"\x00\xff"];
        let interesting = |t: &[u8]| needed.iter().all(|n| t.windows(n.len()).any(|w| w == *n));
        let mut exec = ClosureExecutor::new(interesting);
        let mut observer = |d: &Document| {
            // Every accepted text is a subsequence of the input: bytes are removed, never
            // altered.
            let mut rest = input.iter();
            assert!(d.text().iter().all(|b| rest.any(|c| c == b)));
            Ok(())
        };
        let mut session = Session::new(None, input.clone(), &mut exec, &mut observer).unwrap();
        session.reduce().unwrap();
        let (doc, _) = session.finish();
        assert!(interesting(doc.text()));
        assert!(doc.text().len() <= 4, "{:?}", doc.text());
    }
}
