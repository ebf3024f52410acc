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
/// first out), except that the running tickets listed in `first` end before the others,
/// in that order; starts and cancels are recorded.
#[derive(Default)]
struct Ordered {
    jobs: usize,
    lifo: bool,
    first: Vec<Ticket>,
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
        if let Some(at) = self.first.iter().position(|t| self.running.contains(t)) {
            let ticket = self.first.remove(at);
            self.running.retain(|&t| t != ticket);
            return Ok(Some((ticket, true)));
        }
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
    with_text(LIST, exec, body);
}

fn with_text(text: &[u8], exec: &mut Ordered, body: impl FnOnce(&mut Session<'_>)) {
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(Some(Lang::Json), text.to_vec(), exec, &mut observer).unwrap();
    body(&mut session);
}

/// A call whose own success ends after a merge moved the best on returns it once it is
/// merged: a call that took it as an ordinary merge would only find stale successes,
/// merged one at a time, and never hand its pass a best to read again.
#[test]
fn a_call_whose_success_ended_stale_returns_it_once_merged() {
    let mut exec = Ordered {
        jobs: 2,
        // "1," wins call 1; "2," (left running) ends and is merged (ticket 3); then
        // call 2's "3," ends against the old best and is merged (ticket 5).
        first: vec![0, 1, 3, 2, 5],
        ..Ordered::default()
    };
    with_text(b"[1,2,3,4,5,6]\n", &mut exec, |session| {
        let base = session.current().clone();
        let mut candidates = vec![delete(1..3), delete(3..5)].into_iter();
        assert_eq!(
            session.first_interesting(&base, &mut candidates).unwrap(),
            Some(0)
        );
        assert_eq!(session.current().text(), b"[2,3,4,5,6]\n");
        let base = session.current().clone();
        // "3,", "4,", "5,".
        let mut candidates = vec![delete(3..5), delete(5..7), delete(7..9)].into_iter();
        assert_eq!(
            session.first_interesting(&base, &mut candidates).unwrap(),
            Some(0)
        );
        assert_eq!(session.current().text(), b"[4,5,6]\n");
        // Tickets 0-5: "4," is still running; "5," was never started.
        assert_eq!(session.stats().tests, 6);
        session.settle().unwrap();
        assert_eq!(session.current().text(), b"[5,6]\n");
    });
    // Ticket 6 is the merge of "4,".
    assert_eq!(exec.started, vec![0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(exec.running.len(), 0);
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

/// In a round that confirms the fixpoint, a call waits for its last tests: a success that
/// ended after its pass would start another pair of rounds.
#[test]
fn a_confirming_call_out_of_candidates_waits_for_its_last_success() {
    let mut exec = Ordered {
        jobs: 2,
        ..Ordered::default()
    };
    with_session(&mut exec, |session| {
        session.confirming = true;
        let base = session.current().clone();
        let mut candidates = vec![delete(1..3)].into_iter();
        assert_eq!(
            session.first_interesting(&base, &mut candidates).unwrap(),
            Some(0)
        );
        assert_eq!(session.current().text(), b"[2,3,4]\n");
        assert_eq!(session.stats().merged, 0);
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

/// About 20 KB of small C functions, `MAGIC` in the middle.
fn big_input() -> Vec<u8> {
    let mut text = String::new();
    for i in 0..400 {
        if i == 200 {
            text.push_str("int MAGIC(int a) { return a; }\n");
        }
        text.push_str(&format!(
            "int f{i}(int a) {{ int b = a * {i}; return b + {}; }}\n",
            i * 7 % 100
        ));
    }
    text.into_bytes()
}

/// Reduces [`big_input`] with an outline threshold of 2 KB. The test asserts that it
/// gets only texts without syntax errors; bests over the threshold must come without a
/// tree. Returns the result, the counters and the names of the passes run.
fn reduce_outlined(
    jobs: usize,
    deterministic: bool,
    seed: u64,
) -> (Vec<u8>, Stats, Vec<&'static str>) {
    let mut parser = Parser::new();
    parser.set_language(&Lang::C.ts_language()).unwrap();
    let mut exec = ClosureExecutor::new(move |text: &[u8]| {
        let doc = Document::parse(&mut parser, text.to_vec()).unwrap();
        assert_eq!(doc.error_count(), 0, "{}", String::from_utf8_lossy(text));
        text.windows(5).any(|w| w == b"MAGIC")
    })
    .with_jobs(jobs, seed);
    let mut passes = Vec::new();
    let mut observer = |e: Event<'_>| {
        match e {
            Event::PassStarted { pass, .. } => passes.push(pass),
            Event::Best(doc) => assert!(
                doc.text().len() <= 2048 || doc.tree().is_none(),
                "a tree of a best over the threshold"
            ),
            _ => {}
        }
        Ok(())
    };
    let mut session = Session::new(Some(Lang::C), big_input(), &mut exec, &mut observer).unwrap();
    // The test refuses any candidate with a syntax error: no lenient tail.
    session.set_lenient_tail(false);
    session.set_outline_threshold(2048).unwrap();
    assert!(session.outlined());
    assert_eq!(session.current().error_count(), 0);
    session.set_deterministic(deterministic);
    session.check_original().unwrap();
    session.reduce().unwrap();
    assert!(!session.outlined());
    let (doc, stats) = session.finish();
    (doc.text().to_vec(), stats, passes)
}

#[test]
fn a_big_input_is_outlined_first_without_a_tree() {
    let (text, stats, passes) = reduce_outlined(1, false, 0);
    assert_eq!(passes.first(), Some(&"outline"));
    assert_eq!(passes.iter().filter(|&&p| p == "outline").count(), 1);
    let outline = stats.passes.iter().find(|p| p.name == "outline").unwrap();
    assert!(outline.accepted > 0, "{stats:?}");
    assert!(
        outline.bytes_saved as usize > big_input().len() - 2048,
        "{stats:?}"
    );
    assert!(
        String::from_utf8_lossy(&text).contains("MAGIC") && text.len() < 20,
        "{}",
        String::from_utf8_lossy(&text)
    );
    // The usual passes went on from the parsed best.
    assert!(passes.contains(&"hdd"));
}

#[test]
fn outlined_reductions_are_the_same_at_any_job_count() {
    let (one, _, _) = reduce_outlined(1, true, 0);
    for (jobs, seed) in [(4, 1), (4, 2), (3, 7)] {
        let (many, _, _) = reduce_outlined(jobs, true, seed);
        assert_eq!(
            String::from_utf8_lossy(&many),
            String::from_utf8_lossy(&one),
            "-j {jobs} seed {seed}"
        );
    }
    // Without --deterministic: interesting (the test asserts validity itself).
    let (text, _, _) = reduce_outlined(4, false, 3);
    assert!(String::from_utf8_lossy(&text).contains("MAGIC"));
}

#[test]
fn an_outlined_session_stops_when_asked() {
    // During the first windowed parse of a huge input (over the default threshold).
    let mut exec = Stopping {
        inner: ClosureExecutor::new(interesting),
        stop: std::rc::Rc::new(std::cell::Cell::new(true)),
        started_after: 0,
    };
    let mut observer = |_: Event<'_>| Ok(());
    let huge: Vec<u8> = big_input().repeat(250);
    assert!(huge.len() > OUTLINE_THRESHOLD);
    let result = Session::new(Some(Lang::C), huge, &mut exec, &mut observer);
    assert!(matches!(result, Err(Error::Stopped)));
    // At the first new best of the outline pass.
    for (jobs, deterministic) in [(1, false), (4, false), (4, true)] {
        let stop = std::rc::Rc::new(std::cell::Cell::new(false));
        let magic = |t: &[u8]| t.windows(5).any(|w| w == b"MAGIC");
        let mut exec = Stopping {
            inner: ClosureExecutor::new(magic).with_jobs(jobs, 5),
            stop: std::rc::Rc::clone(&stop),
            started_after: 0,
        };
        let asked = std::rc::Rc::clone(&stop);
        let mut observer = move |e: Event<'_>| {
            if let Event::Best(_) = e {
                asked.set(true);
            }
            Ok(())
        };
        let mut session =
            Session::new(Some(Lang::C), big_input(), &mut exec, &mut observer).unwrap();
        session.set_outline_threshold(2048).unwrap();
        session.set_deterministic(deterministic);
        let result = session.reduce();
        assert!(
            matches!(result, Err(Error::Stopped)),
            "-j {jobs}: {result:?}"
        );
        let (doc, stats) = session.finish();
        assert_eq!(stats.accepted, 1, "-j {jobs}");
        assert!(magic(doc.text()));
        assert_eq!(exec.started_after, 0, "-j {jobs}");
    }
}
