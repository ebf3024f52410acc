//! ## What it does
//! Inlines a definition with a value: deletes it and writes its value in place of every
//! use of its name (its identifier tokens, and its words inside a C macro's body),
//! parenthesized unless it is one word or already in parentheses. A
//! definition is a node whose `name`, `pattern` or `declarator` field is the name and
//! whose `value` field holds the value: a C `#define N v` or `int n = v;`, a JavaScript
//! `const n = v`, a Rust `const N: T = v;` or `let n = v;`. One candidate per name, in the
//! order of the definitions.
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

use super::names::{PlacedLeaf, placed_leaves};
use super::text::{is_name, is_word};
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
            let want = |leaf: Node<'_>| is_name(leaf) || leaf.kind() == "preproc_arg";
            let stop = || session.stop_requested();
            placed_leaves(tree.root_node(), &table, text, want, &stop, |placed| {
                let leaf = placed.leaf;
                if is_name(leaf) {
                    let name = &text[leaf.byte_range()];
                    uses.entry(name).or_default().push(leaf.byte_range());
                    if let Some(value) = defined_value(&placed) {
                        definitions.push((name, leaf.byte_range(), value, placed.deletion));
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
                let mut candidates = std::iter::once(EditSet::new(edits));
                if session.first_interesting(&base, &mut candidates)?.is_some() {
                    continue 'restart;
                }
            }
            return Ok(());
        }
    }
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
