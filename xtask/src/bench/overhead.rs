//! `cargo xtask bench --overhead`: hdd's own costs around the tests, written to their own
//! section of `corpus/BENCH.md`:
//!
//! - the engine and the validity filter on a generated 5,000-line C file, in process
//!   (`cargo bench -p hdd --bench overhead`, `crates/hdd/benches/overhead.rs`);
//! - the release binary's start on that file: `hdd reduce` with a test that says no, so
//!   that hdd reads and parses the input, runs the test once and stops, against the same
//!   test run alone (medians of [`STARTS`] runs);
//! - peak memory on 5 MB of JSON records (the `json-5mb` input of `--big`).

use std::env;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::big;
use super::clock::Utc;
use super::process;
use super::table;

/// Runs of the binary (and of the test alone) whose median is reported.
const STARTS: usize = 11;

pub(super) fn bench_overhead(root: &Path, jobs: u32, timeout: u32) -> Result<()> {
    process::release_path(root)?;
    let target = process::target_dir(root);
    let dir = target.join("bench/overhead");
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let input = dir.join("big.c");
    let measures = in_process(root, &input)?;
    let start = start_time(&target.join("release/hdd"), &input, &dir)?;
    let (json_bytes, json) = big::measure_named(
        "json-5mb",
        root,
        jobs,
        Duration::from_secs(u64::from(timeout)),
    )?;
    let rendered = render(&measures, start, json_bytes, &json);
    print!("{rendered}");
    let command = format!("cargo xtask {}", hdd_exec::shell_words(env::args().skip(1)));
    let header = format!(
        "## Overhead\n\n{} on {} cores (`nproc`): `{command}`",
        Utc::now().minute(),
        process::nproc()
    );
    table::write_section(
        &root.join("corpus/BENCH.md"),
        "overhead",
        &header,
        &[],
        &rendered,
    )
}

/// The JSON objects `cargo bench -p hdd --bench overhead` prints, the input written to
/// `input`.
fn in_process(root: &Path, input: &Path) -> Result<Vec<Value>> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("running cargo bench -p hdd --bench overhead (several minutes)");
    let out = Command::new(cargo)
        .args(["bench", "--quiet", "-p", "hdd", "--bench", "overhead", "--"])
        .arg(format!("write-input={}", input.display()))
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .context("running cargo bench")?;
    if !out.status.success() {
        bail!(
            "cargo bench -p hdd --bench overhead failed ({})",
            out.status
        );
    }
    parse_measures(&String::from_utf8_lossy(&out.stdout))
}

/// The lines of the bench's output that are JSON objects with a `measure`.
fn parse_measures(stdout: &str) -> Result<Vec<Value>> {
    stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).with_context(|| format!("not JSON: {l}")))
        .filter(|v: &Result<Value>| v.as_ref().map_or(true, |v| v["measure"].is_string()))
        .collect()
}

/// The binary's start: (median wall seconds of `hdd reduce` with a test that says no,
/// median seconds of that test alone).
fn start_time(hdd: &Path, input: &Path, dir: &Path) -> Result<(f64, f64)> {
    let test = dir.join("no.sh");
    fs::write(&test, "#!/bin/sh\nexit 1\n")?;
    fs::set_permissions(&test, fs::Permissions::from_mode(0o755))?;
    // The failed check keeps the test's folder for the user: in a folder of ours.
    let tmp = dir.join("tmp");
    let mut hdd_runs = Vec::new();
    let mut test_runs = Vec::new();
    for _ in 0..STARTS {
        fs::create_dir_all(&tmp)?;
        let t = Instant::now();
        let status = Command::new(hdd)
            .args(["reduce", "--no-cache", "-q", "-o"])
            .arg(dir.join("out.c"))
            .arg(input)
            .arg(&test)
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        hdd_runs.push(t.elapsed().as_secs_f64());
        if status.code() != Some(3) {
            bail!("hdd with a test that says no ended with {status}, not exit code 3");
        }
        fs::remove_dir_all(&tmp)?;
        let t = Instant::now();
        Command::new(&test).current_dir(dir).status()?;
        test_runs.push(t.elapsed().as_secs_f64());
    }
    Ok((median(&mut hdd_runs), median(&mut test_runs)))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn number(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or(f64::NAN)
}

fn render(
    measures: &[Value],
    start: (f64, f64),
    json_bytes: usize,
    json: &big::Measured,
) -> String {
    let find = |name: &str| measures.iter().find(|m| m["measure"] == name);
    let mut out = String::from("| measure | figure | goal |\n| --- | --- | --- |\n");
    let mut row = |what: String, figure: String, goal: &str| {
        out.push_str(&format!("| {what} | {figure} | {goal} |\n"));
    };
    if let Some(v) = find("validity") {
        row(
            format!(
                "validity filter, one node deleted, {} lines of C ({} candidates)",
                v["lines"], v["candidates"]
            ),
            format!(
                "median {:.2} ms, mean {:.2} ms, 95th percentile {:.2} ms (a full parse: {:.1} ms)",
                number(v, "median_ms"),
                number(v, "mean_ms"),
                number(v, "p95_ms"),
                number(v, "full_parse_ms")
            ),
            "under 2 ms",
        );
    }
    if let Some(v) = find("engine") {
        row(
            format!(
                "engine, a predicate that says no to every candidate, {} lines of C",
                v["lines"]
            ),
            format!(
                "{:.1} s for {} tests ({} candidates refused as invalid, {} rounds): {:.2} ms \
                 of hdd's own time per test",
                number(v, "seconds"),
                v["tests"],
                v["invalid"],
                v["rounds"],
                number(v, "ms_per_test")
            ),
            "-",
        );
    }
    let (hdd, test) = start;
    row(
        "the binary on the same file with a test that says no (start, parse, one test, exit)"
            .to_owned(),
        format!(
            "{:.1} ms; the test alone {:.1} ms; hdd's own {:.1} ms (medians of {STARTS})",
            hdd * 1000.0,
            test * 1000.0,
            (hdd - test) * 1000.0
        ),
        "under 50 ms beyond the test runs",
    );
    let rss = json.peak_rss_kb.map(|kb| kb as f64 * 1000.0);
    row(
        format!("peak memory, {json_bytes} bytes of JSON records (`json-5mb`)"),
        rss.map_or_else(
            || "-".to_owned(),
            |bytes| {
                format!(
                    "{:.0} MB, {:.1}x the input ({} tests, {:.1} s, {} bytes left)",
                    bytes / 1e6,
                    bytes / json_bytes as f64,
                    json.tests.map_or("-".into(), |t| t.to_string()),
                    json.total,
                    json.final_bytes.map_or("-".into(), |b| b.to_string())
                )
            },
        ),
        "under 20x the input",
    );
    out.push_str(
        "\nIn process (`cargo bench -p hdd --bench overhead`, release build, one thread): the \
         validity filter re-parses a candidate incrementally from the old tree and counts its \
         errors; the engine figure is a whole run whose every candidate fails, so every pass \
         runs to its end (hdd's time per test is all of its time over the tests run: candidates, \
         validity, cache, rebasing). The binary: medians of wall time, the test a `#!/bin/sh` \
         `exit 1`. Peak memory: hdd's own `VmHWM` at -j 2 with a `grep -q MAGIC` test.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_are_read_from_the_bench_output_and_rendered() {
        let stdout = "running\n{\"measure\":\"validity\",\"lines\":5002,\"candidates\":10,\
                      \"median_ms\":0.3,\"p95_ms\":3.5,\"mean_ms\":0.7,\"full_parse_ms\":18.1}\n\
                      {\"measure\":\"engine\",\"lines\":5002,\"seconds\":400.0,\"tests\":80000,\
                      \"invalid\":100,\"rounds\":2,\"ms_per_test\":5.0}\n";
        let measures = parse_measures(stdout).unwrap();
        assert_eq!(measures.len(), 2);
        let json = big::Measured {
            peak_rss_kb: Some(50_000),
            tests: Some(40),
            ..big::Measured::default()
        };
        let text = render(&measures, (0.050, 0.002), 5_000_000, &json);
        assert!(text.contains("median 0.30 ms"), "{text}");
        assert!(
            text.contains("5.00 ms of hdd's own time per test"),
            "{text}"
        );
        assert!(text.contains("hdd's own 48.0 ms"), "{text}");
        assert!(text.contains("50 MB, 10.0x the input"), "{text}");
    }
}
