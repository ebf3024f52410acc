//! Tests of ddmin: the textbook example, the schedules, 1-minimality on random predicates.

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;

use super::*;

/// Runs ddmin sequentially with a cache; returns the result and the number of
/// distinct configurations tested.
fn run(len: usize, interesting: &dyn Fn(&[usize]) -> bool) -> (Vec<usize>, usize) {
    run_with(len, DdminOptions::default(), interesting)
}

/// The mode hdd's passes use: complements only, resuming after a success.
const REDUCER: DdminOptions = DdminOptions {
    try_empty: false,
    complements_only: true,
    resume: true,
    schedule: Schedule::Halving,
};

/// The same with CDD's part sizes.
const COUNTER: DdminOptions = DdminOptions {
    try_empty: true,
    complements_only: true,
    resume: true,
    schedule: Schedule::Counter,
};

#[test]
fn weighted_parts_have_about_equal_weights() {
    // One heavy element among light ones: at granularity 2 it is a part of its own.
    let weights = vec![1, 1, 100, 1, 1, 1];
    let options = DdminOptions {
        schedule: Schedule::Weighted,
        ..REDUCER
    };
    let run = Ddmin::with_weights(weights, options);
    let first: Vec<Vec<usize>> = run.removals().take(2).collect();
    assert_eq!(first, [vec![3, 4, 5], vec![0, 1, 2]]);
    let unweighted = Ddmin::with_weights(vec![1, 1, 100, 1, 1, 1], REDUCER);
    let first: Vec<Vec<usize>> = unweighted.removals().take(2).collect();
    assert_eq!(first, [vec![3, 4, 5], vec![0, 1, 2]]);
    let round = Round::weighted(&[0, 1, 2, 3, 4, 5], 3, true, 0, Some(&[1, 1, 100, 1, 1, 1]));
    assert_eq!(round.bounds, [0, 2, 3, 6], "the heavy one alone");
}

#[test]
fn counter_sizes_are_cdds() {
    assert_eq!(counter_sizes(), [9, 6, 3, 2, 1]);
}

#[test]
fn counter_schedule_removes_parts_of_its_sizes() {
    // Nothing is interesting: after the empty set, parts of about 9 (three: 6, 7
    // and 7 elements), then 6 (four of 5), 3 (seven), 2 (ten), 1 (twenty).
    let mut seen = Vec::new();
    ddmin::<()>(20, COUNTER, &mut |configs| {
        seen.extend(configs.map(|c| 20 - c.len()));
        Ok(None)
    })
    .unwrap();
    assert_eq!(seen[0], 20, "the empty configuration first");
    assert_eq!(seen.len(), 1 + 3 + 4 + 7 + 10 + 20);
    assert_eq!(&seen[1..4], [6, 7, 7]);
    assert!(seen[4..8].iter().all(|&r| r == 5));
    assert!(seen[25..].iter().all(|&r| r == 1));
}

fn run_with(
    len: usize,
    options: DdminOptions,
    interesting: &dyn Fn(&[usize]) -> bool,
) -> (Vec<usize>, usize) {
    let mut cache: HashMap<Vec<usize>, bool> = HashMap::new();
    let result = ddmin::<()>(len, options, &mut |configs| {
        for (i, config) in configs.enumerate() {
            let verdict = *cache
                .entry(config.clone())
                .or_insert_with(|| interesting(&config));
            if verdict {
                return Ok(Some(i));
            }
        }
        Ok(None)
    })
    .unwrap();
    (result, cache.len())
}

#[test]
fn textbook_example_finds_2_and_8_within_17_tests() {
    // Zeller & Hildebrandt's example: 10 elements (numbered 1..=10 in the paper,
    // 0..=9 here), the failure needs elements 2 and 8.
    let (result, tests) = run(10, &|c| c.contains(&1) && c.contains(&7));
    assert_eq!(result, vec![1, 7]);
    assert!(tests <= 17, "ddmin used {tests} distinct tests");
}

#[test]
fn empty_configuration_is_tried_first_when_asked() {
    let mut seen = Vec::new();
    let result = ddmin::<()>(
        3,
        DdminOptions {
            try_empty: true,
            ..DdminOptions::default()
        },
        &mut |configs| {
            seen.push(configs.next());
            Ok(Some(0))
        },
    )
    .unwrap();
    assert!(result.is_empty());
    assert_eq!(seen, vec![Some(Vec::<usize>::new())]);
}

#[test]
fn each_call_hands_over_the_rounds_that_would_follow() {
    // Nothing is interesting: the one call gets every round, granularity 2 to 4.
    let mut seen = Vec::new();
    ddmin::<()>(4, REDUCER, &mut |configs| {
        seen.push(configs.collect::<Vec<_>>());
        Ok(None)
    })
    .unwrap();
    let expected: Vec<Vec<usize>> = vec![
        vec![0, 1],
        vec![2, 3],
        vec![1, 2, 3],
        vec![0, 2, 3],
        vec![0, 1, 3],
        vec![0, 1, 2],
    ];
    assert_eq!(seen, vec![expected]);
}

#[test]
fn removals_are_what_each_configuration_leaves_out() {
    let mut run = Ddmin::new(
        7,
        DdminOptions {
            try_empty: true,
            ..REDUCER
        },
    );
    for found in [Some(2), Some(1), Some(0)] {
        let kept = run.kept().to_vec();
        for (config, removed) in run.configs().zip(run.removals()) {
            let mut whole: Vec<usize> = config.iter().chain(&removed).copied().collect();
            whole.sort_unstable();
            assert_eq!(whole, kept);
            assert!(removed.windows(2).all(|w| w[0] < w[1]));
        }
        assert_eq!(run.configs().count(), run.removals().count());
        run.advance(found);
        if run.is_finished() {
            break;
        }
    }
}

#[test]
fn single_element_is_kept_without_a_test() {
    let (result, tests) = run(1, &|_| true);
    assert_eq!(result, vec![0]);
    assert_eq!(tests, 0);
}

fn is_one_minimal(result: &[usize], interesting: &dyn Fn(&[usize]) -> bool) -> bool {
    (0..result.len()).all(|skip| {
        let smaller: Vec<usize> = result
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != skip)
            .map(|(_, &e)| e)
            .collect();
        result.len() <= 1 || !interesting(&smaller)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn result_is_one_minimal_for_monotone_predicates(
        len in 1usize..40,
        needed in proptest::collection::btree_set(0usize..40, 0..5),
    ) {
        let needed: BTreeSet<usize> = needed.into_iter().filter(|&e| e < len).collect();
        let interesting = |c: &[usize]| needed.iter().all(|e| c.contains(e));
        for options in [DdminOptions::default(), REDUCER, COUNTER] {
            let (result, _) = run_with(len, options, &interesting);
            prop_assert!(interesting(&result));
            prop_assert!(is_one_minimal(&result, &interesting));
            if !needed.is_empty() {
                prop_assert_eq!(&result, &needed.iter().copied().collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn result_is_one_minimal_for_non_monotone_predicates(
        len in 1usize..30,
        seed in any::<u64>(),
    ) {
        // An arbitrary (hash-defined) predicate, true on the full set.
        let interesting = |c: &[usize]| {
            if c.len() == len {
                return true;
            }
            let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
            for &e in c {
                h = (h ^ e as u64).wrapping_mul(0x100_0000_01b3);
            }
            h % 3 == 0
        };
        for options in [DdminOptions::default(), REDUCER, COUNTER] {
            let (result, _) = run_with(len, options, &interesting);
            prop_assert!(interesting(&result));
            prop_assert!(is_one_minimal(&result, &interesting), "seed {seed}: {result:?}");
        }
        // Weighted parts, the weights from the seed.
        let weights: Vec<u64> = (0..len as u64).map(|i| (seed >> (i % 60)) % 7 + 1).collect();
        let mut run = Ddmin::with_weights(
            weights,
            DdminOptions { schedule: Schedule::Weighted, ..REDUCER },
        );
        while !run.is_finished() {
            let found = run.configs().position(|c| interesting(&c));
            run.advance(found);
        }
        prop_assert!(interesting(run.kept()));
        prop_assert!(is_one_minimal(run.kept(), &interesting), "seed {seed} weighted");
    }
}

#[test]
fn finest_first_starts_at_one_element_a_part() {
    // Nothing is interesting: one round of single elements, and the run is over.
    let mut run = Ddmin::new(8, REDUCER).finest_first();
    let removals: Vec<Vec<usize>> = run.removals().collect();
    assert_eq!(removals, (0..8).map(|i| vec![i]).collect::<Vec<_>>());
    run.advance(None);
    assert!(run.is_finished());
    // After a success it goes on at one element a part and ends 1-minimal, with either
    // schedule (CDD's tries the empty configuration first).
    let interesting = |c: &[usize]| c.contains(&2) && c.contains(&5);
    for options in [REDUCER, COUNTER] {
        let mut run = Ddmin::new(8, options).finest_first();
        let mut tested = 0;
        while !run.is_finished() {
            let configs: Vec<Vec<usize>> = run.configs().collect();
            assert!(
                configs
                    .iter()
                    .all(|c| c.is_empty() || c.len() + 1 == run.kept().len())
            );
            let found = configs.iter().position(|c| {
                tested += 1;
                interesting(c)
            });
            run.advance(found);
        }
        assert_eq!(run.kept(), [2, 5], "{options:?}");
        assert!(tested <= 1 + 8 + 7 + 6 + 5 + 4 + 3 + 2, "{tested} tests");
    }
}
