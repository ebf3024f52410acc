//! ## What it does
//! ddmin over the top-level items of a grammar text too big to hold with its syntax tree
//! (the outline phase, `session/validity.rs`): the items come from a windowed parse
//! (`outline.rs`), each deleted with the whitespace after it, and candidates are checked
//! by windowed parses too. It stops as soon as the best is small enough to be parsed
//! whole; the passes that need a tree take over from there.
//!
//! ## When it helps
//! Inputs of many megabytes, of which the test needs a few items: the first tests
//! remove halves of the text without a tree of it ever being built.
//!
//! ## Example
//! 50 MB of C functions with a test that needs one of them: after five halvings the
//! best is under 4 MB and is parsed; the usual rounds go on from there.

use super::text::swallow_space;
use super::units::ddmin_groups_while;
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// ddmin over the top-level items of an outlined best.
#[derive(Debug, Default)]
pub(crate) struct Outline;

impl Pass for Outline {
    fn name(&self) -> &'static str {
        "outline"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        if !session.outlined() {
            return Ok(());
        }
        let items = session.outline_items()?;
        let text = session.current().text();
        let units: Vec<Edit> = items
            .into_iter()
            .map(|item| Edit::delete(swallow_space(text, item)))
            .collect();
        ddmin_groups_while(
            session,
            session.current().clone(),
            &units,
            std::slice::from_ref,
            true,
            |session| session.outlined(),
        )?;
        Ok(())
    }
}
