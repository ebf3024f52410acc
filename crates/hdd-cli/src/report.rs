//! What a run tells its user as it goes: a live progress line on a terminal, plain
//! rate-limited lines otherwise, JSON-lines events on stdout with `--json`, warnings.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

use hdd::{Event, PassStats, Reduction, Sizes};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use crate::checks::CHECKS;
use crate::summary::percent;

/// How often a plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Where progress goes.
enum Progress {
    /// A live line on a terminal.
    Bar(ProgressBar),
    /// A line now and then (a log file, CI).
    Lines { last: Instant },
    /// Nothing (`--quiet`).
    Off,
}

/// Follows a reduction's [`Event`]s and reports them.
pub(crate) struct Reporter {
    started: Instant,
    /// The `start` event's fields besides the sizes.
    about: Value,
    progress: Progress,
    json: bool,
    original: usize,
    best: Sizes,
    tests: u64,
    interesting: u64,
    round: u64,
    pass: &'static str,
    index: usize,
    count: usize,
}

impl Reporter {
    /// A reporter; `quiet` turns progress off, `json` writes events on stdout, `plain`
    /// asks for plain lines even on a terminal (logs go there too).
    pub(crate) fn new(quiet: bool, json: bool, plain: bool) -> Reporter {
        let progress = if quiet {
            Progress::Off
        } else if std::io::stderr().is_terminal() && !plain {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            Progress::Bar(bar)
        } else {
            Progress::Lines {
                last: Instant::now(),
            }
        };
        Reporter {
            started: Instant::now(),
            about: Value::Null,
            progress,
            json,
            original: 0,
            best: Sizes::default(),
            tests: 0,
            interesting: 0,
            round: 0,
            pass: "check",
            index: 0,
            count: 0,
        }
    }

    /// What the `start` event says besides the sizes (file, language, jobs…).
    pub(crate) fn about(&mut self, about: Value) {
        self.about = about;
    }

    /// Takes one event of the reduction. `Best`'s document is sized here.
    pub(crate) fn event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Started(doc) => {
                self.best = Sizes::of(doc);
                self.original = self.best.bytes;
                let mut e = json!({"event": "start"});
                merge(&mut e, self.about.take());
                merge(&mut e, sizes(self.best));
                self.emit(&e);
            }
            Event::Best(doc) => {
                self.best = Sizes::of(doc);
                tracing::info!(
                    pass = self.pass,
                    bytes = self.best.bytes,
                    tokens = self.best.tokens,
                    "accepted"
                );
                if self.json {
                    let mut e = json!({"event": "accepted", "pass": self.pass});
                    merge(&mut e, sizes(self.best));
                    merge(
                        &mut e,
                        json!({"tests": self.tests, "seconds": self.seconds()}),
                    );
                    self.emit(&e);
                }
            }
            Event::RoundStarted { round } => {
                self.round = round;
                self.count = 0;
                if let Progress::Lines { last } = &mut self.progress {
                    // A line at every round, whatever the rate limit says.
                    *last = self
                        .started
                        .checked_sub(PLAIN_EVERY)
                        .unwrap_or(self.started);
                }
                self.emit(&json!({"event": "round_start", "round": round}));
            }
            Event::PassStarted { pass, index, count } => {
                tracing::info!(round = self.round, pass, "pass started");
                self.pass = pass;
                self.index = index;
                self.count = count;
                self.emit(&json!({
                    "event": "pass_start", "pass": pass, "round": self.round,
                    "index": index, "count": count,
                }));
            }
            Event::PassEnded { run } => {
                tracing::info!(
                    pass = run.name,
                    tests = run.tests,
                    accepted = run.accepted,
                    bytes_saved = run.bytes_saved,
                    "pass ended"
                );
                let mut e = json!({"event": "pass_end", "round": self.round});
                merge(&mut e, pass_fields(run));
                self.emit(&e);
            }
            Event::Tested { interesting } => {
                tracing::debug!(interesting, "test ended");
                self.tests += 1;
                self.interesting += u64::from(interesting);
            }
            _ => {}
        }
        self.show();
    }

    /// A warning, on stderr (above the progress line) and as a JSON event.
    pub(crate) fn warn(&mut self, message: &str) {
        self.emit(&json!({"event": "warning", "message": message}));
        let line = format!("hdd: warning: {message}");
        match &self.progress {
            Progress::Bar(bar) => bar.suspend(|| eprintln_safe!("{line}")),
            _ => eprintln_safe!("{line}"),
        }
    }

    /// The end of the run: the progress line goes, the `done` event carries everything
    /// the summary says. `status` is `ok`, `interrupted`, `flaky` or `empty`.
    pub(crate) fn done(&mut self, status: &str, jobs: usize, r: &Reduction) {
        self.clear();
        let s = &r.stats;
        let passes: Vec<Value> = s.passes.iter().map(pass_fields).collect();
        self.emit(&json!({
            "event": "done",
            "status": status,
            "before": sizes(r.before),
            "after": sizes(r.after),
            "tests": s.tests + CHECKS,
            "cache_hits": s.cache_hits,
            "earlier_verdicts": s.earlier_verdicts,
            "invalid": s.invalid,
            "accepted": s.accepted,
            "merged": s.merged,
            "wasted": s.wasted,
            "predicted": s.predicted,
            "rounds": s.rounds,
            "jobs": jobs,
            "seconds": self.seconds(),
            "cpu_seconds": hdd_exec::own_cpu_time().map(|t| t.as_secs_f64()),
            "passes": passes,
        }));
    }

    /// A failure that ends the run (the `error` event; the message itself is printed
    /// by the caller).
    pub(crate) fn error(&mut self, message: &str, code: u8) {
        self.clear();
        self.emit(&json!({"event": "error", "message": message, "exit_code": code}));
    }

    /// Removes the progress line.
    pub(crate) fn clear(&mut self) {
        if let Progress::Bar(bar) = &self.progress {
            bar.finish_and_clear();
        }
        self.progress = Progress::Off;
    }

    fn seconds(&self) -> f64 {
        (self.started.elapsed().as_secs_f64() * 10.0).round() / 10.0
    }

    /// The progress line's text.
    fn line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs_f64().max(0.001);
        #[expect(clippy::cast_precision_loss, reason = "rates for display")]
        let (rate, hit) = (
            self.tests as f64 / elapsed,
            if self.tests == 0 {
                0.0
            } else {
                self.interesting as f64 * 100.0 / self.tests as f64
            },
        );
        let pass = if self.count == 0 {
            format!("round {} starting", self.round)
        } else {
            format!(
                "round {}, pass {}/{} {}",
                self.round,
                self.index + 1,
                self.count,
                self.pass
            )
        };
        format!(
            "{} B ({} of {}) · {} tokens · {pass} · {} tests, {rate:.1}/s, {hit:.0}% interesting",
            self.best.bytes,
            percent(self.best.bytes, self.original),
            self.original,
            self.best.tokens,
            self.tests,
        )
    }

    fn show(&mut self) {
        match &self.progress {
            Progress::Bar(bar) => bar.set_message(self.line()),
            Progress::Lines { last } if last.elapsed() >= PLAIN_EVERY => {
                let secs = self.started.elapsed().as_secs();
                eprintln_safe!(
                    "hdd: [{:02}:{:02}:{:02}] {}",
                    secs / 3600,
                    secs / 60 % 60,
                    secs % 60,
                    self.line()
                );
                self.progress = Progress::Lines {
                    last: Instant::now(),
                };
            }
            _ => {}
        }
    }

    fn emit(&self, event: &Value) {
        if self.json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{event}");
            let _ = out.flush();
        }
    }
}

fn sizes(s: Sizes) -> Value {
    json!({"bytes": s.bytes, "tokens": s.tokens, "lines": s.lines})
}

fn pass_fields(p: &PassStats) -> Value {
    json!({
        "pass": p.name,
        "tests": p.tests,
        "accepted": p.accepted,
        "bytes_saved": p.bytes_saved,
        // What a test of this pass bought: for ordering work when tests are slow.
        "bytes_per_test": if p.tests == 0 {
            0.0
        } else {
            #[expect(clippy::cast_precision_loss, reason = "a ratio for display")]
            let ratio = p.bytes_saved as f64 / p.tests as f64;
            (ratio * 10.0).round() / 10.0
        },
        "seconds": (p.time.as_secs_f64() * 10.0).round() / 10.0,
        "stopped_early": p.stopped_early,
    })
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(into), Value::Object(from)) = (into, from) {
        into.extend(from);
    }
}
