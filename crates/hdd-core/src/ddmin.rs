//! Zeller & Hildebrandt's ddmin ("Simplifying and Isolating Failure-Inducing Input",
//! TSE 2002) over the indices `0..len`, with lazily generated configurations.

/// How the size of the parts a run removes shrinks from one round to the next.
///
/// Measured on the corpus and the shared bench at -j 1 (`--list-schedule`): `Weighted`
/// ran 5.7% fewer tests than `Halving` on the 14 corpus cases (6,472 against 6,862, the
/// same results) and 5.5% fewer on 6 shared cases (7,901 against 8,362; fewer on 4 of
/// them, c-warn-1500 3,828 against 4,298, js-underscore 2,152 against 2,096), so it is
/// the default; `Counter` ran 2.4% more than `Halving` on the corpus (5,800 against 5,662
/// on 12 cases).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Schedule {
    /// ddmin's: halves, then quarters, … (granularity doubling), down to one element.
    Halving,
    /// Counter-based delta debugging's (CDD: Zhang et al., "Toward a Better
    /// Understanding of Probabilistic Delta Debugging", ICSE 2025): round `r` removes
    /// parts of `s_r ≈ −1/ln(1 − p_r)` elements, `p_r = p_0 / (1 − 1/e)^r`, `p_0 = 0.1`:
    /// 9, 6, 3, 2, then 1 element (the sizes ProbDD's probabilities lead to, without
    /// them). Sizes not below the set's own are skipped (the empty configuration, tried
    /// first, covers them).
    Counter,
    /// Halving, with parts of about equal *weight* rather than equal count when the run
    /// has weights ([`Ddmin::with_weights`]; WDD: Zhou et al., "Weighted Delta
    /// Debugging"): a big element gets a part of its own early, small ones share. Runs
    /// without weights halve by count.
    #[default]
    Weighted,
}

/// The part sizes of [`Schedule::Counter`], round by round (the last is 1).
fn counter_sizes() -> &'static [usize] {
    static SIZES: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    SIZES.get_or_init(|| {
        let mut sizes = Vec::new();
        let mut p: f64 = 0.1;
        loop {
            let s = if p >= 1.0 - 1e-9 {
                1.0
            } else {
                (-1.0 / (1.0 - p).ln()).round().max(1.0)
            };
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a small positive whole number"
            )]
            let s = s as usize;
            if sizes.last() != Some(&s) {
                sizes.push(s);
            }
            if s == 1 {
                return sizes;
            }
            p /= 1.0 - (-1.0f64).exp();
        }
    })
}

/// How a ddmin run proceeds.
#[derive(Debug, Clone, Copy, Default)]
pub struct DdminOptions {
    /// Test the empty configuration first (picireny's "EmptyDD"): plain ddmin never
    /// tries to remove everything, and with one element it tests nothing at all.
    pub try_empty: bool,
    /// Test only complements when the granularity is above 2 (the subsets of a fine
    /// partition rarely pass on real inputs, and each costs a test). Off in textbook
    /// ddmin; the result is 1-minimal either way.
    pub complements_only: bool,
    /// After a complement succeeds, start the next round at the part that followed the
    /// removed one instead of at the first part (picire's "resume"). The result is still
    /// 1-minimal: the run ends only after a whole round at full granularity fails.
    pub resume: bool,
    /// How part sizes shrink ([`Schedule::Halving`] is ddmin's). Either way the run ends
    /// only after a round of one-element parts finds nothing.
    pub schedule: Schedule,
}

/// One round's configurations at granularity `n`: the `n` subsets, then (for n > 2)
/// the `n` complements. Parts are split as in Zeller's `split`: part `i` takes
/// `⌊rest/(n−i)⌋` of the elements not yet taken, so parts of size `⌊|c|/n⌋` come first and
/// the larger ones last. With an offset, each group starts at that part and wraps around.
#[derive(Debug, Clone)]
pub struct Round<'c> {
    current: &'c [usize],
    n: usize,
    complements_only: bool,
    offset: usize,
    /// `bounds[i]..bounds[i + 1]` is part `i`.
    bounds: Vec<usize>,
}

impl<'c> Round<'c> {
    fn new(current: &'c [usize], n: usize, complements_only: bool, offset: usize) -> Round<'c> {
        Round::weighted(current, n, complements_only, offset, None)
    }

    /// [`Round::new`], the parts cut at equal shares of the elements' total `weights`
    /// (each part non-empty) when given.
    fn weighted(
        current: &'c [usize],
        n: usize,
        complements_only: bool,
        offset: usize,
        weights: Option<&[u64]>,
    ) -> Round<'c> {
        let len = current.len();
        let mut bounds = Vec::with_capacity(n + 1);
        let mut start = 0;
        bounds.push(0);
        if let Some(weights) = weights {
            let mut prefix = Vec::with_capacity(len + 1);
            prefix.push(0u64);
            for &e in current {
                prefix.push(prefix[prefix.len() - 1] + weights[e].max(1));
            }
            let total = prefix[len];
            for j in 1..n {
                let target = total / n as u64 * j as u64;
                // The cut nearest to the target share.
                let mut cut = prefix.partition_point(|&p| p < target);
                if cut > 0 && target - prefix[cut - 1] < prefix[cut].saturating_sub(target) {
                    cut -= 1;
                }
                // Each part takes one element at least, and leaves one for each part after.
                let end = cut.clamp(start + 1, len - (n - j));
                bounds.push(end);
                start = end;
            }
            bounds.push(len);
        } else {
            for j in 0..n {
                start += (len - start) / (n - j);
                bounds.push(start);
            }
        }
        Round {
            current,
            n,
            complements_only,
            offset: offset % n,
            bounds,
        }
    }

    /// Number of configurations in the round.
    #[must_use]
    pub fn len(&self) -> usize {
        if self.n == 2 {
            2
        } else {
            2 * self.n - self.skipped()
        }
    }

    fn skipped(&self) -> usize {
        if self.complements_only && self.n > 2 {
            self.n
        } else {
            0
        }
    }

    /// Whether the round has no configurations.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.current.is_empty()
    }

    /// Whether configuration `i` is a subset (as opposed to a complement).
    #[must_use]
    pub fn is_subset(&self, i: usize) -> bool {
        i + self.skipped() < self.n
    }

    /// The part configuration `i` keeps (a subset) or removes (a complement).
    #[must_use]
    pub fn part_of(&self, i: usize) -> usize {
        ((i + self.skipped()) % self.n + self.offset) % self.n
    }

    fn part(&self, p: usize) -> std::ops::Range<usize> {
        self.bounds[p]..self.bounds[p + 1]
    }

    /// Configuration `i` of the round: the kept elements, sorted.
    #[must_use]
    pub fn config(&self, i: usize) -> Vec<usize> {
        let part = self.part(self.part_of(i));
        if self.is_subset(i) {
            self.current[part].to_vec()
        } else {
            let mut kept = self.current[..part.start].to_vec();
            kept.extend_from_slice(&self.current[part.end..]);
            kept
        }
    }

    /// Configuration `i` of the round as the elements of the current set it leaves out,
    /// sorted: a complement's part, or everything but a subset's part. (A complement of a
    /// fine round leaves out few elements: its candidate costs as much as those, where
    /// listing the kept elements would cost as much as the whole set.)
    #[must_use]
    pub fn removed(&self, i: usize) -> Vec<usize> {
        let part = self.part(self.part_of(i));
        if self.is_subset(i) {
            let mut removed = self.current[..part.start].to_vec();
            removed.extend_from_slice(&self.current[part.end..]);
            removed
        } else {
            self.current[part].to_vec()
        }
    }

    /// The configurations in test order.
    pub fn configs(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        (0..self.len()).map(|i| self.config(i))
    }
}

/// Configurations to test, in order, each the sorted list of kept elements.
pub type Configs<'a> = dyn Iterator<Item = Vec<usize>> + 'a;

/// Minimizes the set `0..len`. `first` gets the configurations to test in order (each
/// the sorted list of kept elements) and returns the index of the first interesting one,
/// having tested as few as it needs (it may test them several at a time). The full set is
/// assumed interesting. Returns the 1-minimal configuration reached.
///
/// # Errors
/// Whatever `first` returns.
pub fn ddmin<E>(
    len: usize,
    options: DdminOptions,
    first: &mut dyn FnMut(&mut Configs<'_>) -> Result<Option<usize>, E>,
) -> Result<Vec<usize>, E> {
    let mut run = Ddmin::new(len, options);
    while !run.is_finished() {
        let found = first(&mut run.configs())?;
        run.advance(found);
    }
    Ok(run.kept().to_vec())
}

/// A ddmin run as a state machine, for callers that interleave several runs (HDD hands
/// the configurations of every level of a sweep over at once): [`Ddmin::configs`] are
/// the configurations to test now, [`Ddmin::advance`] says which one was interesting.
#[derive(Debug, Clone)]
pub struct Ddmin {
    current: Vec<usize>,
    /// Each element's weight ([`Schedule::Weighted`]), by element.
    weights: Option<Vec<u64>>,
    n: usize,
    /// [`Schedule::Counter`]'s round: an index into [`counter_sizes`].
    level: usize,
    offset: usize,
    empty_first: bool,
    options: DdminOptions,
    finished: bool,
}

impl Ddmin {
    /// A run over `0..len`.
    #[must_use]
    pub fn new(len: usize, options: DdminOptions) -> Ddmin {
        Ddmin {
            current: (0..len).collect(),
            weights: None,
            n: 2,
            level: 0,
            offset: 0,
            empty_first: options.try_empty && len > 0,
            options,
            finished: false,
        }
    }

    /// A run over the elements of `weights`, each weighing what it says: with
    /// [`Schedule::Weighted`] the parts of a round have about equal weights.
    #[must_use]
    pub fn with_weights(weights: Vec<u64>, options: DdminOptions) -> Ddmin {
        let mut run = Ddmin::new(weights.len(), options);
        if options.schedule == Schedule::Weighted {
            run.weights = Some(weights);
        }
        run
    }

    /// Starts the run at its last round, one element a part, for a run expected to find
    /// little: when nothing goes, halving's coarser rounds cost about as many tests again
    /// as that last round. The result is 1-minimal all the same.
    #[must_use]
    pub fn finest_first(mut self) -> Ddmin {
        self.n = self.current.len().max(2);
        self.level = counter_sizes().len() - 1;
        self
    }

    /// Whether the run is over: [`Ddmin::kept`] is 1-minimal.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished || (self.current.len() < 2 && !self.empty_first)
    }

    /// The elements kept so far, sorted.
    #[must_use]
    pub fn kept(&self) -> &[usize] {
        &self.current
    }

    /// This round and the rounds that follow if it finds nothing (granularity doubling
    /// up to one element a part). Handed over as one sequence, a parallel executor keeps
    /// all its jobs busy on the next rounds' configurations instead of waiting for the few
    /// of a coarse round; the order is ddmin's own.
    fn rounds(&self) -> Vec<Round<'_>> {
        self.rounds_with_levels()
            .into_iter()
            .map(|(r, _)| r)
            .collect()
    }

    /// [`Ddmin::rounds`], each with its [`Schedule::Counter`] level (0 with halving).
    fn rounds_with_levels(&self) -> Vec<(Round<'_>, usize)> {
        let mut rounds = Vec::new();
        if self.is_finished() || self.current.len() < 2 {
            return rounds;
        }
        let len = self.current.len();
        if self.options.schedule == Schedule::Counter {
            for (level, &size) in counter_sizes().iter().enumerate().skip(self.level) {
                if size >= len {
                    continue;
                }
                let parts = len.div_ceil(size);
                let round = Round::new(&self.current, parts, true, self.offset);
                rounds.push((round, level));
            }
            return rounds;
        }
        let mut k = self.n.min(len);
        loop {
            rounds.push((
                Round::weighted(
                    &self.current,
                    k,
                    self.options.complements_only,
                    self.offset,
                    self.weights.as_deref(),
                ),
                0,
            ));
            if k >= len {
                return rounds;
            }
            k = (2 * k).min(len);
        }
    }

    /// How many configurations [`Ddmin::configs`] yields.
    #[must_use]
    pub fn len(&self) -> usize {
        if self.is_finished() {
            return 0;
        }
        usize::from(self.empty_first) + self.rounds().iter().map(Round::len).sum::<usize>()
    }

    /// Whether there is nothing to test.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The configurations to test now, in order (each the sorted kept elements).
    pub fn configs(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let empty = usize::from(self.empty_first && !self.is_finished());
        std::iter::repeat_n(Vec::new(), empty).chain(
            self.rounds()
                .into_iter()
                .flat_map(|r| (0..r.len()).map(move |i| r.config(i))),
        )
    }

    /// The configurations of [`Ddmin::configs`], each as the elements of
    /// [`Ddmin::kept`] it leaves out ([`Round::removed`]), sorted.
    pub fn removals(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let empty = usize::from(self.empty_first && !self.is_finished());
        std::iter::repeat_n((), empty)
            .map(|()| self.current.clone())
            .chain(
                self.rounds()
                    .into_iter()
                    .flat_map(|r| (0..r.len()).map(move |i| r.removed(i))),
            )
    }

    /// Configuration `found` of the last [`Ddmin::configs`] was interesting, or (`None`)
    /// none was: the run is then over.
    pub fn advance(&mut self, found: Option<usize>) {
        let mut found = found;
        if self.empty_first {
            self.empty_first = false;
            match found {
                Some(0) => {
                    self.current.clear();
                    return;
                }
                Some(i) => found = Some(i - 1),
                None => {}
            }
        }
        let Some(mut i) = found else {
            self.finished = true;
            return;
        };
        let rounds = self.rounds_with_levels();
        let (round, level) = rounds
            .iter()
            .find(|(r, _)| {
                if i < r.len() {
                    return true;
                }
                i -= r.len();
                false
            })
            .expect("the index of a configuration handed over");
        let (subset, part, k) = (round.is_subset(i), round.part_of(i), round.n);
        let config = round.config(i);
        let level = *level;
        self.current = config;
        if self.options.schedule == Schedule::Counter {
            // The same part size goes on, from the part after the removed one (with two
            // parts, a kept subset is the other part removed).
            self.level = level;
            self.offset = if !self.options.resume {
                0
            } else if subset {
                // Part `part` was kept: the other went; what follows it is part 0 now.
                0
            } else {
                part
            };
            return;
        }
        if subset {
            self.n = 2;
            self.offset = 0;
        } else {
            self.n = (k - 1).max(2);
            // Resume with the part after the removed one (it now has the removed
            // part's index), so the elements before it are not retested first.
            if self.options.resume {
                self.offset = part;
            }
        }
    }
}

#[cfg(test)]
mod tests;
