//! ## What it does
//! Replaces a node by a compatible descendant (Perses' "replace with a compatible
//! descendant", picireny's hoisting): a descendant of the same kind, of a kind that
//! shares a supertype with it (C: any `expression` in place of an `expression`, any
//! `statement` in place of a `statement`), or of a kind the node's place in its parent
//! admits (`node-types.json`'s types of that slot: SQL's `select` inside a
//! `create_view`, both statements; a C declaration inside a function, at the top
//! level). Nodes are visited largest first; for each, the first compatible descendant
//! on every path below it, nearest first, then the compatible ones below those, within
//! a few levels (a dozen candidates at most).
//!
//! Where the nesting goes deep (a node whose only compatible descendant has only one,
//! and so on), the bottom of that chain and the points half, a quarter, … of the way
//! down come first: one test lifts the inside of `[[[[[[x]]]]]]` out. Below the top of
//! such a chain, only the links 1, 2, 4, … away from it try jumps of their own, and
//! beyond the 32nd link the others try no lift at all (`chain.rs`).
//!
//! A lift that drops a definition (SQL's `CREATE VIEW b AS …` lifted to its query) is
//! tried alone, then with the deletion of every statement or element outside the node
//! that uses the dropped name (neither step alone may be interesting).
//!
//! Also tries to unwrap a bracketed node, deleting its opening and closing bracket
//! (a nested `{ … }` block's statements join the enclosing block; `(x)` becomes `x`).
//!
//! ## When it helps
//! After HDD: a `switch`, `if` or loop that only matters for one statement inside, an
//! expression that matters for one operand, a cast or a parenthesis around what matters.
//!
//! ## Example
//! `if (x) { y = (a + b) * 2; }` with a test that needs `a + b` becomes `a + b;` after
//! hoisting the statement and then the expression.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::Range;

use tree_sitter::Node;

use hdd_grammar::{SlotInfo, Table};

use super::chain::far_link;
use super::deps::DEFINING_FIELDS;
use super::hdd::{child_deletion, children_with_fields};
use super::names::placed_leaves;
use super::text::is_name;
use crate::cache::TextKey;
use crate::document::{Stop, Ticker};
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// How deep below a node compatible descendants are looked for.
const MAX_DEPTH: usize = 6;
/// How many descendants are tried per node.
const MAX_CANDIDATES: usize = 12;

/// The hoisting pass.
#[derive(Debug, Default)]
pub struct Hoist;

impl Pass for Hoist {
    fn name(&self) -> &'static str {
        "hoist"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        // Nodes already tried, by kind and text: after an accepted candidate the tree is
        // re-read, and the nodes it still holds are not tried again.
        let mut tried: HashSet<(u16, TextKey)> = HashSet::new();
        loop {
            let base = session.current().clone();
            let Some(tree) = base.tree() else {
                return Ok(());
            };
            let mut nodes = named_nodes(tree.root_node(), &table, &|| session.stop_requested())?;
            nodes.sort_by_key(|(n, _)| std::cmp::Reverse(n.byte_range().len()));
            let key = |(n, _): &(Node<'_>, Place)| {
                (n.kind_id(), TextKey::of(&base.text()[n.byte_range()]))
            };
            let sites = name_sites(tree.root_node(), &table, base.text(), &|| {
                session.stop_requested()
            })?;
            // Every node's candidates in one sequence (a parallel executor runs ahead into
            // the next nodes'); `owner[i]` is the node of candidate `i`.
            let owner = RefCell::new(Vec::new());
            // The links of the chains walked so far, by node, with their distance from
            // the chain's top.
            let linked = RefCell::new(HashMap::new());
            let found = {
                let mut seen = tried.clone();
                let mut candidates = nodes
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| seen.insert(key(n)))
                    .flat_map(|(at, &(node, place))| {
                        let hoists = compatible_descendants(node, place, &table);
                        let deep = match chain_next(node, &hoists) {
                            Some(_) => jumps_of(node, place, &table, &mut linked.borrow_mut()),
                            None => Vec::new(),
                        };
                        let owner = &owner;
                        // The nearest on each path first, then those below them.
                        let mut lifts = hoists;
                        for d in all_compatible_descendants(node, place, &table) {
                            if !lifts.contains(&d) {
                                lifts.push(d);
                            }
                        }
                        lifts.truncate(MAX_CANDIDATES);
                        // Deep in a long chain, a link's lifts (into the next links, or
                        // into something small beside them: the chain cut there) are left
                        // to the links 1, 2, 4, … of the chain.
                        let far = linked
                            .borrow()
                            .get(&node.id())
                            .is_some_and(|&d| far_link(d));
                        if far {
                            lifts.clear();
                        }
                        let unwrapped = if far { None } else { unwrap(node) };
                        let sites = &sites;
                        deep.into_iter()
                            .map(move |d| hoist(node, d))
                            .chain(unwrapped.into_iter().map(Some))
                            .chain(lifts.into_iter().flat_map(move |d| {
                                // The lift alone, then with what used the names it drops.
                                let cleaned = sites.cleanup(node, d).map(|extra| {
                                    let mut edits = hoist_edits(node, d);
                                    edits.extend(extra);
                                    EditSet::new(edits)
                                });
                                std::iter::once(hoist(node, d)).chain(cleaned)
                            }))
                            .inspect(move |_| owner.borrow_mut().push(at))
                    });
                session.first_interesting(&base, &mut candidates)?
            };
            let Some(i) = found else {
                return Ok(());
            };
            // The nodes up to the winner's were tried (in order, as with one job).
            let last = owner.borrow()[i];
            tried.extend(nodes[..=last].iter().map(key));
        }
    }
}

/// `node` replaced by `descendant`: the text around the descendant deleted. (As two
/// deletions rather than one replacement, edits inside the descendant still rebase
/// through it: a parallel run merges a hoist with the successes found inside it.)
pub(super) fn hoist(node: Node<'_>, descendant: Node<'_>) -> Option<EditSet> {
    EditSet::new(hoist_edits(node, descendant))
}

fn hoist_edits(node: Node<'_>, descendant: Node<'_>) -> Vec<Edit> {
    vec![
        Edit::delete(node.start_byte()..descendant.start_byte()),
        Edit::delete(descendant.end_byte()..node.end_byte()),
    ]
}

/// Where each name occurs, for the lifts that drop a definition: lifting a query out of
/// SQL's `CREATE VIEW b AS …` drops the view `b`, so the statements that use `b` must
/// go with it (in one candidate, as neither step alone is interesting).
struct NameSites<'t> {
    /// Every name leaf, by position.
    leaves: Vec<Site<'t>>,
    /// The indices of the leaves that fill a defining field (`name`, `declarator`), by
    /// position: a lift looks through those inside it, not through every name.
    definitions: Vec<usize>,
    /// For each name, the indices of its leaves.
    by_name: HashMap<&'t [u8], Vec<usize>>,
    /// The top-level items (the root's children) and their deletions, by position.
    items: Vec<(Range<usize>, Option<Edit>)>,
}

/// A name leaf: its range, its text, and the deletion of the list element around it.
struct Site<'t> {
    range: Range<usize>,
    name: &'t [u8],
    deletion: Option<Edit>,
}

impl NameSites<'_> {
    /// The deletions of the uses, outside `node`, of the names defined in what lifting
    /// `descendant` drops; `None` when there are none, or one cannot be deleted.
    fn cleanup(&self, node: Node<'_>, descendant: Node<'_>) -> Option<Vec<Edit>> {
        let (outer, inner) = (node.byte_range(), descendant.byte_range());
        let first = self
            .definitions
            .partition_point(|&d| self.leaves[d].range.start < outer.start);
        let mut extra = Vec::new();
        for &d in &self.definitions[first..] {
            let site = &self.leaves[d];
            let range = &site.range;
            if range.start >= outer.end {
                break;
            }
            if inner.start <= range.start && range.end <= inner.end {
                continue;
            }
            for &i in &self.by_name[site.name] {
                let Site {
                    range: use_range,
                    deletion,
                    ..
                } = &self.leaves[i];
                if use_range.start >= outer.start && use_range.start < outer.end {
                    continue;
                }
                // The whole top-level item that uses it, unless that item holds the node
                // too: then the list element around the use.
                let at = self
                    .items
                    .partition_point(|(r, _)| r.end <= use_range.start);
                let item = self
                    .items
                    .get(at)
                    .filter(|(r, _)| r.start <= use_range.start && !r.contains(&outer.start));
                match item {
                    Some((_, item_deletion)) => extra.push(item_deletion.clone()?),
                    None => extra.push(deletion.clone()?),
                }
            }
        }
        (!extra.is_empty()).then_some(extra)
    }
}

/// Every name leaf of the tree with what [`NameSites`] keeps of it.
fn name_sites<'t>(
    root: Node<'t>,
    table: &Table,
    text: &'t [u8],
    stop: Stop<'_>,
) -> Result<NameSites<'t>, Error> {
    let children = children_with_fields(root);
    let items = (0..children.len())
        .map(|i| {
            let deletion = child_deletion(root, &children, i, table, text);
            (children[i].0.byte_range(), deletion)
        })
        .collect();
    let mut sites = NameSites {
        leaves: Vec::new(),
        definitions: Vec::new(),
        by_name: HashMap::new(),
        items,
    };
    placed_leaves(root, table, text, is_name, stop, |placed| {
        let range = placed.leaf.byte_range();
        let name = &text[range.clone()];
        let defining = placed
            .parent
            .is_some_and(|(_, field)| field.is_some_and(|f| DEFINING_FIELDS.contains(&f)));
        if defining {
            sites.definitions.push(sites.leaves.len());
        }
        sites
            .by_name
            .entry(name)
            .or_default()
            .push(sites.leaves.len());
        sites.leaves.push(Site {
            range,
            name,
            deletion: placed.deletion,
        });
    })?;
    Ok(sites)
}

/// Deletes the brackets around a node whose first and last children are a matching
/// pair of bracket tokens.
pub(super) fn unwrap(node: Node<'_>) -> Option<EditSet> {
    let count = node.child_count();
    if count < 2 {
        return None;
    }
    let (open, close) = (node.child(0)?, node.child(count - 1)?);
    let pair = (open.kind(), close.kind());
    if open.is_named() || close.is_named() || !matches!(pair, ("(", ")") | ("[", "]") | ("{", "}"))
    {
        return None;
    }
    EditSet::new(vec![
        Edit::delete(open.byte_range()),
        Edit::delete(close.byte_range()),
    ])
}

/// A node's place: the slot it fills in its parent (`None` for the root, or a slot the
/// table does not know).
pub(super) type Place = Option<&'static SlotInfo>;

/// Every named node with its place, without recursion.
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so.
fn named_nodes<'t>(
    root: Node<'t>,
    table: &Table,
    stop: Stop<'_>,
) -> Result<Vec<(Node<'t>, Place)>, Error> {
    let mut ticker = Ticker::new(stop);
    let mut out = Vec::new();
    let mut stack = vec![(root, None)];
    while let Some((node, place)) = stack.pop() {
        ticker.tick()?;
        if node.is_named() && !node.is_error() && !node.is_missing() {
            out.push((node, place));
        }
        let mut cursor = node.walk();
        if cursor.goto_first_child() {
            loop {
                let slot = table.slot(node.kind(), cursor.field_name());
                stack.push((cursor.node(), slot));
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// Whether a node of kind `b` may stand where `a` stands (in `place`): the same kind, a
/// shared supertype, or a kind the place admits.
fn compatible(table: &Table, a: Node<'_>, place: Place, b: Node<'_>) -> bool {
    if a.kind_id() == b.kind_id() {
        return true;
    }
    if place.is_some_and(|slot| table.fits(slot, b.kind())) {
        return true;
    }
    let (Some(ka), Some(kb)) = (table.kind(a.kind()), table.kind(b.kind())) else {
        return false;
    };
    ka.supertypes.iter().any(|s| kb.supertypes.contains(s))
}

/// Where `node` has a single compatible descendant, which has a single one, and so on
/// (deep nesting: `[[[[x]]]]`; or `{"a":{"a":{"a":x}}}`, where each object's key is a
/// compatible descendant too: see [`chain_next`]), the chain's deepest node, then the
/// ones half, a quarter, … of the way down (the nearest is already among
/// [`compatible_descendants`]): one candidate can lift a node from the bottom of a deep
/// chain, and a test that needs some of the nesting still keeps half of it in a few
/// steps. Nothing for chains shorter than 4. The walk stops after [`MAX_CHAIN`] nodes, so
/// each node costs a bounded walk. Returns the jumps, and the chain's links in order.
fn chain_jumps<'t>(node: Node<'t>, place: Place, table: &Table) -> (Vec<Node<'t>>, Vec<Node<'t>>) {
    let mut chain = Vec::new();
    let mut at = node;
    while chain.len() < MAX_CHAIN {
        // Below the top, a link's own place does not count: what the chain lifts goes
        // into the top's place.
        let below = compatible_descendants(at, if at == node { place } else { None }, table);
        let Some(next) = chain_next(node, &below) else {
            break;
        };
        if !compatible(table, node, place, next) {
            break;
        }
        chain.push(next);
        at = next;
    }
    let mut jumps = Vec::new();
    let mut len = chain.len();
    while len >= 4 {
        jumps.push(chain[len - 1]);
        len /= 2;
    }
    (jumps, chain)
}

/// [`chain_jumps`] for a node visited largest first: a link of a chain walked from a
/// node above (`linked`: each link's distance from that top) gets its own jumps only
/// at 1, 2, 4, … links from the top. Each link's jumps would cost about as many tests
/// as the chain has links when the test needs the nesting (a JSON parser's recursion
/// limit over 1,000 levels: up to a dozen failing lifts a link); these few still find
/// the run of links a test does not need below a top it needs.
fn jumps_of<'t>(
    node: Node<'t>,
    place: Place,
    table: &Table,
    linked: &mut HashMap<usize, usize>,
) -> Vec<Node<'t>> {
    let from_top = linked.get(&node.id()).copied();
    if from_top.is_some_and(|d| !d.is_power_of_two()) {
        return Vec::new();
    }
    let (jumps, chain) = chain_jumps(node, place, table);
    if from_top.is_none() {
        for (d, link) in chain.iter().enumerate() {
            linked.entry(link.id()).or_insert(d + 1);
        }
    }
    jumps
}

/// The next link of a chain from `top` among the compatible descendants of its last
/// link (`below`): the only one, or the only one of `top`'s kind when it is nearly all
/// of them ([`CHAIN_SHARE`] times the others' bytes together: a nested object beside its
/// key, not one operand of a sum beside another).
fn chain_next<'t>(top: Node<'t>, below: &[Node<'t>]) -> Option<Node<'t>> {
    if let [only] = below {
        return Some(*only);
    }
    let mut same = below.iter().filter(|n| n.kind_id() == top.kind_id());
    let (Some(next), None) = (same.next(), same.next()) else {
        return None;
    };
    let len = |n: &Node<'_>| n.byte_range().len();
    let rest: usize = below.iter().map(len).sum::<usize>() - len(next);
    (rest.saturating_mul(CHAIN_SHARE) <= len(next)).then_some(*next)
}

/// How many times the other descendants' bytes together a chain's next link must hold.
const CHAIN_SHARE: usize = 16;

/// How far down a chain of single compatible descendants [`chain_jumps`] walks.
const MAX_CHAIN: usize = 1 << 14;

/// The first compatible descendant on each path below `node` (in `place`), breadth
/// first.
pub(super) fn compatible_descendants<'t>(
    node: Node<'t>,
    place: Place,
    table: &Table,
) -> Vec<Node<'t>> {
    descendants(node, place, table, false)
}

/// Every compatible descendant of `node` (in `place`) within [`MAX_DEPTH`] levels,
/// breadth first, the compatible ones below a compatible one included: the receiver of
/// `self.b.iter().filter(f).len()` may become `self` in one step, where each step
/// between would not be interesting.
fn all_compatible_descendants<'t>(node: Node<'t>, place: Place, table: &Table) -> Vec<Node<'t>> {
    descendants(node, place, table, true)
}

fn descendants<'t>(node: Node<'t>, place: Place, table: &Table, below: bool) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut queue = VecDeque::from([(node, 0usize)]);
    while let Some((n, depth)) = queue.pop_front() {
        if depth >= MAX_DEPTH {
            continue;
        }
        let mut cursor = n.walk();
        for child in n.named_children(&mut cursor) {
            if child.is_error() || child.is_missing() || child.is_extra() {
                continue;
            }
            if compatible(table, node, place, child)
                && child.byte_range().len() < node.byte_range().len()
            {
                out.push(child);
                if out.len() >= MAX_CANDIDATES {
                    return out;
                }
                if below {
                    queue.push_back((child, depth + 1));
                }
            } else {
                queue.push_back((child, depth + 1));
            }
        }
    }
    out
}
