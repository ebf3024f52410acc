//! The coordinator on its own: parallel verdicts in scrambled orders, merges, cancellation
//! and predictions, with executors that answer at once.

use std::collections::VecDeque;

use hdd_grammar::Lang;

use super::*;
use crate::exec::{BoxError, ClosureExecutor};

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
    let mut exec = ClosureExecutor::new(interesting).with_jobs(jobs, seed);
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
    let mut session = Session::new(Some(Lang::Json), LIST.to_vec(), exec, &mut observer).unwrap();
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

/// An executor that asks the reduction to stop once `stop` is set, and counts the tests
/// started after that.
struct Stopping<F> {
    inner: ClosureExecutor<F>,
    stop: std::rc::Rc<std::cell::Cell<bool>>,
    started_after: usize,
}

impl<F: FnMut(&[u8]) -> bool> Executor for Stopping<F> {
    fn jobs(&self) -> usize {
        self.inner.jobs()
    }

    fn start(&mut self, ticket: Ticket, text: &[u8]) -> Result<(), BoxError> {
        self.started_after += usize::from(self.stop.get());
        self.inner.start(ticket, text)
    }

    fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError> {
        self.inner.wait()
    }

    fn cancel(&mut self, tickets: &[Ticket]) {
        self.inner.cancel(tickets);
    }

    fn stop_requested(&self) -> bool {
        self.stop.get()
    }
}

#[test]
fn a_stop_request_ends_the_reduction_before_another_test() {
    for (jobs, deterministic) in [(1, false), (4, false), (4, true)] {
        let stop = std::rc::Rc::new(std::cell::Cell::new(false));
        let mut exec = Stopping {
            inner: ClosureExecutor::new(interesting).with_jobs(jobs, 5),
            stop: std::rc::Rc::clone(&stop),
            started_after: 0,
        };
        // The first new best asks for the stop.
        let asked = std::rc::Rc::clone(&stop);
        let mut observer = move |e: Event<'_>| {
            if let Event::Best(doc) = e {
                assert!(interesting(doc.text()));
                asked.set(true);
            }
            Ok(())
        };
        let mut session = Session::new(Some(Lang::C), input(), &mut exec, &mut observer).unwrap();
        session.set_deterministic(deterministic);
        let result = session.reduce();
        assert!(
            matches!(result, Err(Error::Stopped)),
            "-j {jobs}: {result:?}"
        );
        let (doc, stats) = session.finish();
        assert_eq!(stats.accepted, 1, "-j {jobs}");
        assert!(interesting(doc.text()));
        assert_eq!(
            exec.started_after, 0,
            "-j {jobs}: tests started after the stop"
        );
    }
}

#[test]
fn a_stop_request_during_the_first_parse_is_obeyed() {
    let mut exec = Stopping {
        inner: ClosureExecutor::new(interesting),
        stop: std::rc::Rc::new(std::cell::Cell::new(true)),
        started_after: 0,
    };
    let mut observer = |_: Event<'_>| Ok(());
    let big: Vec<u8> = input().repeat(200);
    let result = Session::new(Some(Lang::C), big, &mut exec, &mut observer);
    assert!(matches!(result, Err(Error::Stopped)));
}
