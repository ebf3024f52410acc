//! ## What it does
//! Hierarchical Delta Debugging (Misherghi & Su, ICSE 2006): for each level of the
//! syntax tree, from the root down, ddmin over that level's nodes. Removing a node means
//! replacing it by its minimal replacement from the grammar table: nothing when the node
//! may be absent (an optional or list child, or a kind that derives the empty string;
//! a list element goes with its separator), otherwise the shortest text its kind
//! derives (`{ }` for a C block). Sweeps repeat until one changes nothing (HDD*).
//! Deep nesting (a run of levels with one big node each) is cut by a binary search, and
//! the small units beside it go in groups rather than level by level.
//!
//! ## When it helps
//! First, on large inputs: whole functions and blocks go in a few tests, and every
//! candidate parses.
//!
//! ## Example
//! `int f(void) { a(); b(); } int g;` with a test that needs `g` becomes `int g;`.

use tree_sitter::Node;

use hdd_grammar::{KindInfo, Table};

use super::text::{is_space, swallow_space};
use super::units::ddmin_groups;
use crate::ddmin::{Ddmin, DdminOptions, Schedule};
use crate::document::{Document, Stop, Ticker};
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
    // In a reduction confined to a range, the nodes reaching outside it never go.
    let kept = session.kept();
    let units = |base: &Document, stop: Stop<'_>| {
        let mut levels = all_levels(base, table, min_saving, stop)?;
        let len = base.text().len();
        for level in &mut levels {
            level.retain(|unit| kept.inside(len, std::slice::from_ref(unit)));
        }
        Ok(levels)
    };
    let options = ddmin_options(session.schedule());
    let fresh = |levels: &[Vec<Edit>]| -> Vec<Ddmin> {
        levels
            .iter()
            .map(|l| {
                let weights = l.iter().map(|e| e.saving().unsigned_abs() as u64).collect();
                Ddmin::with_weights(weights, options)
            })
            .collect()
    };
    let mut progress = false;
    let mut base = session.current().clone();
    let mut levels = units(&base, &|| session.stop_requested())?;
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
            let cut = chain_search(session, &mut base, &units, level, chain)?;
            progress |= cut;
            levels = units(&base, &|| session.stop_requested())?;
            runs = fresh(&levels);
            // Only once the chain is cut to what the test needs: a chain whose bottom the
            // test needs is for hoisting to shorten, and its sides would cost tests on
            // levels that go anyway (100,000 keys an edit set, each candidate a second).
            if cut && chain_sides(session, &base, &levels, &runs, level)? {
                progress = true;
                base = session.current().clone();
                levels = units(&base, &|| session.stop_requested())?;
                runs = fresh(&levels);
            }
            for run in runs.iter_mut().take(level + chain) {
                run.advance(None);
            }
            continue;
        }
        let counts: Vec<usize> = runs[level..].iter().map(Ddmin::len).collect();
        let found = {
            let mut candidates = (level..levels.len()).flat_map(|l| {
                let units = &levels[l];
                runs[l]
                    .removals()
                    .map(move |removed| removal(units, &removed))
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
        let kept: Vec<Edit> = session
            .rebase_each_onto_current(&old, &levels[winner])
            .into_iter()
            .map(|unit| unit.ok().flatten().unwrap_or_else(|| Edit::delete(0..0)))
            .collect();
        levels[winner] = kept;
        let deeper = units(&base, &|| session.stop_requested())?;
        levels.truncate(winner + 1);
        runs.truncate(winner + 1);
        let deeper: Vec<Vec<Edit>> = deeper.into_iter().skip(winner + 1).collect();
        runs.extend(fresh(&deeper));
        levels.extend(deeper);
        level = winner;
    }
}

/// How a sweep reads the units of every level of a document (given up when the stop
/// says so).
type Units<'a> = dyn Fn(&Document, Stop<'_>) -> Result<Vec<Vec<Edit>>, Error> + 'a;

/// Below this many one-node levels in a row, HDD tests them one by one.
const MIN_CHAIN: usize = 8;

/// How many levels from `level` down hold one unit not yet tried that is nearly all of
/// the level ([`spine`]), each inside the one of the level above. The units beside the
/// spines are small (the keys of nested JSON objects): the chain's levels are not swept
/// one by one for them (100,000 levels, a test each); later passes get them.
fn chain_len(levels: &[Vec<Edit>], runs: &[Ddmin], level: usize) -> usize {
    let mut len = 0;
    let mut outer: Option<&Edit> = None;
    // The saving of the chain's first spine: below it, a level's other units may save
    // more than a 16th of its spine (the bottom of nested objects: `{"a":42}` beside its
    // key), as long as they are small beside the chain's top.
    let mut top = 0;
    for (units, run) in levels[level..].iter().zip(&runs[level..]) {
        let Some((unit, rest)) = spine(units) else {
            break;
        };
        let small = rest.saturating_mul(SPINE_SHARE) <= unit.saving().max(top);
        let inside = outer.is_none_or(|o| contains(o, unit));
        if run.is_finished() || !inside || !small {
            break;
        }
        top = top.max(unit.saving());
        outer = Some(unit);
        len += 1;
    }
    len
}

/// How many times the savings of a level's other units together its spine must save.
const SPINE_SHARE: isize = 16;

/// The unit of a level that saves the most (the first of those), if it saves anything,
/// and what the level's other units save together.
fn spine(units: &[Edit]) -> Option<(&Edit, isize)> {
    let big = units.iter().rev().max_by_key(|u| u.saving())?;
    let rest: isize = units.iter().map(Edit::saving).sum::<isize>() - big.saving();
    (big.saving() > 0).then_some((big, rest))
}

/// Removes the shallowest spine it can of the chain of `len` levels from `level` (see
/// [`chain_len`]), assuming that when a unit can go, so can every unit
/// inside it: a binary search. The session gets the search's path as one sequence of
/// candidates (each deeper than the last, as if all failed), so parallel jobs test
/// several steps at once. Returns whether anything was accepted.
fn chain_search(
    session: &mut Session<'_>,
    base: &mut Document,
    units: &Units<'_>,
    level: usize,
    len: usize,
) -> Result<bool, Error> {
    let mut chain: Vec<Edit> = units(base, &|| session.stop_requested())?
        .into_iter()
        .skip(level)
        .take(len)
        .map_while(|l| spine(&l).map(|(unit, _)| unit.clone()))
        .collect();
    if chain.len() < len {
        return Ok(false);
    }
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
        let levels = units(base, &|| session.stop_requested())?;
        let again: Vec<Edit> = levels
            .iter()
            .skip(level)
            .take(hi)
            .map_while(|l| spine(l).map(|(unit, _)| unit.clone()))
            .collect();
        if again.len() < hi {
            // A merge changed the tree meanwhile: the chain is not what it was.
            return Ok(progress);
        }
        chain = again;
    }
    Ok(progress)
}

/// The units (against `base`) beside the spines of the chain that starts at `level`
/// (the keys and small elements of deeply nested objects and arrays; `runs` are fresh
/// ddmin runs of `levels`, for [`chain_len`]), tried together in a few groups: swept
/// level by level they would cost a test or more per level, and the tokens pass one per
/// unit (on a 1,500-deep JSON of arrays and objects, 2,991 of 4,055 tests were
/// successes of about one token each, and 300 s were not enough). A group holds the
/// units of one replacement at one depth below the spines (a side, the children of
/// sides, ...): the keys of nested objects, whose smallest replacement `0` the grammar
/// allows and JSON does not, then do not keep the elements beside them from going, nor
/// their own contents. Returns whether anything was accepted.
fn chain_sides(
    session: &mut Session<'_>,
    base: &Document,
    levels: &[Vec<Edit>],
    runs: &[Ddmin],
    level: usize,
) -> Result<bool, Error> {
    let len = chain_len(levels, runs, level);
    let mut groups: Vec<(usize, Vec<Edit>)> = Vec::new();
    // The level above's spine, and its other units with their depths below the spines.
    let mut outer: Option<&Edit> = None;
    let mut above: Vec<(&Edit, usize)> = Vec::new();
    for units in &levels[level..level + len] {
        let Some((spine, _)) = spine(units) else {
            break;
        };
        let mut here = Vec::new();
        for unit in units.iter().filter(|u| !std::ptr::eq(*u, spine)) {
            let depth = if outer.is_none_or(|o| contains(o, unit)) {
                Some(0)
            } else {
                // Inside a unit of the level above (sorted, disjoint): the last one
                // starting at or before it.
                let at = above.partition_point(|(u, _)| u.range.start <= unit.range.start);
                at.checked_sub(1)
                    .map(|k| above[k])
                    .filter(|(u, d)| contains(u, unit) && *d < MAX_SIDE_DEPTH)
                    .map(|(_, d)| d + 1)
            };
            let Some(depth) = depth else { continue };
            here.push((unit, depth));
            if unit.saving() <= 0 {
                continue;
            }
            match groups
                .iter_mut()
                .find(|(d, g)| *d == depth && g[0].replacement == unit.replacement)
            {
                Some((_, group)) => group.push(unit.clone()),
                None => groups.push((depth, vec![unit.clone()])),
            }
        }
        outer = Some(spine);
        above = here;
    }
    // A group whose units are not all free to go (the payload at the bottom of the
    // nesting among the elements beside it) is cut in a few runs of units: ddmin over
    // them finds the runs that can go in a bounded number of tests, not one a unit.
    if groups.iter().map(|(_, g)| g.len()).sum::<usize>() < 2 {
        return Ok(false);
    }
    let chunks: Vec<&[Edit]> = groups
        .iter()
        .flat_map(|(_, g)| g.chunks(g.len().div_ceil(SIDE_CHUNKS)))
        .collect();
    ddmin_groups(session, base, &chunks, |c| c, true)
}

/// How many runs of units each group of [`chain_sides`] is cut into.
const SIDE_CHUNKS: usize = 16;

/// How deep below the spines [`chain_sides`] looks.
const MAX_SIDE_DEPTH: usize = 3;

/// Whether `inner`'s range is within `outer`'s.
fn contains(outer: &Edit, inner: &Edit) -> bool {
    outer.range.start <= inner.range.start && inner.range.end <= outer.range.end
}

/// How HDD's ddmin runs: the empty configuration first (a level that can all go, goes in
/// one test), complements only, resuming after a success, parts shrinking by the
/// session's `schedule`.
fn ddmin_options(schedule: Schedule) -> DdminOptions {
    DdminOptions {
        try_empty: true,
        complements_only: true,
        resume: true,
        schedule,
    }
}

/// The candidate that applies the `removed` units.
fn removal(units: &[Edit], removed: &[usize]) -> Option<EditSet> {
    EditSet::new(removed.iter().map(|&k| units[k].clone()).collect())
}

/// The replacement edits of the nodes at each depth (the root is at 0) that save at
/// least `min_saving` bytes, each level in text order, from one iterative walk. The walk
/// does not go below a node too small for any edit inside it to save that much, so a
/// coarse sweep over a big text costs as much as its big nodes' children.
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so (it is asked every [`Ticker`] steps).
pub(crate) fn all_levels(
    doc: &Document,
    table: &Table,
    min_saving: usize,
    stop: Stop<'_>,
) -> Result<Vec<Vec<Edit>>, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(Vec::new());
    };
    let mut ticker = Ticker::new(stop);
    let text = doc.text();
    let root = tree.root_node();
    let enough = |e: &Edit| e.saving() >= min_saving.cast_signed();
    let mut levels: Vec<Vec<Edit>> = vec![
        root_unit(root, table, text)
            .filter(enough)
            .into_iter()
            .collect(),
    ];
    let mut stack = vec![(root, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        ticker.tick()?;
        if min_saving > 0 && !may_save(text, node.byte_range(), min_saving) {
            continue;
        }
        let children = children_with_fields(node);
        if children.is_empty() {
            continue;
        }
        if levels.len() <= depth + 1 {
            levels.push(Vec::new());
        }
        levels[depth + 1].extend(
            (0..children.len())
                .filter_map(|i| child_unit(node, &children, i, table, text))
                .filter(enough),
        );
        stack.extend(children.iter().rev().map(|&(c, _)| (c, depth + 1)));
    }
    Ok(levels)
}

/// Whether an edit of a node inside `range` (the range of a node) may save `min_saving`
/// bytes: such an edit takes at most the range, a list separator inside it, and the
/// whitespace around it ([`swallow_space`]).
fn may_save(text: &[u8], range: std::ops::Range<usize>, min_saving: usize) -> bool {
    let mut bound = range.len();
    let mut after = range.end;
    while bound < min_saving && after < text.len() && is_space(text[after]) {
        bound += 1;
        after += 1;
    }
    let mut before = range.start;
    while bound < min_saving && before > 0 && is_space(text[before - 1]) {
        bound += 1;
        before -= 1;
    }
    bound >= min_saving
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
    replace_unit(root.byte_range(), kind_info(table, root)?.min_yield, text)
}

/// A node's table entry: its rule's (the name before any alias), else its visible
/// kind's.
pub(super) fn kind_info(table: &Table, node: Node<'_>) -> Option<&'static KindInfo> {
    table
        .kind(node.grammar_name())
        .or_else(|| table.kind(node.kind()))
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

/// The deletion of `children[i]` of `parent` ([`child_unit`]), if it may simply go
/// (rather than be replaced by a shorter text).
pub(super) fn child_deletion<'t>(
    parent: Node<'t>,
    children: &[(Node<'t>, Option<&'t str>)],
    i: usize,
    table: &Table,
    text: &[u8],
) -> Option<Edit> {
    child_unit(parent, children, i, table, text).filter(|e| e.replacement.is_empty())
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
    let info = kind_info(table, child);
    let optional = table
        .slot(parent.kind(), field)
        .is_some_and(|s| !s.required || s.multiple);
    let deletable =
        child.is_extra() || child.is_error() || optional || info.is_some_and(|k| k.derives_empty);
    if !deletable {
        return replace_unit(child.byte_range(), smallest_yield(table, info?), text);
    }
    let mut range = child.byte_range();
    let separator = kind_info(table, parent).and_then(|k| k.list_separator);
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
