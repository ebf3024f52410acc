//! One reduction on a worker thread: the buffer's text, confined to the selection, with
//! the workspace's test; progress reports on the way, the best result so far when
//! stopped.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hdd::{Event, Executor as _, Lang, Reducer};
use hdd_exec::{LocalExecutor, TestCommand};

/// What a reduction needs.
#[derive(Debug)]
pub struct Job {
    /// The buffer's text.
    pub text: String,
    /// The bytes that may change (`None`: the whole text).
    pub range: Option<Range<usize>>,
    /// The grammar (`None`: text mode).
    pub lang: Option<Lang>,
    /// The test.
    pub command: TestCommand,
    /// Tests at once.
    pub jobs: usize,
}

/// How a reduction ended.
#[derive(Debug)]
pub enum Outcome {
    /// Reduced, completely or up to a stop: `text` is the whole new text, `range` where
    /// the confined part is in it.
    Reduced {
        /// The new text.
        text: String,
        /// The reduced range in it.
        range: Range<usize>,
        /// Tests run (the checks included).
        tests: u64,
        /// Whether a stop cut it short (the best so far).
        stopped: bool,
    },
    /// The test does not find the buffer interesting, or found the result uninteresting
    /// on a second look (flaky); the message says which, with the test's ending.
    Refused(String),
    /// Something else went wrong.
    Failed(String),
}

/// What the progress reports show.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Bytes of the confined range at the start, and now.
    pub before: usize,
    /// Now.
    pub now: usize,
    /// Tests run.
    pub tests: u64,
    /// The running pass.
    pub pass: &'static str,
}

/// How often progress is reported at most.
const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Runs `job`, telling `report` how it goes, until done or `stop` is set.
pub fn run(job: &Job, stop: Arc<AtomicBool>, report: &mut dyn FnMut(Progress)) -> Outcome {
    let executor = LocalExecutor::with_stop_flag(job.command.clone(), job.jobs, stop);
    let mut executor = match executor {
        Ok(executor) => executor,
        Err(e) => return Outcome::Failed(format!("hdd: {e}")),
    };
    let what = if job.range.is_some() {
        "the selection"
    } else {
        "the file"
    };
    match executor.run_one(job.text.as_bytes(), false) {
        Ok(o) if o.interesting => {}
        Ok(o) => {
            return Outcome::Refused(format!(
                "hdd: {what} is not interesting: the test ended with {} (interesting means \
                 {}){}",
                o.status,
                job.command.expectation(),
                stderr_tail(&o.stderr_tail)
            ));
        }
        Err(hdd_exec::Error::Interrupted) => return Outcome::Failed("hdd: cancelled".into()),
        Err(e) => return Outcome::Failed(format!("hdd: {e}")),
    }
    let full = 0..job.text.len();
    let range = job.range.clone().unwrap_or(full);
    let mut progress = Progress {
        before: range.len(),
        now: range.len(),
        tests: 1,
        pass: "check",
    };
    let outside = job.text.len() - range.len();
    let mut last = Instant::now();
    let mut observe = |event: Event<'_>| -> Result<(), hdd::BoxError> {
        match event {
            Event::Best(doc) => progress.now = doc.text().len().saturating_sub(outside),
            Event::PassStarted { pass, .. } => progress.pass = pass,
            Event::Tested { .. } => progress.tests += 1,
            _ => return Ok(()),
        }
        if last.elapsed() >= REPORT_EVERY {
            last = Instant::now();
            report(progress);
        }
        Ok(())
    };
    let reducer = Reducer::new(job.lang).original_checked(true).range(range);
    let outcome = reducer.reduce_partial(job.text.as_bytes().to_vec(), &mut executor, &mut observe);
    let (reduction, stopped) = match outcome {
        Ok(reduction) => (reduction, false),
        Err(stopped) if executor.stop_requested() => match stopped.reduction {
            Some(reduction) => (reduction, true),
            None => return Outcome::Failed("hdd: cancelled".into()),
        },
        Err(stopped) => return Outcome::Failed(format!("hdd: {}", stopped.error)),
    };
    let mut tests = 1 + reduction.stats.tests;
    if !stopped {
        // A result that is not interesting on a second look means a flaky test.
        tests += 1;
        match executor.run_one(&reduction.text, false) {
            Ok(o) if o.interesting => {}
            Ok(o) => {
                return Outcome::Refused(format!(
                    "hdd: the test is flaky: it found the reduced text interesting, then not \
                     ({}); nothing was applied{}",
                    o.status,
                    stderr_tail(&o.stderr_tail)
                ));
            }
            Err(hdd_exec::Error::Interrupted) => {}
            Err(e) => return Outcome::Failed(format!("hdd: {e}")),
        }
    }
    match String::from_utf8(reduction.text) {
        Ok(text) => Outcome::Reduced {
            text,
            range: reduction.range,
            tests,
            stopped,
        },
        Err(_) => Outcome::Failed("hdd: the result is not UTF-8".into()),
    }
}

fn stderr_tail(tail: &str) -> String {
    if tail.is_empty() {
        "; it wrote nothing to stderr".into()
    } else {
        format!("; the end of its stderr:\n{tail}")
    }
}
