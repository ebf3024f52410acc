//! A reduction session: the current best, the validity filter, the cache, and the
//! loop that runs passes to a fixpoint. Start here to understand a run.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use hdd_grammar::{Lang, Table};
use tree_sitter::Parser;

use crate::cache::{Cache, TextKey};
use crate::document::Document;
use crate::edit::EditSet;
use crate::exec::{BoxError, Executor, Ticket};
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

/// How many candidates that need no test (cached, invalid, predicted) the coordinator
/// looks at while tests run before it waits for one to end.
const MAX_SKIPS: usize = 64;

/// How many failures of tests that ended after the best moved on are kept as hints.
const MAX_FAILURES: usize = 256;

/// A test the executor is running.
struct Flight {
    /// The [`Session::first_interesting`] call it belongs to (`None`: a merge, which
    /// belongs to no call).
    call: Option<u64>,
    /// Its candidate's position in that call.
    index: usize,
    key: TextKey,
    /// The best it was derived from, and its edits against that best.
    version: u64,
    edits: EditSet,
    doc: Document,
    /// For a merge: the successes it puts together (against `version`), whose union is
    /// `edits`; empty for a candidate.
    parts: Vec<EditSet>,
    /// `edits` against the current best, kept up to date as bests are accepted.
    now: EditSet,
}

/// A candidate ready for its test ([`Session::prepare`]).
struct Prepared {
    /// The best its edits are against.
    version: u64,
    /// Its text's key.
    key: TextKey,
    edits: EditSet,
    doc: Document,
}

/// Why [`Session::prepare`] gave no candidate.
enum Skip {
    /// A test of the same text is running.
    Testing,
    /// Changes nothing, not smaller, clashes, invalid, predicted or known to fail.
    Other,
}

/// Successes found against an older best, waiting to be tested together on a newer one.
struct Merge {
    /// The best `parts` are against.
    version: u64,
    parts: Vec<EditSet>,
    /// A half of a merge that failed: tested on its own, not joined with the others.
    alone: bool,
}

/// A candidate of the running call, in candidate order (`--deterministic`).
struct Slot {
    index: usize,
    key: TextKey,
    /// Its test, until its verdict is known; `None` when the cache (or an earlier slot
    /// with the same text) will answer.
    ticket: Option<Ticket>,
    verdict: Option<bool>,
    /// For a slot the cache answers: its edits and document, in case it says yes.
    cached: Option<(EditSet, Document)>,
}

/// What a session tells its [`Observer`] as the reduction goes.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Event<'e> {
    /// [`Session::reduce`] starts on this document (the original).
    Started(&'e Document),
    /// A new best: interesting, and smaller than the one before. Whoever must keep the
    /// best (the CLI writes it to disk) keeps this one.
    Best(&'e Document),
    /// A round of all passes starts ([`Session::reduce`]); rounds count from 1.
    RoundStarted {
        /// The round's number.
        round: u64,
    },
    /// A pass starts, the `index`-th (from 0) of the `count` passes of a round.
    PassStarted {
        /// The pass's name.
        pass: &'static str,
        /// Its position in the round.
        index: usize,
        /// How many passes the round runs.
        count: usize,
    },
    /// A pass ended; `run` holds what this run of it did (`stopped_early` is 1 when its
    /// patience ran out).
    PassEnded {
        /// This run's counters.
        run: &'e PassStats,
    },
    /// A test ended.
    Tested {
        /// Its verdict.
        interesting: bool,
    },
}

/// Called with every [`Event`]; an error stops the run.
pub type Observer<'a> = dyn FnMut(Event<'_>) -> Result<(), BoxError> + 'a;

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
    /// Successes are used in candidate order only, as with one job: the result does not
    /// depend on the number of jobs.
    deterministic: bool,
    /// `history[v]`: the edits that made best `v + 1` of best `v`.
    history: Vec<EditSet>,
    flights: HashMap<Ticket, Flight>,
    next_ticket: Ticket,
    calls: u64,
    /// Successes found against an older best, to be tested on the current one: all
    /// waiting ones together, one merge at a time, halved when the whole fails.
    merges: VecDeque<Merge>,
    /// Edits that failed against an older best (tests that ended after the best moved
    /// on), rebased onto the current best: a candidate with the same edits is predicted
    /// to fail while `hints` is on.
    failures: VecDeque<EditSet>,
    hints: bool,
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
        let (parser, table, mut current) = match lang {
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
        current.set_version(0);
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
            deterministic: false,
            history: Vec::new(),
            flights: HashMap::new(),
            next_ticket: 0,
            calls: 0,
            merges: VecDeque::new(),
            failures: VecDeque::new(),
            hints: false,
        })
    }

    /// With `true`, successes are used in candidate order only, exactly as with one job,
    /// so the result is the same for any number of jobs; tests running past the first
    /// success are stopped. With `false` (the default), the first success to end is
    /// taken, tests still running go on, and their successes are rebased onto the new
    /// best and merged.
    pub fn set_deterministic(&mut self, deterministic: bool) {
        self.deterministic = deterministic;
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
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.executor
            .start(ticket, self.current.text())
            .map_err(Error::Executor)?;
        self.count_test();
        loop {
            let (t, verdict) = self.wait()?;
            if t != ticket {
                self.landed(t, verdict)?;
                continue;
            }
            self.cache.insert(TextKey::of(self.current.text()), verdict);
            return if verdict {
                Ok(())
            } else {
                Err(Error::OriginalNotInteresting)
            };
        }
    }

    /// Tests candidates (edit sets against `base`, a best of this session), as many at a
    /// time as the executor runs, and accepts an interesting one: the first in candidate
    /// order with [`Session::set_deterministic`], else the first to end. Candidates that
    /// change nothing, are not smaller than the current best, add parse errors, or were
    /// tested before are skipped without a test. When the best has moved on since `base`
    /// (a merge), candidates are rebased onto it, and skipped if they clash with it.
    /// Returns the index of the accepted candidate.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn first_interesting(
        &mut self,
        base: &Document,
        candidates: &mut dyn Iterator<Item = Option<EditSet>>,
    ) -> Result<Option<usize>, Error> {
        self.calls += 1;
        let call = self.calls;
        let jobs = self.executor.jobs().max(1);
        let mut slots: VecDeque<Slot> = VecDeque::new();
        let mut exhausted = false;
        let mut index = 0;
        loop {
            // Keep every job busy: merges first, then this call's candidates; but while
            // tests run, look at no more than `MAX_SKIPS` candidates that need none
            // (each costs a parse: thousands of equal texts would cost more than
            // waiting).
            let mut skipped = 0;
            while self.flights.len() < jobs {
                if skipped >= MAX_SKIPS && !self.flights.is_empty() {
                    break;
                }
                skipped += 1;
                if !self.deterministic && self.merge_due() {
                    self.start_merge()?;
                    continue;
                }
                if exhausted || (!self.deterministic && self.out_of_patience()) {
                    exhausted = true;
                    break;
                }
                let Some(candidate) = candidates.next() else {
                    exhausted = true;
                    break;
                };
                let i = index;
                index += 1;
                let Some(Prepared {
                    version,
                    key,
                    edits,
                    doc,
                }) = self.prepare(base, candidate).ok()
                else {
                    continue;
                };
                let verdict = self.cache.get(key);
                let flight = Flight {
                    call: Some(call),
                    index: i,
                    key,
                    version,
                    now: edits.clone(),
                    edits,
                    doc,
                    parts: Vec::new(),
                };
                if self.deterministic {
                    if verdict.is_some() || slots.iter().any(|s| s.key == key) {
                        self.stats.cache_hits += 1;
                        slots.push_back(Slot {
                            index: i,
                            key,
                            ticket: None,
                            verdict: None,
                            cached: Some((flight.edits, flight.doc)),
                        });
                        continue;
                    }
                    let ticket = self.start(flight)?;
                    skipped = 0;
                    slots.push_back(Slot {
                        index: i,
                        key,
                        ticket: Some(ticket),
                        verdict: None,
                        cached: None,
                    });
                    continue;
                }
                if verdict.is_some() || self.testing(key) {
                    self.stats.cache_hits += 1;
                    if verdict == Some(true) {
                        self.accept(flight.doc, flight.edits)?;
                        return Ok(Some(i));
                    }
                    continue;
                }
                self.start(flight)?;
                skipped = 0;
            }
            if self.deterministic {
                // Use verdicts in candidate order, as one job would.
                while let Some(slot) = slots.front() {
                    let verdict = match slot.ticket {
                        Some(_) => match slot.verdict {
                            Some(v) => v,
                            None => break,
                        },
                        None => self.cache.get(slot.key).unwrap_or(false),
                    };
                    if self.out_of_patience() {
                        self.cancel_call(call);
                        return Ok(None);
                    }
                    let slot = slots.pop_front().expect("looked at");
                    if let Some(ticket) = slot.ticket {
                        self.cache.insert(slot.key, verdict);
                        self.run.tests += 1;
                        if verdict {
                            let flight = self.flights.remove(&ticket).expect("kept till used");
                            self.cancel_call(call);
                            self.accept(flight.doc, flight.edits)?;
                            return Ok(Some(slot.index));
                        }
                        self.flights.remove(&ticket);
                    } else if let Some((edits, doc)) = slot.cached.filter(|_| verdict) {
                        self.cancel_call(call);
                        self.accept(doc, edits)?;
                        return Ok(Some(slot.index));
                    }
                }
                if slots.is_empty() && exhausted {
                    return Ok(None);
                }
            } else if exhausted
                && (jobs > 1 || !self.flights.values().any(|f| f.call == Some(call)))
            {
                // With jobs to spare, the pass goes on while its last tests run (their
                // successes are merged when they end): waiting for them would leave
                // the other jobs idle.
                return Ok(None);
            }
            // Wait for a test to end, or fill the free jobs first.
            let running = if self.deterministic {
                slots
                    .iter()
                    .any(|s| s.ticket.is_some() && s.verdict.is_none())
            } else {
                !self.flights.is_empty()
            };
            if !running {
                continue;
            }
            let (ticket, verdict) = self.wait()?;
            if self.deterministic {
                if let Some(slot) = slots.iter_mut().find(|s| s.ticket == Some(ticket)) {
                    slot.verdict = Some(verdict);
                }
                continue;
            }
            let Some(flight) = self.flights.get(&ticket) else {
                continue;
            };
            if flight.call == Some(call) {
                let flight = self.flights.remove(&ticket).expect("just seen");
                self.cache.insert(flight.key, verdict);
                if verdict {
                    if flight.version == self.version() {
                        self.accept(flight.doc, flight.edits)?;
                        return Ok(Some(flight.index));
                    }
                    // A merge was accepted while it ran: it goes on as a merge.
                    self.rebase_success(flight.version, flight.edits);
                }
            } else {
                self.landed(ticket, verdict)?;
            }
        }
    }

    /// Waits until no test runs, merging the successes that come in: at the end of a
    /// round, so it ends at a fixpoint.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn settle(&mut self) -> Result<(), Error> {
        let jobs = self.executor.jobs().max(1);
        loop {
            while self.flights.len() < jobs && self.merge_due() {
                self.start_merge()?;
            }
            if self.flights.is_empty() {
                return Ok(());
            }
            let (ticket, verdict) = self.wait()?;
            self.landed(ticket, verdict)?;
        }
    }

    /// `edits` (against `base`, a best of this session) against the current best: what
    /// they still change once everything accepted since `base` is done; `None` when they
    /// clash with it.
    #[must_use]
    pub fn rebase_onto_current(&self, base: &Document, edits: &EditSet) -> Option<EditSet> {
        self.rebase(base.version().unwrap_or(self.version()), edits)
    }

    /// The version of the current best.
    fn version(&self) -> u64 {
        self.history.len() as u64
    }

    /// A candidate of `base` as edits against the current best, and its document; `None`
    /// when it changes nothing, is not smaller, clashes with what was accepted since
    /// `base`, is predicted or known to fail, is being tested, or adds parse errors.
    fn prepare(&mut self, base: &Document, candidate: Option<EditSet>) -> Result<Prepared, Skip> {
        let edits = candidate.filter(|e| !e.is_empty()).ok_or(Skip::Other)?;
        let now = self.version();
        let from = base.version().unwrap_or(now);
        let (edits, doc_base) = if from == now {
            (edits, base)
        } else {
            let rebased = self.rebase(from, &edits).ok_or(Skip::Other)?;
            (rebased, &self.current)
        };
        if edits.is_empty() {
            return Err(Skip::Other);
        }
        // What failed against an older best is predicted to fail again; what a test
        // still running against an older best does needs no second test.
        if self.hints && (self.failures.contains(&edits) || self.running_elsewhere(&edits)) {
            self.stats.predicted += 1;
            return Err(Skip::Other);
        }
        let limit = self.current.text().len().cast_signed();
        if doc_base.text().len().cast_signed() - edits.saving() >= limit {
            return Err(Skip::Other);
        }
        // A text known to fail, or being tested, needs no parse (which can cost more
        // than applying the edits: deep nesting).
        let text = edits.apply(doc_base.text());
        let key = TextKey::of(&text);
        if self.cache.get(key) == Some(false) {
            self.stats.cache_hits += 1;
            return Err(Skip::Other);
        }
        if !self.deterministic && self.testing(key) {
            self.stats.cache_hits += 1;
            return Err(Skip::Testing);
        }
        let Some(doc) = derive(&mut self.parser, doc_base, &edits, text) else {
            self.stats.invalid += 1;
            return Err(Skip::Other);
        };
        Ok(Prepared {
            version: now,
            key,
            edits,
            doc,
        })
    }

    /// `edits` (against best `from`) against the current best, through every set
    /// accepted since; `None` on a clash.
    fn rebase(&self, from: u64, edits: &EditSet) -> Option<EditSet> {
        let from = usize::try_from(from).ok()?;
        let mut edits = edits.clone();
        for accepted in self.history.get(from..)? {
            edits = edits.rebase(accepted)?;
        }
        Some(edits)
    }

    /// A success against an older best: queued for a merge.
    fn rebase_success(&mut self, version: u64, edits: EditSet) {
        self.merges.push_back(Merge {
            version,
            parts: vec![edits],
            alone: false,
        });
    }

    /// The verdict of a test of no running call: a merge, or a test left running when
    /// its call ended.
    fn landed(&mut self, ticket: Ticket, verdict: bool) -> Result<(), Error> {
        let Some(flight) = self.flights.remove(&ticket) else {
            return Ok(());
        };
        self.cache.insert(flight.key, verdict);
        if !verdict {
            if flight.call.is_none() {
                self.halve_merge(flight.version, flight.parts);
            } else {
                self.stats.wasted += 1;
                if let Some(failed) = self.rebase(flight.version, &flight.edits)
                    && !failed.is_empty()
                {
                    if self.failures.len() >= MAX_FAILURES {
                        self.failures.pop_front();
                    }
                    self.failures.push_back(failed);
                }
            }
            return Ok(());
        }
        if flight.call.is_some() {
            self.rebase_success(flight.version, flight.edits);
        } else if flight.version == self.version() {
            self.stats.merged += flight.parts.len() as u64;
            return self.accept(flight.doc, flight.edits);
        } else {
            // Interesting, but the best moved on while it ran: it waits for the next
            // merge, with whatever else came in.
            self.merges.push_back(Merge {
                version: flight.version,
                parts: flight.parts,
                alone: false,
            });
        }
        Ok(())
    }

    /// Whether a test of the text with this key is running.
    fn testing(&self, key: TextKey) -> bool {
        self.flights.values().any(|f| f.key == key)
    }

    /// Whether a merge should start now: one is waiting and none is running (the
    /// successes that come in while one runs wait, to be tested together).
    fn merge_due(&self) -> bool {
        !self.merges.is_empty() && !self.flights.values().any(|f| f.call.is_none())
    }

    /// Starts the test of the next merge: the waiting successes, rebased onto the current
    /// best, put together (those that clash with it are dropped; one that overlaps
    /// another waits for the next merge); or a half of a merge that failed, alone.
    fn start_merge(&mut self) -> Result<(), Error> {
        let mut group = Vec::new();
        while let Some(merge) = self.merges.pop_front() {
            let alone = merge.alone;
            if alone && !group.is_empty() {
                self.merges.push_front(merge);
                break;
            }
            group.push(merge);
            if alone || self.merges.front().is_some_and(|m| m.alone) {
                break;
            }
        }
        let now = self.version();
        let mut union = EditSet::default();
        let mut parts = Vec::new();
        let mut overlapping = Vec::new();
        for merge in group {
            for part in merge.parts {
                match self.rebase(merge.version, &part) {
                    None => self.stats.wasted += 1,
                    Some(part) if part.is_empty() => {}
                    Some(part) => match union.merge(&part) {
                        Some(joined) => {
                            union = joined;
                            parts.push(part);
                        }
                        None => overlapping.push(part),
                    },
                }
            }
        }
        if !overlapping.is_empty() {
            self.merges.push_back(Merge {
                version: now,
                parts: overlapping,
                alone: false,
            });
        }
        if parts.is_empty() {
            return Ok(());
        }
        let current = self.current.clone();
        let Prepared {
            version,
            key,
            edits,
            doc,
        } = match self.prepare(&current, Some(union)) {
            Ok(prepared) => prepared,
            // The same text is being tested: its verdict will do.
            Err(Skip::Testing) => return Ok(()),
            Err(Skip::Other) => {
                // Not valid (or predicted to fail) together: each half on its own.
                self.halve_merge(now, parts);
                return Ok(());
            }
        };
        match self.cache.get(key) {
            Some(true) => {
                self.stats.merged += parts.len() as u64;
                self.accept(doc, edits)
            }
            Some(false) => {
                self.halve_merge(now, parts);
                Ok(())
            }
            None => self
                .start(Flight {
                    call: None,
                    index: 0,
                    key,
                    version,
                    now: edits.clone(),
                    edits,
                    doc,
                    parts,
                })
                .map(drop),
        }
    }

    /// A merge of `parts` (against best `version`) was not interesting: its halves are
    /// tested next, each on its own; a single success that fails on a newer best is
    /// dropped.
    fn halve_merge(&mut self, version: u64, mut parts: Vec<EditSet>) {
        if parts.len() < 2 {
            return;
        }
        let second = parts.split_off(parts.len() / 2);
        for half in [second, parts] {
            self.merges.push_front(Merge {
                version,
                parts: half,
                alone: true,
            });
        }
    }

    /// Starts the test of `flight`'s text.
    fn start(&mut self, flight: Flight) -> Result<Ticket, Error> {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.executor
            .start(ticket, flight.doc.text())
            .map_err(Error::Executor)?;
        self.count_test();
        self.flights.insert(ticket, flight);
        Ok(ticket)
    }

    fn count_test(&mut self) {
        self.stats.tests += 1;
        self.stats.pass(self.pass).tests += 1;
        if !self.deterministic {
            self.run.tests += 1;
        }
    }

    fn wait(&mut self) -> Result<(Ticket, bool), Error> {
        let (ticket, interesting) = self
            .executor
            .wait()
            .map_err(Error::Executor)?
            .ok_or_else(lost)?;
        self.emit(Event::Tested { interesting })?;
        Ok((ticket, interesting))
    }

    fn emit(&mut self, event: Event<'_>) -> Result<(), Error> {
        (self.observer)(event).map_err(Error::Observer)
    }

    /// Stops the tests of `call` still running: their verdicts are not needed.
    fn cancel_call(&mut self, call: u64) {
        let tickets: Vec<Ticket> = self
            .flights
            .iter()
            .filter(|(_, f)| f.call == Some(call))
            .map(|(t, _)| *t)
            .collect();
        self.cancel(&tickets);
    }

    /// Stops these tests; their work is wasted.
    fn cancel(&mut self, tickets: &[Ticket]) {
        if tickets.is_empty() {
            return;
        }
        self.executor.cancel(tickets);
        for t in tickets {
            self.flights.remove(t);
        }
        self.stats.wasted += tickets.len() as u64;
    }

    /// `accepted` is becoming the best: the running candidates whose edits it all made
    /// are cancelled (their text is bigger than the new best's, so it will never be
    /// tested again and no verdict of it is needed); the others' edits follow it. A
    /// test whose edits clash with it runs on: its success cannot be used, but its
    /// text may come back (a node replaced whole, whatever changed inside it), and its
    /// verdict is then in the cache. Merges run on (a clash of the whole may spare a
    /// part).
    fn cancel_doomed(&mut self, accepted: &EditSet) {
        if self.deterministic {
            return;
        }
        let mut doomed: Vec<Ticket> = self
            .flights
            .iter_mut()
            .filter_map(|(ticket, flight)| {
                let now = flight.now.rebase(accepted);
                let done = now.as_ref().is_some_and(EditSet::is_empty);
                // Not expressible on the new best: matches no candidate any more.
                flight.now = now.unwrap_or_default();
                (done && flight.call.is_some()).then_some(*ticket)
            })
            .collect();
        doomed.sort_unstable();
        self.cancel(&doomed);
    }

    /// Whether a test of these edits (against the current best) is running against an
    /// older best: its verdict will do (a success is merged, a failure predicts).
    fn running_elsewhere(&self, edits: &EditSet) -> bool {
        let now = self.version();
        self.flights
            .values()
            .any(|f| f.version != now && f.now == *edits)
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

    fn accept(&mut self, mut doc: Document, edits: EditSet) -> Result<(), Error> {
        debug_assert!(doc.text().len() < self.current.text().len());
        self.failures = std::mem::take(&mut self.failures)
            .into_iter()
            .filter_map(|f| f.rebase(&edits).filter(|f| !f.is_empty()))
            .collect();
        self.cancel_doomed(&edits);
        self.history.push(edits);
        doc.set_version(self.version());
        let saved = (self.current.text().len() - doc.text().len()) as u64;
        self.stats.accepted += 1;
        let pass = self.stats.pass(self.pass);
        pass.accepted += 1;
        pass.bytes_saved += saved;
        self.run.accepted.push((self.run.tests, saved));
        (self.observer)(Event::Best(&doc)).map_err(Error::Observer)?;
        self.current = doc;
        Ok(())
    }

    /// Runs the default passes to a fixpoint: until a whole round in which no pass was
    /// stopped early ([`Patience`]) and no candidate was predicted to fail
    /// ([`Stats::predicted`]) saves nothing. Rounds run with patience and predictions while
    /// they make progress; a round that saves nothing after skipping something is followed
    /// by one without, so the end result is one that no pass can shrink.
    ///
    /// # Errors
    /// When the executor or the observer fails.
    pub fn reduce(&mut self) -> Result<(), Error> {
        (self.observer)(Event::Started(&self.current)).map_err(Error::Observer)?;
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
            self.hints = patient && !self.deterministic;
            let predicted = self.stats.predicted;
            let before = self.current.text().len();
            let mut stopped = false;
            self.emit(Event::RoundStarted {
                round: self.stats.rounds,
            })?;
            let count = passes.len();
            for (index, pass) in passes.iter_mut().enumerate() {
                self.emit(Event::PassStarted {
                    pass: pass.name(),
                    index,
                    count,
                })?;
                self.run_pass(pass.as_mut())?;
                stopped |= self.run.stopped;
            }
            self.settle()?;
            self.hints = false;
            if self.current.text().len() < before {
                patient = true;
            } else if stopped || self.stats.predicted > predicted {
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
        let started = Instant::now();
        self.pass = pass.name();
        self.run = PassRun::default();
        let before = self.stats.pass(pass.name()).clone();
        let result = pass.run(self);
        let after = self.stats.pass(pass.name());
        after.time += started.elapsed();
        let run = PassStats {
            name: after.name,
            tests: after.tests - before.tests,
            accepted: after.accepted - before.accepted,
            bytes_saved: after.bytes_saved - before.bytes_saved,
            time: after.time - before.time,
            stopped_early: after.stopped_early - before.stopped_early,
        };
        result?;
        self.emit(Event::PassEnded { run: &run })
    }

    /// Ends the session, returning the best document and the counters. Tests still
    /// running are stopped.
    #[must_use]
    pub fn finish(mut self) -> (Document, Stats) {
        let tickets: Vec<Ticket> = self.flights.keys().copied().collect();
        if !tickets.is_empty() {
            self.executor.cancel(&tickets);
            self.stats.wasted += tickets.len() as u64;
        }
        (self.current, self.stats)
    }
}

/// `base` with `edits` done, whose text is `text`, if valid.
fn derive(
    parser: &mut Option<Parser>,
    base: &Document,
    edits: &EditSet,
    text: Vec<u8>,
) -> Option<Document> {
    match parser {
        Some(parser) => base.derive_from(parser, edits, text),
        None => Some(Document::plain(text)),
    }
}

fn lost() -> Error {
    Error::Executor("the executor lost a running test".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdd_grammar::Lang;

    /// Runs up to `jobs` tests "at once": verdicts come back in a scrambled order (a
    /// fixed pseudo-random sequence), as parallel tests of different lengths would.
    struct Scrambled<F> {
        predicate: F,
        jobs: usize,
        running: Vec<(Ticket, bool)>,
        seed: u64,
    }

    impl<F: FnMut(&[u8]) -> bool> Executor for Scrambled<F> {
        fn jobs(&self) -> usize {
            self.jobs
        }

        fn start(&mut self, ticket: Ticket, text: &[u8]) -> Result<(), BoxError> {
            assert!(
                self.running.len() < self.jobs,
                "more tests started than jobs"
            );
            let verdict = (self.predicate)(text);
            self.running.push((ticket, verdict));
            Ok(())
        }

        fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError> {
            if self.running.is_empty() {
                return Ok(None);
            }
            self.seed = self
                .seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let i = usize::try_from(self.seed >> 33).unwrap() % self.running.len();
            Ok(Some(self.running.swap_remove(i)))
        }

        fn cancel(&mut self, tickets: &[Ticket]) {
            self.running.retain(|(t, _)| !tickets.contains(t));
        }
    }

    /// A C file where the test needs two statements far apart, so many candidates
    /// succeed independently of each other.
    fn input() -> Vec<u8> {
        let mut text = String::from("int main(void) {\n");
        for i in 0..40 {
            text.push_str(&format!("  int v{i} = {i} * 3;\n"));
        }
        text.push_str("  return v7 + v31;\n}\n");
        text.into_bytes()
    }

    fn interesting(text: &[u8]) -> bool {
        let s = String::from_utf8_lossy(text);
        s.contains("v7 = 7") && s.contains("v31") && s.contains("return")
    }

    /// Reduces [`input`] with `jobs` scrambled jobs; every new best is checked to be
    /// interesting as it comes.
    fn reduce(jobs: usize, deterministic: bool, seed: u64) -> (Vec<u8>, Stats) {
        let mut exec = Scrambled {
            predicate: interesting,
            jobs,
            running: Vec::new(),
            seed,
        };
        let mut observer = |e: Event<'_>| {
            if let Event::Best(doc) = e {
                assert!(interesting(doc.text()), "a best that is not interesting");
            }
            Ok(())
        };
        let mut session = Session::new(Some(Lang::C), input(), &mut exec, &mut observer).unwrap();
        session.set_deterministic(deterministic);
        session.check_original().unwrap();
        session.reduce().unwrap();
        let (doc, stats) = session.finish();
        (doc.text().to_vec(), stats)
    }

    #[test]
    fn deterministic_results_do_not_depend_on_jobs_or_timing() {
        let (one, _) = reduce(1, true, 0);
        for (jobs, seed) in [(2, 1), (4, 2), (4, 3), (8, 4)] {
            let (many, stats) = reduce(jobs, true, seed);
            assert_eq!(
                String::from_utf8_lossy(&many),
                String::from_utf8_lossy(&one),
                "-j {jobs} seed {seed}"
            );
            assert_eq!(stats.merged, 0);
        }
    }

    #[test]
    fn parallel_successes_are_merged_and_every_best_is_interesting() {
        let (mut merged, mut predicted) = (0, 0);
        for seed in 0..4 {
            let (text, stats) = reduce(4, false, seed);
            assert!(interesting(&text));
            assert!(
                text.len() <= reduce(1, false, 0).0.len() + 8,
                "-j 4 ended much bigger than -j 1: {}",
                String::from_utf8_lossy(&text)
            );
            merged += stats.merged;
            predicted += stats.predicted;
        }
        assert!(merged > 0, "no success of a test left running was merged");
        assert!(predicted > 0, "no failure of a test left running was used");
    }

    /// Every test is interesting; verdicts come back first in, first out (or last in,
    /// first out); starts and cancels are recorded.
    #[derive(Default)]
    struct Ordered {
        jobs: usize,
        lifo: bool,
        running: VecDeque<Ticket>,
        started: Vec<Ticket>,
        cancelled: Vec<Ticket>,
    }

    impl Executor for Ordered {
        fn jobs(&self) -> usize {
            self.jobs
        }

        fn start(&mut self, ticket: Ticket, _: &[u8]) -> Result<(), BoxError> {
            self.running.push_back(ticket);
            self.started.push(ticket);
            Ok(())
        }

        fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError> {
            let next = if self.lifo {
                self.running.pop_back()
            } else {
                self.running.pop_front()
            };
            Ok(next.map(|t| (t, true)))
        }

        fn cancel(&mut self, tickets: &[Ticket]) {
            self.running.retain(|t| !tickets.contains(t));
            self.cancelled.extend(tickets);
        }
    }

    const LIST: &[u8] = b"[1,2,3,4]\n";

    fn delete(range: std::ops::Range<usize>) -> Option<EditSet> {
        EditSet::new(vec![crate::edit::Edit::delete(range)])
    }

    fn with_session(exec: &mut Ordered, body: impl FnOnce(&mut Session<'_>)) {
        let mut observer = |_: Event<'_>| Ok(());
        let mut session =
            Session::new(Some(Lang::Json), LIST.to_vec(), exec, &mut observer).unwrap();
        body(&mut session);
    }

    #[test]
    fn a_running_test_whose_edits_the_new_best_made_is_cancelled() {
        let mut exec = Ordered {
            jobs: 2,
            ..Ordered::default()
        };
        with_session(&mut exec, |session| {
            let base = session.current().clone();
            // "1,2," ends first and wins: "1," is all done by it.
            let mut candidates = vec![delete(1..5), delete(1..3), delete(6..8)].into_iter();
            assert_eq!(
                session.first_interesting(&base, &mut candidates).unwrap(),
                Some(0)
            );
            assert_eq!(session.current().text(), b"[3,4]\n");
            assert_eq!(session.stats().wasted, 1);
        });
        assert_eq!(exec.cancelled, vec![1]);
    }

    #[test]
    fn a_call_out_of_candidates_returns_and_its_last_success_is_merged() {
        let mut exec = Ordered {
            jobs: 2,
            ..Ordered::default()
        };
        with_session(&mut exec, |session| {
            let base = session.current().clone();
            let mut candidates = vec![delete(1..3)].into_iter();
            // Returns at once, its one test still running.
            assert_eq!(
                session.first_interesting(&base, &mut candidates).unwrap(),
                None
            );
            assert_eq!(session.current().text(), LIST);
            session.settle().unwrap();
            assert_eq!(session.current().text(), b"[2,3,4]\n");
            assert_eq!(session.stats().merged, 1);
        });
        assert_eq!(exec.running.len(), 0);
    }

    #[test]
    fn edits_a_test_against_an_older_best_is_trying_are_not_tested_twice() {
        let mut exec = Ordered {
            jobs: 2,
            lifo: true,
            ..Ordered::default()
        };
        with_session(&mut exec, |session| {
            session.hints = true;
            let base = session.current().clone();
            // "1," starts, then ",4", which ends first and wins; "1," runs on.
            let mut candidates = vec![delete(1..3), delete(6..8), delete(3..5)].into_iter();
            assert_eq!(
                session.first_interesting(&base, &mut candidates).unwrap(),
                Some(1)
            );
            assert_eq!(session.current().text(), b"[1,2,3]\n");
            // "1," against the new best: what the running test does.
            let base = session.current().clone();
            let mut candidates = vec![delete(1..3)].into_iter();
            assert_eq!(
                session.first_interesting(&base, &mut candidates).unwrap(),
                None
            );
            assert_eq!(session.stats().predicted, 1);
        });
        assert_eq!(exec.started, vec![0, 1]);
    }
}
