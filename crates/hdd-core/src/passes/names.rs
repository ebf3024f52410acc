//! ## What it does
//! Deletes a name together with everything that mentions it: its definition and each of
//! its uses, each occurrence taking with it the smallest enclosing list element (a
//! statement of a block, a top-level definition, an argument, a member of an object,
//! class or struct). Names are identifier tokens (`identifier`, `type_identifier`,
//! `property_identifier`, …) that occur at least twice, grouped by their text, so a
//! field and a variable of the same name go together. ddmin runs over the names in the
//! order of their first occurrence, so names that only go away together (a helper and
//! the only function that calls it) go in one test.
//!
//! ## When it helps
//! After HDD, whose removals of single nodes all fail when a definition is still used
//! somewhere (`undefined reference`, `ReferenceError`, `cannot find value`) and a use
//! cannot stay without its definition.
//!
//! ## Example
//! `int g(void) { return 1; } int main(void) { g(); bug(); }` with a test that needs
//! `bug();` becomes `int main(void) { bug(); }`: `g` and its call go in one candidate.

use std::collections::HashMap;

use tree_sitter::Node;

use hdd_grammar::Table;

use super::hdd::{child_unit, children_with_fields};
use super::text::is_name;
use super::units::ddmin_groups;
use crate::document::{Document, leaves};
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// How many ancestors of an occurrence are climbed to find one that may be deleted.
const MAX_CLIMB: usize = 12;

/// The definition-with-uses pass.
#[derive(Debug, Default)]
pub struct Names;

impl Pass for Names {
    fn name(&self) -> &'static str {
        "names"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        let base = session.current().clone();
        let groups = name_groups(&base, &table);
        ddmin_groups(session, &base, &groups, Vec::as_slice, true)?;
        Ok(())
    }
}

/// For every name that occurs at least twice, the deletions that remove each of its
/// occurrences; names in the order of their first occurrence.
pub(super) fn name_groups(doc: &Document, table: &Table) -> Vec<Vec<Edit>> {
    let Some(tree) = doc.tree() else {
        return Vec::new();
    };
    let text = doc.text();
    let mut by_name: HashMap<&[u8], usize> = HashMap::new();
    let mut groups: Vec<(Vec<Edit>, usize)> = Vec::new();
    for leaf in leaves(tree.root_node()) {
        if !is_name(leaf) {
            continue;
        }
        let name = &text[leaf.byte_range()];
        let g = *by_name.entry(name).or_insert_with(|| {
            groups.push((Vec::new(), 0));
            groups.len() - 1
        });
        groups[g].1 += 1;
        if let Some(edit) = enclosing_deletion(leaf, table, text) {
            groups[g].0.push(edit);
        }
    }
    groups
        .into_iter()
        .filter(|(edits, count)| *count >= 2 && edits.len() == *count)
        .map(|(edits, _)| edits)
        .collect()
}

/// The deletion of the smallest node around `leaf` (itself included) that is an element
/// of a list: a statement of a block, an argument, a member; or of that element's parent
/// when the element is its only named child and the parent is itself a list element
/// (`const x = 1;` rather than `x = 1`, which would leave `const ;`). An optional single
/// child is not enough: deleting a use from a loop's condition would make the loop
/// endless, and deleting `g()` from `g();` would leave an empty statement behind.
pub(super) fn enclosing_deletion(leaf: Node<'_>, table: &Table, text: &[u8]) -> Option<Edit> {
    let mut node = leaf;
    for _ in 0..MAX_CLIMB {
        let parent = node.parent()?;
        if let Some(edit) = element_deletion(parent, node, table, text) {
            let alone = parent
                .named_children(&mut parent.walk())
                .all(|c| c.id() == node.id() || c.is_extra());
            let wider = parent
                .parent()
                .filter(|_| alone)
                .and_then(|grandparent| element_deletion(grandparent, parent, table, text));
            return Some(wider.unwrap_or(edit));
        }
        node = parent;
    }
    None
}

/// The deletion of `node`, a child of `parent`, if it is a deletable list element.
fn element_deletion(parent: Node<'_>, node: Node<'_>, table: &Table, text: &[u8]) -> Option<Edit> {
    let children = children_with_fields(parent);
    let i = children.iter().position(|(c, _)| c.id() == node.id())?;
    let element = table
        .slot(parent.kind(), children[i].1)
        .is_some_and(|slot| slot.multiple);
    if !element {
        return None;
    }
    child_unit(parent, &children, i, table, text).filter(|edit| edit.replacement.is_empty())
}
