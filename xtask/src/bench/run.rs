//! Running the harness: writable copies of it and of every case in a temporary folder, one
//! `run-tool.sh` per planned run (under `flock` when it is installed), and each result
//! appended to the day's `.jsonl` as soon as its run ends.

use std::ffi::OsStr;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, Result};

use super::cases::{Case, materialize_case};
use super::fsutil::{copy_dir, copy_file};
use super::plan::Run;
use super::process::on_path;
use super::record::Record;

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

/// Copies the harness of `harness_src` to `tmp/harness` and every case under `tmp/cases`;
/// returns the harness copy and each case's copy, in `cases` order.
pub(super) fn stage(
    harness_src: &Path,
    cases: &[Case],
    tmp: &Path,
) -> Result<(PathBuf, Vec<PathBuf>)> {
    let harness = tmp.join("harness");
    copy_harness(harness_src, &harness)?;
    let mut case_dirs = Vec::new();
    for case in cases {
        case_dirs.push(materialize_case(case, &tmp.join("cases"))?);
    }
    Ok((harness, case_dirs))
}

/// The raw results file `<date>.jsonl`, appended to one line per run (so an interrupted
/// benchmark keeps its runs).
pub(super) struct Journal {
    file: fs::File,
    pub(super) path: PathBuf,
}

impl Journal {
    pub(super) fn open(out_dir: &Path, date: &str) -> Result<Self> {
        fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
        let path = out_dir.join(format!("{date}.jsonl"));
        let file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(Self { file, path })
    }

    fn append(&mut self, line: &str) -> Result<()> {
        writeln!(self.file, "{}", line.trim())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

/// How `run-tool.sh` is started.
pub(super) struct Harness<'a> {
    script: PathBuf,
    /// PATH for the runs (the release build of hdd first).
    path: &'a OsStr,
    timeout: u32,
    /// Held around every run when `flock` is installed: runs never overlap across
    /// concurrent `cargo xtask bench` invocations.
    lock: Option<PathBuf>,
}

impl<'a> Harness<'a> {
    /// The harness copied to `dir`, its lock file in `out_dir`.
    pub(super) fn new(dir: &Path, path: &'a OsStr, timeout: u32, out_dir: &Path) -> Self {
        Self {
            script: dir.join("run-tool.sh"),
            path,
            timeout,
            lock: on_path("flock", path).then(|| out_dir.join(".lock")),
        }
    }

    fn command(&self, run: &Run, case_dir: &Path) -> Command {
        let mut command = match &self.lock {
            Some(lock) => {
                let mut command = Command::new("flock");
                command.arg(lock).arg("bash");
                command
            }
            None => Command::new("bash"),
        };
        command
            .arg(&self.script)
            .arg(&run.tool)
            .arg(case_dir)
            .arg(run.jobs.to_string())
            .arg(self.timeout.to_string())
            .env("PATH", self.path)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit());
        command
    }
}

/// Makes every run of `runs` (`case_dirs` are the cases' copies), with a progress line on
/// stderr for each; a run without a well-formed result becomes a note.
pub(super) fn run_all(
    harness: &Harness<'_>,
    runs: &[Run],
    cases: &[Case],
    case_dirs: &[PathBuf],
    journal: &mut Journal,
    notes: &mut Vec<String>,
) -> Result<Vec<Record>> {
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
            harness.timeout
        );
        let output = harness
            .command(run, &case_dirs[run.case])
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
                journal.append(line)?;
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
    Ok(records)
}
