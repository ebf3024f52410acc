//! ## What it does
//! Perses (Sun et al., ICSE 2018) on the tree-sitter tree: nodes are visited largest
//! first (by tokens). For each node, in order of expected gain: its removal (deletion
//! when its slot allows absence, with a list separator; otherwise the shortest text its
//! kind or supertype derives), then unwrapping its brackets, then hoisting a compatible
//! descendant (nearest first) into its place; then ddmin over its removable children (a
//! list). After an accepted candidate the tree is read again; nodes already tried with
//! the same kind and text are not tried again.
//!
//! ## When it helps
//! After HDD's level sweeps: large nodes that are needed only for something deep inside
//! them, and lists whose elements matter one by one.
//!
//! ## Example
//! `void f(int x) { if (x) { while (x) x = x << 40; } }` with a test that needs
//! `x << 40` becomes `void f(int x) { x << 40; }`.

use std::collections::HashSet;

use tree_sitter::Node;

use hdd_grammar::Table;

use super::hdd::{child_unit, children_with_fields};
use super::hoist::{compatible_descendants, hoist, unwrap};
use super::units::ddmin_units;
use crate::cache::TextKey;
use crate::document::{Document, leaves};
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The Perses pass.
#[derive(Debug, Default)]
pub struct Perses;

/// A node with its own removal (seen from its parent) and its children's deletions.
struct Entry<'t> {
    node: Node<'t>,
    removal: Option<Edit>,
    list: Vec<Edit>,
    tokens: usize,
}

impl Pass for Perses {
    fn name(&self) -> &'static str {
        "perses"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        let mut tried: HashSet<(u16, TextKey)> = HashSet::new();
        'restart: loop {
            let base = session.current().clone();
            let mut queue = entries(&base, &table);
            queue.sort_by_key(|e| std::cmp::Reverse(e.tokens));
            for entry in &queue {
                let node = entry.node;
                if !tried.insert((node.kind_id(), TextKey::of(&base.text()[node.byte_range()]))) {
                    continue;
                }
                let mut candidates: Vec<Option<EditSet>> = Vec::new();
                if let Some(removal) = &entry.removal {
                    candidates.push(EditSet::new(vec![removal.clone()]));
                }
                candidates.extend(unwrap(node).map(Some));
                candidates.extend(
                    compatible_descendants(node, None, &table)
                        .into_iter()
                        .map(|d| hoist(node, d)),
                );
                if session
                    .first_interesting(&base, &mut candidates.into_iter())?
                    .is_some()
                {
                    continue 'restart;
                }
                if entry.list.len() >= 2 && ddmin_units(session, &base, &entry.list, false)? {
                    continue 'restart;
                }
            }
            return Ok(());
        }
    }
}

/// Every named node with its removal and its children's deletions, from one iterative
/// walk; `tokens` counts the leaves under the node.
fn entries<'t>(doc: &'t Document, table: &Table) -> Vec<Entry<'t>> {
    let Some(tree) = doc.tree() else {
        return Vec::new();
    };
    let text = doc.text();
    let starts: Vec<usize> = leaves(tree.root_node())
        .iter()
        .map(Node::start_byte)
        .collect();
    let tokens = |n: Node<'_>| {
        starts.partition_point(|&s| s < n.end_byte())
            - starts.partition_point(|&s| s < n.start_byte())
    };
    let mut out = Vec::new();
    let mut stack: Vec<(Node<'t>, Option<Edit>)> = vec![(tree.root_node(), None)];
    while let Some((node, removal)) = stack.pop() {
        let children = children_with_fields(node);
        let units: Vec<Option<Edit>> = (0..children.len())
            .map(|i| child_unit(node, &children, i, table, text))
            .collect();
        let list = units
            .iter()
            .flatten()
            .filter(|e| e.replacement.is_empty())
            .cloned()
            .collect();
        if node.is_named() && !node.is_error() {
            out.push(Entry {
                node,
                removal,
                list,
                tokens: tokens(node),
            });
        }
        stack.extend(
            children
                .iter()
                .zip(units)
                .rev()
                .map(|(&(child, _), unit)| (child, unit)),
        );
    }
    out
}
