//! Facts of the Rust table, its external representatives in context, and its
//! validation against the linked parser.

use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, parse_clean, separator_of, yield_of,
};
use crate::Lang;

const RUST: Lang = Lang::Rust;

#[test]
fn rust_facts() {
    let table = RUST.table();
    assert_eq!(yield_of(RUST, "block"), "{}");
    assert_eq!(yield_of(RUST, "function_item"), "fn a(){}");
    assert_eq!(yield_of(RUST, "let_declaration"), "let _;");
    assert_eq!(yield_of(RUST, "_expression"), "0");
    assert_eq!(yield_of(RUST, "_statement"), ";");
    assert_eq!(yield_of(RUST, "if_expression"), "if 0{}");
    assert_eq!(yield_of(RUST, "string_literal"), "\"\"");
    assert_eq!(yield_of(RUST, "raw_string_literal"), "r\"\"");
    assert_eq!(yield_of(RUST, "float_literal"), "0.0");
    assert_eq!(yield_of(RUST, "struct_item"), "struct a;");
    assert_eq!(yield_of(RUST, "source_file"), "");
    // Doc comment text keeps its newline (`///\n`, `/**\n*/`).
    assert_eq!(yield_of(RUST, "doc_comment"), "\n");
    // A `///` line comment node includes the newline its `//` yield lacks:
    // replacing one comments out the next line (a known validation failure).
    assert_eq!(yield_of(RUST, "line_comment"), "//");
    // `match_arm` is also the alias of `last_match_arm`, whose comma is
    // optional; the rule keeps its own yield, which needs no comma either.
    assert_eq!(yield_of(RUST, "last_match_arm"), "_=>0");
    assert_eq!(yield_of(RUST, "match_arm"), "_=>{}");
    for list in [
        "arguments",
        "parameters",
        "tuple_expression",
        "type_arguments",
    ] {
        assert_eq!(separator_of(RUST, list), Some(","), "{list}");
    }
    assert_eq!(separator_of(RUST, "block"), None);

    let body = table.slot("function_item", Some("body")).unwrap();
    assert!(body.required && !body.multiple);
    let ret = table.slot("function_item", Some("return_type")).unwrap();
    assert!(!ret.required);
    assert!(
        table
            .kind("if_expression")
            .unwrap()
            .supertypes
            .contains(&"_expression")
    );
    for yields in [
        "function_item",
        "let_declaration",
        "match_expression",
        "impl_item",
    ] {
        parse_clean(RUST, yield_of(RUST, yields));
    }
}

#[test]
fn rust_externals_parse_in_context() {
    check_externals(
        RUST,
        &[
            ("string_content", "const S: &str = \"@\";", "string_literal"),
            ("string_close", "const S: &str = \"a@;", "string_literal"),
            (
                "_raw_string_literal_start",
                "const S: &str = @a\";",
                "raw_string_literal",
            ),
            (
                "raw_string_literal_content",
                "const S: &str = r\"@\";",
                "raw_string_literal",
            ),
            (
                "_raw_string_literal_end",
                "const S: &str = r\"a@;",
                "raw_string_literal",
            ),
            ("float_literal", "const F: f64 = @;", "float_literal"),
            (
                "float_literal",
                "fn f() { let x = @.max(@); }",
                "float_literal",
            ),
            (
                "_outer_block_doc_comment_marker",
                "/*@ doc */ fn f() {}",
                "outer_doc_comment_marker",
            ),
            (
                "_inner_block_doc_comment_marker",
                "/*@ doc */ fn f() {}",
                "inner_doc_comment_marker",
            ),
            ("_block_comment_content", "/*@*/ fn f() {}", "block_comment"),
            ("_block_comment_content", "/**@*/ fn f() {}", "doc_comment"),
            ("_block_comment_content", "/*!@*/ fn f() {}", "doc_comment"),
            ("_line_doc_content", "///@fn f() {}", "doc_comment"),
            ("_line_doc_content", "//!@fn f() {}", "doc_comment"),
        ],
        &["_error_sentinel"],
    );
}

#[test]
fn rust_no_version_drift() {
    check_no_drift(RUST, 100);
}

const SAMPLE: &str = r##"//! A small geometry module.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;

/// A point in the plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/** A shape, borrowing its corners. */
pub enum Shape<'a> {
    Circle { center: Point, radius: f64 },
    Polygon(&'a [Point]),
    Empty,
}

impl Point {
    pub const ORIGIN: Point = Point { x: 0.0, y: 0.0 };

    /// Euclidean distance.
    pub fn dist(&self, other: &Point) -> f64 {
        let dx = self.x - other.x;
        let dy = self.y - other.y;
        (dx * dx + dy * dy).sqrt()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

fn area<'a>(shape: &Shape<'a>) -> f64 {
    match shape {
        Shape::Circle { radius, .. } => 3.14159 * radius * radius,
        Shape::Polygon(points) if points.len() < 3 => 0.0,
        Shape::Polygon(points) => {
            let mut sum = 0.0;
            for (i, p) in points.iter().enumerate() {
                let q = points[(i + 1) % points.len()];
                sum += p.x * q.y - q.x * p.y;
            }
            sum.abs() / 2.0
        }
        Shape::Empty => 0.0,
    }
}

/* A plain block comment. */
fn main() {
    let raw = r#"a "quoted" \ raw string"#;
    let plain = "tab\there\n";
    let bytes = b"bytes";
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for word in raw.split_whitespace().chain(plain.split(' ')) {
        *counts.entry(word).or_insert(0) += 1;
    }
    let scale = |v: f64| -> f64 { v * 1.5e3 };
    let big = counts.values().filter(|&&n| n > 1).count();
    let c = 'x';
    if let Some(first) = raw.chars().next() {
        println!("{first} {c} {} {}", scale(2.0), big);
    } else {
        return;
    }
    let shapes = vec![Shape::Empty, Shape::Circle { center: Point::ORIGIN, radius: 1.0 }];
    let total: f64 = shapes.iter().map(area).sum();
    assert!(total >= 0.0 && bytes.len() == 5);
    while let Some(_) = None::<u8> {}
    loop {
        break;
    }
}
"##;

#[test]
fn rust_min_yields_parse_in_place() {
    check_min_yields_in_place(RUST, SAMPLE, 60);
}
