//! ## What it does
//! ddmin over the lines of the current text (each line with its newline).
//!
//! ## When it helps
//! Language-agnostic inputs, and grammar inputs where a line holds pieces of several
//! tree nodes that only go away together.
//!
//! ## Example
//! `a\nb\nc\n` with a test that needs `b` becomes `b\n`.

use super::units::ddmin_units;
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// ddmin over lines.
#[derive(Debug, Default)]
pub struct Lines;

impl Pass for Lines {
    fn name(&self) -> &'static str {
        "lines"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let base = session.current().clone();
        let text = base.text();
        let mut units = Vec::new();
        let mut start = 0;
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' {
                units.push(Edit::delete(start..i + 1));
                start = i + 1;
            }
        }
        if start < text.len() {
            units.push(Edit::delete(start..text.len()));
        }
        ddmin_units(session, &base, &units, false)?;
        Ok(())
    }
}
