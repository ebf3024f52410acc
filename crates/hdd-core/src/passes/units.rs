//! ddmin over units of edits: the engine of the passes that delete things by list
//! (lines, tokens, literals, names), each unit one edit or a group of edits that go
//! together.

use crate::ddmin::{Ddmin, DdminOptions};
use crate::document::Document;
use crate::edit::{Clash, Edit, EditSet};
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
///
/// After each success the units still in the run are rebased onto the new best, which
/// becomes the base of the next candidates: a candidate then holds the edits of the
/// units it removes from the run, not those of every unit removed before (on a big text
/// that would make each candidate cost as much as the whole list, and the session
/// rebase them all again).
pub(super) fn ddmin_groups<U>(
    session: &mut Session<'_>,
    base: &Document,
    units: &[U],
    edits_of: impl Fn(&U) -> &[Edit],
    try_empty: bool,
) -> Result<bool, Error> {
    ddmin_groups_while(session, base.clone(), units, edits_of, try_empty, |_| true)
}

/// [`ddmin_groups`] on a `base` of its own (no copy of a huge text), given up after a
/// success when `go_on` says the session does not need more.
pub(super) fn ddmin_groups_while<U>(
    session: &mut Session<'_>,
    mut base: Document,
    units: &[U],
    edits_of: impl Fn(&U) -> &[Edit],
    try_empty: bool,
    go_on: impl Fn(&Session<'_>) -> bool,
) -> Result<bool, Error> {
    let mut progress = false;
    // In a reduction confined to a range, the units reaching outside it never go.
    let units: Vec<&U> = units
        .iter()
        .filter(|u| session.inside(&base, edits_of(u)))
        .collect();
    let mut groups = Groups::new(units.iter().map(|u| edits_of(u)));
    let mut run = Ddmin::new(
        units.len(),
        DdminOptions {
            try_empty,
            complements_only: true,
            resume: true,
            schedule: session.schedule(),
        },
    );
    // A round that confirms the fixpoint expects to find little: the coarser rounds
    // would cost about as many tests again as the one-element round a run ends with.
    if session.confirming() {
        run = run.finest_first();
    }
    while !run.is_finished() {
        session.check_stop()?;
        let found = {
            let mut candidates = run.removals().map(|removed| groups.removal(&removed));
            session.first_interesting(&base, &mut candidates)?
        };
        run.advance(found);
        if found.is_none() {
            break;
        }
        progress = true;
        if !go_on(session) {
            break;
        }
        let old = std::mem::replace(&mut base, session.current().clone());
        groups = groups.rebased(run.kept(), |edits| {
            session.rebase_each_onto_current(&old, edits)
        });
    }
    Ok(progress)
}

/// The edits of every unit, against the base of the run's next candidates, in one
/// vector (a unit of one edit costs that edit, not a vector of its own besides: 50 MB of
/// text has a million lines).
struct Groups {
    edits: Vec<Edit>,
    /// Unit `k`'s edits are `edits[bounds[k]..bounds[k + 1]]`.
    bounds: Vec<usize>,
    /// Units whose edits clash with the best: a candidate that removes one is skipped
    /// (as its rebase would fail).
    clashed: Vec<bool>,
}

impl Groups {
    fn new<'e>(units: impl Iterator<Item = &'e [Edit]>) -> Groups {
        let mut groups = Groups {
            edits: Vec::new(),
            bounds: vec![0],
            clashed: Vec::new(),
        };
        for unit in units {
            groups.edits.extend_from_slice(unit);
            groups.bounds.push(groups.edits.len());
            groups.clashed.push(false);
        }
        groups
    }

    fn of(&self, k: usize) -> &[Edit] {
        &self.edits[self.bounds[k]..self.bounds[k + 1]]
    }

    /// The candidate that applies the edits of the `removed` units; `None` when one of
    /// them clashes with the best.
    fn removal(&self, removed: &[usize]) -> Option<EditSet> {
        let mut edits = Vec::new();
        for &k in removed {
            if self.clashed[k] {
                return None;
            }
            edits.extend_from_slice(self.of(k));
        }
        EditSet::new(edits)
    }

    /// The `kept` units' edits through `rebase` (each edit on its own: `Ok(None)` when
    /// done, `Err` on a clash); the other units are left empty.
    fn rebased(
        &self,
        kept: &[usize],
        rebase: impl Fn(&[Edit]) -> Vec<Result<Option<Edit>, Clash>>,
    ) -> Groups {
        let units = self.clashed.len();
        let mut out = Groups {
            edits: Vec::new(),
            bounds: Vec::with_capacity(units + 1),
            clashed: vec![false; units],
        };
        out.bounds.push(0);
        let mut next = kept.iter().copied().peekable();
        for k in 0..units {
            if next.next_if_eq(&k).is_some() {
                if self.clashed[k] {
                    out.clashed[k] = true;
                } else {
                    let at = out.edits.len();
                    for edit in rebase(self.of(k)) {
                        match edit {
                            Ok(edit) => out.edits.extend(edit),
                            Err(Clash) => {
                                out.edits.truncate(at);
                                out.clashed[k] = true;
                                break;
                            }
                        }
                    }
                }
            }
            out.bounds.push(out.edits.len());
        }
        out
    }
}
