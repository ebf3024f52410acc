//! Facts of the TOML table, and its validation against the linked parser.

use super::testing::{check_externals, check_min_yields_in_place, check_no_drift, yield_of};
use crate::Lang;

const TOML: Lang = Lang::Toml;

#[test]
fn toml_facts() {
    assert_eq!(yield_of(TOML, "pair"), "a=0\n");
    assert_eq!(yield_of(TOML, "table"), "[a]\n");
    assert_eq!(yield_of(TOML, "inline_table"), "{}");
    assert!(TOML.table().kind("document").unwrap().derives_empty);
}

#[test]
fn toml_externals() {
    check_externals(
        TOML,
        &[
            ("_line_ending_or_eof", "a = 1@b = 2", "pair"),
            (
                "_multiline_basic_string_content",
                "a = \"\"\"@\"\"\"\n",
                "string",
            ),
            ("_multiline_basic_string_end", "a = \"\"\"x@\n", "string"),
            (
                "_multiline_literal_string_content",
                "a = \'\'\'@\'\'\'\n",
                "string",
            ),
            ("_multiline_literal_string_end", "a = \'\'\'x@\n", "string"),
        ],
        &[],
    );
}

#[test]
fn toml_no_version_drift() {
    check_no_drift(TOML, 12);
}

#[test]
fn toml_min_yields_parse_in_place() {
    check_min_yields_in_place(TOML, SAMPLE, 12);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/toml/sample.toml");
