//! The markdown the benchmark writes: the reducers table (with hdd's ratio to the best
//! peer), the parallel-scaling table, and the marked sections of `corpus/BENCH.md`.

use std::fmt::Write as _;

use super::record::Record;

/// The first lines of `corpus/BENCH.md`; each mode rewrites only its own marked section.
const BENCH_MD_TITLE: &str = "# hdd benchmark\n\nWritten by `cargo xtask bench` (xtask/src/bench/): \
hdd against the installed peer reducers on corpus/ and the shared bench cases, one run each \
through the shared harness `run-tool.sh`. Each mode (`cargo xtask bench`, \
`cargo xtask bench --parallel`) rewrites only its own section.\n";
pub(super) const LEGEND: &str = "final tokens (by the harness's `tokens.py`): t = timed out, e = the tool \
exited with an error, ✗ = the result is not interesting (re-checked with the pristine test.sh); \
bytes = final bytes; tests = test runs; s = wall seconds; hdd / best peer = hdd's final tokens \
over the fewest final tokens among the peers whose result is interesting (- when no peer ran).";
pub(super) const PARALLEL_LEGEND: &str = "final tokens: t = timed out, e = the tool exited with an error, \
✗ = the result is not interesting; speedup = the tool's wall time at -j 1 over its wall time at \
this -j (a timed-out run's wall time is the time limit, so its speedup understates).";

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
pub(super) fn render_table(
    cases: &[(String, String)],
    tools: &[String],
    records: &[Record],
) -> String {
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
pub(super) fn render_parallel_table(
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

/// A section of `corpus/BENCH.md`: the header, a line per note, then the table.
pub(super) fn section(header: &str, notes: &[String], table: &str) -> String {
    let mut section = format!("{header}\n\n");
    for note in notes {
        writeln!(section, "- note: {note}").expect("writing to a String");
    }
    if !notes.is_empty() {
        section.push('\n');
    }
    section.push_str(table);
    section
}

/// Rewrites the section `key` of `bench_md` (`corpus/BENCH.md`): `header`, a line per
/// note, then `table`; the other sections stay as they are.
pub(super) fn write_section(
    bench_md: &std::path::Path,
    key: &str,
    header: &str,
    notes: &[String],
    table: &str,
) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let old = std::fs::read_to_string(bench_md).unwrap_or_default();
    let body = section(header, notes, table);
    std::fs::write(bench_md, splice_section(&old, key, &body))
        .with_context(|| format!("writing {}", bench_md.display()))?;
    eprintln!("wrote {}", bench_md.display());
    Ok(())
}

/// `existing` (corpus/BENCH.md) with the section `key` replaced by `body`, or appended when it
/// is not there yet; a missing or empty file starts with the title.
pub(super) fn splice_section(existing: &str, key: &str, body: &str) -> String {
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
    use crate::bench::record::sample as record;

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
}
