//! A reduction confined to a range of the input (`--range`, "minimize selection"): the
//! text before and after it stays byte for byte, the test still sees the whole text.
//!
//! Every edit a candidate makes must lie inside the range, so the bytes before it and the
//! bytes after it never change: the range of any best is the original's prefix length to
//! its length minus the original's suffix length. The session refuses any other
//! candidate before it is parsed ([`Session::prepare`]); the passes that cut a text into
//! units drop the units outside at once ([`Session::inside`]), so ddmin does not spend its
//! parts on candidates that would be refused.

use std::ops::Range;

use super::Session;
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::kept::Kept;

impl Session<'_> {
    /// Confines the reduction to `range`, byte offsets into the input: only its bytes may
    /// change (a node, token or line that reaches outside it stays), while the test
    /// still gets the whole text. It also turns the lenient tail off (its probe writes
    /// after the range). Call it before the reduction starts.
    ///
    /// # Errors
    /// [`Error::Range`] when the range is not inside the input, or the reduction has
    /// already moved on from it.
    pub fn set_range(&mut self, range: Range<usize>) -> Result<(), Error> {
        let len = self.current.text().len();
        if range.start > range.end || range.end > len {
            return Err(Error::Range(format!(
                "bytes {}..{} are not inside the input ({len} bytes)",
                range.start, range.end
            )));
        }
        if self.version() != 0 {
            return Err(Error::Range(
                "a range must be set before the reduction starts".into(),
            ));
        }
        self.kept = Kept::new(range.start, len - range.end);
        self.lenient_tail = false;
        Ok(())
    }

    /// What the reduction keeps as it is (nothing unless [`Session::set_range`]
    /// confined it).
    #[must_use]
    pub fn kept(&self) -> Kept {
        self.kept
    }

    /// The range the reduction may change in `doc`, a best of this session (the whole
    /// text unless [`Session::set_range`] confined it).
    #[must_use]
    pub fn range_of(&self, doc: &Document) -> Range<usize> {
        self.kept.range_of(doc.text().len())
    }

    /// Whether every edit of `edits`, against `doc`, lies inside its range.
    #[must_use]
    pub fn inside(&self, doc: &Document, edits: &[Edit]) -> bool {
        self.kept.inside(doc.text().len(), edits)
    }

    /// Whether `edits`, against the current best, leave the text outside the range as
    /// it is.
    pub(super) fn confined(&self, edits: &EditSet) -> bool {
        self.inside(&self.current, edits.edits())
    }
}
