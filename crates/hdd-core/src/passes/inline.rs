//! ## What it does
//! Inlines a definition with a value: deletes it and writes its value in place of every
//! use of its name (its identifier tokens, and its words inside a C macro's body),
//! parenthesized unless it is one word or already in parentheses. A
//! definition is a node whose `name`, `pattern` or `declarator` field is the name and
//! whose `value` field holds the value: a C `#define N v` or `int n = v;`, a JavaScript
//! `const n = v`, a Rust `const N: T = v;` or `let n = v;`. One candidate per name, in the
//! order of the definitions. Then the same for functions that take nothing and return
//! one expression (a top-level item with a `body` whose only statement returns it, or
//! is it, as Rust's `{ 3 }`): each call `f()` becomes the expression, and the function
//! goes. A C macro that cannot be inlined can still give its body: the body, as a
//! statement, in place of the `#define` line (`#define a (x[i] - y[i])` -> `(x[i] - y[i]);`),
//! where the tree passes reduce it as C; a macro without a body gives its name
//! (`#define nextHi` -> `nextHi;`).
//!
//! ## When it helps
//! Near the end, when a macro or a constant stands between the bug and a literal the test
//! needs (`#define W (4 * 8)` … `x << W`), so the definition cannot go and the use cannot
//! be simplified.
//!
//! ## Example
//! `#define W (4 * 8)\nint f(void) { return 1 << W; }` becomes
//! `int f(void) { return 1 << (4 * 8); }`.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use hdd_grammar::Table;

use super::hdd::{child_deletion, children_with_fields};
use super::names::{PlacedLeaf, placed_leaves};
use super::text::{is_name, is_word};
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The inlining pass.
#[derive(Debug, Default)]
pub struct Inline;

impl Pass for Inline {
    fn name(&self) -> &'static str {
        "inline"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        // Names tried against the current text; an accepted candidate changes the text
        // and the definitions are read again, skipping the names already tried.
        let mut tried: HashSet<Vec<u8>> = HashSet::new();
        'restart: loop {
            let base = session.current().clone();
            let Some(tree) = base.tree() else {
                return Ok(());
            };
            let text = base.text();
            // Every occurrence of every name: identifier tokens, and words inside tokens
            // that hold unparsed text (the body of a C macro).
            let mut uses: HashMap<&[u8], Vec<Range<usize>>> = HashMap::new();
            let mut definitions: Vec<Definition<'_>> = Vec::new();
            // `#define NAME` without a body: the name alone can take the line's place.
            let mut bare_macros: Vec<(&[u8], Node<'_>)> = Vec::new();
            let want = |leaf: Node<'_>| is_name(leaf) || leaf.kind() == "preproc_arg";
            let stop = || session.stop_requested();
            placed_leaves(tree.root_node(), &table, text, want, &stop, |placed| {
                let leaf = placed.leaf;
                if is_name(leaf) {
                    let name = &text[leaf.byte_range()];
                    uses.entry(name).or_default().push(leaf.byte_range());
                    if let Some(value) = defined_value(&placed) {
                        definitions.push((name, leaf.byte_range(), value, placed.deletion));
                    } else if let Some(definition) = bare_macro(&placed) {
                        bare_macros.push((name, definition));
                    }
                } else {
                    for word in words(text, leaf.byte_range()) {
                        uses.entry(&text[word.clone()]).or_default().push(word);
                    }
                }
            })?;
            definitions.sort_by_key(|(_, leaf, _, _)| leaf.start);
            for (name, leaf, value, deletion) in definitions {
                session.check_stop()?;
                if !tried.insert(name.to_vec()) {
                    continue;
                }
                let Some(deletion) = deletion else {
                    continue;
                };
                let value_text = parenthesized(&text[value.byte_range()]);
                let mut edits = vec![deletion];
                for other in &uses[name] {
                    if *other != leaf {
                        edits.push(Edit::replace(other.clone(), value_text.clone()));
                    }
                }
                // A use inside the definition itself overlaps its deletion: no candidate.
                // A macro's body can also take its `#define` line's place, as a statement
                // the tree passes can then reduce.
                let mut candidates = [EditSet::new(edits), hoisted_macro(text, value)].into_iter();
                if session.first_interesting(&base, &mut candidates)?.is_some() {
                    continue 'restart;
                }
            }
            for (name, definition) in bare_macros {
                session.check_stop()?;
                // Keyed apart from the inlinings of the same name.
                if !tried.insert([b"#define ", name].concat()) {
                    continue;
                }
                let mut candidates = std::iter::once(macro_statement(text, definition, name));
                if session.first_interesting(&base, &mut candidates)?.is_some() {
                    continue 'restart;
                }
            }
            for (name, candidate) in function_inlinings(&base, &table) {
                session.check_stop()?;
                if !tried.insert(name) {
                    continue;
                }
                let mut candidates = std::iter::once(candidate);
                if session.first_interesting(&base, &mut candidates)?.is_some() {
                    continue 'restart;
                }
            }
            return Ok(());
        }
    }
}

/// For each top-level function that takes nothing and returns one expression, and is
/// called: its name and the candidate that deletes it and writes the expression in
/// place of each call `name()`.
fn function_inlinings(doc: &Document, table: &Table) -> Vec<(Vec<u8>, Option<EditSet>)> {
    let Some(tree) = doc.tree() else {
        return Vec::new();
    };
    let text = doc.text();
    let root = tree.root_node();
    let children = children_with_fields(root);
    let mut functions: Vec<(&[u8], Edit, Node<'_>)> = Vec::new();
    for i in 0..children.len() {
        let item = children[i].0;
        let Some((name, value)) = returned_value(item, text) else {
            continue;
        };
        let Some(deletion) = child_deletion(root, &children, i, table, text) else {
            continue;
        };
        functions.push((&text[name.byte_range()], deletion, value));
    }
    if functions.is_empty() {
        return Vec::new();
    }
    // Every call without arguments, by the callee's name.
    let mut calls: HashMap<&[u8], Vec<Range<usize>>> = HashMap::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let (Some(callee), Some(args)) = (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        ) && is_name(callee)
            && args.named_child_count() == 0
        {
            calls
                .entry(&text[callee.byte_range()])
                .or_default()
                .push(node.byte_range());
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    functions
        .into_iter()
        .filter_map(|(name, deletion, value)| {
            let uses = calls.get(name)?;
            let value_text = parenthesized(&text[value.byte_range()]);
            let mut edits = vec![deletion];
            edits.extend(
                uses.iter()
                    .map(|call| Edit::replace(call.clone(), value_text.clone())),
            );
            Some((name.to_vec(), EditSet::new(edits)))
        })
        .collect()
}

/// The name of `item` and the expression it returns, when `item` is a function that
/// takes nothing (no parameter, or C's `void`) and whose body's one statement returns an
/// expression, or is one.
fn returned_value<'t>(item: Node<'t>, text: &[u8]) -> Option<(Node<'t>, Node<'t>)> {
    let body = item.child_by_field_name("body")?;
    // The node with the parameters: the item (Rust, JavaScript), or down C's chain of
    // declarators.
    let mut head = item;
    while head.child_by_field_name("parameters").is_none() {
        head = head.child_by_field_name("declarator")?;
    }
    let name = ["name", "declarator"]
        .iter()
        .find_map(|f| head.child_by_field_name(f))
        .filter(|n| is_name(*n))?;
    let params = head.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    let params: Vec<Node<'_>> = params
        .named_children(&mut cursor)
        .filter(|n| !n.is_extra())
        .collect();
    match params.as_slice() {
        [] => {}
        [only] if &text[only.byte_range()] == b"void" => {}
        _ => return None,
    }
    let mut cursor = body.walk();
    let statements: Vec<Node<'_>> = body
        .named_children(&mut cursor)
        .filter(|n| !n.is_extra())
        .collect();
    let [statement] = statements.as_slice() else {
        return None;
    };
    let kind = statement.kind();
    if kind.contains("return") {
        let mut cursor = statement.walk();
        let values: Vec<Node<'_>> = statement
            .named_children(&mut cursor)
            .filter(|n| !n.is_extra())
            .collect();
        return match values.as_slice() {
            [value] => Some((name, *value)),
            _ => None,
        };
    }
    let not_an_expression = ["statement", "declaration", "definition", "item"]
        .iter()
        .any(|w| kind.contains(w));
    (!not_an_expression).then_some((name, *statement))
}

/// A definition: its name, the range of the name's leaf, its value, and its deletion.
type Definition<'t> = (&'t [u8], Range<usize>, Node<'t>, Option<Edit>);

/// The value node of the definition that `placed` names, if any.
fn defined_value<'t>(placed: &PlacedLeaf<'t>) -> Option<Node<'t>> {
    let (parent, Some(field)) = placed.parent? else {
        return None;
    };
    let leaf = placed.leaf;
    let named_here = ["name", "pattern", "declarator"].contains(&field)
        && parent.child_by_field_name(field).map(|n| n.id()) == Some(leaf.id());
    if !named_here {
        return None;
    }
    parent
        .child_by_field_name("value")
        .filter(|v| !v.byte_range().is_empty())
}

/// A C `#define`'s body put in place of the whole `#define` line, as a statement (a `;`
/// added unless it ends with one or with a block): `#define a (x[i] - y[i])` becomes
/// `(x[i] - y[i]);`. `None` when `value` is not a macro's body.
fn hoisted_macro(text: &[u8], value: Node<'_>) -> Option<EditSet> {
    if value.kind() != "preproc_arg" {
        return None;
    }
    macro_statement(text, value.parent()?, text[value.byte_range()].trim_ascii())
}

/// The `#define` of a C macro without a body, when `placed` is its name.
fn bare_macro<'t>(placed: &PlacedLeaf<'t>) -> Option<Node<'t>> {
    let (parent, Some("name")) = placed.parent? else {
        return None;
    };
    (parent.kind() == "preproc_def" && parent.child_by_field_name("value").is_none())
        .then_some(parent)
}

/// `body` as a statement in place of the `#define` line `definition` (its newline kept):
/// a `;` is added unless it ends with one or with a block. The body of a macro, or the
/// name of one without a body (`#define nextHi` -> `nextHi;`): what a test reads in a
/// stale directive, written where the tree passes reduce it as C.
fn macro_statement(text: &[u8], definition: Node<'_>, body: &[u8]) -> Option<EditSet> {
    let mut statement = body.to_vec();
    if !matches!(body.last(), Some(b';' | b'}')) {
        statement.push(b';');
    }
    // The definition's range ends with its newline.
    let end = definition.end_byte();
    let newline = usize::from(end > 0 && text[end - 1] == b'\n');
    EditSet::new(vec![Edit::replace(
        definition.start_byte()..end - newline,
        statement,
    )])
}

/// The ranges of the identifier-like words of `text[range]`.
fn words(text: &[u8], range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = range.start;
    while i < range.end {
        if is_word(text[i]) {
            let start = i;
            while i < range.end && is_word(text[i]) {
                i += 1;
            }
            if !text[start].is_ascii_digit() {
                out.push(start..i);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// `value` in parentheses, unless it is one word, one string literal or already one
/// parenthesized group.
fn parenthesized(value: &[u8]) -> Vec<u8> {
    let value = value.trim_ascii();
    let string = value.len() >= 2
        && matches!(value[0], b'"' | b'\'' | b'`')
        && value.last() == Some(&value[0])
        && !value[1..value.len() - 1].contains(&value[0]);
    if string || one_group(value) || value.iter().all(|&b| is_word(b)) {
        value.to_vec()
    } else {
        [b"(".as_slice(), value, b")"].concat()
    }
}

/// Whether `value` is `( … )` with the first parenthesis closed by the last one.
fn one_group(value: &[u8]) -> bool {
    if value.first() != Some(&b'(') || value.last() != Some(&b')') {
        return false;
    }
    let mut depth = 0usize;
    for (i, &b) in value.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i == value.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_parenthesized_unless_one_word_or_one_group() {
        assert_eq!(parenthesized(b"42"), b"42");
        assert_eq!(parenthesized(b" (4 * 8) "), b"(4 * 8)");
        assert_eq!(parenthesized(b"4 * 8"), b"(4 * 8)");
        assert_eq!(parenthesized(b"(a) + (b)"), b"((a) + (b))");
        assert_eq!(parenthesized(b"'valueOf'"), b"'valueOf'");
        assert_eq!(parenthesized(b"'a' + 'b'"), b"('a' + 'b')");
    }
}
