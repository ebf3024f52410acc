//! ## What it does
//! Removes every run of `k` consecutive tokens, for `k` from 4 down to 1, sliding along the
//! text (C-Reduce's token-window removal). Most windows break the syntax and are filtered
//! without a test; the rest are tried one by one.
//!
//! ## When it helps
//! Last, on small results: qualifiers, casts, `struct x` pairs, `a->` prefixes, operators
//! with an operand: pieces that are not whole nodes and that ddmin's fixed partitions miss.
//! Leaves the result 1-minimal with respect to single-token removal.
//!
//! ## Example
//! `d->mask = (1 << 32) - 1;` with a test that needs `1 << 32` becomes `(1 << 32);`.

use super::text::swallow_space;
use super::tokens::token_ranges;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// Above this many tokens the pass does nothing (ddmin over tokens runs first).
const MAX_TOKENS: usize = 5000;
/// The widest window.
const MAX_WINDOW: usize = 4;

/// The token-window pass.
#[derive(Debug, Default)]
pub struct Window;

impl Pass for Window {
    fn name(&self) -> &'static str {
        "window"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        for k in (1..=MAX_WINDOW).rev() {
            let mut start = 0;
            loop {
                let base = session.current().clone();
                let tokens = token_ranges(&base, &|| session.stop_requested())?;
                if tokens.len() > MAX_TOKENS || start + k > tokens.len() {
                    break;
                }
                let mut candidates = (start..=tokens.len() - k).map(|i| {
                    let range = tokens[i].start..tokens[i + k - 1].end;
                    EditSet::new(vec![Edit::delete(swallow_space(base.text(), range))])
                });
                match session.first_interesting(&base, &mut candidates)? {
                    // The tokens after the removed window shifted down by k: go on from
                    // the window's position.
                    Some(i) => start += i,
                    None => break,
                }
            }
        }
        Ok(())
    }
}
