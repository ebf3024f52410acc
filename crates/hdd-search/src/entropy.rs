//! The smallest entropy budget at which a system under test fails.
//!
//! A system under test that draws its decisions from a byte stream can be run with a
//! budget of `size` bytes from seed `seed` ([`crate::stream`]). The search first grows
//! the size (doubling from the smallest) until some seed fails, then halves the gap
//! between the biggest size at which every seed passed and the smallest at which one
//! failed, until they are one apart. At each size it tries seeds `first_seed`,
//! `first_seed + 1`, … up to `attempts` of them, `batch` at a time (the caller runs a
//! batch at once), and keeps the first failing seed in seed order: the answer does not
//! depend on the batch size, only on the system under test.

/// One run of the system under test: `size` bytes of `seed`'s stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trial {
    /// The number of bytes.
    pub size: usize,
    /// The seed of the stream.
    pub seed: u64,
}

/// How the sizes and seeds are searched.
#[derive(Debug, Clone, Copy)]
pub struct SizeSearch {
    /// The first size tried (at least 1).
    pub min_size: usize,
    /// The biggest size tried: past it, the search gives up.
    pub max_size: usize,
    /// Seeds tried per size.
    pub attempts: u64,
    /// The first seed of each size.
    pub first_seed: u64,
    /// Trials handed to the caller at once.
    pub batch: usize,
}

/// A failing trial, the smallest the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The failing size and seed.
    pub trial: Trial,
    /// The biggest size at which every seed tried passed (`None`: the smallest size
    /// failed).
    pub passing_size: Option<usize>,
    /// Runs of the system under test.
    pub runs: usize,
}

/// Searches the smallest failing size; `run` answers a batch of trials (`true` = the
/// system under test failed). `Ok(None)` when no seed fails up to the biggest size; the
/// number of runs then is the second value.
///
/// # Errors
/// What `run` returns.
///
/// # Panics
/// When `run` answers a different number of trials than asked.
pub fn smallest_failing<E>(
    search: &SizeSearch,
    mut run: impl FnMut(&[Trial]) -> Result<Vec<bool>, E>,
) -> Result<Result<Found, usize>, E> {
    let mut runs = 0;
    let mut at = |size: usize, runs: &mut usize| -> Result<Option<u64>, E> {
        let mut next = 0u64;
        while next < search.attempts {
            let count = (search.attempts - next).min(search.batch.max(1) as u64);
            let trials: Vec<Trial> = (next..next + count)
                .map(|i| Trial {
                    size,
                    seed: search.first_seed.wrapping_add(i),
                })
                .collect();
            let failed = run(&trials)?;
            assert_eq!(failed.len(), trials.len(), "one answer per trial");
            *runs += trials.len();
            if let Some(t) = trials.iter().zip(&failed).find(|(_, f)| **f) {
                return Ok(Some(t.0.seed));
            }
            next += count;
        }
        Ok(None)
    };
    let min = search.min_size.max(1);
    let max = search.max_size.max(min);
    // Grow.
    let mut passing = None;
    let mut size = min;
    let (mut failing, mut seed) = loop {
        if let Some(seed) = at(size, &mut runs)? {
            break (size, seed);
        }
        passing = Some(size);
        if size == max {
            return Ok(Err(runs));
        }
        size = size.saturating_mul(2).min(max);
    };
    // Shrink: every seed passed at `passing`, one failed at `failing`.
    if let Some(mut lo) = passing {
        while failing - lo > 1 {
            let mid = lo + (failing - lo) / 2;
            match at(mid, &mut runs)? {
                Some(s) => (failing, seed) = (mid, s),
                None => lo = mid,
            }
        }
        passing = Some(lo);
    }
    Ok(Ok(Found {
        trial: Trial {
            size: failing,
            seed,
        },
        passing_size: passing,
        runs,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(batch: usize) -> SizeSearch {
        SizeSearch {
            min_size: 1,
            max_size: 1 << 20,
            attempts: 8,
            first_seed: 0,
            batch,
        }
    }

    /// Fails from size `from` on, for seeds whose number is a multiple of `every`.
    fn sut(from: usize, every: u64) -> impl FnMut(&[Trial]) -> Result<Vec<bool>, ()> {
        move |trials| {
            Ok(trials
                .iter()
                .map(|t| t.size >= from && t.seed % every == 3)
                .collect())
        }
    }

    #[test]
    fn finds_the_threshold_with_the_first_failing_seed() {
        for from in [1, 2, 5, 37, 1000, 65_537] {
            let found = smallest_failing(&search(1), sut(from, 4)).unwrap().unwrap();
            assert_eq!(
                found.trial,
                Trial {
                    size: from,
                    seed: 3
                }
            );
            assert_eq!(found.passing_size, (from > 1).then(|| from - 1));
        }
    }

    #[test]
    fn the_batch_size_changes_the_runs_not_the_answer() {
        let one = smallest_failing(&search(1), sut(300, 5)).unwrap().unwrap();
        let many = smallest_failing(&search(6), sut(300, 5)).unwrap().unwrap();
        assert_eq!(one.trial, many.trial);
        assert_eq!(one.trial, Trial { size: 300, seed: 3 });
        assert!(many.runs >= one.runs);
    }

    #[test]
    fn gives_up_past_the_biggest_size() {
        let mut s = search(2);
        s.max_size = 100;
        let runs = smallest_failing(&s, sut(101, 1)).unwrap().unwrap_err();
        // 1, 2, 4, ..., 64, 100: eight sizes of eight seeds.
        assert_eq!(runs, 8 * 8);
    }
}
