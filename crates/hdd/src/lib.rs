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
#![deny(missing_docs)]

pub use hdd_core::{
    BoxError, ClosureExecutor, Document, Edit, EditSet, Error, Executor, Pass, PassStats, Session,
    Stats,
};
pub use hdd_grammar::Lang;

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
}

/// Configures and runs a reduction.
#[derive(Debug, Clone, Default)]
pub struct Reducer {
    lang: Option<Lang>,
    original_checked: bool,
}

impl Reducer {
    /// A reducer for `lang` (`None` = language-agnostic lines and tokens).
    #[must_use]
    pub fn new(lang: Option<Lang>) -> Reducer {
        Reducer {
            lang,
            original_checked: false,
        }
    }

    /// Tells the reducer that the caller has already seen the input pass the test, so
    /// it does not test it again (the CLI checks it itself to report a failure in full).
    #[must_use]
    pub fn original_checked(mut self, checked: bool) -> Reducer {
        self.original_checked = checked;
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

    /// Reduces `input` with an executor, calling `observer` with every new best.
    ///
    /// # Errors
    /// When the original is not interesting, the executor cannot run a test, or the
    /// observer fails.
    pub fn reduce_with(
        &self,
        input: Vec<u8>,
        executor: &mut dyn Executor,
        observer: &mut dyn FnMut(&Document) -> Result<(), BoxError>,
    ) -> Result<Reduction, Error> {
        let mut session = Session::new(self.lang, input, executor, observer)?;
        let before = Sizes::of(session.current());
        let input_errors = session.current().error_count();
        if !self.original_checked {
            session.check_original()?;
        }
        session.reduce()?;
        let (doc, stats) = session.finish();
        Ok(Reduction {
            after: Sizes::of(&doc),
            text: doc.text().to_vec(),
            before,
            input_errors,
            stats,
        })
    }
}
