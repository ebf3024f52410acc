//! ## What it does
//! ddmin over the tokens of the current text: the leaves of the syntax tree, or
//! whitespace-separated words without a grammar.
//!
//! ## When it helps
//! Last: it removes single keywords, qualifiers, operators and parentheses the tree
//! passes cannot (a node's minimal replacement is often no smaller than the node).
//!
//! ## Example
//! `static const int x = (1);` with a test that needs `x = 1` becomes `int x = 1;`.

use super::text::swallow_space;
use super::units::ddmin_units;
use crate::pass::Pass;
use std::ops::Range;

use crate::document::{Document, Stop, try_each_leaf};
use crate::edit::Edit;
use crate::error::Error;
use crate::session::Session;

/// ddmin over tokens.
#[derive(Debug, Default)]
pub struct Tokens;

impl Pass for Tokens {
    fn name(&self) -> &'static str {
        "tokens"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let base = session.current().clone();
        let units: Vec<Edit> = token_ranges(&base, &|| session.stop_requested())?
            .into_iter()
            .map(|r| Edit::delete(swallow_space(base.text(), r)))
            .collect();
        ddmin_units(session, &base, &units, false)?;
        Ok(())
    }
}

/// The byte ranges of the document's tokens: the non-empty leaves of its tree, or its
/// whitespace-separated words without a grammar.
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so.
pub(super) fn token_ranges(doc: &Document, stop: Stop<'_>) -> Result<Vec<Range<usize>>, Error> {
    match doc.tree() {
        Some(tree) => {
            let mut ranges = Vec::new();
            try_each_leaf(tree.root_node(), stop, |leaf| {
                ranges.push(leaf.byte_range())
            })?;
            Ok(ranges)
        }
        None => Ok(words(doc.text())),
    }
}

/// The ranges of each whitespace-separated word.
fn words(text: &[u8]) -> Vec<Range<usize>> {
    let mut units = Vec::new();
    let mut start = None;
    for (i, &b) in text.iter().enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                units.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        units.push(s..text.len());
    }
    units
}
