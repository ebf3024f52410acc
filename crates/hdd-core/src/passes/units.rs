//! ddmin over units of edits: the engine of the passes that delete things by list
//! (lines, tokens, literals, names), each unit one edit or a group of edits that go
//! together.

use crate::ddmin::{DdminOptions, ddmin};
use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::session::Session;

/// ddmin over `units` (edits against `base`): a configuration keeps some units, and its
/// candidate applies the edits of all the others. Returns whether anything was accepted.
pub(super) fn ddmin_units(
    session: &mut Session<'_>,
    base: &Document,
    units: &[Edit],
    try_empty: bool,
) -> Result<bool, Error> {
    ddmin_groups(session, base, units, std::slice::from_ref, try_empty)
}

/// [`ddmin_units`] where each unit is a group of edits (`edits_of` gives them) that
/// go together: a name with every statement that mentions it.
pub(super) fn ddmin_groups<U>(
    session: &mut Session<'_>,
    base: &Document,
    units: &[U],
    edits_of: impl Fn(&U) -> &[Edit],
    try_empty: bool,
) -> Result<bool, Error> {
    let mut progress = false;
    ddmin(
        units.len(),
        DdminOptions {
            try_empty,
            complements_only: true,
            resume: true,
        },
        &mut |configs| {
            let mut candidates = configs.map(|kept| {
                let mut keep = vec![false; units.len()];
                for k in kept {
                    keep[k] = true;
                }
                let removed = units
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| !**k)
                    .flat_map(|(u, _)| edits_of(u).iter().cloned())
                    .collect();
                EditSet::new(removed)
            });
            let found = session.first_interesting(base, &mut candidates)?;
            progress |= found.is_some();
            Ok(found)
        },
    )?;
    Ok(progress)
}
