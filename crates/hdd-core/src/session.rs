//! A reduction session: the current best, the validity filter, the cache, and the
//! loop that runs passes to a fixpoint. Start here to understand a run.

use std::time::{Duration, Instant};

use hdd_grammar::{Lang, Table};
use tree_sitter::Parser;

use crate::cache::{Cache, TextKey};
use crate::document::Document;
use crate::edit::EditSet;
use crate::exec::{BoxError, Executor};
use crate::passes::{self, Pass};

/// Why a reduction stopped early.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The executor could not run a test.
    #[error("running the test: {0}")]
    Executor(#[source] BoxError),
    /// The observer (e.g. writing the best result to disk) failed.
    #[error("saving the result: {0}")]
    Observer(#[source] BoxError),
    /// The original input is not interesting.
    #[error("the original input is not interesting")]
    OriginalNotInteresting,
    /// The grammar could not be loaded or the input could not be parsed.
    #[error("{0}")]
    Parser(String),
}

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

/// Counters of a whole run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Tests run (texts handed to the executor), the check of the original included.
    pub tests: u64,
    /// Candidates whose text had been tested before.
    pub cache_hits: u64,
    /// Candidates refused by the validity filter (new parse errors).
    pub invalid: u64,
    /// Candidates accepted.
    pub accepted: u64,
    /// Full rounds of all passes.
    pub rounds: u64,
    /// Per pass, in first-run order.
    pub passes: Vec<PassStats>,
}

impl Stats {
    fn pass(&mut self, name: &'static str) -> &mut PassStats {
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
struct PassRun {
    /// Tests run by this run of the pass.
    tests: u64,
    /// `(tests before it, bytes saved)` of each accepted candidate.
    accepted: Vec<(u64, u64)>,
    /// Whether the pass was stopped: it gets no more tests this run.
    stopped: bool,
}

/// Called with every new best document (which is interesting); an error stops the run.
pub type Observer<'a> = dyn FnMut(&Document) -> Result<(), BoxError> + 'a;

/// The state of one reduction. Passes propose candidates through
/// [`Session::first_interesting`] and never run tests themselves.
pub struct Session<'a> {
    parser: Option<Parser>,
    table: Option<Table>,
    current: Document,
    cache: Cache,
    executor: &'a mut dyn Executor,
    observer: &'a mut Observer<'a>,
    stats: Stats,
    pass: &'static str,
    /// The patience of [`Session::reduce`].
    patience: Option<Patience>,
    /// The patience of the running round (`None` outside `reduce` and in a final round).
    active: Option<Patience>,
    run: PassRun,
}

impl<'a> Session<'a> {
    /// A session on `text` in `lang` (`None` = language-agnostic).
    ///
    /// # Errors
    /// When the grammar cannot be loaded or the text cannot be parsed.
    pub fn new(
        lang: Option<Lang>,
        text: Vec<u8>,
        executor: &'a mut dyn Executor,
        observer: &'a mut Observer<'a>,
    ) -> Result<Session<'a>, Error> {
        let (parser, table, current) = match lang {
            Some(lang) => {
                let mut parser = Parser::new();
                parser.set_language(&lang.ts_language()).map_err(|e| {
                    Error::Parser(format!("loading the {} grammar: {e}", lang.name()))
                })?;
                let doc = Document::parse(&mut parser, text)
                    .ok_or_else(|| Error::Parser("the parser gave up on the input".into()))?;
                (Some(parser), Some(lang.table()), doc)
            }
            None => (None, None, Document::plain(text)),
        };
        Ok(Session {
            parser,
            table,
            current,
            cache: Cache::default(),
            executor,
            observer,
            stats: Stats::default(),
            pass: "check",
            patience: Some(Patience::default()),
            active: None,
            run: PassRun::default(),
        })
    }

    /// Sets when passes stop early in [`Session::reduce`] (`None`: never; every pass then
    /// runs to its own end in every round). [`Session::run_pass`] alone never stops early.
    pub fn set_patience(&mut self, patience: Option<Patience>) {
        self.patience = patience;
    }

    /// The current best document.
    #[must_use]
    pub fn current(&self) -> &Document {
        &self.current
    }

    /// The grammar table, for grammar languages.
    #[must_use]
    pub fn table(&self) -> Option<&Table> {
        self.table.as_ref()
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Checks that the current (original) text is interesting (DESIGN.md invariant 6).
    ///
    /// # Errors
    /// [`Error::OriginalNotInteresting`] when it is not, or an executor error.
    pub fn check_original(&mut self) -> Result<(), Error> {
        let text = self.current.text().to_vec();
        let verdict = self.run_batch(&[&text])?[0];
        if verdict {
            Ok(())
        } else {
            Err(Error::OriginalNotInteresting)
        }
    }

    /// Tests candidates (edit sets against `base`) in order, as many at a time as the
    /// executor runs, and accepts the first interesting one. Candidates that change
    /// nothing, are not smaller than the current best, add parse errors, or were tested
    /// before are skipped without a test. Returns the index of the accepted candidate.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn first_interesting(
        &mut self,
        base: &Document,
        candidates: &mut dyn Iterator<Item = Option<EditSet>>,
    ) -> Result<Option<usize>, Error> {
        let jobs = self.executor.jobs().max(1);
        let mut batch: Vec<(usize, TextKey, Document)> = Vec::with_capacity(jobs);
        let mut exhausted = false;
        let mut index = 0;
        while !exhausted {
            if self.out_of_patience() {
                return Ok(None);
            }
            while batch.len() < jobs {
                let Some(candidate) = candidates.next() else {
                    exhausted = true;
                    break;
                };
                let i = index;
                index += 1;
                let Some(edits) = candidate.filter(|e| !e.is_empty()) else {
                    continue;
                };
                let limit = self.current.text().len().cast_signed();
                if base.text().len().cast_signed() - edits.saving() >= limit {
                    continue;
                }
                let Some(doc) = self.derive(base, &edits) else {
                    self.stats.invalid += 1;
                    continue;
                };
                let key = TextKey::of(doc.text());
                if batch.iter().any(|(_, k, _)| *k == key) {
                    self.stats.cache_hits += 1;
                    continue;
                }
                match self.cache.get(key) {
                    Some(false) => self.stats.cache_hits += 1,
                    Some(true) => {
                        self.stats.cache_hits += 1;
                        batch.push((i, key, doc));
                    }
                    None => batch.push((i, key, doc)),
                }
            }
            if batch.is_empty() {
                break;
            }
            let untested: Vec<usize> = (0..batch.len())
                .filter(|&b| self.cache.get(batch[b].1).is_none())
                .collect();
            let texts: Vec<&[u8]> = untested.iter().map(|&b| batch[b].2.text()).collect();
            let verdicts = self.run_batch(&texts)?;
            for (&b, verdict) in untested.iter().zip(verdicts) {
                self.cache.insert(batch[b].1, verdict);
            }
            let winner = batch
                .iter()
                .position(|(_, key, _)| self.cache.get(*key) == Some(true));
            if let Some(w) = winner {
                let (i, _, doc) = batch.swap_remove(w);
                self.accept(doc)?;
                return Ok(Some(i));
            }
            batch.clear();
        }
        Ok(None)
    }

    /// Whether the running pass has stopped, or should stop now ([`Patience`]).
    fn out_of_patience(&mut self) -> bool {
        let Some(patience) = self.active else {
            return false;
        };
        if !self.run.stopped && self.run.tests >= patience.window {
            let since = self.run.tests - patience.window;
            let saved: u64 = self
                .run
                .accepted
                .iter()
                .filter(|(at, _)| *at >= since)
                .map(|(_, saved)| saved)
                .sum();
            if saved < self.current.text().len() as u64 / patience.divisor.max(1) {
                self.run.stopped = true;
                self.stats.pass(self.pass).stopped_early += 1;
            }
        }
        self.run.stopped
    }

    fn derive(&mut self, base: &Document, edits: &EditSet) -> Option<Document> {
        match &mut self.parser {
            Some(parser) => base.derive(parser, edits),
            None => Some(Document::plain(edits.apply(base.text()))),
        }
    }

    fn run_batch(&mut self, texts: &[&[u8]]) -> Result<Vec<bool>, Error> {
        let verdicts = self.executor.run(texts).map_err(Error::Executor)?;
        let n = texts.len() as u64;
        self.stats.tests += n;
        self.stats.pass(self.pass).tests += n;
        self.run.tests += n;
        Ok(verdicts)
    }

    fn accept(&mut self, doc: Document) -> Result<(), Error> {
        debug_assert!(doc.text().len() < self.current.text().len());
        let saved = (self.current.text().len() - doc.text().len()) as u64;
        self.stats.accepted += 1;
        let pass = self.stats.pass(self.pass);
        pass.accepted += 1;
        pass.bytes_saved += saved;
        self.run.accepted.push((self.run.tests, saved));
        (self.observer)(&doc).map_err(Error::Observer)?;
        self.current = doc;
        Ok(())
    }

    /// Runs the default passes to a fixpoint: until a whole round in which no pass was
    /// stopped early ([`Patience`]) saves nothing. Rounds run with patience while they make
    /// progress; a round that saves nothing after stopping some pass early is followed by
    /// one without, so the end result is one that no pass can shrink, as without patience.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn reduce(&mut self) -> Result<(), Error> {
        let mut passes = passes::default_passes(self.table.is_some());
        let result = self.fixpoint(&mut passes);
        self.active = None;
        result
    }

    fn fixpoint(&mut self, passes: &mut [Box<dyn Pass>]) -> Result<(), Error> {
        let mut patient = true;
        loop {
            self.stats.rounds += 1;
            self.active = if patient { self.patience } else { None };
            let before = self.current.text().len();
            let mut stopped = false;
            for pass in passes.iter_mut() {
                self.run_pass(pass.as_mut())?;
                stopped |= self.run.stopped;
            }
            if self.current.text().len() < before {
                patient = true;
            } else if stopped {
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
        let started = Instant::now();
        self.pass = pass.name();
        self.run = PassRun::default();
        let result = pass.run(self);
        self.stats.pass(pass.name()).time += started.elapsed();
        result
    }

    /// Ends the session, returning the best document and the counters.
    #[must_use]
    pub fn finish(self) -> (Document, Stats) {
        (self.current, self.stats)
    }
}
