//! ## What it does
//! Simplifies the small nodes that must stay but need not be what they are, each to the
//! shortest text of its kind, by ddmin over all of them at once (the ones that do not
//! matter go in a few tests):
//! - literals (a named node whose kind says number, string, char, …): `0`, `""`, `'a'`;
//! - other nodes without named children, whose kind derives a shorter text than theirs:
//!   C's `uint32_t` (a `primitive_type`) becomes `int`, `unsigned long` becomes `long`;
//! - types: a node whose kind stands for a type (it has a supertype named `…type…`, as
//!   C's `type_specifier` or Rust's `_type`) becomes the shortest keyword-like text of a
//!   kind under that supertype (C's `int`, Rust's `u8`): `my_size_t` and `struct point`
//!   become `int`, `Vec<String>` becomes `u8`. Types go first, by a ddmin of their own
//!   over the outermost ones; then the literals and other small nodes of what is left.
//!   A keyword never glues onto the next word (`struct{}a` gives `int a`).
//! - last, each type the shortest keyword could not replace, with the other spellings of
//!   the keyword kinds its place admits (the grammar's words of C's `primitive_type`:
//!   `bool`, `char`, `void`, …), shortest first, at most eight: `void` where `int` is
//!   refused.
//!
//! Names other than types' are left to `rename` (it renames every use at once).
//!
//! ## When it helps
//! At the end: long strings, odd constants and exotic types that survived because their
//! node is required, not because their value matters. A type simplified lets what
//! defined it go: the `#include <stdint.h>` that `int8_t` needed, a `typedef`.
//!
//! ## Example
//! `#include <stdint.h>` `uint8_t n = 123456;` with a test that needs a declaration of
//! `n` becomes `#include <stdint.h>` `int n = 0;`, and the include goes in the next round.

use hdd_grammar::Table;
use tree_sitter::Node;

use super::hdd::kind_info;
use super::literals::is_literal_kind;
use super::text::{apart_replacement, is_name_kind};
use super::units::ddmin_units;
use crate::document::{Document, Stop, Ticker};
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::{Session, shortlex_smaller};

/// The simplification pass.
#[derive(Debug, Default)]
pub struct Simplify;

impl Pass for Simplify {
    fn name(&self) -> &'static str {
        "simplify"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        let keywords = keyword_yields(&table);
        let mut types = false;
        for phase in [Phase::Types, Phase::Leaves] {
            let base = session.current().clone();
            let units = simplify_units(&base, &table, &keywords, phase, &|| {
                session.stop_requested()
            })?;
            types |= phase == Phase::Types && !units.is_empty();
            if !units.is_empty() {
                ddmin_units(session, &base, &units, true)?;
            }
        }
        // Without a type the shortest keyword could replace, or a kind with spellings,
        // there is nothing to try (and no third walk of the tree).
        if types && !table.spellings.is_empty() {
            other_spellings(session, &table, &keywords)?;
        }
        Ok(())
    }
}

/// At most this many other spellings are tried for one type.
const MAX_SPELLINGS: usize = 8;

/// The types the shortest keyword did not replace, each tried with the other spellings
/// of the keyword kinds its place admits, shortest first, up to [`MAX_SPELLINGS`]
/// (C's `struct{}` as a return type: `int` is refused where a value must be returned,
/// `void` is not).
fn other_spellings(
    session: &mut Session<'_>,
    table: &Table,
    keywords: &[(&'static str, &'static str)],
) -> Result<(), Error> {
    let mut tried: Vec<(usize, Vec<u8>)> = Vec::new();
    'restart: loop {
        let base = session.current().clone();
        let units = simplify_units(&base, table, keywords, Phase::Types, &|| {
            session.stop_requested()
        })?;
        for unit in units {
            let old = base.text()[unit.range.clone()].to_vec();
            let key = (unit.range.start, old.clone());
            if tried.contains(&key) {
                continue;
            }
            tried.push(key);
            let Some(node) = base.tree().and_then(|t| {
                t.root_node()
                    .descendant_for_byte_range(unit.range.start, unit.range.end)
            }) else {
                continue;
            };
            let spellings = spellings_for(node, table)
                .into_iter()
                .filter(|w| *w != unit.replacement.trim_ascii() && shortlex_smaller(w, &old))
                .take(MAX_SPELLINGS);
            let text = base.text();
            let mut candidates = spellings
                .map(|w| EditSet::new(vec![apart_replacement(text, unit.range.clone(), w)]));
            if session.first_interesting(&base, &mut candidates)?.is_some() {
                continue 'restart;
            }
        }
        return Ok(());
    }
}

/// The spellings of the keyword kinds (`Table::spellings`) that share a type supertype
/// with `node`'s kind, shortest first.
fn spellings_for(node: Node<'_>, table: &Table) -> Vec<&'static [u8]> {
    let Some(info) = table.kind(node.kind()).or_else(|| kind_info(table, node)) else {
        return Vec::new();
    };
    let places: Vec<&str> = info
        .supertypes
        .iter()
        .copied()
        .filter(|s| is_type_supertype(s))
        .collect();
    let mut out: Vec<&'static [u8]> = table
        .kinds
        .iter()
        .filter(|k| k.supertypes.iter().any(|s| places.contains(s)))
        .flat_map(|k| table.spellings(k.name).iter().map(|w| w.as_bytes()))
        .collect();
    out.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    out.dedup();
    out
}

/// What a ddmin run of the pass simplifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The outermost nodes that stand for a type.
    Types,
    /// Literals and nodes without named children.
    Leaves,
}

/// Whether a supertype stands for types (C `type_specifier`, Rust `_type`; not C's
/// `_type_declarator`, which is a declarator's place).
fn is_type_supertype(name: &str) -> bool {
    name.contains("type") && !name.contains("declarator")
}

/// For each supertype that stands for types, the shortest keyword-like text (letters,
/// digits and `_`, not starting with a digit) that a kind under it derives, names
/// aside: C `type_specifier` -> `int`. A name's kind derives a representative (`a`),
/// never a keyword, so names are left out.
fn keyword_yields(table: &Table) -> Vec<(&'static str, &'static str)> {
    let keyword = |y: &str| {
        y.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && y.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let mut best: Vec<(&'static str, &'static str)> = Vec::new();
    for kind in table.kinds {
        if is_name_kind(kind.name) || kind.name.starts_with('_') || !keyword(kind.min_yield) {
            continue;
        }
        for &supertype in kind.supertypes.iter().filter(|s| is_type_supertype(s)) {
            match best.iter_mut().find(|(s, _)| *s == supertype) {
                Some(entry) if entry.1.len() > kind.min_yield.len() => entry.1 = kind.min_yield,
                Some(_) => {}
                None => best.push((supertype, kind.min_yield)),
            }
        }
    }
    best
}

/// The replacement of a node that stands for a type by the shortest type keyword, if
/// that is smaller (shortlex). A type's name is often an alias of the grammar's identifier: its
/// place is the visible kind's (its supertypes are types'), not the identifier rule's.
fn type_simplification(
    node: Node<'_>,
    text: &[u8],
    table: &Table,
    keywords: &[(&'static str, &'static str)],
) -> Option<Edit> {
    let range = node.byte_range();
    let info = table.kind(node.kind()).or_else(|| kind_info(table, node))?;
    let with = info
        .supertypes
        .iter()
        .filter_map(|s| keywords.iter().find(|(k, _)| k == s))
        .map(|(_, y)| *y)
        .min_by_key(|y| y.len())?;
    shortlex_smaller(with.as_bytes(), &text[range.clone()])
        .then(|| apart_replacement(text, range, with.as_bytes()))
}

/// The replacement of a literal or a node without named children (names aside: they
/// are `rename`'s) by the shortest text of its kind, if that is smaller (shortlex: `5`
/// becomes `0`, which may let the test pass without what made the 5 matter).
fn leaf_simplification(node: Node<'_>, text: &[u8], table: &Table) -> Option<Edit> {
    if is_name_kind(node.kind()) {
        return None;
    }
    let range = node.byte_range();
    let with = kind_info(table, node)?.min_yield;
    (!with.is_empty() && shortlex_smaller(with.as_bytes(), &text[range.clone()]))
        .then(|| Edit::replace(range, with))
}

fn simplify_units(
    doc: &Document,
    table: &Table,
    keywords: &[(&'static str, &'static str)],
    phase: Phase,
    stop: Stop<'_>,
) -> Result<Vec<Edit>, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(Vec::new());
    };
    let mut ticker = Ticker::new(stop);
    let mut units = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        ticker.tick()?;
        if node.is_extra() || node.is_error() || node.is_missing() {
            continue;
        }
        if node.is_named() && !node.has_error() {
            let unit = match phase {
                Phase::Types => type_simplification(node, doc.text(), table, keywords),
                Phase::Leaves => {
                    let literal = is_literal_kind(node.kind());
                    if literal || node.named_child_count() == 0 {
                        // A literal's insides (escapes, contents) are not simplified
                        // apart from it.
                        units.extend(leaf_simplification(node, doc.text(), table));
                        continue;
                    }
                    None
                }
            };
            if let Some(unit) = unit {
                units.push(unit);
                continue;
            }
        }
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    Ok(units)
}
