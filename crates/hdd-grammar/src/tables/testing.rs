//! Shared checks for the per-language table tests (`*_tests.rs`): parsing
//! helpers, the external-representative check, the version-drift check and
//! the validation of minimal yields by re-parsing. All tree walks are
//! iterative (a cursor), never recursive.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use tree_sitter::{Node, Parser, Tree};

use super::{GRAMMAR_SOURCES, GrammarSource};
use crate::Lang;

/// The minimal yield of a rule or kind, panicking when it has no entry.
pub(super) fn yield_of(lang: Lang, name: &str) -> &'static str {
    lang.table()
        .kind(name)
        .unwrap_or_else(|| panic!("{}: no entry for {name}", lang.name()))
        .min_yield
}

/// The list separator of a rule or kind.
pub(super) fn separator_of(lang: Lang, name: &str) -> Option<&'static str> {
    lang.table()
        .kind(name)
        .unwrap_or_else(|| panic!("{}: no entry for {name}", lang.name()))
        .list_separator
}

/// The grammar source of a language.
pub(super) fn source(lang: Lang) -> &'static GrammarSource {
    GRAMMAR_SOURCES
        .iter()
        .find(|s| s.lang == lang.name())
        .unwrap_or_else(|| panic!("no grammar source for {}", lang.name()))
}

pub(super) fn parser(lang: Lang) -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&lang.ts_language())
        .expect("grammar ABI is supported");
    parser
}

/// Visits every node of `tree` in pre-order, without recursion.
fn walk<'t>(tree: &'t Tree, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = tree.walk();
    loop {
        visit(cursor.node());
        if cursor.goto_first_child() || cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}

/// The ERROR and MISSING nodes of a tree, described.
fn problems(tree: &Tree, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    walk(tree, |node| {
        if node.is_error() || node.is_missing() {
            let what = if node.is_missing() {
                "MISSING"
            } else {
                "ERROR"
            };
            out.push(format!(
                "{what} {} at {}: {:?}",
                node.kind(),
                node.start_position(),
                &text[node.start_byte()..node.end_byte()]
            ));
        }
    });
    out
}

/// Parses `text`, asserting there is no ERROR or MISSING node.
pub(super) fn parse_clean(lang: Lang, text: &str) -> Tree {
    let tree = parser(lang)
        .parse(text, None)
        .expect("parser has a language");
    let found = problems(&tree, text);
    assert!(
        !tree.root_node().has_error() && found.is_empty(),
        "{} does not parse cleanly: {found:?}\n{text}",
        lang.name()
    );
    tree
}

/// Whether a node of `kind` occurs in the tree.
fn contains_kind(tree: &Tree, kind: &str) -> bool {
    let mut found = false;
    walk(tree, |node| found |= node.kind() == kind);
    found
}

/// Checks every hand-written external representative of `lang` in context.
/// Each case is `(external, template, kind)`: `@` in the template is replaced by
/// the representative, the text must parse cleanly and contain a `kind` node.
/// `never_produced` lists externals the scanner never returns (error sentinels).
pub(super) fn check_externals(lang: Lang, cases: &[(&str, &str, &str)], never_produced: &[&str]) {
    let externals = source(lang).externals;
    let covered: BTreeSet<&str> = cases
        .iter()
        .map(|c| c.0)
        .chain(never_produced.iter().copied())
        .collect();
    let listed: BTreeSet<&str> = externals.iter().map(|e| e.0).collect();
    assert_eq!(
        covered,
        listed,
        "{}: every external needs a parse case",
        lang.name()
    );
    for &(name, template, kind) in cases {
        let representative = externals
            .iter()
            .find(|e| e.0 == name)
            .map(|e| e.1)
            .expect("covered");
        let text = template.replace('@', representative);
        let tree = parse_clean(lang, &text);
        assert!(
            contains_kind(&tree, kind),
            "{}: {name} = {representative:?}: no {kind} in {text:?}: {}",
            lang.name(),
            tree.root_node().to_sexp()
        );
    }
}

/// The linked grammar crate and the vendored grammar.json must agree: every
/// named kind in NODE_TYPES has a table entry, and every visible named kind of
/// the linked language is in NODE_TYPES or the table.
pub(super) fn check_no_drift(lang: Lang, min_kinds: usize) {
    let table = lang.table();
    let node_types: Value = serde_json::from_str(source(lang).node_types).unwrap();
    let mut named = BTreeSet::new();
    for entry in node_types.as_array().unwrap() {
        if entry["named"].as_bool() == Some(true) {
            let name = entry["type"].as_str().unwrap();
            named.insert(name.to_owned());
            assert!(
                table.kind(name).is_some(),
                "{}: node-types kind {name} has no entry",
                lang.name()
            );
        }
    }
    let language = lang.ts_language();
    let mut checked = 0;
    for id in 0..language.node_kind_count() {
        let id = u16::try_from(id).unwrap();
        if !(language.node_kind_is_named(id) && language.node_kind_is_visible(id)) {
            continue;
        }
        let name = language.node_kind_for_id(id).unwrap();
        assert!(
            named.contains(name) || table.kind(name).is_some(),
            "{}: language kind {name} (id {id}) is neither in NODE_TYPES nor in the table",
            lang.name()
        );
        checked += 1;
    }
    assert!(
        checked >= min_kinds,
        "{}: only {checked} visible named kinds",
        lang.name()
    );
}

/// Replaces every named node of `sample` in turn by the minimal yield of its
/// kind (looked up by `grammar_name()` first, then `kind()`), re-parses, and
/// asserts that at least 95 % of the results are error-free and that the
/// sample covers at least `min_kinds` kinds. Prints the rate and the failures.
pub(super) fn check_min_yields_in_place(lang: Lang, sample: &str, min_kinds: usize) {
    let table = lang.table();
    let mut parser = parser(lang);
    let tree = parse_clean(lang, sample);
    let mut tried = 0_u32;
    let mut ok = 0_u32;
    let mut kinds = BTreeSet::new();
    let mut failed_kinds: BTreeMap<&str, u32> = BTreeMap::new();
    let mut failures = Vec::new();
    walk(&tree, |node| {
        if !node.is_named() {
            return;
        }
        let Some(info) = table
            .kind(node.grammar_name())
            .or_else(|| table.kind(node.kind()))
        else {
            return;
        };
        let replaced = format!(
            "{}{}{}",
            &sample[..node.start_byte()],
            info.min_yield,
            &sample[node.end_byte()..]
        );
        let reparsed = parser
            .parse(&replaced, None)
            .expect("parser has a language");
        tried += 1;
        kinds.insert(node.kind());
        if reparsed.root_node().has_error() {
            *failed_kinds.entry(node.kind()).or_default() += 1;
            failures.push(format!(
                "{} ({}) {:?} -> {:?}",
                node.kind(),
                node.grammar_name(),
                node.utf8_text(sample.as_bytes()).unwrap(),
                info.min_yield
            ));
        } else {
            ok += 1;
        }
    });
    let rate = f64::from(ok) / f64::from(tried);
    println!(
        "{}: parse validation: {ok}/{tried} replacements parse ({:.1}%), {} kinds; failing kinds: {failed_kinds:?}",
        lang.name(),
        rate * 100.0,
        kinds.len()
    );
    for failure in &failures {
        println!("  failed: {failure}");
    }
    assert!(
        kinds.len() >= min_kinds,
        "{}: sample covers only {} kinds",
        lang.name(),
        kinds.len()
    );
    assert!(
        rate >= 0.95,
        "{}: only {:.1}% of replacements parse",
        lang.name(),
        rate * 100.0
    );
}
