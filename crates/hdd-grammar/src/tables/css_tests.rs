//! Facts of the CSS table, and its validation against the linked parser.

use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, separator_of, yield_of,
};
use crate::Lang;

const CSS: Lang = Lang::Css;

#[test]
fn css_facts() {
    assert_eq!(yield_of(CSS, "rule_set"), "*{}");
    assert_eq!(yield_of(CSS, "declaration"), "a:0;");
    assert_eq!(yield_of(CSS, "block"), "{}");
    assert_eq!(separator_of(CSS, "selectors"), Some(","));
    assert!(CSS.table().kind("stylesheet").unwrap().derives_empty);
}

#[test]
fn css_externals() {
    check_externals(
        CSS,
        &[
            ("_descendant_operator", "a@b {}", "descendant_selector"),
            (
                "_pseudo_class_selector_colon",
                "a@hover {}",
                "pseudo_class_selector",
            ),
        ],
        &["__error_recovery"],
    );
}

#[test]
fn css_no_version_drift() {
    check_no_drift(CSS, 40);
}

#[test]
fn css_min_yields_parse_in_place() {
    check_min_yields_in_place(CSS, SAMPLE, 40);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/css/sample.css");
