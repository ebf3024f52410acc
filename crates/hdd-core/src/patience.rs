//! When a pass that has stopped paying for its tests makes way for the next one.

/// When a pass gives up for this round: once its last `window` tests together saved less
/// than `1/divisor` of the current text. A pass that still finds something is not stopped,
/// however slowly; one that finds nothing stops after `window` tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patience {
    /// How many of the pass's most recent tests are looked at.
    pub window: u64,
    /// The pass stops when those tests saved less than `len / divisor` bytes.
    pub divisor: u64,
}

impl Default for Patience {
    /// 512 tests, 1/1000 of the text: a pass whose last 512 tests removed less than 0.1% of
    /// the text makes way for the next pass. ddmin-based passes have dry spells of a few
    /// hundred tests between productive granularities: with 128 tests and 0.5% the names
    /// pass stopped too early on js-underscore, and after 2,400 tests the run was still at
    /// 3.6 KB where the run without patience had finished in 2,529. So only a pass that is
    /// truly grinding stops.
    fn default() -> Patience {
        Patience {
            window: 512,
            divisor: 1000,
        }
    }
}

/// The progress of the running pass, for [`Patience`].
#[derive(Debug, Default)]
pub(crate) struct PassRun {
    /// Tests run by this run of the pass.
    pub(crate) tests: u64,
    /// `(tests before it, bytes saved)` of each accepted candidate.
    accepted: Vec<(u64, u64)>,
    /// Whether the pass was stopped: it gets no more tests this run.
    pub(crate) stopped: bool,
}

impl PassRun {
    /// An accepted candidate saved `saved` bytes.
    pub(crate) fn accepted(&mut self, saved: u64) {
        self.accepted.push((self.tests, saved));
    }

    /// Whether the pass must stop now, on a text of `len` bytes, under `patience`; true
    /// once only, when it is stopped (it then stays [`PassRun::stopped`]).
    pub(crate) fn runs_out(&mut self, patience: Patience, len: usize) -> bool {
        if self.stopped || self.tests < patience.window {
            return false;
        }
        let since = self.tests - patience.window;
        let saved: u64 = self
            .accepted
            .iter()
            .filter(|(at, _)| *at >= since)
            .map(|(_, saved)| saved)
            .sum();
        self.stopped = saved < len as u64 / patience.divisor.max(1);
        self.stopped
    }
}
