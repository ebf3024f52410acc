//! The counters of a run: tests, cache hits, invalid candidates, merges, and what each
//! pass did.

use std::time::Duration;

/// What one pass did during a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassStats {
    /// The pass's name.
    pub name: &'static str,
    /// Tests run on its candidates.
    pub tests: u64,
    /// Candidates accepted.
    pub accepted: u64,
    /// Bytes removed by its accepted candidates.
    pub bytes_saved: u64,
    /// Time spent in the pass.
    pub time: Duration,
    /// Runs of the pass stopped early because its yield per test dropped.
    pub stopped_early: u64,
}

impl PassStats {
    /// What happened between `before` and `self` (two snapshots of one pass's counters).
    pub(crate) fn since(&self, before: &PassStats) -> PassStats {
        PassStats {
            name: self.name,
            tests: self.tests - before.tests,
            accepted: self.accepted - before.accepted,
            bytes_saved: self.bytes_saved - before.bytes_saved,
            time: self.time - before.time,
            stopped_early: self.stopped_early - before.stopped_early,
        }
    }
}

/// Counters of a whole run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Tests run (texts handed to the executor), the check of the original included.
    pub tests: u64,
    /// Candidates whose text had been tested before (in this run, or in an earlier one:
    /// [`Stats::earlier_verdicts`]).
    pub cache_hits: u64,
    /// Verdicts the executor knew from earlier runs of the same test when the session
    /// started ([`Executor::earlier_verdicts`](crate::Executor::earlier_verdicts)).
    pub earlier_verdicts: u64,
    /// Candidates refused by the validity filter (new parse errors).
    pub invalid: u64,
    /// Candidates accepted.
    pub accepted: u64,
    /// Tests whose verdict could not be used: stopped because an earlier candidate won
    /// (`--deterministic`), or ended after the best had moved on, and were not interesting
    /// or clashed with what was accepted since.
    pub wasted: u64,
    /// Successes found against an older best, rebased onto the current one and accepted
    /// after a test of their own (independent successes of parallel tests, merged).
    pub merged: u64,
    /// Candidates not tested because the same edits, rebased, had failed against an
    /// earlier best in a test that ended after the best moved on (parallel runs; never in
    /// the last round, which tests everything).
    pub predicted: u64,
    /// Full rounds of all passes.
    pub rounds: u64,
    /// Per pass, in first-run order.
    pub passes: Vec<PassStats>,
}

impl Stats {
    /// The counters of the pass `name`, added at the end on its first run.
    pub(crate) fn pass(&mut self, name: &'static str) -> &mut PassStats {
        if let Some(i) = self.passes.iter().position(|p| p.name == name) {
            return &mut self.passes[i];
        }
        self.passes.push(PassStats {
            name,
            ..PassStats::default()
        });
        self.passes.last_mut().expect("just pushed")
    }
}
