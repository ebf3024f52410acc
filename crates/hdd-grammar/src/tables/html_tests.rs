//! Facts of the HTML table, and its validation against the linked parser.

use super::testing::{check_externals, check_min_yields_in_place, check_no_drift, yield_of};
use crate::Lang;

const HTML: Lang = Lang::Html;

#[test]
fn html_facts() {
    assert_eq!(yield_of(HTML, "element"), "<a></a>");
    assert_eq!(yield_of(HTML, "start_tag"), "<a>");
    assert_eq!(yield_of(HTML, "end_tag"), "</a>");
    assert!(HTML.table().kind("document").unwrap().derives_empty);
}

#[test]
fn html_externals() {
    check_externals(
        HTML,
        &[
            ("_start_tag_name", "<@></a>", "start_tag"),
            ("_script_start_tag_name", "<@>x</script>", "script_element"),
            ("_style_start_tag_name", "<@>x</style>", "style_element"),
            ("_end_tag_name", "<a></@>", "end_tag"),
            ("_implicit_end_tag", "<p>a@<p>b</p>", "element"),
            ("raw_text", "<script>@</script>", "raw_text"),
            ("comment", "<a>@</a>", "comment"),
        ],
        // An end tag that closes nothing open: the parser makes it only while recovering
        // from an error, never in a clean parse.
        &["erroneous_end_tag_name"],
    );
}

#[test]
fn html_no_version_drift() {
    check_no_drift(HTML, 15);
}

#[test]
fn html_min_yields_parse_in_place() {
    check_min_yields_in_place(HTML, SAMPLE, 15);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/html/sample.html");
