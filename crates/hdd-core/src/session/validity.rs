//! How the session tells a valid candidate, and the outline phase of a huge input.
//!
//! A candidate is valid when it has no more ERROR/MISSING nodes than the current best:
//! counted in a tree derived incrementally from the best's ([`Document::derive_until`]),
//! or, while the best is bigger than the outline threshold, by a windowed parse
//! (`outline.rs`). A tree-sitter tree costs about fifty bytes per byte of C, so a best of
//! that size is held without one ([`Session::outlined`]); the outline pass removes
//! top-level items until the best is under the threshold, and the best is then parsed
//! whole, once ([`Session::leave_outline`]).

use super::Session;
use crate::document::{Document, Leniency};
use crate::edit::EditSet;
use crate::error::Error;
use crate::outline::{Items, Scan, first_document};

impl Session<'_> {
    /// With `true` (the default), [`Session::reduce`] on a grammar language ends with a
    /// lenient tail: once the grammar's passes are done, the tokens pass runs again, on
    /// candidates that need not parse. A crash of a parser, say, is often
    /// shown best by a text its grammar refuses (`@media(a)and print{}` is valid CSS;
    /// `@media and print`, smaller, is not). A test that refuses a syntax error (one
    /// probe) gets candidates that lack at most tokens tree-sitter would insert. With
    /// `false`, every candidate the test sees parses as well as the input.
    pub fn set_lenient_tail(&mut self, lenient_tail: bool) {
        self.lenient_tail = lenient_tail;
    }

    /// Whether [`Session::reduce`] ends with a lenient tail.
    #[must_use]
    pub fn lenient_tail(&self) -> bool {
        self.lenient_tail
    }

    /// Whether the session is in its lenient tail: candidates need not parse (or may
    /// lack tokens tree-sitter would insert).
    #[must_use]
    pub fn lenient(&self) -> bool {
        self.lenient != Leniency::Strict
    }

    /// Enters the lenient tail: from now on candidates are checked with `leniency`.
    pub(crate) fn begin_lenient(&mut self, leniency: Leniency) {
        self.lenient = leniency;
    }

    /// Sets the size above which a grammar text is held without its syntax tree (4 MiB
    /// by default): [`Session::reduce`] then starts with the outline phase, ddmin over
    /// the top-level items with candidates checked by windowed parses, until the best is
    /// under this size. Call it before the reduction starts.
    ///
    /// # Errors
    /// [`Error::Stopped`] when a stop was asked for during the parse this needs;
    /// [`Error::Parser`] when the parser gave up.
    pub fn set_outline_threshold(&mut self, bytes: usize) -> Result<(), Error> {
        self.outline.threshold = bytes;
        let executor = &*self.executor;
        let stop = || executor.stop_requested();
        let Some(parser) = &mut self.parser else {
            return Ok(());
        };
        if self.current.tree().is_none() {
            return self.after_accept();
        }
        if self.current.text().len() > bytes {
            let version = self.current.version().unwrap_or(0);
            let (mut doc, items) = first_document(parser, self.current.text().to_vec(), 0, &stop)?;
            doc.set_version(version);
            self.current = doc;
            self.outline.items = items.filter(|_| version == 0);
        }
        Ok(())
    }

    /// Whether the best is held without its syntax tree (a grammar text bigger than the
    /// outline threshold, [`Session::set_outline_threshold`]): the passes that need a
    /// tree cannot run yet.
    #[must_use]
    pub fn outlined(&self) -> bool {
        self.parser.is_some() && self.current.tree().is_none()
    }

    /// Ends the outline phase: the best is parsed whole, once (nothing to do when it has
    /// its tree).
    ///
    /// # Errors
    /// [`Error::Stopped`] when a stop was asked for during the parse; [`Error::Parser`]
    /// when the parser gave up.
    pub(crate) fn leave_outline(&mut self) -> Result<(), Error> {
        if !self.outlined() {
            return Ok(());
        }
        self.outline.items = None;
        let executor = &*self.executor;
        let stop = || executor.stop_requested();
        let Some(parser) = &mut self.parser else {
            return Ok(());
        };
        if self.current.grow_tree(parser, &stop)? {
            Ok(())
        } else {
            Err(Error::Parser("the parser gave up on the best".into()))
        }
    }

    /// The byte ranges of the current best's top-level items, by a windowed parse (or
    /// from the first one, for the original).
    ///
    /// # Errors
    /// [`Error::Stopped`] when a stop was asked for during the parse.
    pub(crate) fn outline_items(&mut self) -> Result<Items, Error> {
        if let Some(items) = self.outline.items.take()
            && self.version() == 0
        {
            return Ok(items);
        }
        let executor = &*self.executor;
        let stop = || executor.stop_requested();
        let Some(parser) = &mut self.parser else {
            return Ok(Vec::new());
        };
        let scan = Scan {
            items: true,
            ..Scan::default()
        };
        Ok(scan
            .run(parser, self.current.text(), &stop)?
            .map(|outline| outline.items)
            .unwrap_or_default())
    }

    /// The candidate `edits` make of the current best, whose text is `text`, if it is
    /// valid: no more errors than the best (in a tree derived from the best's, or, while
    /// the best is outlined, by a windowed parse); any text without a grammar; in the
    /// lenient tail of [`Session::reduce`], as its leniency counts errors.
    ///
    /// # Errors
    /// [`Error::Stopped`] when a stop was asked for during the parse.
    pub(super) fn derive(
        &mut self,
        edits: &EditSet,
        text: Vec<u8>,
    ) -> Result<Option<Document>, Error> {
        let executor = &*self.executor;
        let stop = || executor.stop_requested();
        let Some(parser) = &mut self.parser else {
            return Ok(Some(Document::plain(text)));
        };
        if self.current.tree().is_some() {
            return self
                .current
                .derive_within(parser, edits, text, &stop, self.lenient);
        }
        let max_errors = self.current.error_count();
        let scan = Scan {
            max_errors,
            ..Scan::default()
        };
        Ok(scan
            .run(parser, &text, &stop)?
            .filter(|outline| outline.errors <= max_errors)
            .map(|outline| Document::outlined(text, outline.errors, outline.tokens)))
    }

    /// After a new best: an outlined best that is now under the threshold is parsed.
    ///
    /// # Errors
    /// As [`Session::leave_outline`].
    pub(super) fn after_accept(&mut self) -> Result<(), Error> {
        if self.outlined() && self.current.text().len() <= self.outline.threshold {
            self.leave_outline()
        } else {
            Ok(())
        }
    }
}
