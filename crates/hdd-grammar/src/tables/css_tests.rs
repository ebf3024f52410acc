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

const SAMPLE: &str = r##"@charset "utf-8";
@import url("base.css") screen;

:root {
  --accent: #3366ff;
  --gap: calc(1rem + 2px);
}

html, body {
  margin: 0;
  font: 14px/1.4 "Helvetica Neue", Arial, sans-serif !important;
}

nav > ul li:first-child a[href^="https"]:hover::after {
  content: "\2192";
  color: var(--accent);
}

.card.wide #main ~ p + span {
  grid-template-columns: repeat(3, minmax(0, 1fr));
  transition: opacity 0.3s ease-in-out, transform 200ms;
}

@media screen and (max-width: 600px) {
  .card { padding: 4px 8px; }
}

@keyframes spin {
  from { transform: rotate(0deg); }
  to { transform: rotate(360deg); }
}

@supports (display: grid) {
  .grid { display: grid; }
}
"##;
