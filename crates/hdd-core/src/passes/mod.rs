//! Passes: each proposes candidates (edit sets) and learns which one was interesting.

mod bytes;
mod hdd;
mod hoist;
mod inline;
mod lines;
mod literals;
mod names;
mod perses;
mod rename;
mod tokens;
mod whitespace;
mod window;

use crate::ddmin::{DdminOptions, ddmin};
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::session::{Error, Session};

pub use self::bytes::Bytes;
pub use self::hdd::{Hdd, HddCoarse};
pub use self::hoist::Hoist;
pub use self::inline::Inline;
pub use self::lines::Lines;
pub use self::literals::Literals;
pub use self::names::Names;
pub use self::perses::Perses;
pub use self::rename::Rename;
pub use self::tokens::Tokens;
pub use self::whitespace::Whitespace;
pub use self::window::Window;

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

/// The passes of a run, in the order a round runs them: the tree first (HDD's coarse
/// sweeps, cheap on a big text; names; full HDD; hoisting), then lines and tokens (fine,
/// language-agnostic), then inlining and the cleanups: literals and names with a grammar,
/// bytes without one, whitespace last.
#[must_use]
pub fn default_passes(grammar: bool) -> Vec<Box<dyn Pass>> {
    let mut passes: Vec<Box<dyn Pass>> = Vec::new();
    if grammar {
        passes.push(Box::new(HddCoarse));
        passes.push(Box::new(Names));
        passes.push(Box::new(Hdd));
        passes.push(Box::new(Hoist));
    }
    passes.push(Box::new(Lines));
    passes.push(Box::new(Tokens));
    passes.push(Box::new(Window));
    if grammar {
        passes.push(Box::new(Inline));
        passes.push(Box::new(Literals));
        passes.push(Box::new(Rename));
    } else {
        passes.push(Box::new(Bytes));
    }
    passes.push(Box::new(Whitespace));
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
    ddmin_groups(session, base, units, std::slice::from_ref, try_empty)
}

/// [`ddmin_units`] where each unit is a group of edits (`edits_of` gives them) that
/// go together: a name with every statement that mentions it.
fn ddmin_groups<U>(
    session: &mut Session<'_>,
    base: &Document,
    units: &[U],
    edits_of: impl Fn(&U) -> &[Edit],
    try_empty: bool,
) -> Result<bool, Error> {
    let mut progress = false;
    ddmin(
        units.len(),
        DdminOptions {
            try_empty,
            complements_only: true,
            resume: true,
        },
        &mut |configs| {
            let mut candidates = configs.map(|kept| {
                let mut keep = vec![false; units.len()];
                for k in kept {
                    keep[k] = true;
                }
                let removed = units
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| !**k)
                    .flat_map(|(u, _)| edits_of(u).iter().cloned())
                    .collect();
                EditSet::new(removed)
            });
            let found = session.first_interesting(base, &mut candidates)?;
            progress |= found.is_some();
            Ok(found)
        },
    )?;
    Ok(progress)
}

/// Whether `byte` is ASCII whitespace.
fn is_space(byte: u8) -> bool {
    byte.is_ascii_whitespace()
}

/// Whether a leaf is a name: an identifier token of any kind (`identifier`,
/// `type_identifier`, `field_identifier`, `property_identifier`, …).
fn is_name(leaf: tree_sitter::Node<'_>) -> bool {
    leaf.is_named() && leaf.kind().ends_with("identifier")
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// Extends a deletion of `range` over the whitespace that follows it, unless that would
/// glue two words together (`int x` must not become `intx`), so deleting a node or a
/// token leaves no gap behind. A newline is swallowed only when the deletion starts its
/// line: a line's end is never joined to the next line (a C `#include` line would take
/// the next declaration with it).
fn swallow_space(text: &[u8], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    // Only the blanks just before the range are looked at (a single-line text of
    // megabytes must not be scanned back to its start for every deletion).
    let mut blank = range.start;
    while blank > 0 && text[blank - 1] != b'\n' && is_space(text[blank - 1]) {
        blank -= 1;
    }
    let starts_line = blank == 0 || text[blank - 1] == b'\n';
    let mut end = range.end;
    while end < text.len() && is_space(text[end]) && (starts_line || text[end] != b'\n') {
        let newline = text[end] == b'\n';
        end += 1;
        if newline {
            break;
        }
    }
    let mut start = range.start;
    if end == range.end {
        // Nothing to swallow after it (`b FROM t;`): take the spaces before instead.
        while start > 0 && matches!(text[start - 1], b' ' | b'\t') {
            start -= 1;
        }
    }
    let before = start.checked_sub(1).map(|i| text[i]);
    let after = text.get(end).copied();
    if before.is_some_and(is_word)
        && after.is_some_and(is_word)
        && (end, start) != (range.end, range.start)
    {
        // Keep one space between the two words.
        return if end > range.end {
            range.start..end - 1
        } else {
            start + 1..range.end
        };
    }
    start..end
}

#[cfg(test)]
mod tests;
