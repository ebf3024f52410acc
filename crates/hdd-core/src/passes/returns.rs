//! ## What it does
//! Return void (C-Reduce's `return-void` transformation, on the tree): a function's return
//! type becomes `void`, each of its `return EXPR;` becomes `return;`, and so do the
//! return types of the declarations of the same name, in one candidate per function. C
//! and C++ (`function_definition` with a `type`, `return_statement`); a function whose
//! declarator is not a plain function declarator (one returning a pointer, `int *f()`)
//! is left alone, and so are the returns inside a C++ lambda.
//!
//! ## When it helps
//! When a function's value does not matter to the bug but the test checks that a value
//! is returned (`-Werror=return-type`): `int f(){… return g(x);}` can only lose its
//! `return` once `f` returns nothing, and a loop kept for the check to pass
//! (`for(;;)`) or the expression of the return can then go.
//!
//! ## Cost
//! A test per function whose return type is not `void` and whose candidate is smaller
//! (a function without a `return EXPR;` gains a byte: skipped without a test); only
//! while the text has at most [`MAX_FUNCTIONS`] such functions.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::document::walk::each_node;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// Above this many functions with a return type the pass does nothing.
const MAX_FUNCTIONS: usize = 200;

/// The return-void pass.
#[derive(Debug, Default)]
pub struct Returns;

impl Pass for Returns {
    fn name(&self) -> &'static str {
        "returns"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        if !session.table().is_some_and(|t| {
            t.kind("function_definition").is_some() && t.kind("return_statement").is_some()
        }) {
            return Ok(());
        }
        let mut tried: HashSet<Vec<u8>> = HashSet::new();
        loop {
            session.check_stop()?;
            let base = session.current().clone();
            let Some(tree) = base.tree() else {
                return Ok(());
            };
            let text = base.text();
            let functions = functions(tree.root_node(), text);
            if functions.len() > MAX_FUNCTIONS {
                return Ok(());
            }
            let candidates: Vec<(Vec<u8>, Vec<Edit>)> = functions
                .iter()
                .filter(|f| !tried.contains(&f.name))
                .map(|f| (f.name.clone(), void_edits(f, &functions)))
                .collect();
            if candidates.is_empty() {
                return Ok(());
            }
            let mut sets = candidates
                .iter()
                .map(|(_, edits)| EditSet::new(edits.clone()));
            let found = session.first_interesting(&base, &mut sets)?;
            tried.extend(candidates.iter().map(|(name, _)| name.clone()));
            if found.is_none() {
                return Ok(());
            }
        }
    }
}

/// A function definition or declaration with a return type that is not `void`.
struct Function<'t> {
    name: Vec<u8>,
    /// Its return type.
    ty: Node<'t>,
    /// Its body, for a definition.
    body: Option<Node<'t>>,
}

/// The functions of the text whose return type can become `void`.
fn functions<'t>(root: Node<'t>, text: &[u8]) -> Vec<Function<'t>> {
    let mut out = Vec::new();
    each_node(root, |node| {
        if !matches!(node.kind(), "function_definition" | "declaration") {
            return;
        }
        let (Some(ty), Some(declarator)) = (
            node.child_by_field_name("type"),
            node.child_by_field_name("declarator"),
        ) else {
            return;
        };
        // One declarator, a plain function declarator.
        if declarator.kind() != "function_declarator"
            || node
                .children_by_field_name("declarator", &mut node.walk())
                .count()
                != 1
            || &text[ty.byte_range()] == b"void"
        {
            return;
        }
        let Some(name) = declarator
            .child_by_field_name("declarator")
            .filter(|n| n.kind() == "identifier")
        else {
            return;
        };
        out.push(Function {
            name: text[name.byte_range()].to_vec(),
            ty,
            body: node.child_by_field_name("body"),
        });
    });
    // Only names that have a definition.
    let defined: HashSet<Vec<u8>> = out
        .iter()
        .filter(|f| f.body.is_some())
        .map(|f| f.name.clone())
        .collect();
    out.retain(|f| defined.contains(&f.name));
    out
}

/// The edits that make `f` (a definition) and every declaration of its name return
/// nothing.
fn void_edits(f: &Function<'_>, all: &[Function<'_>]) -> Vec<Edit> {
    let mut edits = Vec::new();
    for g in all.iter().filter(|g| g.name == f.name) {
        edits.push(Edit::replace(g.ty.byte_range(), b"void".to_vec()));
        let Some(body) = g.body else {
            continue;
        };
        each_node(body, |node| {
            if node.kind() == "return_statement"
                && node.named_child_count() > 0
                && !inside_lambda(node, body)
            {
                edits.push(Edit::replace(node.byte_range(), b"return;".to_vec()));
            }
        });
    }
    edits
}

/// Whether `node` is inside a lambda within `body`.
fn inside_lambda(node: Node<'_>, body: Node<'_>) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        if n.id() == body.id() {
            return false;
        }
        if n.kind() == "lambda_expression" {
            return true;
        }
        at = n.parent();
    }
    false
}
