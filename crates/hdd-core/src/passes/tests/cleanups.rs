//! Pass tests of the cleanups (names renamed, literals and types simplified, expressions
//! replaced by constants, whitespace) and of Python's block structure.

use hdd_grammar::Lang;

use super::super::*;
use super::{check_pass, check_pass_in, run_to_fixpoint};
use crate::exec::ClosureExecutor;

#[test]
fn rename_shortens_names_and_never_merges_two() {
    // `b` is taken, so `counter` and `total` must get two other names.
    check_pass(
        &mut Rename,
        "int counter; int total; int b;\nint f(void) { return counter + total + b; }\n",
        &["return", " + ", "+ b;"],
        "int a; int c; int b;\nint f(void) { return a + c + b; }\n",
    );
}

#[test]
fn rename_keeps_names_the_test_needs() {
    check_pass(
        &mut Rename,
        "int keep_me(int value) { return value; }\n",
        &["keep_me("],
        "int keep_me(int a) { return a; }\n",
    );
}

#[test]
fn literals_become_the_shortest_of_their_kind() {
    check_pass(
        &mut Simplify,
        "char *s = \"a long string\"; int n = 123456; int m = 0x7fff;\n",
        &["n = "],
        "int *s = \"\"; int n = 0; int m = 0;\n",
    );
}

#[test]
fn literals_keep_the_values_the_test_needs() {
    check_pass(
        &mut Simplify,
        "int n = 123456; int m = 0x7fff;\n",
        &["0x7fff"],
        "int n = 0; int m = 0x7fff;\n",
    );
}

#[test]
fn literals_as_long_as_their_kinds_smallest_are_lowered() {
    // Shortlex progress: `5` -> `0` saves no byte but comes first in byte order.
    check_pass(
        &mut Simplify,
        "int n = 5; int m = 6; int k = 0;\n",
        &["int m"],
        "int n = 0; int m = 0; int k = 0;\n",
    );
}

#[test]
fn literals_replace_an_access_path_by_a_literal_of_another_kind() {
    // A test that needs something indexable: `0` is tried first and refused, then `""`;
    // the outer nodes (the assignment, the subscript) and the index must stay.
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        t.contains("[i * n + j] *= 0.5;") && !t.contains("0[")
    });
    let (doc, _) = run_to_fixpoint(
        Lang::C,
        &mut Literals,
        "void f(struct m *m) { m->cells[i * n + j] *= 0.5; }\n",
        &mut exec,
    );
    assert_eq!(
        String::from_utf8_lossy(doc.text()),
        "void f(struct m *m) { \"\"[i * n + j] *= 0.5; }\n"
    );
}

#[test]
fn literals_replace_a_python_name_by_an_empty_dict() {
    // A test that needs something subscriptable by a string key that is not a sequence:
    // `0`, `""`, `()` and `[]` are refused, `{}` is taken; the names assigned stay.
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        t.contains("[\"k\"]") && ["0[", "\"\"[", "()[", "[]["].iter().all(|n| !t.contains(n))
    });
    let (doc, _) = run_to_fixpoint(
        Lang::Python,
        &mut Literals,
        "table = f()\ny = table[\"k\"]\n",
        &mut exec,
    );
    assert_eq!(
        String::from_utf8_lossy(doc.text()),
        "table = 0\ny = {}[\"k\"]\n"
    );
}

#[test]
fn literals_replace_a_rust_call_by_a_number() {
    check_pass_in(
        Lang::Rust,
        &mut Literals,
        "fn f(v: Vec<u8>) -> usize { v.len() + 1 }\n",
        &[" + 1 }"],
        "fn f(v: Vec<u8>) -> usize { 0 + 1 }\n",
    );
}

#[test]
fn python_blocks_are_never_emptied() {
    // tree-sitter-python parses `def f():` with nothing after it as a function with an
    // empty body; Python does not. The validity filter counts an empty block as an
    // error, so the last statement is replaced (by the block's fixed yield `0`), not
    // deleted.
    check_pass_in(
        Lang::Python,
        &mut Hdd,
        "def f(a, b):\n    x = a + b\n    return x * 2\n",
        &["def f"],
        "def f():\n    0\n",
    );
}

#[test]
fn types_become_the_shortest_of_their_place() {
    check_pass(
        &mut Simplify,
        "typedef long my_size; my_size n; uint32_t m; unsigned long k; struct point { int x; } p;\n\
         int8_t keep;\n",
        &["typedef long", "int8_t keep"],
        "typedef long int; int n; int m; int k; int p;\nint8_t keep;\n",
    );
}

#[test]
fn rust_types_become_the_shortest_of_their_place() {
    check_pass_in(
        Lang::Rust,
        &mut Simplify,
        "struct Meters(u64); fn f(m: Meters, n: u64) -> Meters { m }\n",
        &["struct Meters", "-> Meters"],
        "struct Meters(u8); fn f(m: u8, n: u8) -> Meters { m }\n",
    );
}

#[test]
fn whitespace_collapses_when_the_test_allows() {
    check_pass(
        &mut Whitespace,
        "int   f ( int a ,  int b )\n\n\n{  return a ;  }\n",
        &["return"],
        "int f(int a,int b)\n{return a;}\n",
    );
}

#[test]
fn members_become_globals_of_the_fields_type() {
    // The test needs `(X & 0) == 0x8` for some long X: the field will do as a global.
    check_pass(
        &mut Members,
        "struct b { long b; } a() { struct b *s; (s->b & 0) == 0x8; }\n",
        &["long", "& 0) == 0x8;"],
        "long c;\nstruct b { long b; } a() { (c & 0) == 0x8; }\n",
    );
}

#[test]
fn a_member_of_a_parameter_becomes_a_global_and_the_parameter_goes() {
    // The function is named like its parameter: its name is not a use of the parameter.
    check_pass(
        &mut Members,
        "struct d { int x; };\nstruct b { struct d c; };\nint a(struct b *a) { int e; e = a->c; return e; }\n",
        &["e = ", "struct d"],
        "struct d { int x; };\nstruct b { struct d c; };\nstruct d f;\nint a() { int e; e = f; return e; }\n",
    );
}

#[test]
fn a_type_the_shortest_keyword_cannot_replace_gets_another_spelling() {
    // As gcc with -Werror=return-type: a function returning int must return a value,
    // one returning void or a struct need not.
    let mut exec = ClosureExecutor::new(|t: &[u8]| {
        let t = String::from_utf8_lossy(t);
        t.contains("a() { f(); }") && (t.starts_with("void") || t.starts_with("struct"))
    });
    let (doc, _) = run_to_fixpoint(Lang::C, &mut Simplify, "struct{} a() { f(); }\n", &mut exec);
    assert_eq!(String::from_utf8_lossy(doc.text()), "void a() { f(); }\n");
}

#[test]
fn a_type_keyword_is_not_glued_to_the_next_word() {
    // `struct{}a` with `int` in place of `struct{}` must read `int a`, not `inta`.
    check_pass(
        &mut Simplify,
        "struct{}a() { f(); }\n",
        &["a() { f(); }"],
        "int a() { f(); }\n",
    );
}

#[test]
fn returns_makes_a_function_and_its_declarations_return_void() {
    // `g` returns a pointer: left alone. `h` has no `return EXPR;`: `void` is longer.
    check_pass(
        &mut Returns,
        "int f(int x);\nint f(int x) { if (x) return x + 1; return 0; }\n\
         int *g(void) { return 0; }\nint h(void) { for (;;) f(1); }\n",
        &["if (x)", "f(1)"],
        "void f(int x);\nvoid f(int x) { if (x) return; return; }\n\
         int *g(void) { return 0; }\nint h(void) { for (;;) f(1); }\n",
    );
}
