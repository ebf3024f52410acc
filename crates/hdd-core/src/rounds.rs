//! The round loop: [`Session::reduce`] runs the outline phase of a huge input, then the
//! passes in turn until a whole round accepts nothing (a fixpoint), and
//! [`Session::run_pass`] runs one pass once.

use crate::document::Leniency;
use crate::error::Error;
use crate::event::Event;
use crate::pass::Pass;
use crate::passes::{Outline, bytes_passes, default_passes, lenient_passes};
use crate::session::Session;

/// What the probe before the lenient tail appends: a syntax error in every grammar hdd
/// knows.
const SYNTAX_ERROR: &[u8] = b"\n)]}\n";

impl Session<'_> {
    /// Runs the default passes to a fixpoint: until a whole round in which no pass was
    /// stopped early ([`Patience`](crate::Patience)) and no candidate was predicted to
    /// fail ([`Stats::predicted`](crate::Stats::predicted)) saves nothing. Rounds run
    /// with patience and predictions while they make progress; a round that saves
    /// nothing after skipping something is followed by one without, so the end result is
    /// one that no pass can shrink.
    ///
    /// Then, on a grammar language, the lenient tail ([`Session::set_lenient_tail`]): the
    /// tokens pass to a fixpoint again, on candidates that need not parse if the test still
    /// passes with a syntax error appended (one test), else on candidates that may lack
    /// tokens tree-sitter would insert (MISSING nodes). When it accepted something, every
    /// pass runs again, with candidates that may have the best's errors but no more, and
    /// the tail again after them, until neither accepts anything.
    ///
    /// A grammar text too big for one syntax tree ([`Session::outlined`]) first goes
    /// through the outline phase: a round of its own of the pass `outline`, ddmin over
    /// its top-level items, until it is small enough to be parsed whole.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn reduce(&mut self) -> Result<(), Error> {
        self.announce_start()?;
        self.outline_phase()?;
        let mut passes = if self.bytes_mode() {
            bytes_passes()
        } else {
            default_passes(self.table().is_some())
        };
        let mut result = self.fixpoint(&mut passes);
        if self.lenient_tail() && self.table().is_some() {
            // The lenient tail, then every pass again on what it left, checked against
            // the best's own errors (what a second run of hdd on the result would do),
            // until neither accepts anything: a second run then finds nothing to test.
            while result.is_ok() {
                let before = self.stats().accepted;
                result = self.lenient_phase();
                self.begin_lenient(Leniency::Strict);
                if result.is_err() || self.stats().accepted == before {
                    break;
                }
                let before = self.stats().accepted;
                result = self.fixpoint(&mut passes);
                if self.stats().accepted == before {
                    break;
                }
            }
        }
        self.end_rounds();
        result
    }

    /// Whether this round confirms that no pass can shrink the best (it follows one that
    /// skipped something and saved nothing): list passes start their ddmin runs at one
    /// element a part, and a call waits for its own last tests (a success that ended
    /// after its pass would start two more rounds).
    pub(crate) fn confirming(&self) -> bool {
        self.confirming
    }

    fn fixpoint(&mut self, passes: &mut [Box<dyn Pass>]) -> Result<(), Error> {
        let mut patient = true;
        let result = loop {
            self.begin_round(patient)?;
            // (Not the outline phase's round: it has no patience, and proves nothing.)
            self.confirming = !patient && self.patience.is_some();
            let predicted = self.stats().predicted;
            let before = self.stats().accepted;
            let mut stopped = false;
            let count = passes.len();
            for (index, pass) in passes.iter_mut().enumerate() {
                self.emit(Event::PassStarted {
                    pass: pass.name(),
                    index,
                    count,
                })?;
                stopped |= self.run_pass_as(pass.name(), |session| pass.run(session))?;
            }
            self.end_round()?;
            // Every accepted best is smaller (shortlex): any acceptance is progress.
            if self.stats().accepted > before {
                patient = true;
            } else if stopped || self.stats().predicted > predicted {
                // Something was skipped (a pass stopped early, a candidate predicted to
                // fail): one more round that skips nothing.
                patient = false;
            } else {
                break Ok(());
            }
        };
        self.confirming = false;
        result
    }

    /// The lenient tail. If the test tolerates a syntax error (the best followed by a line
    /// of unmatched closing brackets is still interesting: a crash in a parser before the
    /// end, or a test that greps), candidates need not parse. A test that compiles or
    /// loads its input refuses that, and testing unparsable candidates would only cost
    /// tests (about two per token); but a grammar and a compiler do not always agree on
    /// where a token is needed (tree-sitter-cpp wants a `;` after `int f(T a) {…}`, read
    /// as a declaration; g++ reads a function definition), so the candidates may still
    /// lack tokens tree-sitter would insert (`Leniency::Missing`): few candidates, the
    /// deletions of a `;` or a bracket, some of which the compiler accepts.
    fn lenient_phase(&mut self) -> Result<(), Error> {
        let mut broken = self.current().text().to_vec();
        broken.extend_from_slice(SYNTAX_ERROR);
        let leniency = if self.probe(&broken)? {
            Leniency::Any
        } else {
            Leniency::Missing
        };
        self.begin_lenient(leniency);
        self.fixpoint(&mut lenient_passes())
    }

    /// The outline phase, when the best is held without its tree: a round of the outline
    /// pass alone (no patience: it stops when the best is small enough), then the best is
    /// parsed whole, however big it still is.
    fn outline_phase(&mut self) -> Result<(), Error> {
        if !self.outlined() {
            return Ok(());
        }
        self.begin_round(false)?;
        let mut pass = Outline;
        self.emit(Event::PassStarted {
            pass: pass.name(),
            index: 0,
            count: 1,
        })?;
        self.run_pass_as(pass.name(), |session| pass.run(session))?;
        self.end_round()?;
        self.leave_outline()
    }

    /// Runs one pass once (on the best parsed whole: a session in its outline phase
    /// leaves it first).
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn run_pass(&mut self, pass: &mut dyn Pass) -> Result<(), Error> {
        self.leave_outline()?;
        self.run_pass_as(pass.name(), |session| pass.run(session))
            .map(drop)
    }
}

#[cfg(test)]
mod tests;
