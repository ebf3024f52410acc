//! ## What it does
//! The passes of `--lang bytes`, for choice sequences (the bytes a generator drew its
//! decisions from, as Hypothesis shrinks them) and binary inputs. Each makes the text
//! smaller in shortlex order (fewer bytes, or as many and first in byte order), so the
//! result is the same canonical one whatever the order tests end in (with
//! `--deterministic`, for any number of jobs):
//! - [`DeleteBlocks`]: deletes runs of 8, 4, 2 and 1 bytes at every position (a draw of
//!   that width, or the bytes of a list element);
//! - [`ZeroBlocks`]: sets runs of 8, 4, 2 and 1 bytes to zero (the simplest choice),
//!   then pairs of bytes up to 8 apart (two choices that must stay equal: the keys of
//!   two list elements);
//! - [`LowerIntegers`]: lowers the big-endian integer of 1 to 8 bytes at each position:
//!   one less first (a value that must stay is left after one test), then a binary
//!   search down to the smallest value that keeps the test passing;
//! - [`Redistribute`]: moves as much as it can of a byte's value onto one of the 8 bytes
//!   after it (`128 … 128` -> `1 … 255`): two choices that must add up to something;
//! - [`Reorder`]: sorts the blocks of 1, 2, 4 and 8 bytes, then swaps adjacent blocks
//!   whose second is smaller than their first.
//!
//! ddmin over bytes (`Bytes`) ends each round, so the result is 1-minimal.
//!
//! ## When it helps
//! A generator's stream: `\x0d\x00\x80\x03\x81…` (a 13-element list) that fails because
//! two keys collide after a sort becomes `\x02\x00\x01\x00\xff` (two elements, equal
//! keys, the smallest values that still fail).
//!
//! ## Cost
//! About one candidate per position and width each round: the passes do nothing on a
//! text over [`MAX_BYTES`] (the lines and ddmin passes shrink it first).

use crate::document::Document;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// Above this many bytes the passes do nothing.
const MAX_BYTES: usize = 64 * 1024;

/// The block widths tried, widest first.
const WIDTHS: [usize; 4] = [8, 4, 2, 1];

/// Deletes blocks of 8, 4, 2 and 1 bytes.
#[derive(Debug, Default)]
pub struct DeleteBlocks;

impl Pass for DeleteBlocks {
    fn name(&self) -> &'static str {
        "delete-blocks"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        sweep(session, |text| {
            let mut out = Vec::new();
            for i in 0..text.len() {
                for w in WIDTHS.into_iter().filter(|w| i + w <= text.len()) {
                    out.push((i, vec![Edit::delete(i..i + w)]));
                }
            }
            out
        })
    }
}

/// Sets blocks of 8, 4, 2 and 1 bytes to zero.
#[derive(Debug, Default)]
pub struct ZeroBlocks;

impl Pass for ZeroBlocks {
    fn name(&self) -> &'static str {
        "zero-blocks"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        sweep(session, |text| {
            let mut out = Vec::new();
            for i in 0..text.len() {
                for w in WIDTHS.into_iter().filter(|w| i + w <= text.len()) {
                    if text[i..i + w].iter().any(|&b| b != 0) {
                        out.push((i, vec![Edit::replace(i..i + w, vec![0; w])]));
                    }
                }
            }
            for i in (0..text.len()).filter(|&i| text[i] != 0) {
                for j in (i + 2..text.len().min(i + 9)).filter(|&j| text[j] != 0) {
                    let zero = |k: usize| Edit::replace(k..k + 1, [0]);
                    out.push((i, vec![zero(i), zero(j)]));
                }
            }
            out
        })
    }
}

/// Lowers the big-endian integers of 1 to 8 bytes.
#[derive(Debug, Default)]
pub struct LowerIntegers;

impl Pass for LowerIntegers {
    fn name(&self) -> &'static str {
        "lower-integers"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let mut cursor = 0;
        loop {
            session.check_stop()?;
            let base = session.current().clone();
            if !applies_to(&base) {
                return Ok(());
            }
            let text = base.text();
            // One less, for every integer whose first byte is not zero (one with a zero
            // first byte is the narrower one after it).
            let mut candidates: Vec<(usize, usize, u64)> = Vec::new();
            for i in cursor..text.len() {
                for w in (1..=8).filter(|w| i + w <= text.len() && text[i] != 0) {
                    candidates.push((i, w, read(&text[i..i + w]) - 1));
                }
            }
            let mut sets = candidates
                .iter()
                .map(|&(i, w, v)| EditSet::new(vec![write(i, w, v)]));
            let Some(k) = session.first_interesting(&base, &mut sets)? else {
                return Ok(());
            };
            let (i, w, v) = candidates[k];
            binary_search(session, i, w, v)?;
            cursor = i;
        }
    }
}

/// Moves value from a byte to one of the 8 after it.
#[derive(Debug, Default)]
pub struct Redistribute;

impl Pass for Redistribute {
    fn name(&self) -> &'static str {
        "redistribute"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        sweep(session, |text| {
            let mut out = Vec::new();
            for (i, &a) in text.iter().enumerate().filter(|(_, a)| **a != 0) {
                for (j, &b) in text.iter().enumerate().skip(i + 1).take(8) {
                    let moved = a.min(255 - b);
                    if moved > 0 {
                        out.push((
                            i,
                            vec![
                                Edit::replace(i..i + 1, [a - moved]),
                                Edit::replace(j..j + 1, [b + moved]),
                            ],
                        ));
                    }
                }
            }
            out
        })
    }
}

/// Sorts blocks, then swaps adjacent blocks out of order.
#[derive(Debug, Default)]
pub struct Reorder;

impl Pass for Reorder {
    fn name(&self) -> &'static str {
        "reorder"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        for w in WIDTHS.into_iter().rev() {
            session.check_stop()?;
            let base = session.current().clone();
            if !applies_to(&base) {
                return Ok(());
            }
            let text = base.text();
            let whole = text.len() / w * w;
            let mut blocks: Vec<&[u8]> = text[..whole].chunks(w).collect();
            blocks.sort_unstable();
            let sorted = EditSet::new(vec![Edit::replace(0..whole, blocks.concat())]);
            session.first_interesting(&base, &mut std::iter::once(sorted))?;
        }
        sweep(session, |text| {
            let mut out = Vec::new();
            for i in 0..text.len() {
                for w in WIDTHS.into_iter().filter(|w| i + 2 * w <= text.len()) {
                    let (a, b) = (&text[i..i + w], &text[i + w..i + 2 * w]);
                    if b < a {
                        out.push((i, vec![Edit::replace(i..i + 2 * w, [b, a].concat())]));
                    }
                }
            }
            out
        })
    }
}

/// Whether the passes work on `doc`: a text without a grammar, at most [`MAX_BYTES`].
fn applies_to(doc: &Document) -> bool {
    doc.tree().is_none() && doc.text().len() <= MAX_BYTES
}

/// Proposes `make(text)`'s candidates (edits, each with the position it is at) in order,
/// from the start; after each success, again on the new best from the position of the
/// one accepted, until none is accepted.
fn sweep(
    session: &mut Session<'_>,
    make: impl Fn(&[u8]) -> Vec<(usize, Vec<Edit>)>,
) -> Result<(), Error> {
    let mut cursor = 0;
    loop {
        session.check_stop()?;
        let base: Document = session.current().clone();
        if !applies_to(&base) {
            return Ok(());
        }
        let candidates: Vec<(usize, Vec<Edit>)> = make(base.text())
            .into_iter()
            .filter(|(at, _)| *at >= cursor)
            .collect();
        let mut sets = candidates.iter().map(|(_, e)| EditSet::new(e.clone()));
        match session.first_interesting(&base, &mut sets)? {
            Some(k) => cursor = candidates[k].0,
            None => return Ok(()),
        }
    }
}

/// The integer of `w` bytes at `i` is `hi` in the best, which passes: finds the smallest
/// value at most `hi` that passes, by binary search (the tests of a search run one at a
/// time, each waited for). Stops when the best changes under it (a merge).
fn binary_search(session: &mut Session<'_>, i: usize, w: usize, mut hi: u64) -> Result<(), Error> {
    let mut lo = 0;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let base = session.current().clone();
        let text = base.text();
        if i + w > text.len() || read(&text[i..i + w]) != hi {
            return Ok(());
        }
        let mut one = std::iter::once(EditSet::new(vec![write(i, w, mid)]));
        session.first_interesting(&base, &mut one)?;
        // With several jobs the call may return before its test ends: wait for it.
        session.settle()?;
        let now = session.current().text();
        match now.get(i..i + w).map(read) {
            Some(v) if v <= mid => hi = v,
            _ => lo = mid + 1,
        }
    }
    Ok(())
}

/// The big-endian integer of `bytes` (at most 8).
fn read(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |v, &b| (v << 8) | u64::from(b))
}

/// The edit that writes `value` as the big-endian integer of `w` bytes at `i`.
fn write(i: usize, w: usize, value: u64) -> Edit {
    Edit::replace(i..i + w, value.to_be_bytes()[8 - w..].to_vec())
}

#[cfg(test)]
mod tests {
    use super::super::bytes::Bytes;
    use super::*;
    use crate::ClosureExecutor;

    /// The choice sequence of a list of (key, count) pairs that fails when two equal
    /// keys' counts overflow a byte once the list is sorted: the corpus's generator in
    /// miniature.
    fn overflows(text: &[u8]) -> bool {
        let Some((&n, rest)) = text.split_first() else {
            return false;
        };
        let mut pairs: Vec<(u8, u8)> = rest
            .chunks_exact(2)
            .take(usize::from(n % 16))
            .map(|p| (p[0] % 4, p[1]))
            .collect();
        pairs.sort_by_key(|p| p.0);
        pairs
            .windows(2)
            .any(|w| w[0].0 == w[1].0 && w[0].1.checked_add(w[1].1).is_none())
    }

    fn shrink(input: &[u8], jobs: usize, seed: u64, deterministic: bool) -> Vec<u8> {
        let mut executor = ClosureExecutor::new(overflows).with_jobs(jobs, seed);
        let mut observer = |_: crate::Event<'_>| Ok(());
        let mut session = Session::new(None, input.to_vec(), &mut executor, &mut observer).unwrap();
        session.set_deterministic(deterministic);
        session.set_bytes_mode(true);
        session.reduce().unwrap();
        session.finish().0.text().to_vec()
    }

    #[test]
    fn a_choice_sequence_shrinks_to_the_canonical_smallest() {
        let input: Vec<u8> = [13, 9, 200, 2, 7, 5, 130, 8, 1, 17, 99, 33, 140, 6, 250]
            .into_iter()
            .chain(0..40)
            .collect();
        assert!(overflows(&input));
        let small = shrink(&input, 1, 0, false);
        assert_eq!(small, [2, 0, 1, 0, 255], "{small:?}");
        for (jobs, seed) in [(2, 1), (4, 7), (8, 3)] {
            assert_eq!(shrink(&input, jobs, seed, true), small, "-j {jobs}");
        }
    }

    #[test]
    fn integers_are_read_and_written_big_endian() {
        assert_eq!(read(&[1, 0]), 256);
        assert_eq!(write(3, 2, 255).replacement, [0, 255]);
        assert_eq!(write(0, 8, u64::MAX).replacement, [255; 8]);
    }

    #[test]
    fn every_pass_alone_keeps_the_text_interesting() {
        let input = [9u8, 3, 200, 3, 100, 0, 0, 7, 7];
        assert!(overflows(&input));
        let passes: Vec<Box<dyn Pass>> = vec![
            Box::new(DeleteBlocks),
            Box::new(ZeroBlocks),
            Box::new(LowerIntegers),
            Box::new(Redistribute),
            Box::new(Reorder),
            Box::new(Bytes),
        ];
        for mut pass in passes {
            let mut executor = ClosureExecutor::new(overflows);
            let mut observer = |_: crate::Event<'_>| Ok(());
            let mut session =
                Session::new(None, input.to_vec(), &mut executor, &mut observer).unwrap();
            pass.run(&mut session).unwrap();
            let text = session.finish().0.text().to_vec();
            assert!(overflows(&text), "{}: {text:?}", pass.name());
            assert!(text != input, "{} did nothing", pass.name());
        }
    }
}
