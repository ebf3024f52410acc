//! ## What it does
//! Deletes the element in one position of several lists at once: a parameter of a
//! function with the argument in its position at every call, a column of an SQL table
//! with the value in its position in every row inserted. By ddmin over (anchor,
//! position) pairs. Language-generic: the lists are the nodes whose grammar rule holds
//! a separated list (parameter and argument lists, SQL column definitions and rows,
//! initializer lists); a list's *anchor* is the last name before it in its parent (the
//! function's name before its parameters, the callee before its arguments: `f`,
//! `obj.f`, `a::f`; the table's name before its columns or rows). Lists of one anchor
//! are deleted from together, and only when there are two or more and all have as many
//! elements (a variadic function, a default argument, Python's `self` or two things of
//! the same name would make positions disagree).
//!
//! ## When it helps
//! When an element is not needed but each of its uses is: HDD cannot delete a parameter
//! (the calls pass too many arguments) nor an argument (too few), one at a time; an SQL
//! column cannot go while every row inserts a value into it. With the position gone,
//! what computed the argument may go too.
//!
//! ## Example
//! `int f(int a, int b) { return b; } int main(void) { return f(g(), 2); }` with a test
//! that needs `return b;` becomes `int f(int b) { return b; }`
//! `int main(void) { return f(2); }`, and then `g` can go.

use std::collections::HashMap;

use tree_sitter::Node;

use hdd_grammar::Table;

use super::hdd::{child_deletion, children_with_fields, kind_info};
use super::text::is_name;
use super::units::ddmin_groups;
use crate::document::{Document, Stop, Ticker};
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The positional pass: an element of every list of one anchor.
#[derive(Debug, Default)]
pub struct Params;

impl Pass for Params {
    fn name(&self) -> &'static str {
        "params"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        let base = session.current().clone();
        let units = param_units(&base, &table, &|| session.stop_requested())?;
        if !units.is_empty() {
            ddmin_groups(session, &base, &units, Vec::as_slice, false)?;
        }
        Ok(())
    }
}

/// For every anchor whose lists agree, one unit per position: the deletions of that
/// position's element in each list. Anchors in the order they first appear.
fn param_units(doc: &Document, table: &Table, stop: Stop<'_>) -> Result<Vec<Vec<Edit>>, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(Vec::new());
    };
    let text = doc.text();
    let mut ticker = Ticker::new(stop);
    let mut order: Vec<&[u8]> = Vec::new();
    let mut by_anchor: HashMap<&[u8], Vec<Node<'_>>> = HashMap::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        ticker.tick()?;
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        for (i, &child) in children.iter().enumerate() {
            if !is_separated_list(child, table) {
                continue;
            }
            if let Some(anchor) = anchor(&children[..i], child) {
                let key = &text[anchor.byte_range()];
                by_anchor
                    .entry(key)
                    .or_insert_with(|| {
                        order.push(key);
                        Vec::new()
                    })
                    .push(child);
            }
        }
        stack.extend(children.into_iter().rev());
    }
    let mut units = Vec::new();
    for key in order {
        let lists = &by_anchor[key];
        if lists.len() < 2 {
            continue;
        }
        let counts: Vec<usize> = lists.iter().map(|l| elements(*l, table).len()).collect();
        if counts.iter().any(|&c| c != counts[0]) {
            continue;
        }
        for position in 0..counts[0] {
            let unit: Option<Vec<Edit>> = lists
                .iter()
                .map(|&list| element_deletion(list, position, table, text))
                .collect();
            units.extend(unit);
        }
    }
    Ok(units)
}

/// Whether `node`'s rule holds a separated list (the table knows its separator).
fn is_separated_list(node: Node<'_>, table: &Table) -> bool {
    node.is_named()
        && !node.is_extra()
        && kind_info(table, node).is_some_and(|k| k.list_separator.is_some())
}

/// The anchor of `list`: the last name in the nearest of its earlier siblings (`before`,
/// in order) that holds one, lists like it aside (an SQL row's anchor is the table, not
/// the row before it).
fn anchor<'t>(before: &[Node<'t>], list: Node<'t>) -> Option<Node<'t>> {
    before
        .iter()
        .rev()
        .filter(|s| s.is_named() && !s.is_extra() && s.kind() != list.kind())
        .take(MAX_ANCHOR_SIBLINGS)
        .find_map(|&s| last_name(s))
}

/// How many earlier siblings are looked at for an anchor.
const MAX_ANCHOR_SIBLINGS: usize = 4;

/// The last name leaf of `node` (itself, if it is one) within [`NAME_DEPTH`] levels: the
/// callee of `f`, `obj.f`, `a::b::f`.
fn last_name(node: Node<'_>) -> Option<Node<'_>> {
    last_name_within(node, NAME_DEPTH)
}

/// How many levels below a sibling its anchor name is looked for: enough for member and
/// scoped calls; deeper trees are not callee names.
const NAME_DEPTH: usize = 2;

fn last_name_within(node: Node<'_>, depth: usize) -> Option<Node<'_>> {
    if is_name(node) {
        return Some(node);
    }
    if depth == 0 {
        return None;
    }
    let mut cursor = node.walk();
    let children: Vec<_> = node.named_children(&mut cursor).collect();
    children
        .into_iter()
        .rev()
        .find_map(|child| last_name_within(child, depth - 1))
}

/// The indices (among all children) of a list's elements: its named children (comments
/// aside) that come first or right after a separator (a trailing part that is not one,
/// as an SQL table's constraints after its columns, is not an element).
fn elements(list: Node<'_>, table: &Table) -> Vec<usize> {
    let separator = kind_info(table, list).and_then(|k| k.list_separator);
    let mut cursor = list.walk();
    let mut elements = Vec::new();
    // Whether the next named child starts an element: the first does, and one after a
    // separator does.
    let mut starts = true;
    for (index, child) in list.children(&mut cursor).enumerate() {
        if child.is_extra() {
            continue;
        }
        if child.is_named() {
            if starts {
                elements.push(index);
            }
            starts = false;
        } else if Some(child.kind()) == separator {
            starts = true;
        }
    }
    elements
}

/// The deletion of element `position` of `list` with its separator, if it may go.
fn element_deletion(list: Node<'_>, position: usize, table: &Table, text: &[u8]) -> Option<Edit> {
    let children = children_with_fields(list);
    let index = *elements(list, table).get(position)?;
    child_deletion(list, &children, index, table, text)
}
