//! Passes: each proposes candidates (edit sets) and learns which one was interesting.

mod hdd;
mod lines;
mod tokens;

use crate::ddmin::{DdminOptions, ddmin};
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::session::{Error, Session};

pub use self::hdd::Hdd;
pub use self::lines::Lines;
pub use self::tokens::Tokens;

/// A reduction pass. It proposes candidates through [`Session::first_interesting`]
/// and never runs a test itself.
pub trait Pass {
    /// A short name for statistics (`hdd`, `lines`, `tokens`).
    fn name(&self) -> &'static str;

    /// Runs the pass once over the session's current document.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error>;
}

/// The passes of a run, in the order a round runs them: the tree first (coarse, cheap),
/// then lines and tokens (fine, language-agnostic).
#[must_use]
pub fn default_passes(grammar: bool) -> Vec<Box<dyn Pass>> {
    let mut passes: Vec<Box<dyn Pass>> = Vec::new();
    if grammar {
        passes.push(Box::new(Hdd));
    }
    passes.push(Box::new(Lines));
    passes.push(Box::new(Tokens));
    passes
}

/// ddmin over `units` (edits against `base`): a configuration keeps some units, and its
/// candidate applies the edits of all the others. Returns whether anything was accepted.
fn ddmin_units(
    session: &mut Session<'_>,
    base: &Document,
    units: &[Edit],
    try_empty: bool,
) -> Result<bool, Error> {
    let mut progress = false;
    ddmin(units.len(), DdminOptions { try_empty }, &mut |configs| {
        let mut candidates = configs.map(|kept| {
            let mut keep = vec![false; units.len()];
            for k in kept {
                keep[k] = true;
            }
            let removed = units
                .iter()
                .zip(&keep)
                .filter(|(_, k)| !**k)
                .map(|(e, _)| e.clone())
                .collect();
            EditSet::new(removed)
        });
        let found = session.first_interesting(base, &mut candidates)?;
        progress |= found.is_some();
        Ok(found)
    })?;
    Ok(progress)
}

/// Whether `byte` is ASCII whitespace.
fn is_space(byte: u8) -> bool {
    byte.is_ascii_whitespace()
}

/// Extends a deletion of `range` over the whitespace that follows it when whitespace (or
/// the start of the text) precedes it, so deleting a node leaves no blank gap and never
/// glues two tokens together.
fn swallow_space(text: &[u8], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    if range.start > 0 && !is_space(text[range.start - 1]) {
        return range;
    }
    let mut end = range.end;
    while end < text.len() && is_space(text[end]) {
        end += 1;
    }
    range.start..end
}
