//! Facts of the JSON table and its validation against the linked parser
//! (JSON has no external scanner).

use super::testing::{
    check_min_yields_in_place, check_no_drift, parse_clean, separator_of, source, yield_of,
};
use crate::Lang;

const JSON: Lang = Lang::Json;

#[test]
fn json_facts() {
    let table = JSON.table();
    assert_eq!(yield_of(JSON, "object"), "{}");
    assert_eq!(yield_of(JSON, "array"), "[]");
    assert_eq!(yield_of(JSON, "pair"), "\"\":0");
    assert_eq!(yield_of(JSON, "_value"), "0");
    assert_eq!(yield_of(JSON, "string"), "\"\"");
    assert_eq!(yield_of(JSON, "number"), "0");
    assert_eq!(yield_of(JSON, "true"), "true");
    assert_eq!(yield_of(JSON, "null"), "null");
    assert_eq!(yield_of(JSON, "document"), "");
    assert_eq!(separator_of(JSON, "object"), Some(","));
    assert_eq!(separator_of(JSON, "array"), Some(","));
    assert_eq!(separator_of(JSON, "pair"), None);

    let key = table.slot("pair", Some("key")).unwrap();
    assert!(key.required && !key.multiple);
    let members = table.slot("object", None).unwrap();
    assert!(!members.required && members.multiple);
    assert!(table.kind("object").unwrap().supertypes.contains(&"_value"));
    for (kind, context) in [
        ("object", "[@]"),
        ("array", "[@]"),
        ("pair", "{@}"),
        ("string", "{@: 1}"),
        ("document", "@"),
    ] {
        parse_clean(JSON, &context.replace('@', yield_of(JSON, kind)));
    }
    assert!(source(JSON).externals.is_empty());
}

#[test]
fn json_no_version_drift() {
    check_no_drift(JSON, 10);
}

const SAMPLE: &str = r#"{
  "name": "hdd",
  "version": "0.1.0",
  "private": true,
  "license": null,
  "ratio": -1.5e-3,
  "count": 42,
  "escaped": "tab\tquote\" unicode \u00e9",
  "keywords": ["reducer", "tree-sitter", "delta debugging"],
  "empty": {},
  "nothing": [],
  "languages": [
    {
      "name": "c",
      "extensions": [".c", ".h"],
      "externals": 0
    },
    {
      "name": "rust",
      "extensions": [".rs"],
      "externals": 11,
      "nested": { "deeper": { "deepest": [1, [2, [3, {"four": 4}]]] } }
    }
  ],
  "matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  "settings": {
    "jobs": 2,
    "timeout": 10.25,
    "flags": { "verbose": false, "color": "auto" }
  }
}
"#;

#[test]
fn json_min_yields_parse_in_place() {
    check_min_yields_in_place(JSON, SAMPLE, 10);
}
