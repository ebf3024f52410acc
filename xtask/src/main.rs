//! Development tasks for hdd (`cargo xtask <task>`): regenerating the
//! checked-in grammar tables, benchmarking hdd against peer reducers, writing the man
//! pages, and the tidy checks of the sources.

mod bench;
mod grammars;
mod tidy;

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "Development tasks for hdd", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Generate `grammars/<lang>/tables.rs` from the vendored `grammar.json`
    /// and the linked grammar crate's `node-types.json`.
    Grammars {
        /// Do not write; fail if a table is stale.
        #[arg(long)]
        check: bool,
    },
    /// Benchmark hdd (release build) against the installed peer reducers on the
    /// corpus and the shared benchmark cases; print a markdown table and write it
    /// to corpus/BENCH.md (raw results: `target/bench/<date>.jsonl`). With `--big`:
    /// hdd alone on generated big inputs (time to first test, memory, stopping).
    Bench(bench::BenchArgs),
    /// Write the man pages (`hdd.1`, `hdd-reduce.1`, …) to `target/man/`.
    Man,
    /// Check the hand-written sources (crates/, xtask/, tests/): files of at most 700
    /// lines, each starting with a `//!` line, signal handlers through signal-hook, no
    /// module cycle in a crate. Prints each crate's module graph and every problem with
    /// its file and line; fails on any (the `workspace_is_tidy` test runs the same checks).
    Tidy,
}

fn main() -> Result<()> {
    let root = workspace_root();
    match Cli::parse().task {
        Task::Grammars { check } => grammars::grammars(&root, check),
        Task::Bench(args) => bench::bench(&args, &root),
        Task::Man => {
            let dir = root.join("target/man");
            for page in hdd_cli::man_pages(&dir)? {
                println!("{}", page.display());
            }
            Ok(())
        }
        Task::Tidy => tidy::tidy(&root),
    }
}

/// The workspace root (xtask lives one level below it).
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}
