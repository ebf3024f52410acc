//! `cargo xtask bench`: runs hdd (release build) and the installed peer reducers on the corpus
//! and the shared benchmark cases through the shared harness (`run-tool.sh`), and renders the
//! results as one markdown table (stdout and `corpus/BENCH.md`; raw JSON lines in
//! `target/bench/<date>.jsonl`).
//!
//! The harness is copied to a temporary folder (the shared bench folder may be read-only), and so
//! is every case: corpus cases get the `case.json` the harness needs, generated from their folder.
//! Everything that decides what the table says (parsing, discovery, rendering, the best-peer
//! ratio) is a pure function tested below; [`bench()`] only wires them to processes and files.

use std::collections::BTreeSet;
use std::env;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result, bail};
use clap::Args;
use serde_json::Value;

/// Every tool `--tools` accepts, in column order: hdd, then the peers `run-tool.sh` knows.
const TOOLS: [&str; 5] = ["hdd", "creduce", "cvise", "treereduce", "picire"];
/// The corpus folder names, which are also hdd's `--lang` values.
const LANGS: [&str; 6] = ["c", "rust", "javascript", "json", "sql", "text"];
/// `--parallel`: the job counts, the default case filter and the default tools.
const PARALLEL_JOBS: [u32; 5] = [1, 2, 4, 8, 16];
const PARALLEL_CASE: &str = "c-warn-300-slow";
const PARALLEL_TOOLS: [&str; 2] = ["hdd", "cvise"];
/// What the benchmark needs besides the tools (run-tool.sh uses all of them).
const PREREQUISITES: [&str; 4] = ["bash", "python3", "setsid", "timeout"];
/// The first lines of `corpus/BENCH.md`; each mode rewrites only its own marked section.
const BENCH_MD_TITLE: &str = "# hdd benchmark\n\nWritten by `cargo xtask bench` (xtask/src/bench.rs): \
hdd against the installed peer reducers on corpus/ and the shared bench cases, one run each \
through the shared harness `run-tool.sh`. Each mode (`cargo xtask bench`, \
`cargo xtask bench --parallel`) rewrites only its own section.\n";
const LEGEND: &str = "final tokens (by the harness's `tokens.py`): t = timed out, e = the tool \
exited with an error, ✗ = the result is not interesting (re-checked with the pristine test.sh); \
bytes = final bytes; tests = test runs; s = wall seconds; hdd / best peer = hdd's final tokens \
over the fewest final tokens among the peers whose result is interesting (- when no peer ran).";
const PARALLEL_LEGEND: &str = "final tokens: t = timed out, e = the tool exited with an error, \
✗ = the result is not interesting; speedup = the tool's wall time at -j 1 over its wall time at \
this -j (a timed-out run's wall time is the time limit, so its speedup understates).";

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Tools to run, comma-separated: hdd, creduce, cvise, treereduce, picire [default: hdd and
    /// every installed peer; with --parallel: hdd,cvise]. A peer that is not on PATH is skipped
    /// with a note.
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
}

/// One benchmark case, wherever it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Case {
    /// The folder name, which is also the harness's `case` field.
    name: String,
    /// hdd's `--lang` value (one of [`LANGS`]).
    language: String,
    /// The input file's name inside the case folder.
    file: String,
    dir: PathBuf,
    /// `Some(description)` for a corpus case (whose `case.json` is generated); `None` for a
    /// bench case, which has its own `case.json`.
    corpus_description: Option<String>,
}

/// One line of `run-tool.sh` output (the fields the tables use).
#[derive(Debug, Clone, PartialEq)]
struct Record {
    tool: String,
    case: String,
    jobs: u64,
    exit_status: i64,
    timed_out: bool,
    wall_s: f64,
    cpu_s: f64,
    tests_run: u64,
    final_bytes: u64,
    orig_tokens: u64,
    final_tokens: u64,
    final_interesting: bool,
}

impl Record {
    fn parse(line: &str) -> Result<Self> {
        let value: Value = serde_json::from_str(line).context("not a JSON line")?;
        let field = |key: &str| value.get(key).with_context(|| format!("no field `{key}`"));
        let string = |key: &str| -> Result<String> {
            Ok(field(key)?.as_str().context(key.to_owned())?.to_owned())
        };
        let unsigned = |key: &str| -> Result<u64> { field(key)?.as_u64().context(key.to_owned()) };
        let float = |key: &str| -> Result<f64> { field(key)?.as_f64().context(key.to_owned()) };
        let boolean = |key: &str| -> Result<bool> { field(key)?.as_bool().context(key.to_owned()) };
        Ok(Self {
            tool: string("tool")?,
            case: string("case")?,
            jobs: unsigned("jobs")?,
            exit_status: field("exit_status")?.as_i64().context("exit_status")?,
            timed_out: boolean("timed_out")?,
            wall_s: float("wall_s")?,
            cpu_s: float("cpu_s")?,
            tests_run: unsigned("tests_run")?,
            final_bytes: unsigned("final_bytes")?,
            orig_tokens: unsigned("orig_tokens")?,
            final_tokens: unsigned("final_tokens")?,
            final_interesting: boolean("final_interesting")?,
        })
    }

    /// The final token count with its marks: `t` timed out, `e` tool error, `✗` not interesting.
    fn tokens_cell(&self) -> String {
        let mut marks = String::new();
        if self.timed_out {
            marks.push('t');
        } else if self.exit_status != 0 {
            marks.push('e');
        }
        if !self.final_interesting {
            marks.push('✗');
        }
        if marks.is_empty() {
            self.final_tokens.to_string()
        } else {
            format!("{} {marks}", self.final_tokens)
        }
    }
}

/// One planned run of the harness.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    case: usize,
    tool: String,
    jobs: u32,
}

pub(crate) fn bench(args: &BenchArgs, root: &Path) -> Result<()> {
    let tools = selected_tools(args)?;
    let default_bench = root.join("../shared/bench");
    let default_bench = default_bench.canonicalize().unwrap_or(default_bench);
    let bench_dir = args
        .bench_dir
        .clone()
        .unwrap_or_else(|| default_bench.clone());
    let mut notes = Vec::new();

    // The harness: the bench folder's, else the default one's (so that a --bench-dir without
    // one, or a missing bench folder, still benchmarks the corpus).
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

    // The cases.
    let (mut cases, warnings) = discover_corpus(&root.join("corpus"))?;
    notes.extend(warnings);
    let bench_cases = bench_dir.join("cases");
    if bench_cases.is_dir() {
        let (more, warnings) = discover_bench(&bench_cases)?;
        cases.extend(more);
        notes.extend(warnings);
    } else {
        notes.push(format!(
            "bench folder {} not found: only the corpus cases run",
            bench_cases.display()
        ));
    }
    check_unique_names(&cases)?;
    let filter = match (&args.cases, args.parallel) {
        (Some(filter), _) => Some(filter.as_str()),
        (None, true) => Some(PARALLEL_CASE),
        (None, false) => None,
    };
    let cases = filter_cases(cases, filter);
    if cases.is_empty() {
        let notes: String = notes.iter().map(|n| format!("\nnote: {n}")).collect();
        bail!(
            "no case name contains `{}`{notes}",
            filter.unwrap_or_default()
        );
    }

    // Build hdd and find the tools.
    build_release(root)?;
    let release = target_dir(root).join("release");
    if !release.join("hdd").is_file() {
        bail!("{} missing after the build", release.join("hdd").display());
    }
    let path = prepend_path(&release)?;
    for program in PREREQUISITES {
        if !on_path(program, &path) {
            bail!("`{program}` is not on PATH; the harness needs it");
        }
    }
    if !Path::new("/usr/bin/time").is_file() {
        bail!("/usr/bin/time is missing (the harness measures with it): apt-get install time");
    }
    let jobs: Vec<u32> = if args.parallel {
        PARALLEL_JOBS.to_vec()
    } else {
        vec![args.jobs]
    };
    let (runs, missing) = plan_runs(&cases, &tools, &jobs, |bin| on_path(bin, &path));
    if !missing.is_empty() {
        notes.push(format!(
            "not installed, not run: {}",
            missing.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    for note in &notes {
        eprintln!("note: {note}");
    }

    // Copy the harness and the cases to a writable temporary folder.
    let tmp = tempfile::Builder::new()
        .prefix("hdd-bench.")
        .tempdir()
        .context("creating a temporary folder")?;
    let harness = tmp.path().join("harness");
    copy_harness(&harness_src, &harness)?;
    let mut case_dirs = Vec::new();
    for case in &cases {
        case_dirs.push(materialize_case(case, &tmp.path().join("cases"))?);
    }

    // Run, one line at a time to the .jsonl (so an interrupted benchmark keeps its runs).
    let now = Utc::now();
    let out_dir = target_dir(root).join("bench");
    fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let jsonl_path = out_dir.join(format!("{}.jsonl", now.date()));
    let mut jsonl = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&jsonl_path)
        .with_context(|| format!("opening {}", jsonl_path.display()))?;
    // Runs never overlap across concurrent `cargo xtask bench` invocations.
    let lock = on_path("flock", &path).then(|| out_dir.join(".lock"));
    let mut records = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let case = &cases[run.case];
        eprintln!(
            "[{}/{}] {} on {} ({}, -j {}, timeout {} s)",
            i + 1,
            runs.len(),
            run.tool,
            case.name,
            case.language,
            run.jobs,
            args.timeout
        );
        let mut command = match &lock {
            Some(lock) => {
                let mut command = Command::new("flock");
                command.arg(lock).arg("bash");
                command
            }
            None => Command::new("bash"),
        };
        let output = command
            .arg(harness.join("run-tool.sh"))
            .arg(&run.tool)
            .arg(&case_dirs[run.case])
            .arg(run.jobs.to_string())
            .arg(args.timeout.to_string())
            .env("PATH", &path)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .context("starting run-tool.sh")?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let line = stdout
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('{'));
        let parsed = line.map(|l| (l, Record::parse(l)));
        match parsed {
            Some((line, Ok(record))) => {
                writeln!(jsonl, "{}", line.trim())
                    .with_context(|| format!("writing {}", jsonl_path.display()))?;
                eprintln!(
                    "      -> {} tokens (from {}), {} tests, {:.1} s",
                    record.tokens_cell(),
                    record.orig_tokens,
                    record.tests_run,
                    record.wall_s
                );
                records.push(record);
            }
            Some((_, Err(err))) => {
                let note = format!("{} on {}: bad harness output: {err:#}", run.tool, case.name);
                eprintln!("      -> {note}");
                notes.push(note);
            }
            None => {
                let note = format!(
                    "{} on {}: run-tool.sh printed no result ({})",
                    run.tool, case.name, output.status
                );
                eprintln!("      -> {note}");
                notes.push(note);
            }
        }
    }

    records.extend(reused_records(
        &args.reuse,
        &cases,
        &runs,
        &jobs,
        &mut notes,
    )?);

    // Render.
    let command = format!("cargo xtask {}", shell_words(env::args().skip(1)));
    let nproc = nproc();
    let (key, table, header) = if args.parallel {
        let case_names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
        let header = format!(
            "## Parallel scaling\n\n{} on {nproc} cores (`nproc`), -j {}, timeout {} s: `{command}`",
            now.minute(),
            join(&PARALLEL_JOBS, ","),
            args.timeout
        );
        // The tools run now, then those only reused.
        let mut shown = tools.clone();
        for r in &records {
            if !shown.contains(&r.tool) {
                shown.push(r.tool.clone());
            }
        }
        let table = render_parallel_table(&case_names, &shown, &PARALLEL_JOBS, &records);
        ("parallel", format!("{table}\n{PARALLEL_LEGEND}\n"), header)
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
        let table = render_table(&rows, &columns, &records);
        ("reducers", format!("{table}\n{LEGEND}\n"), header)
    };
    print!("{table}");
    let mut section = format!("{header}\n\n");
    for note in &notes {
        writeln!(section, "- note: {note}").expect("writing to a String");
    }
    if !notes.is_empty() {
        section.push('\n');
    }
    section.push_str(&table);
    let bench_md = root.join("corpus/BENCH.md");
    let old = fs::read_to_string(&bench_md).unwrap_or_default();
    fs::write(&bench_md, splice_section(&old, key, &section))
        .with_context(|| format!("writing {}", bench_md.display()))?;
    eprintln!("wrote {} and {}", bench_md.display(), jsonl_path.display());
    Ok(())
}

/// The records of `files` for the selected cases at one of `jobs` that no run of `runs` made
/// now; one per case, tool and -j, the last line winning. Adds a note per file.
fn reused_records(
    files: &[PathBuf],
    cases: &[Case],
    runs: &[Run],
    jobs: &[u32],
    notes: &mut Vec<String>,
) -> Result<Vec<Record>> {
    let fresh: BTreeSet<(&str, &str, u64)> = runs
        .iter()
        .map(|r| {
            (
                cases[r.case].name.as_str(),
                r.tool.as_str(),
                u64::from(r.jobs),
            )
        })
        .collect();
    let mut kept: Vec<Record> = Vec::new();
    for file in files {
        let text =
            fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let mut used = 0;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = Record::parse(line)
                .with_context(|| format!("{}:{}: not a harness result", file.display(), n + 1))?;
            let wanted = jobs.iter().any(|&j| record.jobs == u64::from(j))
                && cases.iter().any(|c| c.name == record.case)
                && !fresh.contains(&(record.case.as_str(), record.tool.as_str(), record.jobs));
            if wanted {
                kept.retain(|r| {
                    (&r.case, &r.tool, r.jobs) != (&record.case, &record.tool, record.jobs)
                });
                kept.push(record);
                used += 1;
            }
        }
        notes.push(format!(
            "{used} result(s) not run now taken from {} (measured when that file was written)",
            file.display()
        ));
    }
    Ok(kept)
}

/// The tools to run, validated, deduplicated, in the order given (or the mode's default).
fn selected_tools(args: &BenchArgs) -> Result<Vec<String>> {
    let requested: Vec<String> = match &args.tools {
        Some(tools) => tools.iter().map(|t| t.trim().to_owned()).collect(),
        None if args.parallel => PARALLEL_TOOLS.iter().map(|t| (*t).to_owned()).collect(),
        None => TOOLS.iter().map(|t| (*t).to_owned()).collect(),
    };
    let mut tools = Vec::new();
    for tool in requested {
        if !TOOLS.contains(&tool.as_str()) {
            bail!("unknown tool `{tool}`; known: {}", TOOLS.join(", "));
        }
        if !tools.contains(&tool) {
            tools.push(tool);
        }
    }
    if tools.is_empty() {
        bail!("--tools is empty");
    }
    Ok(tools)
}

/// The program a tool runs as for a language, or `None` when the tool has no frontend for it.
fn tool_binary(tool: &str, language: &str) -> Option<String> {
    match tool {
        "treereduce" => ["c", "rust", "javascript"]
            .contains(&language)
            .then(|| format!("treereduce-{language}")),
        _ => Some(tool.to_owned()),
    }
}

/// Every (case, tool, jobs) run whose program is installed, and the programs that are not.
/// A tool without a frontend for a case's language (treereduce on JSON) is silently not run.
fn plan_runs(
    cases: &[Case],
    tools: &[String],
    jobs: &[u32],
    installed: impl Fn(&str) -> bool,
) -> (Vec<Run>, BTreeSet<String>) {
    let mut runs = Vec::new();
    let mut missing = BTreeSet::new();
    for (index, case) in cases.iter().enumerate() {
        for tool in tools {
            let Some(binary) = tool_binary(tool, &case.language) else {
                continue;
            };
            if !installed(&binary) {
                missing.insert(binary);
                continue;
            }
            for &jobs in jobs {
                runs.push(Run {
                    case: index,
                    tool: tool.clone(),
                    jobs,
                });
            }
        }
    }
    (runs, missing)
}

/// The sub-folders of `dir`, sorted by name.
fn sorted_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The corpus cases `corpus/<lang>/<case>/` (the input is the one file besides `test.sh` and
/// `README.md`), and a warning for every folder that is not a well-formed case.
fn discover_corpus(corpus: &Path) -> Result<(Vec<Case>, Vec<String>)> {
    let mut cases = Vec::new();
    let mut warnings = Vec::new();
    for lang_dir in sorted_dirs(corpus)? {
        let language = file_name(&lang_dir);
        if !LANGS.contains(&language.as_str()) {
            warnings.push(format!(
                "{}: not a language folder ({}), skipped",
                lang_dir.display(),
                LANGS.join(", ")
            ));
            continue;
        }
        for dir in sorted_dirs(&lang_dir)? {
            let mut inputs = Vec::new();
            for entry in fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
                let name = entry?.file_name().to_string_lossy().into_owned();
                if name != "test.sh" && name != "README.md" {
                    inputs.push(name);
                }
            }
            inputs.sort();
            if !dir.join("test.sh").is_file() {
                warnings.push(format!("{}: no test.sh, skipped", dir.display()));
                continue;
            }
            let [file] = inputs.as_slice() else {
                warnings.push(format!(
                    "{}: expected one input file besides test.sh and README.md, found [{}], skipped",
                    dir.display(),
                    inputs.join(", ")
                ));
                continue;
            };
            let readme = fs::read_to_string(dir.join("README.md")).unwrap_or_default();
            let description = readme
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches('#')
                .trim()
                .to_owned();
            cases.push(Case {
                name: file_name(&dir),
                language: language.clone(),
                file: file.clone(),
                dir,
                corpus_description: Some(description),
            });
        }
    }
    Ok((cases, warnings))
}

/// The shared bench cases `cases/<case>/` with their `case.json`.
fn discover_bench(cases_dir: &Path) -> Result<(Vec<Case>, Vec<String>)> {
    let mut cases = Vec::new();
    let mut warnings = Vec::new();
    for dir in sorted_dirs(cases_dir)? {
        let json = dir.join("case.json");
        let parsed = fs::read_to_string(&json)
            .with_context(|| format!("reading {}", json.display()))
            .and_then(|text| Ok(serde_json::from_str::<Value>(&text)?));
        let value = match parsed {
            Ok(value) => value,
            Err(err) => {
                warnings.push(format!("{}: {err:#}, skipped", dir.display()));
                continue;
            }
        };
        let language = value.get("language").and_then(Value::as_str);
        let file = value.get("file").and_then(Value::as_str);
        let (Some(language), Some(file)) = (language, file) else {
            warnings.push(format!(
                "{}: no \"language\" or \"file\", skipped",
                json.display()
            ));
            continue;
        };
        cases.push(Case {
            name: file_name(&dir),
            language: language.to_owned(),
            file: file.to_owned(),
            dir,
            corpus_description: None,
        });
    }
    Ok((cases, warnings))
}

/// The harness reports a case by its folder name, so names must be unique.
fn check_unique_names(cases: &[Case]) -> Result<()> {
    let mut seen = BTreeSet::new();
    for case in cases {
        if !seen.insert(case.name.as_str()) {
            bail!(
                "two cases are named `{}` (one is {}): the results would mix",
                case.name,
                case.dir.display()
            );
        }
    }
    Ok(())
}

fn filter_cases(cases: Vec<Case>, filter: Option<&str>) -> Vec<Case> {
    match filter {
        Some(needle) => cases
            .into_iter()
            .filter(|c| c.name.contains(needle))
            .collect(),
        None => cases,
    }
}

/// Copies `src` into `dst` (created), files made writable by their owner.
fn copy_dir(src: &Path, dst: &Path) -> Result<()> {
    fs::create_dir_all(dst).with_context(|| format!("creating {}", dst.display()))?;
    for entry in fs::read_dir(src).with_context(|| format!("reading {}", src.display()))? {
        let from = entry?.path();
        let to = dst.join(from.file_name().context("an entry without a name")?);
        if from.is_dir() {
            copy_dir(&from, &to)?;
        } else {
            copy_file(&from, &to)?;
        }
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<()> {
    fs::copy(from, to)
        .with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
    let mut permissions = fs::metadata(to)?.permissions();
    permissions.set_mode(permissions.mode() | 0o200);
    fs::set_permissions(to, permissions)?;
    Ok(())
}

/// The harness files run-tool.sh uses (itself, tokens.py, lib/) copied into `dst`.
fn copy_harness(src: &Path, dst: &Path) -> Result<()> {
    fs::create_dir_all(dst).with_context(|| format!("creating {}", dst.display()))?;
    for name in ["run-tool.sh", "tokens.py"] {
        copy_file(&src.join(name), &dst.join(name))?;
    }
    if src.join("lib").is_dir() {
        copy_dir(&src.join("lib"), &dst.join("lib"))?;
    }
    Ok(())
}

/// A writable copy of the case under `root/<corpus|bench>/<name>`, with a generated
/// `case.json` for a corpus case. Returns the copy's folder.
fn materialize_case(case: &Case, root: &Path) -> Result<PathBuf> {
    let kind = if case.corpus_description.is_some() {
        "corpus"
    } else {
        "bench"
    };
    let dst = root.join(kind).join(&case.name);
    copy_dir(&case.dir, &dst)?;
    if let Some(description) = &case.corpus_description {
        let json = case_json(case, description);
        fs::write(dst.join("case.json"), json)
            .with_context(|| format!("writing {}/case.json", dst.display()))?;
    }
    Ok(dst)
}

fn case_json(case: &Case, description: &str) -> String {
    let value = serde_json::json!({
        "language": case.language,
        "file": case.file,
        "description": description,
    });
    format!("{value:#}\n")
}

fn target_dir(root: &Path) -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

fn build_release(root: &Path) -> Result<()> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("building hdd: cargo build --release -p hdd-cli");
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "hdd-cli"])
        .current_dir(root)
        .stdout(Stdio::null())
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("`cargo build --release -p hdd-cli` failed ({status})");
    }
    Ok(())
}

/// PATH with `dir` first (so the harness runs the freshly built hdd).
fn prepend_path(dir: &Path) -> Result<OsString> {
    let old = env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(dir.to_path_buf()).chain(env::split_paths(&old));
    env::join_paths(dirs).context("a PATH entry contains `:`")
}

fn on_path(program: &str, path: &OsStr) -> bool {
    env::split_paths(path).any(|dir| {
        fs::metadata(dir.join(program))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

fn nproc() -> String {
    Command::new("nproc")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .or_else(|| {
            std::thread::available_parallelism()
                .ok()
                .map(|n| n.to_string())
        })
        .unwrap_or_else(|| "?".to_owned())
}

/// Arguments as one shell command line (quoted where the shell would split or expand them).
fn shell_words(args: impl IntoIterator<Item = String>) -> String {
    let quote = |arg: String| {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c));
        if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        }
    };
    args.into_iter().map(quote).collect::<Vec<_>>().join(" ")
}

fn join(values: &[u32], separator: &str) -> String {
    values
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// A UTC time of day, without a date-time dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Utc {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
}

impl Utc {
    fn now() -> Self {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self::from_unix(i64::try_from(secs).unwrap_or(0))
    }

    /// Howard Hinnant's `civil_from_days`.
    fn from_unix(secs: i64) -> Self {
        let days = secs.div_euclid(86_400);
        let in_day = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        let small = |v: i64| u32::try_from(v).unwrap_or(0);
        Self {
            year,
            month: small(month),
            day: small(day),
            hour: small(in_day / 3600),
            minute: small(in_day % 3600 / 60),
        }
    }

    fn date(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    fn minute(self) -> String {
        format!("{} {:02}:{:02} UTC", self.date(), self.hour, self.minute)
    }
}

/// The last record of `tool` on `case`.
fn find<'a>(records: &'a [Record], case: &str, tool: &str) -> Option<&'a Record> {
    records
        .iter()
        .rev()
        .find(|r| r.case == case && r.tool == tool)
}

/// The peer run with the fewest final tokens among those whose result is interesting (the
/// first in `records` order on a tie).
fn best_peer<'a>(records: &'a [Record], case: &str) -> Option<&'a Record> {
    records
        .iter()
        .filter(|r| r.case == case && r.tool != "hdd" && r.final_interesting)
        .min_by_key(|r| r.final_tokens)
}

/// hdd's final tokens over the best peer's, with that peer's name; `-` when hdd or every peer
/// is missing (no peer ran, or none produced an interesting result).
fn ratio_cell(records: &[Record], case: &str) -> String {
    let (Some(hdd), Some(best)) = (find(records, case, "hdd"), best_peer(records, case)) else {
        return "-".to_owned();
    };
    let ratio = match (hdd.final_tokens, best.final_tokens) {
        (0, 0) => "1.00".to_owned(),
        (_, 0) => "inf".to_owned(),
        (h, b) => format!("{:.2}", h as f64 / b as f64),
    };
    let invalid = if hdd.final_interesting { "" } else { " ✗" };
    format!("{ratio} ({}){invalid}", best.tool)
}

fn table_row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

/// The main table: per case (name, language), orig tokens, then per tool final tokens (with
/// marks), bytes, tests, seconds, and hdd's ratio to the best peer.
fn render_table(cases: &[(String, String)], tools: &[String], records: &[Record]) -> String {
    let mut head = vec![
        "case".to_owned(),
        "language".to_owned(),
        "orig tokens".to_owned(),
    ];
    let mut align = vec!["---", "---", "---:"];
    for tool in tools {
        for what in ["tokens", "bytes", "tests", "s"] {
            head.push(format!("{tool} {what}"));
            align.push("---:");
        }
    }
    head.push("hdd / best peer".to_owned());
    align.push("---");
    let mut out = table_row(&head);
    out.push_str(&table_row(
        &align.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>(),
    ));
    for (case, language) in cases {
        let orig = records
            .iter()
            .find(|r| &r.case == case)
            .map_or_else(|| "-".to_owned(), |r| r.orig_tokens.to_string());
        let mut cells = vec![case.clone(), language.clone(), orig];
        for tool in tools {
            match find(records, case, tool) {
                Some(r) => cells.extend([
                    r.tokens_cell(),
                    r.final_bytes.to_string(),
                    r.tests_run.to_string(),
                    format!("{:.1}", r.wall_s),
                ]),
                None => cells.extend(std::iter::repeat_n("-".to_owned(), 4)),
            }
        }
        cells.push(ratio_cell(records, case));
        out.push_str(&table_row(&cells));
    }
    out
}

/// The parallel-scaling table: per case, tool and -j, the result and the speedup over the
/// same tool's -j 1 run. Rows without a record are left out.
fn render_parallel_table(
    cases: &[String],
    tools: &[String],
    jobs: &[u32],
    records: &[Record],
) -> String {
    let mut out = String::from(
        "| case | tool | -j | final tokens | bytes | tests | tests/s | wall s | cpu s | speedup |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for case in cases {
        for tool in tools {
            let run = |j: u32| {
                records
                    .iter()
                    .rev()
                    .find(|r| &r.case == case && &r.tool == tool && r.jobs == u64::from(j))
            };
            let base = run(1);
            for &j in jobs {
                let Some(r) = run(j) else { continue };
                let rate = |n: f64, d: f64| {
                    if d > 0.0 {
                        format!("{:.1}", n / d)
                    } else {
                        "-".to_owned()
                    }
                };
                let speedup = base.map_or_else(
                    || "-".to_owned(),
                    |b| {
                        if r.wall_s > 0.0 {
                            format!("{:.2}x", b.wall_s / r.wall_s)
                        } else {
                            "-".to_owned()
                        }
                    },
                );
                let tests = r.tests_run as f64;
                out.push_str(&table_row(&[
                    case.clone(),
                    tool.clone(),
                    j.to_string(),
                    r.tokens_cell(),
                    r.final_bytes.to_string(),
                    r.tests_run.to_string(),
                    rate(tests, r.wall_s),
                    format!("{:.1}", r.wall_s),
                    format!("{:.1}", r.cpu_s),
                    speedup,
                ]));
            }
        }
    }
    out
}

/// `existing` (corpus/BENCH.md) with the section `key` replaced by `body`, or appended when it
/// is not there yet; a missing or empty file starts with the title.
fn splice_section(existing: &str, key: &str, body: &str) -> String {
    let open = format!("<!-- bench:{key} -->");
    let close = format!("<!-- /bench:{key} -->");
    let block = format!("{open}\n{}\n{close}\n", body.trim_end());
    let base = if existing.trim().is_empty() {
        BENCH_MD_TITLE
    } else {
        existing
    };
    if let (Some(start), Some(end)) = (base.find(&open), base.find(&close))
        && start < end
    {
        let rest = &base[end + close.len()..];
        let rest = rest.strip_prefix('\n').unwrap_or(rest);
        return format!("{}{block}{rest}", &base[..start]);
    }
    format!("{}\n\n{block}", base.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(tool: &str, case: &str, tokens: u64, interesting: bool) -> Record {
        Record {
            tool: tool.to_owned(),
            case: case.to_owned(),
            jobs: 2,
            exit_status: 0,
            timed_out: false,
            wall_s: 10.0,
            cpu_s: 15.0,
            tests_run: 100,
            final_bytes: tokens * 3,
            orig_tokens: 1000,
            final_tokens: tokens,
            final_interesting: interesting,
        }
    }

    #[test]
    fn parses_a_harness_line() {
        let line = r#"{"tool": "hdd", "case": "c-warn-300", "jobs": 2, "exit_status": 124, "timed_out": true, "wall_s": 300.01, "cpu_s": 410.5, "tests_run": 812, "tests_interesting": 40, "orig_bytes": 9000, "final_bytes": 120, "orig_tokens": 4149, "final_tokens": 31, "final_interesting": true, "timeout_s": 300, "note": "", "tool_reported_best_bytes": null, "date": "2025-12-02T15:00:00"}"#;
        let r = Record::parse(line).expect("parses");
        assert_eq!(r.tool, "hdd");
        assert_eq!(r.case, "c-warn-300");
        assert_eq!(r.exit_status, 124);
        assert!(r.timed_out);
        assert_eq!((r.final_tokens, r.final_bytes, r.tests_run), (31, 120, 812));
        assert_eq!(r.tokens_cell(), "31 t");
        assert!(Record::parse(r#"{"tool": "hdd"}"#).is_err());
        assert!(Record::parse("not json").is_err());
    }

    #[test]
    fn marks_errors_timeouts_and_uninteresting_results() {
        let mut r = record("cvise", "x", 12, true);
        assert_eq!(r.tokens_cell(), "12");
        r.final_interesting = false;
        assert_eq!(r.tokens_cell(), "12 ✗");
        r.exit_status = 4;
        assert_eq!(r.tokens_cell(), "12 e✗");
        r.timed_out = true;
        r.final_interesting = true;
        assert_eq!(r.tokens_cell(), "12 t");
    }

    #[test]
    fn best_peer_is_the_fewest_tokens_among_interesting_peers() {
        let records = vec![
            record("hdd", "a", 20, true),
            record("creduce", "a", 5, false),
            record("cvise", "a", 25, true),
            record("treereduce", "a", 10, true),
            record("picire", "b", 1, true),
        ];
        assert_eq!(
            best_peer(&records, "a").map(|r| r.tool.as_str()),
            Some("treereduce")
        );
        assert_eq!(ratio_cell(&records, "a"), "2.00 (treereduce)");
        // hdd did not run on b
        assert_eq!(ratio_cell(&records, "b"), "-");
        // no peer ran
        let alone = vec![record("hdd", "c", 7, true)];
        assert_eq!(ratio_cell(&alone, "c"), "-");
        // only uninteresting peers
        let bad = vec![record("hdd", "d", 7, true), record("cvise", "d", 3, false)];
        assert_eq!(ratio_cell(&bad, "d"), "-");
        // hdd's own result is marked when not interesting
        let mut hdd = record("hdd", "e", 9, false);
        hdd.final_interesting = false;
        let marked = vec![hdd, record("cvise", "e", 12, true)];
        assert_eq!(ratio_cell(&marked, "e"), "0.75 (cvise) ✗");
        // ties go to the first peer in record order
        let tie = vec![
            record("hdd", "f", 4, true),
            record("cvise", "f", 4, true),
            record("creduce", "f", 4, true),
        ];
        assert_eq!(ratio_cell(&tie, "f"), "1.00 (cvise)");
    }

    #[test]
    fn renders_the_table() {
        let mut slow = record("cvise", "a", 30, true);
        slow.timed_out = true;
        slow.exit_status = 124;
        slow.wall_s = 120.04;
        let records = vec![
            record("hdd", "a", 15, true),
            slow,
            record("hdd", "b", 8, false),
        ];
        let cases = [
            ("a".to_owned(), "c".to_owned()),
            ("b".to_owned(), "json".to_owned()),
            ("z".to_owned(), "sql".to_owned()),
        ];
        let tools = ["hdd".to_owned(), "cvise".to_owned()];
        let table = render_table(&cases, &tools, &records);
        let expected = "\
| case | language | orig tokens | hdd tokens | hdd bytes | hdd tests | hdd s | cvise tokens | cvise bytes | cvise tests | cvise s | hdd / best peer |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
| a | c | 1000 | 15 | 45 | 100 | 10.0 | 30 t | 90 | 100 | 120.0 | 0.50 (cvise) |
| b | json | 1000 | 8 ✗ | 24 | 100 | 10.0 | - | - | - | - | - |
| z | sql | - | - | - | - | - | - | - | - | - | - |
";
        assert_eq!(table, expected);
    }

    #[test]
    fn renders_the_parallel_table_with_speedups() {
        let at = |tool: &str, jobs: u64, wall: f64| Record {
            jobs,
            wall_s: wall,
            ..record(tool, "slow", 10, true)
        };
        let records = vec![at("hdd", 1, 80.0), at("hdd", 2, 40.0), at("cvise", 2, 50.0)];
        let table = render_parallel_table(
            &["slow".to_owned()],
            &["hdd".to_owned(), "cvise".to_owned()],
            &[1, 2, 4],
            &records,
        );
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5, "{table}");
        assert_eq!(
            lines[2],
            "| slow | hdd | 1 | 10 | 30 | 100 | 1.2 | 80.0 | 15.0 | 1.00x |"
        );
        assert_eq!(
            lines[3],
            "| slow | hdd | 2 | 10 | 30 | 100 | 2.5 | 40.0 | 15.0 | 2.00x |"
        );
        // cvise has no -j 1 run to compare with
        assert_eq!(
            lines[4],
            "| slow | cvise | 2 | 10 | 30 | 100 | 2.0 | 50.0 | 15.0 | - |"
        );
    }

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    }

    #[test]
    fn discovers_corpus_cases_on_a_fixture() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let corpus = tmp.path();
        write(&corpus.join("README.md"), "# corpus\n");
        write(&corpus.join("BENCH.md"), "# bench\n");
        write(&corpus.join("c/shift/framer.c"), "int x;\n");
        write(&corpus.join("c/shift/test.sh"), "#!/bin/sh\n");
        write(&corpus.join("c/shift/README.md"), "# shift\n\nmore\n");
        write(&corpus.join("json/null/inv.json"), "{}\n");
        write(&corpus.join("json/null/test.sh"), "#!/bin/sh\n");
        // two inputs: skipped with a warning
        write(&corpus.join("c/leftover/a.c"), "");
        write(&corpus.join("c/leftover/a.c.orig"), "");
        write(&corpus.join("c/leftover/test.sh"), "");
        // no test.sh
        write(&corpus.join("sql/notest/q.sql"), "");
        // not a language
        write(&corpus.join("cobol/x/x.cob"), "");

        let (cases, warnings) = discover_corpus(corpus).expect("discovers");
        let summary: Vec<(&str, &str, &str)> = cases
            .iter()
            .map(|c| (c.name.as_str(), c.language.as_str(), c.file.as_str()))
            .collect();
        assert_eq!(
            summary,
            [("shift", "c", "framer.c"), ("null", "json", "inv.json")]
        );
        assert_eq!(cases[0].corpus_description.as_deref(), Some("shift"));
        assert_eq!(cases[1].corpus_description.as_deref(), Some(""));
        assert_eq!(cases[0].dir, corpus.join("c/shift"));
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].contains("leftover") && warnings[0].contains("a.c, a.c.orig"));
        assert!(warnings[1].contains("cobol"));
        assert!(warnings[2].contains("notest"));

        // the generated case.json is what run-tool.sh reads
        let json: Value = serde_json::from_str(&case_json(&cases[0], "shift")).expect("json");
        assert_eq!(json["language"], "c");
        assert_eq!(json["file"], "framer.c");
        assert_eq!(json["description"], "shift");

        // a writable copy with case.json
        let dst = materialize_case(&cases[0], &tmp.path().join("out")).expect("copies");
        assert_eq!(dst, tmp.path().join("out/corpus/shift"));
        for name in ["framer.c", "test.sh", "README.md", "case.json"] {
            assert!(dst.join(name).is_file(), "{name}");
        }
    }

    #[test]
    fn discovers_bench_cases_and_filters_by_name() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let cases_dir = tmp.path();
        write(
            &cases_dir.join("c-warn-300/case.json"),
            r#"{"language": "c", "file": "prog.c"}"#,
        );
        write(
            &cases_dir.join("c-warn-300-slow/case.json"),
            r#"{"language": "c", "file": "prog.c"}"#,
        );
        write(&cases_dir.join("broken/case.json"), r#"{"file": "x"}"#);
        write(&cases_dir.join("nojson/x.c"), "");
        let (cases, warnings) = discover_bench(cases_dir).expect("discovers");
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["c-warn-300", "c-warn-300-slow"]);
        assert!(cases.iter().all(|c| c.corpus_description.is_none()));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let slow = filter_cases(cases.clone(), Some("300-slow"));
        assert_eq!(slow.len(), 1);
        assert_eq!(filter_cases(cases.clone(), None).len(), 2);
        assert!(check_unique_names(&cases).is_ok());
        let twice = [cases[0].clone(), cases[0].clone()];
        assert!(check_unique_names(&twice).is_err());
    }

    #[test]
    fn reuses_earlier_results_only_for_runs_not_made_now() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let line = |tool: &str, case: &str, jobs: u32, tokens: u64| {
            format!(
                r#"{{"tool": "{tool}", "case": "{case}", "jobs": {jobs}, "exit_status": 0, "timed_out": false, "wall_s": 1.0, "cpu_s": 1.0, "tests_run": 10, "final_bytes": 9, "orig_tokens": 99, "final_tokens": {tokens}, "final_interesting": true}}"#
            )
        };
        let lines = [
            line("hdd", "a", 2, 1),   // run now: not reused
            line("cvise", "a", 2, 7), // superseded by the later line
            line("cvise", "a", 4, 3), // another -j
            line("cvise", "b", 2, 5), // a case not selected
            line("cvise", "a", 2, 6),
        ];
        let file = tmp.path().join("old.jsonl");
        write(&file, &(lines.join("\n") + "\n"));
        let cases = [Case {
            name: "a".to_owned(),
            language: "c".to_owned(),
            file: "f".to_owned(),
            dir: PathBuf::new(),
            corpus_description: None,
        }];
        let runs = [Run {
            case: 0,
            tool: "hdd".to_owned(),
            jobs: 2,
        }];
        let mut notes = Vec::new();
        let kept = reused_records(std::slice::from_ref(&file), &cases, &runs, &[2], &mut notes)
            .expect("reads");
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!((kept[0].tool.as_str(), kept[0].final_tokens), ("cvise", 6));
        assert!(notes[0].starts_with("2 result(s)"), "{notes:?}");
        // --parallel: every -j of the table (cvise at -j 4 is wanted too).
        let kept = reused_records(
            std::slice::from_ref(&file),
            &cases,
            &runs,
            &[2, 4],
            &mut notes,
        )
        .expect("reads");
        let mut got: Vec<(&str, u64, u64)> = kept
            .iter()
            .map(|r| (r.tool.as_str(), r.jobs, r.final_tokens))
            .collect();
        got.sort_unstable();
        assert_eq!(got, vec![("cvise", 2, 6), ("cvise", 4, 3)]);
        write(&file, "not json\n");
        assert!(reused_records(&[file], &cases, &runs, &[2], &mut notes).is_err());
    }

    #[test]
    fn plans_only_installed_tools_with_a_frontend() {
        let case = |name: &str, language: &str| Case {
            name: name.to_owned(),
            language: language.to_owned(),
            file: "f".to_owned(),
            dir: PathBuf::new(),
            corpus_description: None,
        };
        let cases = [case("a", "c"), case("b", "json")];
        let tools: Vec<String> = ["hdd", "treereduce", "cvise"]
            .iter()
            .map(|t| (*t).to_owned())
            .collect();
        let (runs, missing) = plan_runs(&cases, &tools, &[1, 2], |bin| {
            bin == "hdd" || bin == "treereduce-c"
        });
        let planned: Vec<(usize, &str, u32)> = runs
            .iter()
            .map(|r| (r.case, r.tool.as_str(), r.jobs))
            .collect();
        assert_eq!(
            planned,
            [
                (0, "hdd", 1),
                (0, "hdd", 2),
                (0, "treereduce", 1),
                (0, "treereduce", 2),
                (1, "hdd", 1),
                (1, "hdd", 2),
            ]
        );
        assert_eq!(missing.into_iter().collect::<Vec<_>>(), ["cvise"]);
    }

    #[test]
    fn splices_sections_into_bench_md() {
        let first = splice_section("", "reducers", "## Reducers\n\nT1\n");
        assert!(first.starts_with("# hdd benchmark"));
        assert!(
            first.ends_with(
                "<!-- bench:reducers -->\n## Reducers\n\nT1\n<!-- /bench:reducers -->\n"
            )
        );
        let both = splice_section(&first, "parallel", "## Parallel\n\nP1");
        let replaced = splice_section(&both, "reducers", "## Reducers\n\nT2");
        assert!(!replaced.contains("T1"));
        assert!(replaced.contains("T2") && replaced.contains("P1"));
        assert!(replaced.find("T2") < replaced.find("P1"), "order kept");
        assert_eq!(
            splice_section(&replaced, "reducers", "## Reducers\n\nT2"),
            replaced
        );
    }

    #[test]
    fn converts_unix_time_to_utc() {
        assert_eq!(Utc::from_unix(0).minute(), "1970-01-01 00:00 UTC");
        assert_eq!(Utc::from_unix(951_782_400).date(), "2000-02-29");
        assert_eq!(
            Utc::from_unix(1_764_689_400).minute(),
            "2025-12-02 15:30 UTC"
        );
        assert_eq!(Utc::from_unix(-1).minute(), "1969-12-31 23:59 UTC");
    }

    #[test]
    fn quotes_the_command_line() {
        let args = [
            "bench",
            "--cases",
            "warn shift",
            "--tools",
            "hdd,cvise",
            "it's",
        ];
        assert_eq!(
            shell_words(args.iter().map(|a| (*a).to_owned())),
            r"bench --cases 'warn shift' --tools hdd,cvise 'it'\''s'"
        );
    }
}
