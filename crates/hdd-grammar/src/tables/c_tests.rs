//! Facts of the C table, and its validation against the linked parser.

use super::testing::{check_min_yields_in_place, check_no_drift, yield_of};
use crate::Lang;

const C: Lang = Lang::C;

#[test]
fn c_facts() {
    let table = C.table();
    assert_eq!(yield_of(C, "compound_statement"), "{}");
    assert_eq!(yield_of(C, "statement"), ";");
    assert_eq!(yield_of(C, "expression"), "0");
    assert_eq!(yield_of(C, "identifier"), "a");
    assert_eq!(yield_of(C, "number_literal"), "0");
    assert_eq!(yield_of(C, "if_statement"), "if(0);");
    assert_eq!(yield_of(C, "for_statement"), "for(;;);");
    assert_eq!(yield_of(C, "declaration"), "a a;");
    assert_eq!(yield_of(C, "function_definition"), "a a{}");
    assert_eq!(yield_of(C, "return_statement"), "return;");
    assert_eq!(yield_of(C, "preproc_function_def"), "#define a()\n");

    let unit = table.kind("translation_unit").unwrap();
    assert!(unit.derives_empty);
    assert_eq!((unit.min_yield, unit.min_tokens), ("", 0));
    assert!(!table.kind("compound_statement").unwrap().derives_empty);

    let params = table.kind("parameter_list").unwrap();
    assert_eq!(params.min_yield, "()");
    assert_eq!(params.min_tokens, 2);
    assert_eq!(params.list_separator, Some(","));
    for list in ["argument_list", "initializer_list", "enumerator_list"] {
        assert_eq!(
            table.kind(list).unwrap().list_separator,
            Some(","),
            "{list}"
        );
    }
    for no_list in [
        "compound_statement",
        "translation_unit",
        "number_literal",
        "preproc_if",
    ] {
        assert_eq!(
            table.kind(no_list).unwrap().list_separator,
            None,
            "{no_list}"
        );
    }

    let alternative = table.slot("if_statement", Some("alternative")).unwrap();
    assert!(!alternative.required && !alternative.multiple);
    let condition = table.slot("if_statement", Some("condition")).unwrap();
    assert!(condition.required && !condition.multiple);
    let declarator = table.slot("declaration", Some("declarator")).unwrap();
    assert!(declarator.required && declarator.multiple);
    let block = table.slot("compound_statement", None).unwrap();
    assert!(!block.required && block.multiple);
    assert!(table.slot("if_statement", Some("no_such_field")).is_none());

    assert!(
        table
            .kind("if_statement")
            .unwrap()
            .supertypes
            .contains(&"statement")
    );
    assert!(
        table
            .kind("identifier")
            .unwrap()
            .supertypes
            .contains(&"expression")
    );
    // Visible alias names have entries of their own.
    assert_eq!(yield_of(C, "type_identifier"), "a");
    assert_eq!(yield_of(C, "field_identifier"), "a");
}

/// The linked grammar crate and the vendored grammar.json must agree.
#[test]
fn c_no_version_drift() {
    check_no_drift(C, 100);
}

const SNIPPET: &str = r#"#include <stdio.h>
#define MAX 16

/* A small linked list. */
struct node {
    int value;
    struct node *next;
};

typedef struct node node_t;

static int table[MAX] = {1, 2, 3};

int sum(const int *xs, unsigned n) {
    int total = 0;
    for (unsigned i = 0; i < n; i++) {
        total += xs[i];
    }
    return total;
}

int main(int argc, char **argv) {
    node_t first = {42, NULL};
    node_t *p = &first;
    long big = (long) p->value * 2;
    char c = 'x';
    // Count down.
    while (argc > 1 && big != 0) {
        argc--;
        if (argv[argc][0] == '-') {
            continue;
        } else {
            big = big / 2;
        }
    }
    printf("%d %ld %c\n", sum(table, MAX), big, c);
    return sizeof(first) > 0 ? 0 : 1;
}
"#;

/// Replacing any node by its kind's minimal yield keeps the file parseable.
#[test]
fn c_min_yields_parse_in_place() {
    check_min_yields_in_place(C, SNIPPET, 40);
}

#[test]
fn c_slots_know_what_fits_them() {
    let table = C.table();
    let top = table.slot("translation_unit", None).unwrap();
    assert!(table.fits(top, "function_definition"));
    assert!(
        table.fits(top, "if_statement"),
        "through the supertype statement"
    );
    assert!(!table.fits(top, "identifier"));
    let body = table.slot("function_definition", Some("body")).unwrap();
    assert_eq!(body.types, ["compound_statement"]);
}
