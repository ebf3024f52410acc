//! `cargo xtask tidy` and the tidy test: checks over the workspace's hand-written Rust
//! sources (every `*.rs` under crates/, xtask/ and tests/, except under a `target/` folder,
//! `grammars/*/tables.rs`, and files whose first lines say they are generated or not to be
//! edited). Each finding names a file and a line; the checks are:
//!
//! 1. no file longer than 700 lines;
//! 2. every file starts with a `//!` line saying what it is for;
//! 3. signal handlers go through signal-hook (the text `libc` + `::signal` never appears);
//! 4. no module cycle inside a crate (how the module graph is built: `modules`).
//!
//! [`check`] is a pure function of the sources, so the checks are unit-tested on made-up
//! files; [`tidy`] and the `workspace_is_tidy` test run it on the workspace.

mod modules;
mod syntax;

use std::fmt::{self, Write as _};
use std::fs;
use std::path::Path;

use anyhow::{Context as _, Result, bail};

use self::modules::CrateGraph;

/// The longest a hand-written file may be.
const MAX_LINES: usize = 700;
/// The folders (from the workspace root) whose `*.rs` files are checked.
const SOURCE_DIRS: [&str; 3] = ["crates", "xtask", "tests"];
/// Written in two pieces so that this file does not find itself.
const RAW_SIGNAL: &str = concat!("libc", "::signal");

/// One problem, at a line of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Finding {
    path: String,
    line: usize,
    message: String,
}

/// What [`check`] found, and how: the files and each crate's module graph.
#[derive(Debug)]
struct Report {
    checked: usize,
    generated: usize,
    graphs: Vec<CrateGraph>,
    findings: Vec<Finding>,
}

/// `cargo xtask tidy`: prints the report of the workspace at `root`; fails on any finding.
pub(crate) fn tidy(root: &Path) -> Result<()> {
    let report = check(&collect_sources(root)?);
    print!("{report}");
    if !report.findings.is_empty() {
        bail!(
            "tidy failed: {} problem(s), listed above",
            report.findings.len()
        );
    }
    Ok(())
}

/// Every `*.rs` file under the [`SOURCE_DIRS`] of `root` (those present), with its path
/// relative to `root` (`/`-separated) and contents; `target/` folders are skipped.
fn collect_sources(root: &Path) -> Result<Vec<(String, String)>> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, String)>) -> Result<()> {
        let mut entries = Vec::new();
        for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            entries.push(entry.with_context(|| format!("reading {}", dir.display()))?);
        }
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let rel = format!("{rel}/{name}");
            if path.is_dir() {
                if name != "target" {
                    walk(&path, &rel, out)?;
                }
            } else if name.ends_with(".rs") {
                let text = fs::read_to_string(&path)
                    .with_context(|| format!("reading {}", path.display()))?;
                out.push((rel, text));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for dir in SOURCE_DIRS {
        if root.join(dir).is_dir() {
            walk(&root.join(dir), dir, &mut out)?;
        }
    }
    Ok(out)
}

/// Whether a file is generated: `grammars/<lang>/tables.rs`, or a comment in its first three
/// lines that starts with "Generated" / "@generated" or says "do not edit".
fn is_generated(path: &str, text: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    if matches!(parts.as_slice(), [.., "grammars", _, "tables.rs"]) {
        return true;
    }
    text.lines().take(3).any(|line| {
        let comment = line.trim_start();
        let Some(body) = comment
            .strip_prefix("//")
            .or_else(|| comment.strip_prefix("/*"))
        else {
            return false;
        };
        let body = body.trim_start_matches(['/', '!', '*']).trim_start();
        body.starts_with("Generated")
            || body.starts_with("@generated")
            || body.to_lowercase().contains("do not edit")
    })
}

/// The tidy checks over `files` (path relative to the workspace root, contents).
fn check(files: &[(String, String)]) -> Report {
    let mut findings = Vec::new();
    let mut sources: Vec<(&str, &str)> = Vec::new();
    let mut generated = 0;
    for (path, text) in files {
        if path.split('/').any(|part| part == "target") || !path.ends_with(".rs") {
            continue;
        }
        if is_generated(path, text) {
            generated += 1;
            continue;
        }
        sources.push((path.as_str(), text.as_str()));
        let mut find = |line: usize, message: String| {
            findings.push(Finding {
                path: path.clone(),
                line,
                message,
            });
        };
        let lines = text.lines().count();
        if lines > MAX_LINES {
            find(
                1,
                format!("{lines} lines, more than {MAX_LINES}: split the module"),
            );
        }
        if !text.starts_with("//!") {
            find(
                1,
                "does not start with a `//!` line saying what the module is for".to_owned(),
            );
        }
        for (n, line) in text.lines().enumerate() {
            if line.contains(RAW_SIGNAL) {
                find(
                    n + 1,
                    format!("`{RAW_SIGNAL}`: install signal handlers with signal-hook"),
                );
            }
        }
    }
    let graphs = modules::crate_graphs(&sources);
    for graph in &graphs {
        for cycle in &graph.cycles {
            findings.push(cycle_finding(graph, cycle));
        }
    }
    Report {
        checked: sources.len(),
        generated,
        graphs,
        findings,
    }
}

/// A cycle as a finding at its first edge, with every edge's place on its own line.
fn cycle_finding(graph: &CrateGraph, cycle: &modules::Cycle) -> Finding {
    let mut path: Vec<&str> = cycle.steps.iter().map(|s| s.from.as_str()).collect();
    path.push(cycle.steps.first().map_or("", |s| s.from.as_str()));
    let mut message = format!("module cycle in {}: {}", graph.name, path.join(" -> "));
    if cycle.members.len() + 1 > path.len() {
        write!(message, " (its component: {})", cycle.members.join(", "))
            .expect("writing to a String");
    }
    for step in &cycle.steps {
        write!(
            message,
            "\n    {}:{}: {} -> {} (`{}`)",
            step.file, step.line, step.from, step.to, step.text
        )
        .expect("writing to a String");
    }
    let first = cycle.steps.first();
    Finding {
        path: first.map_or_else(|| graph.root.clone(), |s| s.file.clone()),
        line: first.map_or(1, |s| s.line),
        message,
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "tidy: {} files checked ({} generated skipped)",
            self.checked, self.generated
        )?;
        writeln!(
            f,
            "module graphs (edge: a module mentions a path into another):"
        )?;
        for graph in &self.graphs {
            let cycles = match graph.cycles.len() {
                0 => "no cycle".to_owned(),
                1 => "1 cycle".to_owned(),
                n => format!("{n} cycles"),
            };
            writeln!(
                f,
                "  {} ({}): {} modules, {} edges, {cycles}",
                graph.name, graph.root, graph.modules, graph.edges
            )?;
        }
        for finding in &self.findings {
            writeln!(f, "{}:{}: {}", finding.path, finding.line, finding.message)?;
        }
        match self.findings.len() {
            0 => writeln!(f, "tidy: no problem"),
            n => writeln!(f, "tidy: {n} problem(s)"),
        }
    }
}

#[cfg(test)]
mod tests;
