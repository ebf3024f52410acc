//! hdd's own costs, without any test process: what the engine spends around the tests.
//!
//! Run by `cargo xtask bench --overhead` (which also times the binary's start and its
//! memory, and writes `corpus/BENCH.md`), or alone: `cargo bench -p hdd --bench overhead`.
//! Prints one JSON object per measure on stdout:
//!
//! - `engine`: a whole reduction of a generated 5,000-line C file with a predicate that
//!   says no to every candidate (the original is taken as checked), so every pass runs
//!   its candidates to the end: wall time, candidates tested, candidates refused by the
//!   validity filter, and the engine's time per tested candidate.
//! - `validity`: the validity filter alone on the same file: one node deleted (a sample of
//!   named nodes, every depth) and the text re-parsed incrementally from the old tree,
//!   errors counted; per candidate, median and 95th percentile, against one full parse.
//!
//! Timing is by `Instant`, in a release build; the figures are for comparison on the same
//! machine in one run, not absolute.

use std::time::{Duration, Instant};

use hdd::{Document, Edit, EditSet, Lang, Reducer};

/// About 5,000 lines of C: functions of ten lines with a struct, a loop, a branch and
/// calls, as a program of many small functions reads.
fn c_source(lines: usize) -> String {
    let mut text = String::from("#include <stdio.h>\nstruct point { int x; int y; };\n");
    let mut i = 0usize;
    while text.lines().count() < lines {
        text.push_str(&format!(
            "static int f{i}(struct point *p, int n) {{\n\
             \x20   int total = {k};\n\
             \x20   for (int j = 0; j < n; j++) {{\n\
             \x20       if (p[j].x > {k}) total += p[j].y * {i};\n\
             \x20       else total -= f{prev}(p, j);\n\
             \x20   }}\n\
             \x20   printf(\"f{i} %d\\n\", total);\n\
             \x20   return total;\n\
             }}\n\n",
            k = i * 7 % 100,
            prev = i.saturating_sub(1),
        ));
        i += 1;
    }
    text
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn engine(input: &str) {
    let started = Instant::now();
    let mut calls = 0u64;
    let reduction = Reducer::new(Some(Lang::C))
        .original_checked(true)
        .deterministic(true)
        .reduce(input.as_bytes().to_vec(), |_| {
            calls += 1;
            false
        })
        .expect("a predicate that says no ends the run, it does not fail it");
    let wall = started.elapsed();
    assert_eq!(reduction.text, input.as_bytes(), "nothing was accepted");
    let s = &reduction.stats;
    println!(
        "{{\"measure\":\"engine\",\"lines\":{},\"bytes\":{},\"seconds\":{:.3},\"tests\":{calls},\
         \"invalid\":{},\"cache_hits\":{},\"rounds\":{},\"ms_per_test\":{:.3}}}",
        input.lines().count(),
        input.len(),
        wall.as_secs_f64(),
        s.invalid,
        s.cache_hits,
        s.rounds,
        millis(wall) / calls.max(1) as f64,
    );
}

fn validity(input: &str) {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&Lang::C.ts_language())
        .expect("the C grammar loads");
    let full = (0..5)
        .map(|_| {
            let t = Instant::now();
            let doc = Document::parse(&mut parser, input.as_bytes().to_vec()).expect("parses");
            let e = t.elapsed();
            assert_eq!(doc.error_count(), 0);
            e
        })
        .min()
        .expect("five parses");
    let doc = Document::parse(&mut parser, input.as_bytes().to_vec()).expect("parses");
    // Every 7th named node, whatever its depth: statements, expressions, declarations.
    let mut ranges = Vec::new();
    let mut cursor = doc.tree().expect("a tree").walk();
    let mut index = 0usize;
    'walk: loop {
        let node = cursor.node();
        if node.is_named() && node.byte_range().len() < input.len() / 2 {
            if index.is_multiple_of(7) {
                ranges.push(node.byte_range());
            }
            index += 1;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    let mut times: Vec<Duration> = Vec::with_capacity(ranges.len());
    let mut valid = 0usize;
    for range in &ranges {
        let edits = EditSet::new(vec![Edit::delete(range.clone())]).expect("one edit");
        let t = Instant::now();
        let derived = doc.derive(&mut parser, &edits);
        times.push(t.elapsed());
        valid += usize::from(derived.is_some());
    }
    times.sort_unstable();
    let at = |q: f64| millis(times[((times.len() - 1) as f64 * q) as usize]);
    let mean = millis(times.iter().sum::<Duration>()) / times.len() as f64;
    println!(
        "{{\"measure\":\"validity\",\"lines\":{},\"candidates\":{},\"valid\":{valid},\
         \"median_ms\":{:.3},\"p95_ms\":{:.3},\"mean_ms\":{mean:.3},\"full_parse_ms\":{:.3}}}",
        input.lines().count(),
        times.len(),
        at(0.5),
        at(0.95),
        millis(full),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word picks one measure; `write-input=PATH`
    // also writes the C file measured (for `cargo xtask bench --overhead`, which times the
    // binary on it).
    let mut filter = Vec::new();
    let mut write_to = None;
    for arg in std::env::args().skip(1).filter(|a| !a.starts_with("--")) {
        match arg.strip_prefix("write-input=") {
            Some(path) => write_to = Some(path.to_owned()),
            None => filter.push(arg),
        }
    }
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let input = c_source(5_000);
    if let Some(path) = write_to {
        std::fs::write(&path, &input).unwrap_or_else(|e| panic!("writing {path}: {e}"));
    }
    if wanted("validity") {
        validity(&input);
    }
    if wanted("engine") {
        engine(&input);
    }
}
