//! `cargo xtask grammars`: generates `grammars/<lang>/tables.rs` from the vendored
//! `grammar.json` files with `hdd_tablegen`, and checks that the checked-in tables
//! are fresh.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, Result, bail};
use hdd_grammar::GRAMMAR_SOURCES;
use hdd_tablegen::{generate_with_fixed, render};

/// Regenerates (or with `check`, only verifies) every grammar table under `root`.
pub(crate) fn grammars(root: &Path, check: bool) -> Result<()> {
    let mut stale = Vec::new();
    for source in GRAMMAR_SOURCES {
        let grammar_path = root.join(source.grammar_path());
        let tables_rel = source.tables_path();
        let tables_path = root.join(&tables_rel);
        let grammar = fs::read_to_string(&grammar_path)
            .with_context(|| format!("reading {}", grammar_path.display()))?;
        let generated =
            generate_with_fixed(&grammar, source.node_types, source.externals, source.fixed)
                .with_context(|| format!("generating the {} table", source.lang))?;
        let text = render(&generated, &source.header());
        let old = fs::read_to_string(&tables_path).unwrap_or_default();
        let summary = format!(
            "{} kinds, {} slots, fixed point in {} rounds",
            generated.kinds.len(),
            generated.slots.len(),
            generated.rounds
        );
        if old == text {
            println!("{tables_rel}: up to date ({summary})");
            continue;
        }
        let (added, removed) = line_diff(&old, &text);
        if check {
            println!(
                "{tables_rel}: STALE ({} lines would be added, {} removed)",
                added.len(),
                removed.len()
            );
            print_changes(&added, &removed);
            stale.push(tables_rel);
            continue;
        }
        fs::write(&tables_path, &text)
            .with_context(|| format!("writing {}", tables_path.display()))?;
        println!(
            "{tables_rel}: written ({summary}; {} lines added, {} removed)",
            added.len(),
            removed.len()
        );
        print_changes(&added, &removed);
        check_rustfmt(&tables_path)?;
    }
    if !stale.is_empty() {
        bail!(
            "stale tables: {}; run `cargo xtask grammars`",
            stale.join(", ")
        );
    }
    Ok(())
}

/// Lines only in `old` / only in `new`, as multisets (order-insensitive; the
/// tables are sorted, so this is a readable summary of what changed).
fn line_diff<'a>(old: &'a str, new: &'a str) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut count: BTreeMap<&str, isize> = BTreeMap::new();
    for line in new.lines() {
        *count.entry(line).or_default() += 1;
    }
    for line in old.lines() {
        *count.entry(line).or_default() -= 1;
    }
    let added = new
        .lines()
        .filter(|l| {
            let c = count.get_mut(l).expect("counted");
            let keep = *c > 0;
            if keep {
                *c -= 1;
            }
            keep
        })
        .collect();
    let removed = old
        .lines()
        .filter(|l| {
            let c = count.get_mut(l).expect("counted");
            let keep = *c < 0;
            if keep {
                *c += 1;
            }
            keep
        })
        .collect();
    (added, removed)
}

fn print_changes(added: &[&str], removed: &[&str]) {
    const SHOWN: usize = 40;
    for line in removed.iter().take(SHOWN) {
        println!("  - {}", line.trim());
    }
    for line in added.iter().take(SHOWN) {
        println!("  + {}", line.trim());
    }
    let hidden = removed.len().saturating_sub(SHOWN) + added.len().saturating_sub(SHOWN);
    if hidden > 0 {
        println!("  ... and {hidden} more changed lines");
    }
}

/// The renderer promises rustfmt-stable output; verify it when rustfmt exists.
fn check_rustfmt(path: &Path) -> Result<()> {
    let Ok(status) = Command::new("rustfmt")
        .args(["--edition", "2024", "--check"])
        .arg(path)
        .status()
    else {
        eprintln!("warning: rustfmt not found; generated file not checked");
        return Ok(());
    };
    if !status.success() {
        bail!(
            "{} is not rustfmt-stable: fix `hdd_tablegen::render`",
            path.display()
        );
    }
    Ok(())
}
