//! ## What it does
//! Replaces a whole expression — a compound node or a name — by a constant of another
//! kind that fits the same place: C's `m->cells` by `""`, Python's `merged` by `{}`,
//! Rust's `v.len()` by `0`. The constants tried are, for each supertype that stands for
//! values (C `expression`, Rust `_expression`, JSON `_value`), the minimal yields of the
//! kinds under it that are *atoms*: a digit or an empty pair of quotes or brackets (`0`,
//! `""`, `` ` ` ``, `[]`, `{}`, `()`), shortest first. Level by level from the outermost
//! nodes, as HDD: a node whose replacement failed is looked into, one that was replaced
//! is gone.
//!
//! HDD already replaces a required node by the shortest text of its supertype (one
//! constant, often `0` or a name); what this pass adds is the others: a string where a
//! pointer or an array is needed, an empty dict where a mapping is.
//!
//! ## When it helps
//! At the end, when what is left is an access path that only has to produce *some*
//! value of the right shape: `m->cells[i * n + j] *= 0.5` needs an array to index, and
//! `""[i * n + j] *= 0.5` lets the structure, the parameter and the field go; a Python
//! `KeyError` needs a dict, and `{}["key"]` lets the code that built one go. C-Vise gets
//! there with its type-aware `peep` and "member to global" transformations; this pass
//! gets the same results where a constant is enough, in any grammar.
//!
//! ## Cost
//! One ddmin per constant and level. A node that must stay costs about two tests per
//! constant, so the pass only runs while the text has at most [`MAX_NODES`] nodes that
//! could be replaced: at the end of a reduction, not on the big text of its first rounds
//! (HDD's own replacements do that work there). Measured at -j 1 on 15 corpus and bench
//! cases: 4.9% more tests in all (up to 20% on the JSON and JavaScript ones), the same
//! results but on one (C `crash-planted-matrix`, 37 -> 24 tokens).

use hdd_grammar::Table;
use tree_sitter::Node;

use super::hdd::{children_with_fields, kind_info};
use super::text::is_name_kind;
use super::units::ddmin_units;
use crate::document::{Document, Stop, Ticker};
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::{Session, shortlex_smaller};

/// The most replaceable nodes a text may have for the pass to run.
pub(super) const MAX_NODES: usize = 200;

/// How many constants are tried per supertype at the most (the shortest ones): every
/// atom of the grammars hdd has (Python's expressions have five).
const LITERALS_PER_SUPERTYPE: usize = 8;

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

/// Per supertype that stands for values, the atoms (see [`is_atom`]) its kinds derive,
/// shortest first: C `expression` -> `0`, `""`; Python `expression` -> `0`, `""`, `()`,
/// `[]`, `{}`.
fn literal_yields(table: &Table) -> Vec<(&'static str, Vec<&'static str>)> {
    let mut by_supertype: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for kind in table.kinds {
        if kind.name.starts_with('_') || is_name_kind(kind.name) || !is_atom(kind.min_yield) {
            continue;
        }
        for &supertype in kind.supertypes.iter().filter(|s| is_value_supertype(s)) {
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

/// Whether a minimal yield is an atom: a digit, or an empty pair of quotes or brackets
/// (`""`, `` ` ` ``, `[]`, `{}`, `()`): a constant of its kind, with no name and no
/// operator in it. (`''` is left out: an empty character literal is not one in C, Rust
/// or Java, though their grammars derive it.)
fn is_atom(y: &str) -> bool {
    match y.as_bytes() {
        [d] => d.is_ascii_digit(),
        [open, close] => matches!(
            (open, close),
            (b'"', b'"') | (b'`', b'`') | (b'[', b']') | (b'{', b'}') | (b'(', b')')
        ),
        _ => false,
    }
}

/// Whether a supertype stands for values (C `expression`, Rust `_expression`, JSON
/// `_value`), not statements, patterns or types.
fn is_value_supertype(name: &str) -> bool {
    name.contains("expression") || name.contains("value")
}

/// The nodes a constant may replace that have `depth` such nodes above them (each with
/// the constants that fit its place), and how many there are at any depth;
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

/// The fields in which a name is bound or assigned, not read: a constant there would be
/// a pattern (Rust's `fn f(0: u8)` parses) or nonsense, never a use made simpler.
const BINDING_FIELDS: [&str; 5] = ["name", "declarator", "pattern", "left", "parameter"];

/// Whether a name is bound or assigned where it stands (see [`BINDING_FIELDS`]).
fn binds_a_name(node: Node<'_>) -> bool {
    node.parent().is_some_and(|parent| {
        children_with_fields(parent)
            .into_iter()
            .find(|&(child, _)| child == node)
            .and_then(|(_, field)| field)
            .is_some_and(|f| BINDING_FIELDS.contains(&f))
    })
}

/// The constants that may replace `node`: none for a literal or a leaf other than a name
/// (keywords, operators); else those of its kind's supertypes.
fn fitting_literals(
    node: Node<'_>,
    table: &Table,
    literals: &[(&'static str, Vec<&'static str>)],
) -> Vec<&'static str> {
    let name = is_name_kind(node.kind());
    if !node.is_named()
        || (node.named_child_count() == 0 && !name)
        || is_literal_kind(node.kind())
        || (name && binds_a_name(node))
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
