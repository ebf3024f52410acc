//! The harness's results: parsing a `run-tool.sh` JSON line into a [`Record`], its token
//! cell, and reusing the results of earlier runs (`--reuse`).

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use anyhow::{Context as _, Result};
use serde_json::Value;

use super::cases::Case;
use super::plan::Run;

/// One line of `run-tool.sh` output (the fields the tables use).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Record {
    pub(super) tool: String,
    pub(super) case: String,
    pub(super) jobs: u64,
    pub(super) exit_status: i64,
    pub(super) timed_out: bool,
    pub(super) wall_s: f64,
    pub(super) cpu_s: f64,
    pub(super) tests_run: u64,
    pub(super) final_bytes: u64,
    pub(super) orig_tokens: u64,
    pub(super) final_tokens: u64,
    pub(super) final_interesting: bool,
}

impl Record {
    pub(super) fn parse(line: &str) -> Result<Self> {
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
    pub(super) fn tokens_cell(&self) -> String {
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

/// The records of `files` for the selected cases at one of `jobs` that no run of `runs` made
/// now; one per case, tool and -j, the last line winning. Adds a note per file.
pub(super) fn reused_records(
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

/// A record of `tool` on `case` at -j 2 with made-up numbers (for this module's tests and
/// the table's).
#[cfg(test)]
pub(super) fn sample(tool: &str, case: &str, tokens: u64, interesting: bool) -> Record {
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

#[cfg(test)]
mod tests {
    use super::sample as record;
    use super::*;
    use crate::bench::fsutil::write;

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
}
