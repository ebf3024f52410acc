//! Facts of the JavaScript table, its external representatives in context,
//! and its validation against the linked parser.

use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, parse_clean, separator_of, yield_of,
};
use crate::Lang;

const JS: Lang = Lang::JavaScript;

#[test]
fn javascript_facts() {
    let table = JS.table();
    assert_eq!(yield_of(JS, "statement_block"), "{}");
    assert_eq!(yield_of(JS, "function_declaration"), "function a(){}");
    assert_eq!(yield_of(JS, "template_string"), "``");
    assert_eq!(yield_of(JS, "expression"), "0");
    assert_eq!(yield_of(JS, "statement"), ";");
    assert_eq!(yield_of(JS, "if_statement"), "if(0);");
    // The explicit `;` representative of the automatic semicolon.
    assert_eq!(yield_of(JS, "expression_statement"), "0;");
    assert_eq!(yield_of(JS, "ternary_expression"), "0?0:0");
    assert_eq!(yield_of(JS, "regex"), "/a/");
    assert_eq!(yield_of(JS, "class_declaration"), "class a{}");
    assert_eq!(yield_of(JS, "arrow_function"), "a=>0");
    assert_eq!(yield_of(JS, "program"), "");
    for list in ["arguments", "formal_parameters", "array", "object"] {
        assert_eq!(separator_of(JS, list), Some(","), "{list}");
    }
    assert_eq!(separator_of(JS, "statement_block"), None);

    let alternative = table.slot("if_statement", Some("alternative")).unwrap();
    assert!(!alternative.required && !alternative.multiple);
    let body = table.slot("function_declaration", Some("body")).unwrap();
    assert!(body.required);
    assert!(
        table
            .kind("if_statement")
            .unwrap()
            .supertypes
            .contains(&"statement")
    );
    for yields in [
        "function_declaration",
        "class_declaration",
        "if_statement",
        "ternary_expression",
        "template_string",
        "regex",
        "jsx_element",
    ] {
        parse_clean(JS, yield_of(JS, yields));
    }
}

/// The external-representative cases of tree-sitter-javascript's scanner tokens, shared
/// with TypeScript and TSX (whose scanners extend it): `(external, template, kind)`.
pub(super) const JS_EXTERNAL_CASES: &[(&str, &str, &str)] = &[
    (
        "_automatic_semicolon",
        "let a = 1@ let b = 2",
        "lexical_declaration",
    ),
    (
        "_automatic_semicolon",
        "if (a) b()@ else c()",
        "else_clause",
    ),
    (
        "_template_chars",
        "const t = `@${a}`;",
        "template_substitution",
    ),
    (
        "_ternary_qmark",
        "const c = a @ b : c;",
        "ternary_expression",
    ),
    ("html_comment", "@\nlet a = 1;", "html_comment"),
];

/// The case of `jsx_text`, for the grammars with JSX.
pub(super) const JSX_TEXT_CASE: (&str, &str, &str) =
    ("jsx_text", "const e = <div>@</div>;", "jsx_text");

#[test]
fn javascript_externals_parse_in_context() {
    let cases: Vec<_> = JS_EXTERNAL_CASES
        .iter()
        .copied()
        .chain([JSX_TEXT_CASE])
        .collect();
    check_externals(JS, &cases, &[]);
}

#[test]
fn javascript_no_version_drift() {
    check_no_drift(JS, 100);
}

const SAMPLE: &str = r#"'use strict';
import { readFile } from "fs/promises";
import path from 'path';

const PATTERN = /^(\d+)-([a-z]+)$/gi;
let counter = 0

class Shape {
  static count = 0;
  #secret = 42;
  constructor(name, sides = 3) {
    this.name = name;
    this.sides = sides;
    Shape.count++;
  }
  get label() {
    return `${this.name} with ${this.sides} sides`;
  }
  area() {
    throw new Error("not implemented");
  }
}

class Square extends Shape {
  constructor(side) {
    super('square', 4);
    this.side = side;
  }
  area() {
    return this.side ** 2;
  }
}

const double = (x) => x * 2;
const add = (a, b) => {
  return a + b
};

async function load(file) {
  try {
    const text = await readFile(path.join(".", file), 'utf8');
    return JSON.parse(text);
  } catch (err) {
    console.error(`failed: ${err.message}\n`);
    return null;
  } finally {
    counter += 1
  }
}

function* ids() {
  let i = 0;
  while (true) yield i++;
}

const shapes = [new Square(2), new Square(3)];
const total = shapes.map((s) => s.area()).reduce(add, 0);
const kind = total > 10 ? "big" : 'small';
const { name, ...rest } = { name: "x", a: 1, b: [1, 2, 3] };
for (const [key, value] of Object.entries(rest)) {
  if (PATTERN.test(key)) continue;
  else console.log(key, value);
}
switch (kind) {
  case "big":
    counter--;
    break;
  default:
    counter = typeof counter === 'number' ? counter : 0;
}
const element = <div className="box">Hello {name}</div>;
export { double, load, ids, element };
export default Shape;
"#;

#[test]
fn javascript_min_yields_parse_in_place() {
    check_min_yields_in_place(JS, SAMPLE, 60);
}
