//! Facts of the Python table, and its validation against the linked parser.

use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, separator_of, yield_of,
};
use crate::Lang;

const PYTHON: Lang = Lang::Python;

#[test]
fn python_facts() {
    assert_eq!(yield_of(PYTHON, "block"), "0");
    assert_eq!(yield_of(PYTHON, "function_definition"), "def a():0");
    assert_eq!(yield_of(PYTHON, "expression"), "0");
    assert_eq!(separator_of(PYTHON, "argument_list"), Some(","));
    assert!(PYTHON.table().kind("module").unwrap().derives_empty);
}

#[test]
fn python_externals() {
    check_externals(
        PYTHON,
        &[
            ("_newline", "a = 1@b = 2\n", "expression_statement"),
            ("_indent", "if a:\n@ b\n", "block"),
            ("_dedent", "if a:\n b\n@c\n", "if_statement"),
            ("string_start", "x = @a\"\n", "string"),
            ("_string_content", "x = \"@\"\n", "string"),
            (
                "escape_interpolation",
                "x = f\"@\"\n",
                "escape_interpolation",
            ),
            ("string_end", "x = \"a@\n", "string"),
        ],
        &[],
    );
}

#[test]
fn python_no_version_drift() {
    check_no_drift(PYTHON, 90);
}

#[test]
fn python_min_yields_parse_in_place() {
    check_min_yields_in_place(PYTHON, SAMPLE, 70);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/python/sample.py");
