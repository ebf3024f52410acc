//! The round loop: [`Session::reduce`] runs the passes in turn until a whole round saves
//! nothing (a fixpoint), and [`Session::run_pass`] runs one pass once.

use crate::error::Error;
use crate::event::Event;
use crate::pass::Pass;
use crate::passes::default_passes;
use crate::session::Session;

impl Session<'_> {
    /// Runs the default passes to a fixpoint: until a whole round in which no pass was
    /// stopped early ([`Patience`](crate::Patience)) and no candidate was predicted to
    /// fail ([`Stats::predicted`](crate::Stats::predicted)) saves nothing. Rounds run
    /// with patience and predictions while they make progress; a round that saves
    /// nothing after skipping something is followed by one without, so the end result is
    /// one that no pass can shrink.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn reduce(&mut self) -> Result<(), Error> {
        self.announce_start()?;
        let mut passes = default_passes(self.table().is_some());
        let result = self.fixpoint(&mut passes);
        self.end_rounds();
        result
    }

    fn fixpoint(&mut self, passes: &mut [Box<dyn Pass>]) -> Result<(), Error> {
        let mut patient = true;
        loop {
            self.begin_round(patient)?;
            let predicted = self.stats().predicted;
            let before = self.current().text().len();
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
            if self.current().text().len() < before {
                patient = true;
            } else if stopped || self.stats().predicted > predicted {
                // Something was skipped (a pass stopped early, a candidate predicted to
                // fail): one more round that skips nothing.
                patient = false;
            } else {
                return Ok(());
            }
        }
    }

    /// Runs one pass once.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn run_pass(&mut self, pass: &mut dyn Pass) -> Result<(), Error> {
        self.run_pass_as(pass.name(), |session| pass.run(session))
            .map(drop)
    }
}
