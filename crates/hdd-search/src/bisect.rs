//! Bisection: the first bad value of a sequence that runs from a good value to a bad one.
//!
//! The sequence is indices `0..len`: 0 is good, `len - 1` bad (the caller's word for it;
//! the ends are not probed). Each round probes up to `jobs` unknown indices at once,
//! spread evenly over the interval still open (with one job, its middle: binary search;
//! with `jobs`, an (jobs + 1)-ary search), and narrows it: to below the first bad probe,
//! above the last good one under it. A probe that answers [`Answer::Skip`] (the value
//! cannot be tested: it does not build) is never probed again; the next probe that would
//! have been it goes to the nearest unknown index instead. When only skipped indices are
//! left between the last good and the first bad index, the search ends, and the skipped
//! ones are reported: any of them may be the first bad.

use std::collections::BTreeSet;

/// What a probe says about its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The value is good (the bug is not there).
    Good,
    /// The value is bad (the bug is there).
    Bad,
    /// The value cannot be tested.
    Skip,
}

/// Where a bisection ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bisection {
    /// The first index known bad: every index before it that was probed is good or
    /// skipped.
    pub first_bad: u64,
    /// The last index known good before it.
    pub last_good: u64,
    /// The skipped indices between the two: any of them may be the first bad one.
    pub skipped_between: Vec<u64>,
    /// Every index probed, in order, with its answer.
    pub probes: Vec<(u64, Answer)>,
    /// How many rounds of probes ran (each round's probes ran at once).
    pub rounds: usize,
}

/// Bisects indices `0..len` (`len` at least 2; 0 is good, `len - 1` bad), `jobs` probes
/// a round, `probe` answering a round's indices in their order.
///
/// # Errors
/// What `probe` returns (a test that could not be run, or ended in a way that is neither
/// good nor bad nor skip).
///
/// # Panics
/// When `len` is under 2, or `probe` answers a different number of probes than asked.
pub fn bisect<E>(
    len: u64,
    jobs: usize,
    mut probe: impl FnMut(&[u64]) -> Result<Vec<Answer>, E>,
) -> Result<Bisection, E> {
    assert!(len >= 2, "a bisection needs a good and a bad end");
    let jobs = u64::try_from(jobs.max(1)).unwrap_or(u64::MAX);
    let (mut lo, mut hi) = (0u64, len - 1);
    let mut skipped = BTreeSet::new();
    let mut probes = Vec::new();
    let mut rounds = 0;
    loop {
        let open = hi - lo - 1 - skipped.range(lo + 1..hi).count() as u64;
        if open == 0 {
            break;
        }
        let count = open.min(jobs);
        let mut points: Vec<u64> = Vec::new();
        for j in 1..=count {
            let ideal = lo + mul_div(hi - lo, j, count + 1);
            if let Some(p) = nearest_open(ideal, lo, hi, &skipped, &points) {
                points.push(p);
            }
        }
        points.sort_unstable();
        let answers = probe(&points)?;
        assert_eq!(answers.len(), points.len(), "one answer per probe");
        rounds += 1;
        if let Some((&bad, _)) = points
            .iter()
            .zip(&answers)
            .find(|(_, a)| **a == Answer::Bad)
        {
            hi = bad;
        }
        for (&p, &a) in points.iter().zip(&answers) {
            match a {
                Answer::Good if p < hi => lo = lo.max(p),
                Answer::Skip => {
                    skipped.insert(p);
                }
                _ => {}
            }
            probes.push((p, a));
        }
    }
    Ok(Bisection {
        first_bad: hi,
        last_good: lo,
        skipped_between: skipped.range(lo + 1..hi).copied().collect(),
        probes,
        rounds,
    })
}

/// `a * b / c` without overflow (`b <= c`).
fn mul_div(a: u64, b: u64, c: u64) -> u64 {
    u64::try_from(u128::from(a) * u128::from(b) / u128::from(c)).unwrap_or(a)
}

/// The unknown index strictly between `lo` and `hi` nearest to `ideal` (below it first
/// on a tie) that is neither skipped nor already `taken`.
fn nearest_open(
    ideal: u64,
    lo: u64,
    hi: u64,
    skipped: &BTreeSet<u64>,
    taken: &[u64],
) -> Option<u64> {
    let ideal = ideal.clamp(lo + 1, hi - 1);
    let free = |p: u64| p > lo && p < hi && !skipped.contains(&p) && !taken.contains(&p);
    // Only skipped and taken indices are in the way: at most that many steps.
    let limit = skipped.len() as u64 + taken.len() as u64 + 1;
    for d in 0..=limit {
        if let Some(p) = ideal.checked_sub(d).filter(|&p| free(p)) {
            return Some(p);
        }
        if let Some(p) = ideal.checked_add(d).filter(|&p| free(p)) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bisects `len` indices whose first bad is `first`, skipping `skip`.
    fn run(len: u64, first: u64, jobs: usize, skip: &[u64]) -> Bisection {
        bisect::<()>(len, jobs, |points| {
            Ok(points
                .iter()
                .map(|p| {
                    if skip.contains(p) {
                        Answer::Skip
                    } else if *p >= first {
                        Answer::Bad
                    } else {
                        Answer::Good
                    }
                })
                .collect())
        })
        .unwrap()
    }

    #[test]
    fn binary_search_takes_log2_probes() {
        for len in 2..200u64 {
            let bound = u64::BITS - (len - 2).leading_zeros();
            for first in 1..len {
                let found = run(len, first, 1, &[]);
                assert_eq!((found.first_bad, found.last_good), (first, first - 1));
                assert!(found.probes.len() as u32 <= bound, "{len} {first}");
                assert_eq!(found.rounds, found.probes.len());
            }
        }
    }

    #[test]
    fn more_jobs_take_fewer_rounds() {
        let one = run(1 << 20, 777_777, 1, &[]);
        let four = run(1 << 20, 777_777, 4, &[]);
        assert_eq!(one.first_bad, 777_777);
        assert_eq!(four.first_bad, 777_777);
        assert_eq!(one.rounds, 20);
        assert!(four.rounds <= 9, "{}", four.rounds);
    }

    #[test]
    fn skipped_indices_are_stepped_around_and_reported() {
        // The value before the first bad cannot be tested: either may be the first bad.
        let found = run(16, 10, 1, &[9]);
        assert_eq!((found.first_bad, found.last_good), (10, 8));
        assert_eq!(found.skipped_between, [9]);
        // A skipped value elsewhere costs a probe and changes nothing.
        let found = run(16, 10, 1, &[7]);
        assert_eq!((found.first_bad, found.last_good), (10, 9));
        assert!(found.skipped_between.is_empty());
        // Everything skipped: the whole interval is left.
        let all: Vec<u64> = (1..15).collect();
        let found = run(16, 10, 3, &all);
        assert_eq!((found.first_bad, found.last_good), (15, 0));
        assert_eq!(found.skipped_between, all);
    }

    #[test]
    fn huge_ranges_do_not_overflow() {
        let found = run(u64::MAX, u64::MAX - 3, 3, &[]);
        assert_eq!(found.first_bad, u64::MAX - 3);
        assert!(found.rounds <= 33, "{}", found.rounds);
    }
}
