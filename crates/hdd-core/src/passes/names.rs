//! ## What it does
//! Deletes a name together with everything that mentions it: its definition and each of
//! its uses, each occurrence taking with it the smallest enclosing list element (a
//! statement of a block, a top-level definition, an argument, a member of an object,
//! class or struct). Names are identifier tokens (`identifier`, `type_identifier`,
//! `property_identifier`, …) that occur at least twice, grouped by their text, so a
//! field and a variable of the same name go together. ddmin runs over the names that
//! top-level items define in the order of the definitions' dependency graph ([`deps`]:
//! users before what they use, so after a success ddmin's next tests take what became
//! unused), then over the other names in the order of their first occurrence.
//!
//! [`deps`]: super::deps
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

use super::deps::definitions;
use super::hdd::{child_deletion, children_with_fields};
use super::text::is_name;
use super::units::ddmin_groups;
use crate::document::{Document, Stop, Ticker};
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
        let stop = || session.stop_requested();
        let mut groups = name_groups(&base, &table, &stop)?;
        let defs = definitions(&base, &table, &stop)?;
        // A stable sort: names no top-level item defines keep their order, last.
        groups.sort_by_cached_key(|(name, _)| defs.rank_of(name).unwrap_or(usize::MAX));
        let groups: Vec<Vec<Edit>> = groups.into_iter().map(|(_, edits)| edits).collect();
        ddmin_groups(session, &base, &groups, Vec::as_slice, true)?;
        Ok(())
    }
}

/// A name's text and the deletions of each of its occurrences.
type NameGroup<'d> = (&'d [u8], Vec<Edit>);

/// For every name that occurs at least twice, its text and the deletions that remove
/// each of its occurrences; names in the order of their first occurrence.
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so.
fn name_groups<'d>(
    doc: &'d Document,
    table: &Table,
    stop: Stop<'_>,
) -> Result<Vec<NameGroup<'d>>, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(Vec::new());
    };
    let text = doc.text();
    let mut by_name: HashMap<&[u8], usize> = HashMap::new();
    let mut groups: Vec<(&[u8], Vec<Edit>, usize)> = Vec::new();
    placed_leaves(tree.root_node(), table, text, is_name, stop, |name| {
        let key = &text[name.leaf.byte_range()];
        let g = *by_name.entry(key).or_insert_with(|| {
            groups.push((key, Vec::new(), 0));
            groups.len() - 1
        });
        groups[g].2 += 1;
        if let Some(edit) = name.deletion {
            groups[g].1.push(edit);
        }
    })?;
    Ok(groups
        .into_iter()
        .filter(|(_, edits, count)| *count >= 2 && edits.len() == *count)
        .map(|(name, edits, _)| (name, edits))
        .collect())
}

/// A leaf with what the passes need to know of its place in the tree.
pub(super) struct PlacedLeaf<'t> {
    pub(super) leaf: Node<'t>,
    /// Its parent, and the field the leaf fills in it.
    pub(super) parent: Option<(Node<'t>, Option<&'t str>)>,
    /// The deletion of the smallest list element around it ([`enclosing_deletion`]).
    pub(super) deletion: Option<Edit>,
}

/// What the walk of [`placed_leaves`] knows of a node on the path from the root.
struct Step<'t> {
    node: Node<'t>,
    /// The field it fills in its parent.
    field: Option<&'t str>,
    /// Its deletion as an element of its parent's list ([`element_deletion`]).
    element: Option<Edit>,
    /// Whether it is its parent's only named child (extras aside).
    alone: bool,
}

/// Hands `visit` every non-empty leaf that `want`s, in text order, from one walk of the
/// tree (not a vector of them: a 50 MB input has millions of names). Each
/// node's children are listed once, so a node with 100,000 children (a big file's top
/// level) costs as much as its children, not that times each name under it, and no
/// node's parent is looked up (tree-sitter finds a parent by walking down from the
/// root: on such a node, a scan of its children for every lookup).
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so.
pub(super) fn placed_leaves<'t>(
    root: Node<'t>,
    table: &Table,
    text: &[u8],
    want: impl Fn(Node<'t>) -> bool,
    stop: Stop<'_>,
    mut visit: impl FnMut(PlacedLeaf<'t>),
) -> Result<(), Error> {
    let mut ticker = Ticker::new(stop);
    let mut path: Vec<Step<'t>> = Vec::new();
    let mut stack: Vec<(usize, Step<'t>)> = vec![(
        0,
        Step {
            node: root,
            field: None,
            element: None,
            alone: false,
        },
    )];
    while let Some((depth, step)) = stack.pop() {
        ticker.tick()?;
        path.truncate(depth);
        let node = step.node;
        path.push(step);
        if node.child_count() == 0 {
            if !node.byte_range().is_empty() && want(node) {
                visit(PlacedLeaf {
                    leaf: node,
                    parent: depth
                        .checked_sub(1)
                        .map(|p| (path[p].node, path[depth].field)),
                    deletion: enclosing_deletion(&path),
                });
            }
            continue;
        }
        let children = children_with_fields(node);
        let named: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].0.is_named() && !children[i].0.is_extra())
            .take(2)
            .collect();
        for i in (0..children.len()).rev() {
            let (child, field) = children[i];
            let alone = match named.as_slice() {
                [] => true,
                [only] => *only == i,
                _ => false,
            };
            let element = element_deletion(node, &children, i, table, text);
            stack.push((
                depth + 1,
                Step {
                    node: child,
                    field,
                    element,
                    alone,
                },
            ));
        }
    }
    Ok(())
}

/// The deletion of the smallest node around the leaf at the end of `path` (itself
/// included) that is an element of a list: a statement of a block, an argument, a
/// member; or of that element's parent when the element is its only named child and the
/// parent is itself a list element (`const x = 1;` rather than `x = 1`, which would leave
/// `const ;`). An optional single child is not enough: deleting a use from a loop's
/// condition would make the loop endless, and deleting `g()` from `g();` would leave an
/// empty statement behind. Looks at most [`MAX_CLIMB`] ancestors up.
fn enclosing_deletion(path: &[Step<'_>]) -> Option<Edit> {
    // `path[at]` is the node, `path[at - 1]` its parent.
    for at in (1..path.len()).rev().take(MAX_CLIMB) {
        if let Some(edit) = &path[at].element {
            let wider = (at >= 2 && path[at].alone)
                .then(|| path[at - 1].element.clone())
                .flatten();
            return Some(wider.unwrap_or_else(|| edit.clone()));
        }
    }
    None
}

/// The deletion of `children[i]` of `parent`, if it is a deletable list element.
fn element_deletion<'t>(
    parent: Node<'t>,
    children: &[(Node<'t>, Option<&'t str>)],
    i: usize,
    table: &Table,
    text: &[u8],
) -> Option<Edit> {
    let element = table
        .slot(parent.kind(), children[i].1)
        .is_some_and(|slot| slot.multiple);
    if !element {
        return None;
    }
    child_deletion(parent, children, i, table, text)
}
