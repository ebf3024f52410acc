//! Facts of the Go table, and its validation against the linked parser.

use super::testing::{check_min_yields_in_place, check_no_drift, separator_of, yield_of};
use crate::Lang;

const GO: Lang = Lang::Go;

#[test]
fn go_facts() {
    assert_eq!(yield_of(GO, "block"), "{}");
    assert_eq!(yield_of(GO, "_expression"), "0");
    assert_eq!(separator_of(GO, "parameter_list"), Some(","));
    assert_eq!(separator_of(GO, "argument_list"), Some(","));
    assert!(GO.table().kind("source_file").unwrap().derives_empty);
}

#[test]
fn go_no_version_drift() {
    check_no_drift(GO, 80);
}

#[test]
fn go_min_yields_parse_in_place() {
    check_min_yields_in_place(GO, SAMPLE, 65);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/go/sample.go");
