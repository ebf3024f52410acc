//! ## What it does
//! Simplifies literals: every number, string and character literal (a named node whose
//! kind says so) is replaced by the shortest text its kind derives (`0`, `""`, `'a'`), by
//! ddmin over all of them at once, so the ones that do not matter go in a few tests.
//!
//! ## When it helps
//! At the end: long strings and odd constants that survived because their node is
//! required, not because their value matters.
//!
//! ## Example
//! `printf("value is %d\n", 12345);` with a test that needs the call becomes
//! `printf("", 0);`.

use super::units::ddmin_units;
use crate::document::{Document, Stop, Ticker};
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The literal-simplification pass.
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
        let base = session.current().clone();
        let units = literal_units(&base, &table, &|| session.stop_requested())?;
        if !units.is_empty() {
            ddmin_units(session, &base, &units, true)?;
        }
        Ok(())
    }
}

/// Whether a node kind names a literal (`number_literal`, `string`, `integer_literal`,
/// `char_literal`, `float_literal`, `raw_string_literal`, …).
fn is_literal_kind(kind: &str) -> bool {
    ["number", "integer", "float", "string", "char", "literal"]
        .iter()
        .any(|w| kind.contains(w))
        && !kind.contains("content")
        && !kind.contains("fragment")
}

fn literal_units(
    doc: &Document,
    table: &hdd_grammar::Table,
    stop: Stop<'_>,
) -> Result<Vec<Edit>, Error> {
    let Some(tree) = doc.tree() else {
        return Ok(Vec::new());
    };
    let mut ticker = Ticker::new(stop);
    let mut units = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        ticker.tick()?;
        if node.is_named() && is_literal_kind(node.kind()) && !node.has_error() {
            let info = table
                .kind(node.grammar_name())
                .or_else(|| table.kind(node.kind()));
            if let Some(info) = info {
                let range = node.byte_range();
                if info.min_yield.len() < range.len() && !info.min_yield.is_empty() {
                    units.push(Edit::replace(range, info.min_yield));
                }
            }
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    Ok(units)
}
