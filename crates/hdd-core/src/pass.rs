//! The trait every pass implements: propose candidates to a session, never run a test.

use crate::error::Error;
use crate::session::Session;

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
