//! hdd as a library: shrink an input while a predicate keeps holding.
//!
//! ```
//! use hdd::{Lang, Reducer};
//!
//! let input = b"int unused(void) { return 1; }\nint main(void) { return 1 && 5; }\n";
//! let reduction = Reducer::new(Some(Lang::C))
//!     .reduce(input.to_vec(), |text| {
//!         text.windows(6).any(|w| w == b"1 && 5")
//!     })
//!     .unwrap();
//! assert!(reduction.text.len() < input.len());
//! assert!(reduction.text.windows(6).any(|w| w == b"1 && 5"));
//! ```
//!
//! A choice sequence (the bytes a generator drew from) shrinks with
//! [`Reducer::bytes`]; [`search`] holds the cousins of reduction, bisection and the
//! smallest failing entropy budget, with the stream `hdd entropy` feeds a system under
//! test.
#![deny(missing_docs)]

use std::ops::Range;

pub use hdd_core::{
    BoxError, ClosureExecutor, Document, Edit, EditSet, Error, Event, Executor, Pass, PassStats,
    Schedule, Session, Stats,
};
pub use hdd_grammar::Lang;
pub use hdd_search as search;

/// Size of a text in the units the summary reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sizes {
    /// Bytes.
    pub bytes: usize,
    /// Tokens (leaves of the syntax tree, or whitespace-separated words).
    pub tokens: usize,
    /// Lines.
    pub lines: usize,
}

impl Sizes {
    /// The sizes of a document.
    #[must_use]
    pub fn of(doc: &Document) -> Sizes {
        Sizes {
            bytes: doc.text().len(),
            tokens: doc.token_count(),
            lines: doc.line_count(),
        }
    }
}

/// The result of a reduction.
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The smallest interesting text found.
    pub text: Vec<u8>,
    /// Sizes of the input.
    pub before: Sizes,
    /// Sizes of the result.
    pub after: Sizes,
    /// Syntax errors (ERROR/MISSING nodes) the input already had.
    pub input_errors: usize,
    /// Counters of the run.
    pub stats: Stats,
    /// Where the range the reduction was confined to ([`Reducer::range`]) is in `text`:
    /// everything before and after it is the input's (the whole text when unconfined).
    pub range: Range<usize>,
}

/// Configures and runs a reduction.
#[derive(Debug, Clone, Default)]
pub struct Reducer {
    lang: Option<Lang>,
    original_checked: bool,
    deterministic: bool,
    schedule: Schedule,
    valid_only: bool,
    range: Option<Range<usize>>,
    bytes: bool,
}

impl Reducer {
    /// A reducer for `lang` (`None` = language-agnostic lines and tokens).
    #[must_use]
    pub fn new(lang: Option<Lang>) -> Reducer {
        Reducer {
            lang,
            original_checked: false,
            deterministic: false,
            schedule: Schedule::Weighted,
            valid_only: false,
            range: None,
            bytes: false,
        }
    }

    /// Tells the reducer that the caller has already seen the input pass the test, so
    /// it does not test it again (the CLI checks it itself to report a failure in full).
    #[must_use]
    pub fn original_checked(mut self, checked: bool) -> Reducer {
        self.original_checked = checked;
        self
    }

    /// With `true`, the result does not depend on how many tests the executor runs at
    /// once: successes are used in candidate order, as with one job
    /// ([`Session::set_deterministic`]). Slower with many jobs; for reproducible runs.
    #[must_use]
    pub fn deterministic(mut self, deterministic: bool) -> Reducer {
        self.deterministic = deterministic;
        self
    }

    /// With `true`, every candidate the predicate sees parses as well as the input: no
    /// lenient tail at the end ([`Session::set_lenient_tail`]), where the tokens pass
    /// tries texts the grammar refuses.
    #[must_use]
    pub fn valid_only(mut self, valid_only: bool) -> Reducer {
        self.valid_only = valid_only;
        self
    }

    /// Confines the reduction to `range`, byte offsets into the input ([`Session::set_range`]):
    /// only its bytes may change, every node, token or line reaching outside it stays,
    /// and the predicate still sees the whole text. The lenient tail is off.
    #[must_use]
    pub fn range(mut self, range: Range<usize>) -> Reducer {
        self.range = Some(range);
        self
    }

    /// With `true` (and no language), the passes of choice sequences and binary inputs
    /// ([`Session::set_bytes_mode`], `--lang bytes`): blocks deleted and zeroed, integers
    /// lowered, values moved between bytes, blocks sorted, then ddmin over bytes; each
    /// step is smaller in shortlex order, so results are canonical.
    #[must_use]
    pub fn bytes(mut self, bytes: bool) -> Reducer {
        self.bytes = bytes;
        self
    }

    /// How the passes' ddmin runs shrink their parts ([`Session::set_schedule`]):
    /// HDD's levels in parts of equal weight (the default), ddmin's halving, or CDD's
    /// counter.
    #[must_use]
    pub fn schedule(mut self, schedule: Schedule) -> Reducer {
        self.schedule = schedule;
        self
    }

    /// Reduces `input` while `predicate` holds (`true` = still interesting).
    ///
    /// # Errors
    /// [`Error::OriginalNotInteresting`] when the predicate rejects the input.
    pub fn reduce<F: FnMut(&[u8]) -> bool>(
        &self,
        input: Vec<u8>,
        predicate: F,
    ) -> Result<Reduction, Error> {
        let mut executor = ClosureExecutor::new(predicate);
        self.reduce_with(input, &mut executor, &mut |_| Ok(()))
    }

    /// Reduces `input` with an executor, telling `observer` every [`Event`]: each new best
    /// ([`Event::Best`]), rounds and passes as they start and end, every test's verdict.
    ///
    /// # Errors
    /// When the original is not interesting, the executor cannot run a test, or the
    /// observer fails.
    pub fn reduce_with(
        &self,
        input: Vec<u8>,
        executor: &mut dyn Executor,
        observer: &mut dyn FnMut(Event<'_>) -> Result<(), BoxError>,
    ) -> Result<Reduction, Error> {
        self.reduce_partial(input, executor, observer)
            .map_err(|stopped| stopped.error)
    }

    /// As [`Reducer::reduce_with`], but a run stopped by an error (an interrupted
    /// executor, say) still gives what it had reached: the best so far and the counters.
    ///
    /// # Errors
    /// As [`Reducer::reduce_with`], with the reduction so far when the input could be
    /// parsed.
    pub fn reduce_partial(
        &self,
        input: Vec<u8>,
        executor: &mut dyn Executor,
        observer: &mut dyn FnMut(Event<'_>) -> Result<(), BoxError>,
    ) -> Result<Reduction, Box<Stopped>> {
        let mut session = Session::new(self.lang, input, executor, observer).map_err(|error| {
            Box::new(Stopped {
                error,
                reduction: None,
            })
        })?;
        session.set_deterministic(self.deterministic);
        session.set_schedule(self.schedule);
        session.set_lenient_tail(!self.valid_only);
        session.set_bytes_mode(self.bytes);
        if let Some(range) = &self.range {
            session.set_range(range.clone()).map_err(|error| {
                Box::new(Stopped {
                    error,
                    reduction: None,
                })
            })?;
        }
        let before = Sizes::of(session.current());
        let input_errors = session.current().error_count();
        let result = if self.original_checked {
            session.reduce()
        } else {
            session.check_original().and_then(|()| session.reduce())
        };
        let range = session.range_of(session.current());
        let (doc, stats) = session.finish();
        let reduction = Reduction {
            range,
            after: Sizes::of(&doc),
            text: doc.text().to_vec(),
            before,
            input_errors,
            stats,
        };
        match result {
            Ok(()) => Ok(reduction),
            Err(error) => Err(Box::new(Stopped {
                error,
                reduction: Some(reduction),
            })),
        }
    }
}

/// A run that an error stopped.
#[derive(Debug)]
pub struct Stopped {
    /// What stopped it.
    pub error: Error,
    /// What it had reached (its best is interesting); `None` when it never started.
    pub reduction: Option<Reduction>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &[u8] = b"int g(int a) { return a; }\n\
        int f(int x) { if (x) { x = g(x) + (1 << 40); } return x; }\n\
        struct s { int a; char *b; };\n";

    fn needs_shift(text: &[u8]) -> bool {
        text.windows(7).any(|w| w == b"1 << 40")
    }

    #[test]
    fn reducer_shrinks_c_with_a_closure() {
        let reduction = Reducer::new(Some(Lang::C))
            .reduce(INPUT.to_vec(), needs_shift)
            .unwrap();
        assert!(needs_shift(&reduction.text));
        assert!(
            reduction.after.tokens < reduction.before.tokens / 3,
            "{reduction:?}"
        );
        assert_eq!(reduction.before.bytes, INPUT.len());
        assert_eq!(reduction.input_errors, 0);
        assert!(
            reduction.stats.invalid > 0,
            "the validity filter saw candidates"
        );
    }

    #[test]
    fn every_accepted_text_is_interesting_and_smaller() {
        let mut accepted: Vec<Vec<u8>> = Vec::new();
        let mut executor = ClosureExecutor::new(needs_shift);
        Reducer::new(Some(Lang::C))
            .reduce_with(INPUT.to_vec(), &mut executor, &mut |event| {
                if let Event::Best(doc) = event {
                    accepted.push(doc.text().to_vec());
                }
                Ok(())
            })
            .unwrap();
        assert!(accepted.len() > 2);
        let mut previous = INPUT.len();
        for text in &accepted {
            assert!(needs_shift(text));
            assert!(text.len() < previous);
            previous = text.len();
        }
    }

    #[test]
    fn uninteresting_original_is_an_error() {
        let err = Reducer::new(Some(Lang::C))
            .reduce(INPUT.to_vec(), |_| false)
            .unwrap_err();
        assert!(matches!(err, Error::OriginalNotInteresting));
    }

    #[test]
    fn input_with_syntax_errors_still_reduces_without_new_errors() {
        let input =
            b"int broken( { return 1 +; }\nint unused(void) { return 2; }\nint keep = 1 << 40;\n";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&Lang::C.ts_language()).unwrap();
        let mut errors = |t: &[u8]| {
            Document::parse(&mut parser, t.to_vec())
                .unwrap()
                .error_count()
        };
        let before = errors(input);
        assert!(before > 0);
        let reduction = Reducer::new(Some(Lang::C))
            .reduce(input.to_vec(), needs_shift)
            .unwrap();
        assert_eq!(reduction.input_errors, before);
        assert!(
            reduction.text.len() < input.len() / 2,
            "{:?}",
            String::from_utf8_lossy(&reduction.text)
        );
        assert!(errors(&reduction.text) <= before);
    }

    #[test]
    fn deep_input_does_not_overflow_the_stack() {
        // 30,000 nested parentheses: every walk must be iterative.
        let depth = 30_000;
        let mut text = b"int x = ".to_vec();
        text.extend(std::iter::repeat_n(b'(', depth));
        text.push(b'1');
        text.extend(std::iter::repeat_n(b')', depth));
        text.extend_from_slice(b";\nint y;\n");
        let reduction = Reducer::new(Some(Lang::C))
            .reduce(text, |t| t.windows(5).any(|w| w == b"int x"))
            .unwrap();
        assert!(
            reduction.after.bytes < 100,
            "{:?}",
            String::from_utf8_lossy(&reduction.text)
        );
    }
}
