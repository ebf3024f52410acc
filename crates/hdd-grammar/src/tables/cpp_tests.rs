//! Facts of the C++ table, and its validation against the linked parser.

use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, separator_of, yield_of,
};
use crate::Lang;

const CPP: Lang = Lang::Cpp;

#[test]
fn cpp_facts() {
    assert_eq!(yield_of(CPP, "compound_statement"), "{}");
    assert_eq!(yield_of(CPP, "statement"), ";");
    assert_eq!(yield_of(CPP, "namespace_definition"), "namespace{}");
    assert_eq!(yield_of(CPP, "lambda_expression"), "[]{}");
    assert_eq!(yield_of(CPP, "class_specifier"), "class a");
    assert_eq!(separator_of(CPP, "template_argument_list"), Some(","));
    assert_eq!(separator_of(CPP, "parameter_list"), Some(","));
    assert!(CPP.table().kind("translation_unit").unwrap().derives_empty);
}

#[test]
fn cpp_externals() {
    check_externals(
        CPP,
        &[
            (
                "raw_string_delimiter",
                "const char *s = R\"@(x)@\";",
                "raw_string_delimiter",
            ),
            (
                "raw_string_content",
                "const char *s = R\"(@)\";",
                "raw_string_literal",
            ),
        ],
        &[],
    );
}

#[test]
fn cpp_no_version_drift() {
    check_no_drift(CPP, 150);
}

#[test]
fn cpp_min_yields_parse_in_place() {
    check_min_yields_in_place(CPP, SAMPLE, 90);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/cpp/sample.cpp");
