//! ## What it does
//! Member to global (C-Vise's `member-to-global`, on the tree): the field accesses
//! `e->f` and `e.f` of one field become one fresh global variable, declared as the field
//! is (`struct d c;` in a struct gives `struct d x;`), written before the top-level item
//! that holds the first of them. First every access of the field at once, then each
//! access alone. When the accesses were all an object variable was used for, its
//! declaration goes in the same candidate (a global's declaration costs more bytes than
//! the accesses save, and a candidate must be smaller). C and C++ (`field_expression`,
//! `field_declaration`).
//!
//! ## When it helps
//! At the end, when a bug needs a value of the field's type and not the structure around
//! it: `b = c->c;` with `c` a `struct b *` becomes `b = x;` with a global `struct d x;`,
//! and the struct, the parameter and the function's signature can go. The literals
//! pass does that when a constant of the right kind exists (`""` for a pointer); a
//! struct-typed or integer-typed field with a type the test checks needs a variable
//! of that type.
//!
//! ## Cost
//! A test per field and per access, so, like literals, it only runs while the text has
//! at most [`MAX_ACCESSES`] field accesses.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use hdd_grammar::Table;

use super::hdd::{child_deletion, children_with_fields};
use super::rename::{fresh_name, word_set};
use super::text::is_name;
use crate::document::walk::each_node;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The member-to-global pass.
#[derive(Debug, Default)]
pub struct Members;

/// Above this many field accesses in the text the pass does nothing.
const MAX_ACCESSES: usize = 200;

/// A field access: where it is, the field's name, the object's name when it is one,
/// where its top-level item starts.
struct Access {
    range: Range<usize>,
    field: Vec<u8>,
    object: Option<Vec<u8>>,
    item: usize,
}

impl Pass for Members {
    fn name(&self) -> &'static str {
        "members"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        // Only a grammar with field accesses (C, C++) has anything to do: no other
        // grammar's tree is walked each round for nothing.
        let Some(table) = session
            .table()
            .copied()
            .filter(|t| t.kind("field_expression").is_some())
        else {
            return Ok(());
        };
        let mut tried: HashSet<Vec<u8>> = HashSet::new();
        'restart: loop {
            session.check_stop()?;
            let base = session.current().clone();
            let Some(tree) = base.tree() else {
                return Ok(());
            };
            let text = base.text();
            let root = tree.root_node();
            // The first declaration of each field name, with the range of the name in it.
            let mut fields: BTreeMap<&[u8], (Node<'_>, Range<usize>)> = BTreeMap::new();
            let mut accesses: Vec<Access> = Vec::new();
            each_node(root, |node| match node.kind() {
                "field_declaration" => {
                    if let Some(name) = declared_name(node) {
                        fields.entry(&text[name.clone()]).or_insert((node, name));
                    }
                }
                "field_expression" => {
                    if let Some(field) = node.child_by_field_name("field")
                        && let Some(item) = top_level(node, root)
                    {
                        let object = node
                            .child_by_field_name("argument")
                            .filter(|a| a.kind() == "identifier")
                            .map(|a| text[a.byte_range()].to_vec());
                        accesses.push(Access {
                            range: node.byte_range(),
                            field: text[field.byte_range()].to_vec(),
                            object,
                            item,
                        });
                    }
                }
                _ => {}
            });
            if accesses.is_empty() || accesses.len() > MAX_ACCESSES {
                return Ok(());
            }
            // Every occurrence of every object name.
            let objects: HashSet<&[u8]> = accesses
                .iter()
                .filter_map(|a| a.object.as_deref())
                .collect();
            let mut occurrences: BTreeMap<&[u8], Vec<Node<'_>>> = BTreeMap::new();
            each_node(root, |node| {
                if node.child_count() == 0
                    && is_name(node)
                    && objects.contains(&text[node.byte_range()])
                {
                    occurrences
                        .entry(&text[node.byte_range()])
                        .or_default()
                        .push(node);
                }
            });
            let words = word_set(text);
            let fresh = fresh_name(&words);
            // Per field, every access at once; then each access alone.
            let mut groups: Vec<(Vec<u8>, Vec<&Access>)> = Vec::new();
            for field in fields.keys() {
                let all: Vec<&Access> = accesses.iter().filter(|a| a.field == *field).collect();
                if all.len() > 1 {
                    groups.push(([b"*", *field].concat(), all));
                }
            }
            for access in &accesses {
                groups.push((text[access.range.clone()].to_vec(), vec![access]));
            }
            for (key, group) in groups {
                let Some((declaration, name)) = fields.get(group[0].field.as_slice()) else {
                    continue;
                };
                if !tried.insert(key) {
                    continue;
                }
                let mut global = text[declaration.start_byte()..name.start].to_vec();
                global.extend_from_slice(&fresh);
                global.extend_from_slice(&text[name.end..declaration.end_byte()]);
                while global
                    .last()
                    .is_some_and(|b| b.is_ascii_whitespace() || *b == b';')
                {
                    global.pop();
                }
                global.extend_from_slice(b";\n");
                let item = group.iter().map(|a| a.item).min().unwrap_or(0);
                let mut edits = vec![Edit::replace(item..item, global)];
                edits.extend(
                    group
                        .iter()
                        .map(|a| Edit::replace(a.range.clone(), fresh.clone())),
                );
                edits.extend(unused_objects(&group, &occurrences, &table, text));
                let mut candidates = std::iter::once(EditSet::new(edits));
                if session.first_interesting(&base, &mut candidates)?.is_some() {
                    continue 'restart;
                }
            }
            return Ok(());
        }
    }
}

/// The deletions of the declarations of the objects `group`'s accesses read that are
/// used nowhere else: each object whose every occurrence but one is inside the group's
/// accesses goes with the declaration or parameter holding that one.
fn unused_objects(
    group: &[&Access],
    occurrences: &BTreeMap<&[u8], Vec<Node<'_>>>,
    table: &Table,
    text: &[u8],
) -> Vec<Edit> {
    let inside = |r: &Range<usize>| {
        group
            .iter()
            .any(|a| a.range.start <= r.start && r.end <= a.range.end)
    };
    let objects: BTreeSet<&[u8]> = group.iter().filter_map(|a| a.object.as_deref()).collect();
    let mut deletions = Vec::new();
    for object in objects {
        let Some(all) = occurrences.get(object) else {
            continue;
        };
        // A function's own name is another thing (`a(struct b *a)`).
        let function_name = |n: &Node<'_>| {
            n.parent()
                .is_some_and(|p| p.kind() == "function_declarator")
        };
        let mut outside = all
            .iter()
            .filter(|n| !inside(&n.byte_range()) && !function_name(n));
        let (Some(&declared), None) = (outside.next(), outside.next()) else {
            continue;
        };
        let Some(deletion) = declaration_deletion(declared, table, text) else {
            continue;
        };
        let apart = group
            .iter()
            .all(|a| a.range.end <= deletion.range.start || deletion.range.end <= a.range.start);
        if apart {
            deletions.push(deletion);
        }
    }
    deletions
}

/// The deletion of the declaration or parameter that holds the name `leaf`.
fn declaration_deletion(leaf: Node<'_>, table: &Table, text: &[u8]) -> Option<Edit> {
    let mut node = leaf;
    while !matches!(node.kind(), "declaration" | "parameter_declaration") {
        node = node.parent()?;
    }
    let parent = node.parent()?;
    let children = children_with_fields(parent);
    let i = children.iter().position(|(c, _)| c.id() == node.id())?;
    child_deletion(parent, &children, i, table, text)
}

/// The range of the field name a field declaration declares (its declarator's
/// `field_identifier`, under pointers and arrays); `None` for a bit field or none.
fn declared_name(declaration: Node<'_>) -> Option<Range<usize>> {
    let mut cursor = declaration.walk();
    if declaration
        .children(&mut cursor)
        .any(|c| c.kind() == "bitfield_clause")
    {
        return None;
    }
    let mut node = declaration.child_by_field_name("declarator")?;
    loop {
        if node.kind() == "field_identifier" {
            return Some(node.byte_range());
        }
        node = node.child_by_field_name("declarator")?;
    }
}

/// The start of the child of `root` that holds `node`.
fn top_level(node: Node<'_>, root: Node<'_>) -> Option<usize> {
    let mut node = node;
    loop {
        let parent = node.parent()?;
        if parent.id() == root.id() {
            return Some(node.start_byte());
        }
        node = parent;
    }
}
