//! A reduction session: the current best, the validity filter, the verdict cache, and
//! the coordinator of a parallel run, which has candidates tested
//! ([`Session::first_interesting`]) and merges the successes of tests that end late.
//! The loop that runs the passes in rounds is in `rounds.rs`; how candidates are checked
//! for validity, and the outline phase of a huge input, in `session/validity.rs`.

use std::time::Instant;

use hdd_grammar::{Lang, Table};
use tree_sitter::Parser;

use crate::cache::{Cache, TextKey};
use crate::ddmin::Schedule;
use crate::document::{Document, Leniency};
use crate::edit::{Clash, Edit, EditSet, Onto};
use crate::error::Error;
use crate::event::{Event, Observer};
use crate::exec::{Executor, Ticket};
use crate::flight::{Flight, Flights, Prepared};
use crate::history::{Failures, History};
use crate::kept::Kept;
use crate::merge::Merges;
use crate::ordered::Slots;
use crate::outline::{OUTLINE_THRESHOLD, Outlining, first_document};
use crate::patience::{PassRun, Patience};
use crate::stats::{PassStats, Stats};

/// How many candidates that need no test (cached, invalid, predicted) the coordinator
/// looks at while tests run before it waits for one to end.
const MAX_SKIPS: usize = 64;

/// Why [`Session::prepare`] gave no candidate.
enum Skip {
    /// A test of the same text is running.
    Testing,
    /// Changes nothing, not smaller, clashes, invalid, predicted or known to fail.
    Other,
    /// A stop was asked for while it was being parsed.
    Stopped,
}

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
    /// The running pass's name.
    pass: &'static str,
    /// The patience of [`Session::reduce`].
    pub(crate) patience: Option<Patience>,
    /// The patience of the running round (`None` outside `reduce` and in a final round).
    active: Option<Patience>,
    /// In a round that [confirms](Session::confirming) the fixpoint.
    pub(crate) confirming: bool,
    run: PassRun,
    /// Successes are used in candidate order only, as with one job: the result does not
    /// depend on the number of jobs.
    deterministic: bool,
    /// How the passes' ddmin runs shrink their parts.
    schedule: Schedule,
    /// The edits of every best, for rebasing.
    history: History,
    flights: Flights,
    next_ticket: Ticket,
    calls: u64,
    /// Successes found against an older best, to be tested on the current one.
    merges: Merges,
    /// Edits that failed against an older best: predicted to fail while `hints` is on.
    failures: Failures,
    hints: bool,
    /// When the best is held without its tree, and the outline of the original.
    outline: Outlining,
    /// [`Session::reduce`] ends with a lenient tail (see [`Session::set_lenient_tail`]).
    lenient_tail: bool,
    /// In the lenient tail: how a candidate's parse may be worse than the best's.
    lenient: Leniency,
    /// What a reduction confined to a range keeps ([`Session::set_range`]).
    kept: Kept,
    /// [`Session::reduce`] runs the passes of choice sequences ([`Session::set_bytes_mode`]).
    bytes_mode: bool,
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
        let (parser, table, mut current, items) = match lang {
            Some(lang) => {
                let mut parser = Parser::new();
                parser.set_language(&lang.ts_language()).map_err(|e| {
                    Error::Parser(format!("loading the {} grammar: {e}", lang.name()))
                })?;
                let stop = || executor.stop_requested();
                let (doc, items) = first_document(&mut parser, text, OUTLINE_THRESHOLD, &stop)?;
                (Some(parser), Some(lang.table()), doc, items)
            }
            None => (None, None, Document::plain(text), None),
        };
        current.set_version(0);
        let mut cache = Cache::default();
        let earlier = executor.earlier_verdicts();
        let stats = Stats {
            earlier_verdicts: earlier.len() as u64,
            ..Stats::default()
        };
        for (key, verdict) in earlier {
            cache.insert(key, verdict);
        }
        Ok(Session {
            parser,
            table,
            current,
            cache,
            executor,
            observer,
            stats,
            pass: "check",
            patience: Some(Patience::default()),
            active: None,
            confirming: false,
            run: PassRun::default(),
            deterministic: false,
            schedule: Schedule::default(),
            history: History::default(),
            flights: Flights::default(),
            next_ticket: 0,
            calls: 0,
            merges: Merges::default(),
            failures: Failures::default(),
            hints: false,
            outline: Outlining::new(OUTLINE_THRESHOLD, items),
            lenient_tail: true,
            lenient: Leniency::Strict,
            kept: Kept::default(),
            bytes_mode: false,
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

    /// Sets how the passes' ddmin runs (HDD's levels, lists of lines, tokens, names,
    /// literals) shrink their parts: [`Schedule::Weighted`] by default.
    pub fn set_schedule(&mut self, schedule: Schedule) {
        self.schedule = schedule;
    }

    /// How the passes' ddmin runs shrink their parts ([`Session::set_schedule`]).
    #[must_use]
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Sets when passes stop early in [`Session::reduce`] (`None`: never; every pass then
    /// runs to its own end in every round). [`Session::run_pass`] alone never stops early.
    pub fn set_patience(&mut self, patience: Option<Patience>) {
        self.patience = patience;
    }

    /// With `true` (and no grammar), [`Session::reduce`] runs the passes of `--lang
    /// bytes` ([`bytes_passes`](crate::passes::bytes_passes)): Hypothesis' shrinker passes
    /// for choice sequences and binary inputs, then ddmin over bytes.
    pub fn set_bytes_mode(&mut self, bytes: bool) {
        self.bytes_mode = bytes && self.table.is_none();
    }

    /// Whether [`Session::reduce`] runs the passes of `--lang bytes`.
    #[must_use]
    pub fn bytes_mode(&self) -> bool {
        self.bytes_mode
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

    /// Whether whoever runs the reduction asked it to stop
    /// ([`Executor::stop_requested`]).
    #[must_use]
    pub fn stop_requested(&self) -> bool {
        self.executor.stop_requested()
    }

    /// [`Error::Stopped`] when a stop was asked for: passes call it in loops that can run
    /// long without a test.
    ///
    /// # Errors
    /// [`Error::Stopped`].
    pub fn check_stop(&self) -> Result<(), Error> {
        (!self.stop_requested()).then_some(()).ok_or(Error::Stopped)
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> &Stats {
        &self.stats
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
        if self.deterministic {
            self.first_in_order(base, candidates)
        } else {
            self.first_to_end(base, candidates)
        }
    }

    /// [`Session::first_interesting`] by default: the first success to end wins; every
    /// job is kept busy, merges first; with jobs to spare, the call returns as soon as
    /// its candidates run out (its last tests go on, and their successes are merged
    /// when they end: waiting would leave the other jobs idle), but in a round that
    /// [confirms](Session::confirming) the fixpoint.
    ///
    /// A success that ends after the best moved on (a merge was accepted while it ran)
    /// is merged, and the call returns it once the best holds all of it (or goes on if
    /// its merge failed): a call that took its stale successes as ordinary merges would
    /// never hand the pass a best to read again (a 100,000-deep JSON under load went one
    /// level a test). While that merge runs, the call still fills idle jobs with its
    /// candidates (rebased onto the best): at -j 8 on a 0.25 s test, leaving them idle
    /// made runs 12% slower (50.0 s against 44.6 s, the means of 6 and 14 runs; at -j 2
    /// on the same case without its sleep, no difference: 997 and 992 tests).
    fn first_to_end(
        &mut self,
        base: &Document,
        candidates: &mut dyn Iterator<Item = Option<EditSet>>,
    ) -> Result<Option<usize>, Error> {
        let call = self.calls;
        let jobs = self.executor.jobs().max(1);
        let mut candidates = candidates.enumerate();
        let mut exhausted = false;
        // The call's own success that ended stale, waiting for its merge: its index,
        // and its edits against the best it was made for.
        let mut stale: Option<(usize, u64, EditSet)> = None;
        loop {
            if let Some((i, version, edits)) = &stale
                && self.merges.is_empty()
                && !self.flights.merging()
            {
                if self
                    .history
                    .rebase(*version, edits)
                    .is_some_and(|e| e.is_empty())
                {
                    return Ok(Some(*i));
                }
                stale = None;
            }
            // While tests run, look at no more than `MAX_SKIPS` candidates that need
            // none (each costs a parse: thousands of equal texts would cost more than
            // waiting).
            let mut skipped = 0;
            while self.flights.len() < jobs && (skipped < MAX_SKIPS || self.flights.is_empty()) {
                skipped += 1;
                self.check_stop()?;
                if self.merge_due() {
                    self.start_merge()?;
                    continue;
                }
                if exhausted || self.out_of_patience() {
                    exhausted = true;
                    break;
                }
                let Some((i, candidate)) = candidates.next() else {
                    exhausted = true;
                    break;
                };
                let prepared = match self.prepare(base.version(), candidate) {
                    Ok(prepared) => prepared,
                    Err(Skip::Stopped) => return Err(Error::Stopped),
                    Err(_) => continue,
                };
                // A text known to fail never gets here (`prepare`); one known to be
                // interesting needs no test.
                if self.cache.get(prepared.key) == Some(true) {
                    self.stats.cache_hits += 1;
                    self.accept(prepared.doc, prepared.edits)?;
                    return Ok(Some(i));
                }
                self.start(Flight::new(Some(call), i, prepared, Vec::new()))?;
                skipped = 0;
            }
            if stale.is_none()
                && exhausted
                && ((jobs > 1 && !self.confirming) || !self.flights.has_call(call))
            {
                return Ok(None);
            }
            if self.flights.is_empty() {
                continue;
            }
            let (ticket, verdict) = self.wait()?;
            match self.flights.get(ticket) {
                None => {}
                Some(flight) if flight.call == Some(call) => {
                    let flight = self.flights.remove(ticket).expect("just seen");
                    self.cache.insert(flight.key, verdict);
                    if verdict {
                        if flight.version == self.version() {
                            self.accept(flight.doc, flight.edits)?;
                            return Ok(Some(flight.index));
                        }
                        // A merge was accepted while it ran: it goes on as a merge, and
                        // the call waits for it.
                        if stale.is_none() {
                            stale = Some((flight.index, flight.version, flight.edits.clone()));
                        }
                        self.merges.push(flight.version, vec![flight.edits]);
                    }
                }
                Some(_) => self.landed(ticket, verdict)?,
            }
        }
    }

    /// [`Session::first_interesting`] with [`Session::set_deterministic`]: verdicts are
    /// used in candidate order, as one job would use them; the tests after the winner
    /// are cancelled, and the cache only learns the verdicts used.
    fn first_in_order(
        &mut self,
        base: &Document,
        candidates: &mut dyn Iterator<Item = Option<EditSet>>,
    ) -> Result<Option<usize>, Error> {
        let call = self.calls;
        let jobs = self.executor.jobs().max(1);
        let mut slots = Slots::default();
        let mut candidates = candidates.enumerate();
        let mut exhausted = false;
        loop {
            let mut skipped = 0;
            while !exhausted
                && self.flights.len() < jobs
                && (skipped < MAX_SKIPS || self.flights.is_empty())
            {
                skipped += 1;
                self.check_stop()?;
                let Some((i, candidate)) = candidates.next() else {
                    exhausted = true;
                    break;
                };
                let prepared = match self.prepare(base.version(), candidate) {
                    Ok(prepared) => prepared,
                    Err(Skip::Stopped) => return Err(Error::Stopped),
                    Err(_) => continue,
                };
                let key = prepared.key;
                if self.cache.get(key).is_some() || slots.holds(key) {
                    self.stats.cache_hits += 1;
                    slots.push_cached(i, key, prepared.edits, prepared.doc);
                    continue;
                }
                let ticket = self.start(Flight::new(Some(call), i, prepared, Vec::new()))?;
                skipped = 0;
                slots.push_tested(i, key, ticket);
            }
            while let Some(verdict) = slots.front_verdict(&self.cache) {
                if self.out_of_patience() {
                    self.cancel_call(call);
                    return Ok(None);
                }
                let slot = slots.pop_front().expect("looked at");
                let won = match slot.ticket {
                    Some(ticket) => {
                        self.cache.insert(slot.key, verdict);
                        self.run.tests += 1;
                        let flight = self.flights.remove(ticket);
                        if verdict {
                            let flight = flight.expect("a slot's test is kept till used");
                            Some((flight.edits, flight.doc))
                        } else {
                            None
                        }
                    }
                    None => slot.cached.filter(|_| verdict),
                };
                if let Some((edits, doc)) = won {
                    self.cancel_call(call);
                    self.accept(doc, edits)?;
                    return Ok(Some(slot.index));
                }
            }
            if slots.is_empty() && exhausted {
                return Ok(None);
            }
            if slots.waiting() {
                let (ticket, verdict) = self.wait()?;
                slots.record(ticket, verdict);
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
            self.check_stop()?;
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
        self.history
            .rebase(base.version().unwrap_or(self.version()), edits)
    }

    /// Each of `edits` (against `base`) on its own against the current best: `Ok(None)`
    /// for one it already made, `Err` for one that clashes with it.
    pub(crate) fn rebase_each_onto_current(
        &self,
        base: &Document,
        edits: &[Edit],
    ) -> Vec<Result<Option<Edit>, Clash>> {
        self.history
            .rebase_each(base.version().unwrap_or(self.version()), edits)
    }

    /// The version of the current best.
    fn version(&self) -> u64 {
        self.history.version()
    }

    /// A candidate of the best `base` (its version; `None`: the current best) as edits
    /// against the current best, and its document; `None` when it changes nothing, is not
    /// smaller, clashes with what was accepted since `base`, is predicted or known to fail,
    /// is being tested, or adds parse errors.
    fn prepare(&mut self, base: Option<u64>, candidate: Option<EditSet>) -> Result<Prepared, Skip> {
        let edits = candidate.filter(|e| !e.is_empty()).ok_or(Skip::Other)?;
        let now = self.version();
        let from = base.unwrap_or(now);
        let edits = if from == now {
            edits
        } else {
            self.history.rebase(from, &edits).ok_or(Skip::Other)?
        };
        if edits.is_empty() {
            return Err(Skip::Other);
        }
        // What failed against an older best is predicted to fail again; what a test
        // still running against an older best does needs no second test.
        if self.hints
            && (self.failures.contains(&edits) || self.flights.running_elsewhere(&edits, now))
        {
            self.stats.predicted += 1;
            return Err(Skip::Other);
        }
        if edits.saving() < 0 || !self.confined(&edits) {
            return Err(Skip::Other);
        }
        // A text known to fail, or being tested, needs no parse (which can cost more
        // than applying the edits: deep nesting).
        let text = edits.apply(self.current.text());
        if edits.saving() == 0 && text.as_slice() >= self.current.text() {
            // Progress is in shortlex order: as long, it must come first in byte order
            // (`5` -> `0`), or it would not be a step towards anything.
            return Err(Skip::Other);
        }
        let key = TextKey::of(&text);
        if self.cache.get(key) == Some(false) {
            self.stats.cache_hits += 1;
            return Err(Skip::Other);
        }
        if !self.deterministic && self.flights.testing(key) {
            self.stats.cache_hits += 1;
            return Err(Skip::Testing);
        }
        let Some(doc) = self.derive(&edits, text).map_err(|_| Skip::Stopped)? else {
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
            .ok_or_else(|| Error::Executor("the executor lost a running test".into()))?;
        self.emit(Event::Tested { interesting })?;
        Ok((ticket, interesting))
    }

    pub(crate) fn emit(&mut self, event: Event<'_>) -> Result<(), Error> {
        (self.observer)(event).map_err(Error::Observer)
    }

    /// Stops the tests of `call` still running: their verdicts are not needed.
    fn cancel_call(&mut self, call: u64) {
        let tickets = self.flights.of_call(call);
        self.cancel(&tickets);
    }

    /// Stops these tests; their work is wasted.
    fn cancel(&mut self, tickets: &[Ticket]) {
        if tickets.is_empty() {
            return;
        }
        self.executor.cancel(tickets);
        for &t in tickets {
            self.flights.remove(t);
        }
        self.stats.wasted += tickets.len() as u64;
    }

    /// Whether the running pass has stopped, or should stop now ([`Patience`]).
    fn out_of_patience(&mut self) -> bool {
        let Some(patience) = self.active else {
            return false;
        };
        if self.run.runs_out(patience, self.current.text().len()) {
            self.stats.pass(self.pass).stopped_early += 1;
        }
        self.run.stopped
    }

    fn accept(&mut self, mut doc: Document, edits: EditSet) -> Result<(), Error> {
        debug_assert!(shortlex_smaller(doc.text(), self.current.text()));
        let edits = Onto::new(edits);
        self.failures.follow(&edits);
        if !self.deterministic {
            // Tests whose edits the new best all made are not needed any more.
            let doomed = self.flights.follow(&edits);
            self.cancel(&doomed);
        }
        self.history.push(edits);
        doc.set_version(self.version());
        let saved = (self.current.text().len() - doc.text().len()) as u64;
        self.stats.accepted += 1;
        let pass = self.stats.pass(self.pass);
        pass.accepted += 1;
        pass.bytes_saved += saved;
        self.run.accepted(saved);
        (self.observer)(Event::Best(&doc)).map_err(Error::Observer)?;
        self.current = doc;
        self.after_accept()
    }

    /// Tells the observer the reduction starts ([`Event::Started`]).
    pub(crate) fn announce_start(&mut self) -> Result<(), Error> {
        (self.observer)(Event::Started(&self.current)).map_err(Error::Observer)
    }

    /// A round starts: with `patient`, passes may stop early and failures predict
    /// (parallel runs); without, every pass runs to its end and everything is tested.
    pub(crate) fn begin_round(&mut self, patient: bool) -> Result<(), Error> {
        self.stats.rounds += 1;
        self.active = if patient { self.patience } else { None };
        self.hints = patient && !self.deterministic;
        self.emit(Event::RoundStarted {
            round: self.stats.rounds,
        })
    }

    /// A round ends: every running test is waited for (its success merged).
    pub(crate) fn end_round(&mut self) -> Result<(), Error> {
        self.settle()?;
        self.hints = false;
        Ok(())
    }

    /// The rounds are over: no pass stops early any more.
    pub(crate) fn end_rounds(&mut self) {
        self.active = None;
    }

    /// Runs `body` as one run of the pass `name`: its tests, successes and time are
    /// counted for it, and [`Event::PassEnded`] tells what this run did. Returns whether
    /// the pass was stopped early.
    pub(crate) fn run_pass_as(
        &mut self,
        name: &'static str,
        body: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<bool, Error> {
        let started = Instant::now();
        self.pass = name;
        self.run = PassRun::default();
        let before = self.stats.pass(name).clone();
        let result = body(self);
        let after = self.stats.pass(name);
        after.time += started.elapsed();
        let run: PassStats = after.since(&before);
        result?;
        self.emit(Event::PassEnded { run: &run })?;
        Ok(self.run.stopped)
    }

    /// Ends the session, returning the best document and the counters. Tests still
    /// running are stopped.
    #[must_use]
    pub fn finish(mut self) -> (Document, Stats) {
        let tickets = self.flights.tickets();
        if !tickets.is_empty() {
            self.executor.cancel(&tickets);
            self.stats.wasted += tickets.len() as u64;
        }
        (self.current, self.stats)
    }
}

/// Whether `a` comes before `b` in shortlex order (shorter, or as long and first in byte
/// order): every best is, so a reduction ends (there are finitely many texts shorter
/// than the input).
#[must_use]
pub(crate) fn shortlex_smaller(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

mod merging;
mod range;
mod single;
mod validity;

#[cfg(test)]
mod tests;
