//! Facts of the TypeScript and TSX tables (one crate, two grammars), and their validation
//! against the linked parsers.

use super::javascript_tests::{JS_EXTERNAL_CASES, JSX_TEXT_CASE};
use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, separator_of, yield_of,
};
use crate::Lang;

const TYPESCRIPT: Lang = Lang::TypeScript;
const TSX: Lang = Lang::Tsx;

#[test]
fn typescript_facts() {
    for lang in [TYPESCRIPT, TSX] {
        assert_eq!(yield_of(lang, "statement"), ";");
        assert_eq!(yield_of(lang, "expression"), "0");
        assert_eq!(yield_of(lang, "interface_declaration"), "interface a{}");
        assert_eq!(yield_of(lang, "enum_declaration"), "enum a{}");
        assert_eq!(separator_of(lang, "formal_parameters"), Some(","));
        assert_eq!(separator_of(lang, "arguments"), Some(","));
    }
    assert!(TSX.table().kind("jsx_element").is_some());
}

/// The end of a function signature (an overload, a declaration without a body).
const SIGNATURE_CASE: (&str, &str, &str) = (
    "_function_signature_automatic_semicolon",
    "function f(): void@ function f() {}",
    "function_signature",
);

#[test]
fn typescript_externals() {
    let cases: Vec<_> = JS_EXTERNAL_CASES
        .iter()
        .copied()
        .chain([SIGNATURE_CASE])
        .collect();
    // Plain TypeScript has no JSX: its scanner never produces `jsx_text`.
    check_externals(TYPESCRIPT, &cases, &["__error_recovery", "jsx_text"]);
}

#[test]
fn tsx_externals() {
    let cases: Vec<_> = JS_EXTERNAL_CASES
        .iter()
        .copied()
        .chain([SIGNATURE_CASE, JSX_TEXT_CASE])
        .collect();
    check_externals(TSX, &cases, &["__error_recovery"]);
}

#[test]
fn typescript_no_version_drift() {
    check_no_drift(TYPESCRIPT, 120);
    check_no_drift(TSX, 120);
}

#[test]
fn typescript_min_yields_parse_in_place() {
    check_min_yields_in_place(TYPESCRIPT, SAMPLE, 75);
    check_min_yields_in_place(TSX, TSX_SAMPLE, 50);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/typescript/sample.ts");

const TSX_SAMPLE: &str = include_str!("../../../../grammars/tsx/sample.tsx");
