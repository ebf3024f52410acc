//! The dependency graph of a text's top-level definitions (petgraph): an edge from each
//! item to every item that defines a name it uses, its strongly connected components
//! (mutually recursive functions, a struct and the `impl` that uses it while the struct
//! uses the `impl`'s trait) and their order, users first.
//!
//! Language-generic: the items are the root's deletable children; a name (an identifier
//! leaf, see [`is_name`]) is *defined* by an item where it fills a field named `name` or
//! `declarator` (tree-sitter grammars' convention: C's declarators, Rust's and
//! JavaScript's `name` fields), and *used* everywhere else. A name an item defines
//! itself (a local, a parameter) makes no edge out of it, so the `i` of every loop does
//! not tie every function to every other.

use std::collections::HashMap;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use tree_sitter::Node;

use hdd_grammar::Table;

use super::hdd::{child_deletion, children_with_fields};
use super::text::is_name;
use crate::document::{Document, Stop, Ticker};
use crate::edit::Edit;
use crate::error::Error;

/// The fields whose names are definitions.
pub(super) const DEFINING_FIELDS: [&str; 2] = ["name", "declarator"];

/// A text's top-level definitions and how they depend on each other.
#[derive(Debug, Default)]
pub(super) struct Definitions {
    /// The deletion of each top-level item, in text order.
    pub(super) items: Vec<Edit>,
    /// The strongly connected components of the graph (item indices, ascending), users
    /// before what they use: deleting them in this order, each goes once nothing that
    /// is left uses it.
    pub(super) order: Vec<Vec<usize>>,
    /// For each defined name, the items that define it.
    pub(super) definers: HashMap<Vec<u8>, Vec<usize>>,
}

impl Definitions {
    /// The position in [`Definitions::order`] of the first component that defines
    /// `name`, if an item does.
    pub(super) fn rank_of(&self, name: &[u8]) -> Option<usize> {
        let definers = self.definers.get(name)?;
        self.order
            .iter()
            .position(|component| component.iter().any(|i| definers.contains(i)))
    }

    /// The edits of each component, in [`Definitions::order`].
    pub(super) fn component_edits(&self) -> Vec<Vec<Edit>> {
        self.order
            .iter()
            .map(|c| c.iter().map(|&i| self.items[i].clone()).collect())
            .collect()
    }
}

/// The definitions of `doc`'s top level (none without a tree).
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so.
pub(super) fn definitions(
    doc: &Document,
    table: &Table,
    stop: Stop<'_>,
) -> Result<Definitions, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(Definitions::default());
    };
    let text = doc.text();
    let root = tree.root_node();
    let children = children_with_fields(root);
    let mut ticker = Ticker::new(stop);
    let mut items = Vec::new();
    let mut names: Vec<Vec<(&[u8], bool)>> = Vec::new();
    for i in 0..children.len() {
        let child = children[i].0;
        if !child.is_named() || child.is_extra() {
            continue;
        }
        let Some(edit) = child_deletion(root, &children, i, table, text) else {
            continue;
        };
        items.push(edit);
        names.push(names_in(child, text, &mut ticker)?);
    }
    let mut definers: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
    for (i, item) in names.iter().enumerate() {
        for &(name, defining) in item {
            if defining {
                let list = definers.entry(name.to_vec()).or_default();
                if list.last() != Some(&i) {
                    list.push(i);
                }
            }
        }
    }
    let mut graph: DiGraph<usize, ()> = DiGraph::with_capacity(items.len(), 0);
    let nodes: Vec<NodeIndex> = (0..items.len()).map(|i| graph.add_node(i)).collect();
    for (i, item) in names.iter().enumerate() {
        let own: Vec<&[u8]> = item.iter().filter(|n| n.1).map(|n| n.0).collect();
        let mut targets: Vec<usize> = item
            .iter()
            .filter(|(name, defining)| !defining && !own.contains(name))
            .filter_map(|(name, _)| definers.get(*name))
            .flatten()
            .copied()
            .filter(|&j| j != i)
            .collect();
        targets.sort_unstable();
        targets.dedup();
        for j in targets {
            graph.add_edge(nodes[i], nodes[j], ());
        }
    }
    // tarjan_scc lists the components what they use first; users go first here.
    let mut order: Vec<Vec<usize>> = tarjan_scc(&graph)
        .into_iter()
        .rev()
        .map(|component| {
            let mut items: Vec<usize> = component.into_iter().map(|n| graph[n]).collect();
            items.sort_unstable();
            items
        })
        .collect();
    // Among items that do not depend on each other, text order (tarjan's order there
    // follows the graph's walk, which is fixed but says nothing to a reader).
    stable_topological_tiebreak(&mut order, &graph, &nodes);
    Ok(Definitions {
        items,
        order,
        definers,
    })
}

/// Reorders `order` (components, users first) so that, of the components whose users
/// are all placed, the one with the first item in the text goes next (Kahn's algorithm
/// with the smallest index first): a deterministic order a reader can follow, and the
/// text order when nothing depends on anything.
fn stable_topological_tiebreak(
    order: &mut Vec<Vec<usize>>,
    graph: &DiGraph<usize, ()>,
    nodes: &[NodeIndex],
) {
    let count = order.len();
    let mut component_of = vec![0; nodes.len()];
    for (c, items) in order.iter().enumerate() {
        for &i in items {
            component_of[i] = c;
        }
    }
    // Edges between components: user -> used; a component waits for all its users.
    let mut users_left = vec![0usize; count];
    let mut used_by: Vec<Vec<usize>> = vec![Vec::new(); count];
    for edge in graph.raw_edges() {
        let (from, to) = (
            component_of[graph[edge.source()]],
            component_of[graph[edge.target()]],
        );
        if from != to && !used_by[from].contains(&to) {
            used_by[from].push(to);
            users_left[to] += 1;
        }
    }
    let mut ready: std::collections::BTreeSet<(usize, usize)> = (0..count)
        .filter(|&c| users_left[c] == 0)
        .map(|c| (order[c][0], c))
        .collect();
    let mut sorted = Vec::with_capacity(count);
    while let Some((_, c)) = ready.pop_first() {
        sorted.push(c);
        for &d in &used_by[c] {
            users_left[d] -= 1;
            if users_left[d] == 0 {
                ready.insert((order[d][0], d));
            }
        }
    }
    debug_assert_eq!(sorted.len(), count, "the components form no cycle");
    let mut old: Vec<Option<Vec<usize>>> = order.drain(..).map(Some).collect();
    order.extend(sorted.into_iter().filter_map(|c| old[c].take()));
}

/// Every name leaf under `item`, with whether it fills a defining field.
fn names_in<'t>(
    item: Node<'t>,
    text: &'t [u8],
    ticker: &mut Ticker<'_>,
) -> Result<Vec<(&'t [u8], bool)>, Error> {
    let mut names = Vec::new();
    let mut cursor = item.walk();
    loop {
        ticker.tick()?;
        let node = cursor.node();
        if node.child_count() == 0 {
            if is_name(node) && !node.byte_range().is_empty() {
                let defining = cursor
                    .field_name()
                    .is_some_and(|f| DEFINING_FIELDS.contains(&f));
                names.push((&text[node.byte_range()], defining));
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == item {
                return Ok(names);
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(names);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use hdd_grammar::Lang;

    use super::*;

    fn defs_of(lang: Lang, text: &str) -> (Definitions, Vec<String>) {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&lang.ts_language()).unwrap();
        let doc = Document::parse(&mut parser, text.as_bytes().to_vec()).unwrap();
        let defs = definitions(&doc, &lang.table(), &|| false).unwrap();
        let items = defs
            .items
            .iter()
            .map(|e| text[e.range.clone()].trim().to_owned())
            .collect();
        (defs, items)
    }

    /// The components in order, each as the first word after the type of its items.
    fn order(defs: &Definitions, items: &[String]) -> Vec<Vec<String>> {
        defs.order
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&i| items[i].split(['(', ' ']).nth(1).unwrap().to_owned())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn users_come_before_what_they_use_and_cycles_are_one_component() {
        let text = "int h(int x) { return x; }\n\
                    int g(int x) { return h(x); }\n\
                    int p(int x);\n\
                    int q(int x) { return p(x); }\n\
                    int p(int x) { return q(x); }\n\
                    int f(int x) { int i = 0; return g(x) + i; }\n\
                    int main(void) { int i = 1; return f(i); }\n";
        let (defs, items) = defs_of(Lang::C, text);
        assert_eq!(items.len(), 7);
        assert_eq!(
            order(&defs, &items),
            [
                vec!["q", "p"],
                vec!["p"],
                vec!["main"],
                vec!["f"],
                vec!["g"],
                vec!["h"]
            ],
            "the prototype of p goes after the cycle that uses it; the locals named i tie \
             nothing"
        );
        assert_eq!(defs.rank_of(b"h"), Some(5));
        assert_eq!(defs.rank_of(b"p"), Some(0));
        assert_eq!(defs.rank_of(b"printf"), None);
    }

    #[test]
    fn rust_impls_go_before_the_types_they_use() {
        let text = "struct S { v: u8 }\n\
                    impl S { fn get(&self) -> u8 { self.v } }\n\
                    fn main() { let s = S { v: 1 }; s.get(); }\n";
        let (defs, items) = defs_of(Lang::Rust, text);
        assert_eq!(items.len(), 3);
        let main = items.iter().position(|i| i.starts_with("fn main")).unwrap();
        let strukt = items.iter().position(|i| i.starts_with("struct")).unwrap();
        let imp = items.iter().position(|i| i.starts_with("impl")).unwrap();
        let at = |item| defs.order.iter().position(|c| c.contains(&item)).unwrap();
        assert!(at(main) < at(strukt));
        assert!(at(imp) < at(strukt));
    }
}
