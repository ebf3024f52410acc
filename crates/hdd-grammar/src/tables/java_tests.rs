//! Facts of the Java table, and its validation against the linked parser.

use super::testing::{check_min_yields_in_place, check_no_drift, separator_of, yield_of};
use crate::Lang;

const JAVA: Lang = Lang::Java;

#[test]
fn java_facts() {
    assert_eq!(yield_of(JAVA, "block"), "{}");
    assert_eq!(yield_of(JAVA, "statement"), ";");
    assert_eq!(yield_of(JAVA, "class_declaration"), "class a{}");
    assert_eq!(separator_of(JAVA, "formal_parameters"), Some(","));
    assert!(JAVA.table().kind("program").unwrap().derives_empty);
}

#[test]
fn java_no_version_drift() {
    check_no_drift(JAVA, 100);
}

#[test]
fn java_min_yields_parse_in_place() {
    check_min_yields_in_place(JAVA, SAMPLE, 65);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/java/Sample.java");
