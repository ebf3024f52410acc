//! `cargo xtask bench`: runs hdd (release build) and the installed peer reducers on the corpus
//! and the shared benchmark cases through the shared harness (`run-tool.sh`), and renders the
//! results as one markdown table (stdout and `corpus/BENCH.md`; raw JSON lines in
//! `target/bench/<date>.jsonl`).
//!
//! The harness is copied to a temporary folder (the shared bench folder may be read-only), and so
//! is every case: corpus cases get the `case.json` the harness needs, generated from their folder.
//! Everything that decides what the table says (parsing, discovery, rendering, the best-peer
//! ratio) is a pure function tested in its module; [`bench()`] only wires them to processes and
//! files, one named step at a time.
//!
//! `--big` is a mode of its own (`big/`): hdd alone on generated big inputs, for the time
//! to its first test, its memory and how fast it stops; so are `--overhead`
//! (`overhead.rs`): hdd's own costs around the tests, and `--slurm` (`slurm.rs`): tests
//! through `srun` on a one-node cluster.
//!
//! Modules: `cases` (discovery, filter, copies), `plan` (tools and runs), `process` (release
//! build, PATH), `run` (the harness runs and the `.jsonl`), `record` (harness results, reuse),
//! `table` (markdown, `BENCH.md` sections), and the leaves `fsutil` and `clock`.

mod big;
mod cases;
mod clock;
mod fsutil;
mod overhead;
mod plan;
mod process;
mod record;
mod run;
mod slurm;
mod table;

use std::collections::BTreeSet;
use std::env;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Args;

use self::cases::Case;
use self::clock::Utc;
use self::plan::{PARALLEL_CASE, PARALLEL_JOBS, Run, TOOLS};
use self::record::Record;

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Tools to run, comma-separated: hdd, creduce, cvise, treereduce, picire, shrinkray
    /// (found on PATH, at $SHRINKRAY or in $HDD_BENCH_TOOLS/shrinkray-venv, by default
    /// ~/.cache/hdd-bench-tools) [default: hdd and every installed peer; with --parallel:
    /// hdd,cvise]. A peer that is not on PATH is skipped with a note.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    tools: Option<Vec<String>>,
    /// Tests each tool runs at once (passed to run-tool.sh; --parallel uses 1,2,4,8,16).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "parallel")]
    jobs: u32,
    /// Time limit of one run, in seconds (passed to run-tool.sh).
    #[arg(long, value_name = "S", default_value_t = 300,
          value_parser = clap::value_parser!(u32).range(1..))]
    timeout: u32,
    /// Only the cases whose name contains SUBSTR [with --parallel, default: c-warn-300-slow].
    #[arg(long, value_name = "SUBSTR")]
    cases: Option<String>,
    /// The shared bench folder (harness + cases/) [default: ../shared/bench from the workspace
    /// root]. When it has no cases/, only the corpus cases run.
    #[arg(long, value_name = "DIR")]
    bench_dir: Option<PathBuf>,
    /// Earlier harness results (JSON lines, as in target/bench/*.jsonl or
    /// ../shared/bench/results/peers.jsonl) shown for the runs not made now, matched by case,
    /// tool and -j (the last matching line wins). Repeatable; with --parallel, for every -j
    /// of the scaling table (e.g. the peers' runs of c-warn-300-slow).
    #[arg(long, value_name = "FILE")]
    reuse: Vec<PathBuf>,
    /// Parallel scaling instead: wall time at -j 1,2,4,8,16 for hdd and cvise on
    /// c-warn-300-slow, with each tool's speedup over its own -j 1.
    #[arg(long)]
    parallel: bool,
    /// Big inputs instead: hdd alone on generated C of 1, 5 and 50 MB, 50 MB of text and JSON
    /// nested 100,000 deep (objects, arrays), with grep tests: time to its first test,
    /// total time, peak memory, and time from a SIGINT to its exit (inputs in
    /// target/bench/big/; --cases filters them by name, --timeout limits each run).
    #[arg(long, conflicts_with_all = ["parallel", "tools", "reuse", "bench_dir"])]
    big: bool,
    /// hdd's own costs instead: the engine and the validity filter on 5,000 lines of C
    /// (in process, `cargo bench -p hdd --bench overhead`), the binary's start with a test
    /// that says no, and peak memory on 5 MB of JSON.
    #[arg(long, conflicts_with_all = ["parallel", "tools", "reuse", "bench_dir", "big", "cases"])]
    overhead: bool,
    /// Tests through `srun` instead, on a one-node Slurm cluster started for the bench (as
    /// root; packages slurmctld, slurmd, slurm-client, munge): the cost of a test through
    /// srun against a local one, wall times at -j 1, 8, 32 of a test that sleeps, and
    /// hdd's own CPU time at -j 128.
    #[arg(long, conflicts_with_all = ["parallel", "tools", "reuse", "bench_dir", "big", "cases", "overhead"])]
    slurm: bool,
}

/// A rendered table and where it goes: the `BENCH.md` section key and its header.
struct Rendered {
    key: &'static str,
    table: String,
    header: String,
}

pub(crate) fn bench(args: &BenchArgs, root: &Path) -> Result<()> {
    if args.overhead {
        return overhead::bench_overhead(root, args.jobs, args.timeout);
    }
    if args.slurm {
        return slurm::bench_slurm(root);
    }
    if args.big {
        let big = big::BigArgs {
            jobs: args.jobs,
            timeout: args.timeout,
            cases: args.cases.as_deref(),
        };
        return big::bench_big(&big, root);
    }
    let tools = plan::selected_tools(args.tools.as_deref(), args.parallel)?;
    let mut notes = Vec::new();
    let (bench_dir, harness_src) = locate_harness(args, root, &mut notes)?;
    let cases = cases::select_cases(
        &root.join("corpus"),
        &bench_dir.join("cases"),
        case_filter(args),
        &mut notes,
    )?;
    let path = process::release_path(root)?;
    let jobs = job_counts(args);
    let runs = plan_installed_runs(&cases, &tools, &jobs, &path, &mut notes);
    for note in &notes {
        eprintln!("note: {note}");
    }

    // Copy the harness and the cases to a writable temporary folder, and run.
    let tmp = tempfile::Builder::new()
        .prefix("hdd-bench.")
        .tempdir()
        .context("creating a temporary folder")?;
    let (harness_dir, case_dirs) = run::stage(&harness_src, &cases, tmp.path())?;
    let now = Utc::now();
    let out_dir = process::target_dir(root).join("bench");
    let mut journal = run::Journal::open(&out_dir, &now.date())?;
    let harness = run::Harness::new(&harness_dir, &path, args.timeout, &out_dir);
    let mut records = run::run_all(
        &harness,
        &runs,
        &cases,
        &case_dirs,
        &mut journal,
        &mut notes,
    )?;
    records.extend(record::reused_records(
        &args.reuse,
        &cases,
        &runs,
        &jobs,
        &mut notes,
    )?);

    let rendered = render(args, &cases, &tools, &records, now);
    print!("{}", rendered.table);
    let bench_md = root.join("corpus/BENCH.md");
    write_section(&bench_md, &rendered, &notes)?;
    eprintln!(
        "wrote {} and {}",
        bench_md.display(),
        journal.path.display()
    );
    Ok(())
}

/// The bench folder (`--bench-dir`, else `../shared/bench`) and the folder whose harness
/// runs: the bench folder's, else the default one's (so that a --bench-dir without one, or a
/// missing bench folder, still benchmarks the corpus).
fn locate_harness(
    args: &BenchArgs,
    root: &Path,
    notes: &mut Vec<String>,
) -> Result<(PathBuf, PathBuf)> {
    let default_bench = root.join("../shared/bench");
    let default_bench = default_bench.canonicalize().unwrap_or(default_bench);
    let bench_dir = args
        .bench_dir
        .clone()
        .unwrap_or_else(|| default_bench.clone());
    let harness_src = [&bench_dir, &default_bench]
        .into_iter()
        .find(|dir| dir.join("run-tool.sh").is_file())
        .with_context(|| {
            format!(
                "no harness: neither {} nor {} has run-tool.sh",
                bench_dir.display(),
                default_bench.display()
            )
        })?
        .clone();
    if harness_src != bench_dir {
        notes.push(format!(
            "harness run-tool.sh taken from {}",
            harness_src.display()
        ));
    }
    Ok((bench_dir, harness_src))
}

/// `--cases`, or with `--parallel` the scaling case.
fn case_filter(args: &BenchArgs) -> Option<&str> {
    match (&args.cases, args.parallel) {
        (Some(filter), _) => Some(filter.as_str()),
        (None, true) => Some(PARALLEL_CASE),
        (None, false) => None,
    }
}

/// The -j values to run: `-j`, or with `--parallel` the scaling table's.
fn job_counts(args: &BenchArgs) -> Vec<u32> {
    if args.parallel {
        PARALLEL_JOBS.to_vec()
    } else {
        vec![args.jobs]
    }
}

/// The runs whose program is on `path`, with a note naming the programs that are not.
fn plan_installed_runs(
    cases: &[Case],
    tools: &[String],
    jobs: &[u32],
    path: &OsStr,
    notes: &mut Vec<String>,
) -> Vec<Run> {
    let (runs, missing) = plan::plan_runs(cases, tools, jobs, |bin| {
        process::on_path(bin, path) || (bin == "shrinkray" && shrinkray_outside_path())
    });
    if !missing.is_empty() {
        notes.push(format!(
            "not installed, not run: {}",
            missing.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    runs
}

/// Whether the harness finds shrink ray where it looks besides PATH: `$SHRINKRAY`, else
/// `$HDD_BENCH_TOOLS/shrinkray-venv/bin/shrinkray` (`HDD_BENCH_TOOLS` defaults to
/// `$HOME/.cache/hdd-bench-tools`, as in `run-tool.sh`).
fn shrinkray_outside_path() -> bool {
    if let Some(path) = env::var_os("SHRINKRAY") {
        return PathBuf::from(path).is_file();
    }
    let tools = env::var_os("HDD_BENCH_TOOLS")
        .map(PathBuf::from)
        .or_else(|| {
            env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/hdd-bench-tools"))
        });
    tools.is_some_and(|d| d.join("shrinkray-venv/bin/shrinkray").is_file())
}

/// The mode's table (with its legend) and section header.
fn render(
    args: &BenchArgs,
    cases: &[Case],
    tools: &[String],
    records: &[Record],
    now: Utc,
) -> Rendered {
    let command = format!("cargo xtask {}", hdd_exec::shell_words(env::args().skip(1)));
    let nproc = process::nproc();
    if args.parallel {
        let case_names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
        let header = format!(
            "## Parallel scaling\n\n{} on {nproc} cores (`nproc`), -j {}, timeout {} s: `{command}`",
            now.minute(),
            join(&PARALLEL_JOBS, ","),
            args.timeout
        );
        // The tools run now, then those only reused.
        let mut shown = tools.to_vec();
        for r in records {
            if !shown.contains(&r.tool) {
                shown.push(r.tool.clone());
            }
        }
        let table = table::render_parallel_table(&case_names, &shown, &PARALLEL_JOBS, records);
        Rendered {
            key: "parallel",
            table: format!("{table}\n{}\n", table::PARALLEL_LEGEND),
            header,
        }
    } else {
        let rows: Vec<(String, String)> = cases
            .iter()
            .map(|c| (c.name.clone(), c.language.clone()))
            .collect();
        let ran: BTreeSet<&str> = records.iter().map(|r| r.tool.as_str()).collect();
        let columns: Vec<String> = TOOLS
            .iter()
            .filter(|t| **t == "hdd" || ran.contains(**t))
            .map(|t| (*t).to_owned())
            .collect();
        let header = format!(
            "## Reducers\n\n{} on {nproc} cores (`nproc`), -j {}, timeout {} s: `{command}`",
            now.minute(),
            args.jobs,
            args.timeout
        );
        let table = table::render_table(&rows, &columns, records);
        Rendered {
            key: "reducers",
            table: format!("{table}\n{}\n", table::LEGEND),
            header,
        }
    }
}

/// Rewrites the rendered section of `bench_md` (notes first), leaving the others as they are.
fn write_section(bench_md: &Path, rendered: &Rendered, notes: &[String]) -> Result<()> {
    table::write_section(
        bench_md,
        rendered.key,
        &rendered.header,
        notes,
        &rendered.table,
    )
}

fn join(values: &[u32], separator: &str) -> String {
    values
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}
