//! Data-driven pass tests: input, oracle (substrings that must survive), expected output.

use hdd_grammar::Lang;

use super::*;
use crate::document::Document;
use crate::event::Event;
use crate::exec::ClosureExecutor;
use crate::session::Session;

mod cleanups;
mod deep;
mod range;
mod real_parsers;

/// Runs `pass` alone to a fixpoint on `input` (C) with a test that needs every string of
/// `needs`; checks the result against `expect`.
pub(super) fn check_pass(pass: &mut dyn Pass, input: &str, needs: &[&str], expect: &str) {
    check_pass_in(Lang::C, pass, input, needs, expect);
}

/// [`check_pass`] in any language.
pub(super) fn check_pass_in(
    lang: Lang,
    pass: &mut dyn Pass,
    input: &str,
    needs: &[&str],
    expect: &str,
) {
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        needs.iter().all(|n| t.contains(n))
    });
    let (doc, _) = run_to_fixpoint(lang, pass, input, &mut exec);
    assert_eq!(String::from_utf8_lossy(doc.text()), expect);
}

/// Runs `pass` alone on `input` until a run changes nothing, after checking the original.
pub(super) fn run_to_fixpoint(
    lang: Lang,
    pass: &mut dyn Pass,
    input: &str,
    exec: &mut dyn crate::exec::Executor,
) -> (Document, crate::Stats) {
    let mut observer = |_: Event<'_>| Ok(());
    let mut session =
        Session::new(Some(lang), input.as_bytes().to_vec(), exec, &mut observer).unwrap();
    session.check_original().unwrap();
    loop {
        let before = session.current().text().len();
        session.run_pass(pass).unwrap();
        if session.current().text().len() == before {
            break;
        }
    }
    session.finish()
}

/// A compiler's view of C calls: the text must hold `bug();`, and each function it calls
/// (`return NAME(`) must still be defined (`int NAME(int x) {`).
fn calls_are_defined(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    text.contains("bug();")
        && ["f", "g", "h", "p", "q"].iter().all(|name| {
            !text.contains(&format!("return {name}("))
                || text.contains(&format!("int {name}(int x) {{"))
        })
}

#[test]
fn defs_deletes_a_chain_of_helpers_and_a_cycle_in_one_run() {
    let input = "int h(int x) { return x; }\n\
                 int g(int x) { return h(x); }\n\
                 int f(int x) { return g(x); }\n\
                 int q(int x) { return p(x); }\n\
                 int p(int x) { return q(x); }\n\
                 int main(void) { bug(); }\n";
    let mut exec = ClosureExecutor::new(calls_are_defined);
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(
        Some(Lang::C),
        input.as_bytes().to_vec(),
        &mut exec,
        &mut observer,
    )
    .unwrap();
    session.check_original().unwrap();
    session.run_pass(&mut Defs).unwrap();
    let (doc, _) = session.finish();
    assert_eq!(
        String::from_utf8_lossy(doc.text()),
        "int main(void) { bug(); }\n"
    );
}

#[test]
fn params_deletes_a_parameter_with_its_arguments() {
    // The test is a compiler's: every call passes as many arguments as `f` has
    // parameters (two commas, one or none in the definition and in each call).
    let input = "int f(int a, int b, int c) { return b; }\n\
                 int main(void) { int x = 1, y = 3; return f(x, 2, y) + f(1, 2, 3); }\n";
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        let arity = |s: &str| s.matches(',').count();
        let Some((def, calls)) = t.split_once('\n') else {
            return false;
        };
        let params = def.split_once('{').map_or(99, |(head, _)| arity(head));
        t.contains("return b;")
            && calls.split("f(").skip(1).all(|call| {
                call.split_once(')')
                    .is_some_and(|(a, _)| arity(a) == params)
            })
    });
    let (doc, _) = run_to_fixpoint(Lang::C, &mut Params, input, &mut exec);
    assert_eq!(
        String::from_utf8_lossy(doc.text()),
        "int f(int b) { return b; }\nint main(void) { int x = 1, y = 3; return f(2) + f(2); }\n"
    );
}

#[test]
fn params_deletes_an_sql_column_with_its_values() {
    // sqlite's view: every row inserts as many values as the table has columns.
    let input =
        "CREATE TABLE t(a int, b int, c int);\nINSERT INTO t VALUES (1, 2, 3), (4, 5, 6);\n";
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        let Some((create, insert)) = t.split_once('\n') else {
            return false;
        };
        let columns = create.matches(',').count();
        create.contains("b int")
            && insert
                .split('(')
                .skip(1)
                .all(|row| row.split(')').next().unwrap().matches(',').count() == columns)
    });
    let (doc, _) = run_to_fixpoint(Lang::Sql, &mut Params, input, &mut exec);
    assert_eq!(
        String::from_utf8_lossy(doc.text()),
        "CREATE TABLE t(b int);\nINSERT INTO t VALUES (2), (5);\n"
    );
}

#[test]
fn params_leaves_functions_whose_calls_disagree() {
    check_pass_in(
        Lang::JavaScript,
        &mut Params,
        "function f(a, b) { return b; }\nf(1, 2); f(3);\n",
        &["return"],
        "function f(a, b) { return b; }\nf(1, 2); f(3);\n",
    );
}

#[test]
fn hoist_lifts_what_the_place_admits() {
    // A `select` is not a `create_view` and shares no supertype with it, but a statement
    // may be either.
    check_pass_in(
        Lang::Sql,
        &mut Hoist,
        "CREATE VIEW b AS SELECT total_cents FROM t;\n",
        &["SELECT total_cents"],
        "SELECT total_cents;\n",
    );
}

#[test]
fn inline_writes_what_a_function_returns_at_its_calls() {
    check_pass(
        &mut Inline,
        "static const char *greeting(void) { return \"hi\"; }\nint main() { puts(greeting()); }\n",
        &["puts(", "\"hi\""],
        "int main() { puts(\"hi\"); }\n",
    );
    check_pass_in(
        Lang::Rust,
        &mut Inline,
        "fn three() -> u8 { 1 + 2 }\nfn main() { let x = three(); }\n",
        &["let x", "1 + 2"],
        "fn main() { let x = (1 + 2); }\n",
    );
}

#[test]
fn hoist_drops_the_uses_of_a_definition_it_drops() {
    // sqlite's view: a missing column is reported only when a query uses the view, and
    // a use of a view needs its definition.
    let input = "CREATE VIEW b AS SELECT total_cents FROM t;\nSELECT a FROM b;\n";
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        t.contains("SELECT total_cents")
            && (!t.contains("FROM b") || t.contains("VIEW b"))
            && (!t.contains("CREATE VIEW") || t.contains("FROM b"))
    });
    let (doc, _) = run_to_fixpoint(Lang::Sql, &mut Hoist, input, &mut exec);
    assert_eq!(String::from_utf8_lossy(doc.text()), "SELECT total_cents;\n");
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
fn names_deletes_a_definition_with_its_uses() {
    check_pass(
        &mut Names,
        "int g(void) { return 1; }\nint h;\nint main(void) { g(); h = g() + 1; bug(); }\n",
        &["int main(void) {", "bug();", "int h;"],
        "int h;\nint main(void) { bug(); }\n",
    );
}

#[test]
fn names_deletes_javascript_names_that_go_together() {
    check_pass_in(
        Lang::JavaScript,
        &mut Names,
        "function helper(x) { return x; }\nfunction user() { return helper(1); }\n\
         const api = { user: user };\nbug();\n",
        &["bug();"],
        "const api = { };\nbug();\n",
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
fn tokens_reduce_inside_a_macro_body() {
    // A `#define` body is one leaf of the tree (`preproc_arg`); its tokens go one by one.
    check_pass(
        &mut Tokens,
        "#define a (nextHi[az] - nextLo[az])\nint f(void) { return a; }\n",
        &["#define a", "nextHi", "int f(void) { return a; }"],
        "#define a nextHi\nint f(void) { return a; }\n",
    );
}

#[test]
fn tokens_reduce_inside_a_string_and_a_comment() {
    // A string's text and a comment are leaves of the tree; their words go one by one
    // (a space left inside the string is the whitespace pass's to take).
    check_pass(
        &mut Tokens,
        "/* keep this note */\nint main(void) { puts(\"unexpected token in header\"); }\n",
        &[
            "/* ",
            "note */",
            "int main(void) { puts(\"",
            "token",
            "\"); }",
        ],
        "/* note */\nint main(void) { puts(\"token \"); }\n",
    );
}

#[test]
fn lines_and_tokens_work_without_a_grammar() {
    let mut exec = ClosureExecutor::new(|t: &[u8]| t.windows(3).any(|w| w == b"bug"));
    let mut observer = |_: Event<'_>| Ok(());
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
    let mut observer = |e: Event<'_>| {
        // Every accepted text is a subsequence of the input: bytes are removed, never
        // altered.
        if let Event::Best(d) = e {
            let mut rest = input.iter();
            assert!(d.text().iter().all(|b| rest.any(|c| c == b)));
        }
        Ok(())
    };
    let mut session = Session::new(None, input.clone(), &mut exec, &mut observer).unwrap();
    session.reduce().unwrap();
    let (doc, _) = session.finish();
    assert!(interesting(doc.text()));
    assert!(doc.text().len() <= 4, "{:?}", doc.text());
}

/// Runs `pass` alone to a fixpoint on `input` with a test that parses every text it gets
/// and fails on any syntax error, and otherwise accepts about one candidate in three (by a
/// hash of the text) that keeps half the input, so that many different candidates are
/// accepted and tried.
fn assert_only_valid_texts_reach_the_test(lang: Lang, pass: &mut dyn Pass, input: &str) {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.ts_language()).unwrap();
    let original = parser.parse(input, None).unwrap();
    let base_errors = crate::document::count_errors(original.root_node(), input.as_bytes());
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let tree = parser.parse(t, None).unwrap();
        let errors = crate::document::count_errors(tree.root_node(), t);
        assert!(
            errors <= base_errors,
            "{} handed the test a text with {errors} syntax errors:\n{}",
            lang.name(),
            String::from_utf8_lossy(t)
        );
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(t, &mut hasher);
        // Never below half the input, so the pass goes on proposing candidates.
        t.len() == input.len()
            || (std::hash::Hasher::finish(&hasher).is_multiple_of(3) && 2 * t.len() > input.len())
    });
    let (_, stats) = run_to_fixpoint(lang, pass, input, &mut exec);
    assert!(
        stats.tests > 20,
        "{}: only {} tests",
        lang.name(),
        stats.tests
    );
}

#[test]
fn hoisting_never_hands_a_parse_error_to_the_test() {
    let inputs = [
        (
            Lang::C,
            include_str!("../../../../corpus/c/warn-shift-overflow-framer/framer.c"),
        ),
        (
            Lang::Rust,
            include_str!("../../../../corpus/rust/error-mismatched-types-ledger/ledger.rs"),
        ),
        (
            Lang::JavaScript,
            include_str!("../../../../corpus/javascript/typeerror-undefined-author-blog/blog.js"),
        ),
        (
            Lang::Sql,
            include_str!("../../../../corpus/sql/no-such-column-shop-report/shop_report.sql"),
        ),
        (
            Lang::Json,
            include_str!("../../../../corpus/json/typeerror-methods-string-gateway/gateway.json"),
        ),
    ];
    for (lang, input) in inputs {
        assert_only_valid_texts_reach_the_test(lang, &mut Hoist, input);
    }
}

/// Every grammar added after the first five reduces its sample file (`grammars/<lang>/`)
/// with HDD and hoisting, and no candidate with a new error (Python's indentation
/// rules included) reaches the test.
#[test]
fn newer_grammars_reduce_their_samples_with_valid_candidates_only() {
    let samples = [
        (
            Lang::Cpp,
            include_str!("../../../../grammars/cpp/sample.cpp"),
        ),
        (
            Lang::TypeScript,
            include_str!("../../../../grammars/typescript/sample.ts"),
        ),
        (
            Lang::Tsx,
            include_str!("../../../../grammars/tsx/sample.tsx"),
        ),
        (
            Lang::Python,
            include_str!("../../../../grammars/python/sample.py"),
        ),
        (
            Lang::Css,
            include_str!("../../../../grammars/css/sample.css"),
        ),
        (Lang::Go, include_str!("../../../../grammars/go/sample.go")),
        (
            Lang::Java,
            include_str!("../../../../grammars/java/Sample.java"),
        ),
        (
            Lang::Toml,
            include_str!("../../../../grammars/toml/sample.toml"),
        ),
        (
            Lang::Bash,
            include_str!("../../../../grammars/bash/sample.sh"),
        ),
        (
            Lang::Yaml,
            include_str!("../../../../grammars/yaml/sample.yaml"),
        ),
    ];
    for (lang, input) in samples {
        assert_only_valid_texts_reach_the_test(lang, &mut Hdd, input);
        assert_only_valid_texts_reach_the_test(lang, &mut Hoist, input);
    }
}

#[test]
fn names_never_hands_a_parse_error_to_the_test() {
    let inputs = [
        (
            Lang::C,
            include_str!("../../../../corpus/c/warn-tautological-hashtab/hashtab.c"),
        ),
        (
            Lang::Rust,
            include_str!("../../../../corpus/rust/error-no-method-tokenizer/tokenizer.rs"),
        ),
        (
            Lang::JavaScript,
            include_str!(
                "../../../../corpus/javascript/typeerror-not-a-function-resolver/resolver.js"
            ),
        ),
    ];
    for (lang, input) in inputs {
        assert_only_valid_texts_reach_the_test(lang, &mut Names, input);
    }
}

/// Reduces `input` (text mode) to a fixpoint with `patience`, keeping the lines holding
/// `k17`, `k42` and `k99`; returns the result and the counters.
fn reduce_lines_with(patience: Option<crate::Patience>) -> (Vec<u8>, crate::Stats) {
    let input: String = (0..200).map(|i| format!("line k{i} of noise\n")).collect();
    let needs: [&[u8]; 3] = [b"k17 ", b"k42 ", b"k99 "];
    let mut exec =
        ClosureExecutor::new(|t: &[u8]| needs.iter().all(|n| t.windows(n.len()).any(|w| w == *n)));
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(None, input.into_bytes(), &mut exec, &mut observer).unwrap();
    session.set_patience(patience);
    session.reduce().unwrap();
    let (doc, stats) = session.finish();
    (doc.text().to_vec(), stats)
}

#[test]
fn passes_stopped_early_still_end_in_a_minimal_result() {
    let impatient = crate::Patience {
        window: 4,
        divisor: 2,
    };
    let (patient_text, patient) = reduce_lines_with(None);
    let (text, stats) = reduce_lines_with(Some(impatient));
    let stopped: u64 = stats.passes.iter().map(|p| p.stopped_early).sum();
    assert!(stopped > 0, "no pass was stopped early: {stats:?}");
    assert_eq!(
        patient.passes.iter().map(|p| p.stopped_early).sum::<u64>(),
        0
    );
    // The last round ran every pass to its end: the same result as without patience.
    assert_eq!(
        String::from_utf8_lossy(&text),
        String::from_utf8_lossy(&patient_text)
    );
    assert_eq!(text, b"k17 k42 k99 ");
}

#[test]
fn inline_writes_a_macros_value_in_place_of_its_uses() {
    check_pass(
        &mut Inline,
        "#define SEQ 4\n#define W (SEQ * 8)\nint f(void) { return 1 << W; }\n",
        &["int f(void) { return 1 << ", "4"],
        "int f(void) { return 1 << (4 * 8); }\n",
    );
}

#[test]
fn a_macros_body_takes_the_place_of_its_define_line() {
    // The body alone is what the test needs; as a statement, HDD reduces it as C.
    let input = "#define a (nextHi[az] - nextLo[az])\nint f(void) { return 0; }\n";
    check_pass(
        &mut Inline,
        input,
        &["nextHi[az] - nextLo[az]"],
        "(nextHi[az] - nextLo[az]);\nint f(void) { return 0; }\n",
    );
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        t.contains("nextHi") && !t.contains("define")
    });
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(
        Some(Lang::C),
        input.as_bytes().to_vec(),
        &mut exec,
        &mut observer,
    )
    .unwrap();
    // Valid C only: the lenient tail would drop the `;` the test does not need.
    session.set_lenient_tail(false);
    session.reduce().unwrap();
    assert_eq!(
        String::from_utf8_lossy(session.current().text()),
        "nextHi;\n"
    );
}

#[test]
fn a_macro_without_a_body_gives_its_name_as_a_statement() {
    check_pass(
        &mut Inline,
        "#define nextHi\nint f(void) { return 0; }\n",
        &["nextHi"],
        "nextHi;\nint f(void) { return 0; }\n",
    );
}

#[test]
fn inline_javascript_and_rust_constants() {
    check_pass_in(
        Lang::JavaScript,
        &mut Inline,
        "const key = 'valueOf';\nconst o = {};\no[key]();\n",
        &["o[", "]();"],
        "const o = {};\no['valueOf']();\n",
    );
    check_pass_in(
        Lang::Rust,
        &mut Inline,
        "const N: u32 = 1 + 1;\nfn f() -> u32 { N * N }\n",
        &["fn f() -> u32 {", " * "],
        "fn f() -> u32 { (1 + 1) * (1 + 1) }\n",
    );
}
