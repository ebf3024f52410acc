//! ## What it does
//! Hierarchical Delta Debugging (Misherghi & Su, ICSE 2006): for each level of the
//! syntax tree, from the root down, ddmin over that level's nodes. Removing a node means
//! replacing it by its minimal replacement from the grammar table: nothing when the node
//! may be absent (an optional or list child, or a kind that derives the empty string;
//! a list element goes with its separator), otherwise the shortest text its kind
//! derives (`{ }` for a C block). Sweeps repeat until one changes nothing (HDD*).
//!
//! ## When it helps
//! First, on large inputs: whole functions and blocks go in a few tests, and every
//! candidate parses.
//!
//! ## Example
//! `int f(void) { a(); b(); } int g;` with a test that needs `g` becomes `int g;`.

use tree_sitter::Node;

use hdd_grammar::Table;

use super::text::swallow_space;
use crate::ddmin::{Ddmin, DdminOptions};
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The HDD pass.
#[derive(Debug, Default)]
pub struct Hdd;

impl Pass for Hdd {
    fn name(&self) -> &'static str {
        "hdd"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        coarse_sweeps(session, &table)?;
        // Then HDD*: full sweeps until one changes nothing.
        while sweep(session, &table, 0)? {}
        Ok(())
    }
}

/// Only the coarse sweeps of the HDD pass: the big subtrees of a big input, in a few tests,
/// before the passes whose candidates cost more on a big text (names).
#[derive(Debug, Default)]
pub struct HddCoarse;

impl Pass for HddCoarse {
    fn name(&self) -> &'static str {
        "hdd-coarse"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        match session.table().copied() {
            Some(table) => coarse_sweeps(session, &table),
            None => Ok(()),
        }
    }
}

/// Sweeps over the nodes whose replacement saves at least 1/64, then 1/1024 of the current
/// text, so the big wins come in the first tests and the fine sweeps run on a text that is
/// already small (cheaper tests, fewer nodes).
fn coarse_sweeps(session: &mut Session<'_>, table: &Table) -> Result<(), Error> {
    for divisor in COARSE_DIVISORS {
        let min_saving = session.current().text().len() / divisor;
        if min_saving >= MIN_COARSE_SAVING {
            sweep(session, table, min_saving)?;
        }
    }
    Ok(())
}

/// Divisors of the text size that set the minimum saving of the coarse sweeps.
const COARSE_DIVISORS: [usize; 2] = [64, 1024];
/// Below this many bytes a coarse sweep is not worth its tests.
const MIN_COARSE_SAVING: usize = 64;

/// One HDD sweep, every level from the root down, over the nodes whose replacement saves
/// at least `min_saving` bytes. Returns whether anything was accepted.
///
/// Each level is a ddmin run over its nodes, and the levels run one after the other, as
/// in HDD. But the session gets the configurations of the running level *and* of every
/// deeper level in one sequence, in that order: with one job that is the same order of
/// tests, while with many the deeper levels' candidates keep the jobs busy (a level of
/// three nodes has a handful of candidates). After a success the running level's nodes
/// are rebased onto the new best, and the deeper levels are read again from it.
fn sweep(session: &mut Session<'_>, table: &Table, min_saving: usize) -> Result<bool, Error> {
    let units = |base: &Document| {
        let mut levels = all_levels(base, table);
        for level in &mut levels {
            level.retain(|e| e.saving() >= min_saving.cast_signed());
        }
        levels
    };
    let fresh = |levels: &[Vec<Edit>]| -> Vec<Ddmin> {
        levels
            .iter()
            .map(|l| Ddmin::new(l.len(), DDMIN_OPTIONS))
            .collect()
    };
    let mut progress = false;
    let mut base = session.current().clone();
    let mut levels = units(&base);
    let mut runs = fresh(&levels);
    let mut level = 0;
    loop {
        while level < levels.len() && runs[level].is_finished() {
            level += 1;
        }
        if level == levels.len() {
            return Ok(progress);
        }
        let chain = chain_len(&levels, &runs, level);
        if chain >= MIN_CHAIN {
            // A run of one-node levels, each node inside the one above (deep nesting):
            // a binary search finds the shallowest node that can go, in O(log n) tests
            // instead of one per level.
            progress |= chain_search(session, &mut base, &units, level, chain)?;
            levels = units(&base);
            runs = fresh(&levels);
            for run in runs.iter_mut().take(level + chain) {
                run.advance(None);
            }
            continue;
        }
        let counts: Vec<usize> = runs[level..].iter().map(Ddmin::len).collect();
        let found = {
            let mut candidates = (level..levels.len()).flat_map(|l| {
                let units = &levels[l];
                runs[l].configs().map(move |kept| removal(units, &kept))
            });
            session.first_interesting(&base, &mut candidates)?
        };
        let Some(mut i) = found else {
            return Ok(progress);
        };
        // The winner's level; the levels above it found nothing.
        let mut winner = level;
        for &count in &counts {
            if i < count {
                break;
            }
            i -= count;
            winner += 1;
        }
        for run in &mut runs[level..winner] {
            run.advance(None);
        }
        runs[winner].advance(Some(i));
        progress = true;
        let old = std::mem::replace(&mut base, session.current().clone());
        // The winner's level goes on with its own nodes, now against the new best (a node
        // the best no longer has is left as a no-op); deeper levels start afresh.
        let kept: Vec<Edit> = levels[winner]
            .iter()
            .map(|unit| {
                session
                    .rebase_onto_current(
                        &old,
                        &EditSet::new(vec![unit.clone()]).unwrap_or_default(),
                    )
                    .and_then(|set| set.edits().first().cloned())
                    .unwrap_or_else(|| Edit::delete(0..0))
            })
            .collect();
        levels[winner] = kept;
        let deeper = units(&base);
        levels.truncate(winner + 1);
        runs.truncate(winner + 1);
        let deeper: Vec<Vec<Edit>> = deeper.into_iter().skip(winner + 1).collect();
        runs.extend(fresh(&deeper));
        levels.extend(deeper);
        level = winner;
    }
}

/// Below this many one-node levels in a row, HDD tests them one by one.
const MIN_CHAIN: usize = 8;

/// How many levels from `level` down hold a single unit not yet tried, each inside the
/// unit of the level above.
fn chain_len(levels: &[Vec<Edit>], runs: &[Ddmin], level: usize) -> usize {
    let mut len = 0;
    let mut outer: Option<&Edit> = None;
    for (units, run) in levels[level..].iter().zip(&runs[level..]) {
        let [unit] = units.as_slice() else { break };
        let inside = outer
            .is_none_or(|o| o.range.start <= unit.range.start && unit.range.end <= o.range.end);
        if run.is_finished() || !inside {
            break;
        }
        outer = Some(unit);
        len += 1;
    }
    len
}

/// Removes the shallowest unit it can of the chain of `len` one-unit levels from
/// `level` (see [`chain_len`]), assuming that when a unit can go, so can every unit
/// inside it: a binary search. The session gets the search's path as one sequence of
/// candidates (each deeper than the last, as if all failed), so parallel jobs test
/// several steps at once. Returns whether anything was accepted.
fn chain_search(
    session: &mut Session<'_>,
    base: &mut Document,
    units: &dyn Fn(&Document) -> Vec<Vec<Edit>>,
    level: usize,
    len: usize,
) -> Result<bool, Error> {
    let mut chain: Vec<Edit> = units(base)
        .into_iter()
        .skip(level)
        .take(len)
        .map(|mut l| l.swap_remove(0))
        .collect();
    // Units before `lo` are known to stay, the one at `hi` (if any) went.
    let (mut lo, mut hi) = (0, len);
    let mut progress = false;
    while lo < hi {
        let mut path = Vec::new();
        let mut at = lo;
        while at < hi {
            let mid = at + (hi - at) / 2;
            path.push(mid);
            at = mid + 1;
        }
        let found = {
            let mut candidates = path.iter().map(|&k| EditSet::new(vec![chain[k].clone()]));
            session.first_interesting(base, &mut candidates)?
        };
        let Some(i) = found else {
            return Ok(progress);
        };
        progress = true;
        if i > 0 {
            lo = path[i - 1] + 1;
        }
        hi = path[i];
        *base = session.current().clone();
        // The units above the one that went are the same nodes, at the same levels; read
        // them again from the new best (their ranges changed).
        let levels = units(base);
        let again: Vec<Edit> = levels
            .iter()
            .skip(level)
            .take(hi)
            .map_while(|l| (l.len() == 1).then(|| l[0].clone()))
            .collect();
        if again.len() < hi {
            // A merge changed the tree meanwhile: the chain is not what it was.
            return Ok(progress);
        }
        chain = again;
    }
    Ok(progress)
}

/// How HDD's ddmin runs: the empty configuration first (a level that can all go, goes in
/// one test), complements only, resuming after a success.
const DDMIN_OPTIONS: DdminOptions = DdminOptions {
    try_empty: true,
    complements_only: true,
    resume: true,
};

/// The candidate that removes every unit not in `kept`.
fn removal(units: &[Edit], kept: &[usize]) -> Option<EditSet> {
    let mut keep = vec![false; units.len()];
    for &k in kept {
        keep[k] = true;
    }
    EditSet::new(
        units
            .iter()
            .zip(&keep)
            .filter(|(_, k)| !**k)
            .map(|(u, _)| u.clone())
            .collect(),
    )
}

/// The replacement edits of the nodes at each depth (the root is at 0), each level in
/// text order, from one iterative walk.
pub(crate) fn all_levels(doc: &Document, table: &Table) -> Vec<Vec<Edit>> {
    let Some(tree) = doc.tree() else {
        return Vec::new();
    };
    let text = doc.text();
    let root = tree.root_node();
    let mut levels: Vec<Vec<Edit>> = vec![root_unit(root, table, text).into_iter().collect()];
    let mut stack = vec![(root, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        let children = children_with_fields(node);
        if children.is_empty() {
            continue;
        }
        if levels.len() <= depth + 1 {
            levels.push(Vec::new());
        }
        levels[depth + 1].extend(
            (0..children.len()).filter_map(|i| child_unit(node, &children, i, table, text)),
        );
        stack.extend(children.iter().rev().map(|&(c, _)| (c, depth + 1)));
    }
    levels
}

/// The children of `node` with the field each fills, in order.
pub(super) fn children_with_fields<'t>(node: Node<'t>) -> Vec<(Node<'t>, Option<&'t str>)> {
    let mut cursor = node.walk();
    let mut children = Vec::new();
    if cursor.goto_first_child() {
        loop {
            children.push((cursor.node(), cursor.field_name()));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    children
}

fn root_unit(root: Node<'_>, table: &Table, text: &[u8]) -> Option<Edit> {
    let info = table
        .kind(root.grammar_name())
        .or_else(|| table.kind(root.kind()))?;
    replace_unit(root.byte_range(), info.min_yield, text)
}

fn replace_unit(range: std::ops::Range<usize>, with: &str, text: &[u8]) -> Option<Edit> {
    (with.len() < range.len() && &text[range.clone()] != with.as_bytes())
        .then(|| Edit::replace(range, with))
}

/// The shortest of the yields of a kind and of its supertypes: a required child may be
/// replaced by anything its supertype derives (a C `pointer_expression` by `0`, an
/// `if_statement` by `;`); the validity filter refuses it where the slot is narrower.
fn smallest_yield(table: &Table, info: &'static hdd_grammar::KindInfo) -> &'static str {
    info.supertypes
        .iter()
        .filter_map(|s| table.kind(s))
        .map(|k| k.min_yield)
        .chain([info.min_yield])
        .min_by_key(|y| y.len())
        .unwrap_or(info.min_yield)
}

/// The removal of `children[i]` of `parent`, if removing it can make the text smaller.
pub(super) fn child_unit<'t>(
    parent: Node<'t>,
    children: &[(Node<'t>, Option<&'t str>)],
    i: usize,
    table: &Table,
    text: &[u8],
) -> Option<Edit> {
    let (child, field) = children[i];
    if child.is_missing() || child.byte_range().is_empty() {
        return None;
    }
    if !child.is_named() && !child.is_extra() && !child.is_error() {
        return None;
    }
    let info = table
        .kind(child.grammar_name())
        .or_else(|| table.kind(child.kind()));
    let optional = table
        .slot(parent.kind(), field)
        .is_some_and(|s| !s.required || s.multiple);
    let deletable =
        child.is_extra() || child.is_error() || optional || info.is_some_and(|k| k.derives_empty);
    if !deletable {
        return replace_unit(child.byte_range(), smallest_yield(table, info?), text);
    }
    let mut range = child.byte_range();
    let separator = table
        .kind(parent.grammar_name())
        .or_else(|| table.kind(parent.kind()))
        .and_then(|k| k.list_separator);
    if let Some(sep) = separator {
        let is_sep = |j: usize| {
            children
                .get(j)
                .is_some_and(|(n, _)| !n.is_named() && n.kind() == sep)
        };
        if is_sep(i + 1) {
            range.end = children[i + 1].0.end_byte();
        } else if i > 0 && is_sep(i - 1) {
            range.start = children[i - 1].0.start_byte();
        }
    }
    Some(Edit::delete(swallow_space(text, range)))
}
