//! A walk over every node of a tree, for the per-language rules (`python.rs`,
//! `bash.rs`, `yaml.rs`).

use tree_sitter::Node;

/// Calls `visit` on every node under `root` (itself included), depth first with children
/// in order (so in text order of their starts), without recursion.
pub(crate) fn each_node<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        visit(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}
