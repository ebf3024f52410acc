//! ## What it does
//! ddmin over single bytes, for inputs without a grammar.
//!
//! ## When it helps
//! Binary inputs (fuzzer crashes) and the last bytes of text that lines and words
//! cannot split.
//!
//! ## Example
//! `\x00\x01HDR\xff\xfe` with a test that needs `\xff` and `R` becomes `R\xff`.

use super::units::ddmin_units;
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// Above this many bytes the pass does nothing: a byte-level 1-minimal check costs at
/// least one candidate per byte.
const MAX_BYTES: usize = 64 * 1024;

/// ddmin over bytes.
#[derive(Debug, Default)]
pub struct Bytes;

impl Pass for Bytes {
    fn name(&self) -> &'static str {
        "bytes"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let base = session.current().clone();
        if base.tree().is_some() || base.text().len() > MAX_BYTES {
            return Ok(());
        }
        let units: Vec<Edit> = (0..base.text().len())
            .map(|i| Edit::delete(i..i + 1))
            .collect();
        ddmin_units(session, &base, &units, false)?;
        Ok(())
    }
}
