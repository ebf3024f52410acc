//! ## What it does
//! Deletes top-level definitions in the order of their dependency graph ([`deps`]):
//! ddmin over its strongly connected components, users before what they use, each
//! component (mutually recursive functions, say) one unit. After a success ddmin goes on
//! with the components that follow, so a chain of helpers (`main` calls `f`, which calls
//! `g`, which calls `h`) goes in one run, not one sweep per link.
//!
//! ## When it helps
//! Early, on inputs with many definitions: HDD deletes an item only once nothing left
//! uses it, so a chain of n helpers costs it n sweeps over the top level; two functions
//! calling each other never go one at a time.
//!
//! ## Example
//! `int g(int); int f(int x) { return g(x); } int g(int x) { return f(x); }`
//! `int main(void) { bug(); }` with a test that needs `bug();` becomes
//! `int main(void) { bug(); }` in a few tests: `f` and `g` are one unit.
//!
//! [`deps`]: super::deps

use super::deps::definitions;
use super::units::ddmin_groups;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The dependency-ordered definitions pass.
#[derive(Debug, Default)]
pub struct Defs;

impl Pass for Defs {
    fn name(&self) -> &'static str {
        "defs"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let Some(table) = session.table().copied() else {
            return Ok(());
        };
        let base = session.current().clone();
        let defs = definitions(&base, &table, &|| session.stop_requested())?;
        let units = defs.component_edits();
        if units.len() > 1 {
            ddmin_groups(session, &base, &units, Vec::as_slice, false)?;
        }
        Ok(())
    }
}
