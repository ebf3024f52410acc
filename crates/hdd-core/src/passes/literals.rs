//! ## What it does
//! Replaces a whole compound node (an expression, not a leaf) by a literal of another
//! kind that fits the same place: C's `m->cells` or `f(x)` by `""` or `0`, Rust's
//! `v.len()` by `0` or `""`. The literals tried are, for each supertype of the grammar
//! (C `expression`, Rust `_expression`), the minimal yields of the literal kinds under
//! it, the shortest two, shortest first. Level by level from the outermost nodes, as
//! HDD: a node whose replacement failed is looked into, one that was replaced is gone.
//!
//! HDD already replaces a required node by the shortest text of its supertype (one
//! literal, often `0` or a name); what this pass adds is the other literal: a string where
//! a pointer or an array is needed.
//!
//! ## When it helps
//! At the end, when what is left is an access path that only has to produce *some*
//! value of the right shape: `m->cells[i * n + j] *= 0.5` needs an array to index, and
//! `""[i * n + j] *= 0.5` lets the structure, the parameter and the field go. C-Vise
//! gets there with its type-aware `peep` and "member to global" transformations; this
//! pass gets the same results where a literal is enough, in any grammar.
//!
//! ## Cost
//! One ddmin per literal and level. A node that must stay costs about two tests per
//! literal, so the pass only runs while the text has at most [`MAX_NODES`] compound
//! nodes that could be replaced: at the end of a reduction, not on the big text of its
//! first rounds (HDD's own replacements do that work there).

use hdd_grammar::Table;
use tree_sitter::Node;

use super::hdd::kind_info;
use super::text::is_name_kind;
use super::units::ddmin_units;
use crate::document::{Document, Stop, Ticker};
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::{Session, shortlex_smaller};

/// The most replaceable compound nodes a text may have for the pass to run.
pub(super) const MAX_NODES: usize = 200;

/// How many literals are tried per supertype (the shortest ones). Two: a number and a
/// string in C, Rust, JavaScript and Python. A third (C's `'a'`) was measured to take the
/// place of a compound node that would have become a shorter number later (`0<<(6*8)`
/// ended as `0<<'a'` instead of `0<<48`).
const LITERALS_PER_SUPERTYPE: usize = 2;

/// The replacement-by-literal pass.
#[derive(Debug, Default)]
pub struct Literals;

impl Pass for Literals {
    fn name(&self) -> &'static str {
        "literals"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        let literals = literal_yields(&table);
        let mut yields: Vec<&'static str> = literals
            .iter()
            .flat_map(|(_, ys)| ys.iter().copied())
            .collect();
        yields.sort_by_key(|y| (y.len(), *y));
        yields.dedup();
        for with in yields {
            for depth in 0.. {
                let base = session.current().clone();
                let stop = || session.stop_requested();
                let Some(level) = level(&base, &table, &literals, depth, &stop)? else {
                    break;
                };
                if level.count > MAX_NODES {
                    return Ok(());
                }
                let units: Vec<Edit> = level
                    .nodes
                    .iter()
                    .filter(|(range, fits)| {
                        fits.contains(&with)
                            && shortlex_smaller(with.as_bytes(), &base.text()[range.clone()])
                    })
                    .map(|(range, _)| Edit::replace(range.clone(), with))
                    .collect();
                if !units.is_empty() {
                    ddmin_units(session, &base, &units, true)?;
                }
            }
        }
        Ok(())
    }
}

/// Whether a node kind names a literal (`number_literal`, `string`, `integer_literal`,
/// `char_literal`, `float_literal`, `raw_string_literal`, …), not a piece of one
/// (`string_content`).
pub(super) fn is_literal_kind(kind: &str) -> bool {
    ["number", "integer", "float", "string", "char", "literal"]
        .iter()
        .any(|w| kind.contains(w))
        && !kind.contains("content")
        && !kind.contains("fragment")
}

/// Per supertype, the minimal yields of the literal kinds under it, the shortest
/// [`LITERALS_PER_SUPERTYPE`] distinct ones, shortest first: C `expression` ->
/// `0`, `""`.
fn literal_yields(table: &Table) -> Vec<(&'static str, Vec<&'static str>)> {
    let mut by_supertype: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for kind in table.kinds {
        // A compound node that holds a literal (`compound_literal_expression`) is not one.
        if !is_literal_kind(kind.name)
            || kind.name.contains("expression")
            || kind.name.starts_with('_')
            || kind.min_yield.is_empty()
        {
            continue;
        }
        for &supertype in kind.supertypes {
            match by_supertype.iter_mut().find(|(s, _)| *s == supertype) {
                Some((_, yields)) => yields.push(kind.min_yield),
                None => by_supertype.push((supertype, vec![kind.min_yield])),
            }
        }
    }
    for (_, yields) in &mut by_supertype {
        yields.sort_by_key(|y| (y.len(), *y));
        yields.dedup();
        yields.truncate(LITERALS_PER_SUPERTYPE);
    }
    by_supertype
}

/// The compound nodes a literal may replace that have `depth` such nodes above them
/// (each with the literals that fit its place), and how many there are at any depth;
/// `None` when no node is that deep.
struct Level {
    nodes: Vec<(std::ops::Range<usize>, Vec<&'static str>)>,
    count: usize,
}

fn level(
    doc: &Document,
    table: &Table,
    literals: &[(&'static str, Vec<&'static str>)],
    depth: usize,
    stop: Stop<'_>,
) -> Result<Option<Level>, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(None);
    };
    let mut ticker = Ticker::new(stop);
    let mut level = Level {
        nodes: Vec::new(),
        count: 0,
    };
    let mut deepest = None;
    let mut stack = vec![(tree.root_node(), 0)];
    while let Some((node, above)) = stack.pop() {
        ticker.tick()?;
        if node.is_extra() || node.is_error() || node.is_missing() || node.has_error() {
            continue;
        }
        let fits = fitting_literals(node, table, literals);
        let below = if fits.is_empty() {
            above
        } else {
            level.count += 1;
            deepest = deepest.max(Some(above));
            if above == depth {
                level.nodes.push((node.byte_range(), fits));
            }
            above + 1
        };
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor).map(|c| (c, below)));
    }
    Ok(deepest.is_some_and(|d| d >= depth).then_some(level))
}

/// The literals that may replace `node`: none for a leaf, a name or a literal; else
/// those of its kind's supertypes.
fn fitting_literals(
    node: Node<'_>,
    table: &Table,
    literals: &[(&'static str, Vec<&'static str>)],
) -> Vec<&'static str> {
    if !node.is_named()
        || node.named_child_count() == 0
        || is_name_kind(node.kind())
        || is_literal_kind(node.kind())
    {
        return Vec::new();
    }
    let Some(info) = kind_info(table, node) else {
        return Vec::new();
    };
    let mut fits: Vec<&'static str> = literals
        .iter()
        .filter(|(s, _)| info.supertypes.contains(s))
        .flat_map(|(_, ys)| ys.iter().copied())
        .collect();
    fits.sort_unstable();
    fits.dedup();
    fits
}
