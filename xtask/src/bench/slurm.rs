//! `cargo xtask bench --slurm`: tests through `srun` on a one-node Slurm cluster
//! (`tests/cluster/single-node-slurm.sh`, as root, the packages installed; its node
//! declares [`CPUS`] CPUs, more than the machine has, so that many tests that sleep can
//! run at once), written to their own section of `corpus/BENCH.md`:
//!
//! - the cost of a test through `srun` against a local one: the same reduction (400
//!   lines, 8 of which the test needs) with a fast test (`grep -c`), `--deterministic
//!   -j 1`, so both run the same tests; the difference of their wall times per test;
//! - the wall time at -j 1, 8 and 32 of a case whose test sleeps [`SLEEP`] s, through
//!   `srun` inside one allocation;
//! - hdd's own CPU time at -j 128 with that test, run locally (the tests' threads sleep
//!   in `poll`, none busy-waits).

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::clock::Utc;
use super::process;
use super::table;

/// The CPUs the bench's node declares.
const CPUS: usize = 32;

/// How long the sleeping test sleeps, in seconds.
const SLEEP: &str = "0.2";

/// The template of the README's recipe.
const SRUN: &str = "srun -Q --exact -n1 -c1 --chdir={dir} {cmd}";

/// One run of hdd: its wall time and what its `done` event says.
#[derive(Debug, Clone, Default)]
pub(super) struct Run {
    pub(super) wall: f64,
    pub(super) tests: u64,
    pub(super) cpu: Option<f64>,
    pub(super) bytes_after: u64,
}

/// The cluster, stopped when dropped.
struct Cluster {
    script: PathBuf,
    dir: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(&self.script)
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

pub(super) fn bench_slurm(root: &Path) -> Result<()> {
    process::release_path(root)?;
    let target = process::target_dir(root);
    let hdd = target.join("release/hdd");
    let dir = target.join("bench/slurm");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let cluster = Cluster {
        script: root.join("tests/cluster/single-node-slurm.sh"),
        dir: dir.join("cluster"),
    };
    let started = Command::new(&cluster.script)
        .arg("start")
        .arg(&cluster.dir)
        .env("HDD_SLURM_CPUS", CPUS.to_string())
        .status()
        .context("running single-node-slurm.sh")?;
    if !started.success() {
        bail!("the one-node Slurm cluster did not start (see above)");
    }
    let conf = cluster.dir.join("slurm.conf");
    let input = lines(400);
    let fast = case(&dir.join("fast"), &input, CHECK)?;
    let sleepy = case(
        &dir.join("sleepy"),
        &input,
        &format!("sleep {SLEEP}; {CHECK}"),
    )?;

    eprintln!("a fast test, -j 1, local then through srun");
    let local = reduce(&hdd, &fast, &conf, None, 1, &["--deterministic"])?;
    let srun = reduce(&hdd, &fast, &conf, Some(SRUN), 1, &["--deterministic"])?;
    let mut scaling = Vec::new();
    for jobs in [1, 8, 32] {
        eprintln!("the sleeping test through srun, -j {jobs}");
        scaling.push((jobs, reduce(&hdd, &sleepy, &conf, Some(SRUN), jobs, &[])?));
    }
    eprintln!("the sleeping test, local, -j 128");
    let wide = reduce(&hdd, &sleepy, &conf, None, 128, &[])?;
    drop(cluster);

    let rendered = render(&local, &srun, &scaling, &wide);
    print!("{rendered}");
    let command = format!(
        "cargo xtask {}",
        hdd_exec::shell_words(std::env::args().skip(1))
    );
    let header = format!(
        "## Slurm\n\n{} on {} cores (`nproc`), a one-node cluster declaring {CPUS} CPUs: \
         `{command}`",
        Utc::now().minute(),
        process::nproc()
    );
    table::write_section(
        &root.join("corpus/BENCH.md"),
        "slurm",
        &header,
        &[],
        &rendered,
    )
}

/// A text of `n` lines, [`NEEDLES`] of them spread out with `needle`.
fn lines(n: usize) -> String {
    let every = n / NEEDLES;
    (0..n)
        .map(|i| {
            if i % every == every / 2 {
                format!("needle {i}\n")
            } else {
                format!("line {i} of the haystack\n")
            }
        })
        .collect()
}

/// How many lines the test needs (all of them): ddmin has work for many jobs.
const NEEDLES: usize = 8;

/// The test's check: every needle is still there.
const CHECK: &str = "[ \"$(grep -c needle input.txt)\" -ge 8 ]";

/// A folder with `input.txt` and a `test.sh` running `body`.
fn case(dir: &Path, input: &str, body: &str) -> Result<PathBuf> {
    fs::create_dir_all(dir)?;
    fs::write(dir.join("input.txt"), input)?;
    let test = dir.join("test.sh");
    fs::write(&test, format!("#!/bin/sh\n{body}\n"))?;
    fs::set_permissions(&test, fs::Permissions::from_mode(0o755))?;
    Ok(dir.to_owned())
}

/// `hdd reduce` on a fresh copy of the case's input, through `template` (inside one
/// allocation of `jobs` CPUs) or locally.
fn reduce(
    hdd: &Path,
    case: &Path,
    conf: &Path,
    template: Option<&str>,
    jobs: usize,
    extra: &[&str],
) -> Result<Run> {
    let input = case.join("input.txt");
    let out = case.join("out.txt");
    let _ = fs::remove_file(&out);
    let mut args: Vec<String> = ["reduce", "--json", "-q", "--no-cache", "-j"]
        .map(str::to_owned)
        .to_vec();
    args.push(jobs.to_string());
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    if let Some(template) = template {
        args.extend(["--exec".to_owned(), template.to_owned()]);
    }
    args.extend([
        "-o".to_owned(),
        out.display().to_string(),
        input.display().to_string(),
        case.join("test.sh").display().to_string(),
    ]);
    let mut command = if template.is_some() {
        let mut salloc = Command::new("salloc");
        salloc.args(["-Q", "-n", &jobs.to_string()]).arg(hdd);
        salloc
    } else {
        Command::new(hdd)
    };
    let begun = Instant::now();
    let output = command
        .args(&args)
        .env("SLURM_CONF", conf)
        .current_dir(case)
        .stderr(Stdio::inherit())
        .output()
        .context("running hdd")?;
    let wall = begun.elapsed().as_secs_f64();
    if !output.status.success() {
        bail!("hdd {} ended with {}", args.join(" "), output.status);
    }
    let mut run = parse_done(&String::from_utf8_lossy(&output.stdout))?;
    run.wall = wall;
    Ok(run)
}

/// The `done` event of hdd's `--json` output.
fn parse_done(stdout: &str) -> Result<Run> {
    let done: Value = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["event"] == "done")
        .context("no done event in hdd's output")?;
    Ok(Run {
        wall: 0.0,
        tests: done["tests"].as_u64().unwrap_or(0),
        cpu: done["cpu_seconds"].as_f64(),
        bytes_after: done["after"]["bytes"].as_u64().unwrap_or(0),
    })
}

fn render(local: &Run, srun: &Run, scaling: &[(usize, Run)], wide: &Run) -> String {
    let per_test = |r: &Run| r.wall * 1000.0 / r.tests.max(1) as f64;
    let cpu = |r: &Run| r.cpu.map_or("-".to_owned(), |c| format!("{c:.2} s"));
    let mut out = String::from("| run | tests | wall | per test | hdd's own CPU | result |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    let mut row = |what: String, r: &Run| {
        out.push_str(&format!(
            "| {what} | {} | {:.1} s | {:.1} ms | {} | {} bytes |\n",
            r.tests,
            r.wall,
            per_test(r),
            cpu(r),
            r.bytes_after
        ));
    };
    row("fast test (`grep -c`), local, -j 1".to_owned(), local);
    row("fast test, through srun, -j 1".to_owned(), srun);
    for (jobs, r) in scaling {
        row(
            format!("test sleeping {SLEEP} s, through srun, -j {jobs}"),
            r,
        );
    }
    row(format!("test sleeping {SLEEP} s, local, -j 128"), wide);
    let one = scaling.first().map_or(f64::NAN, |(_, r)| r.wall);
    let speedups: Vec<String> = scaling
        .iter()
        .map(|(jobs, r)| format!("-j {jobs} {:.2}x", one / r.wall))
        .collect();
    out.push_str(&format!(
        "\nA test through `srun` (a job step of one allocation, `{SRUN}`) costs {:.1} ms more \
         than a local one ({:.1} ms against {:.1} ms a test, the same {} tests with \
         `--deterministic`). Through srun, against -j 1: {}. hdd's own CPU time is all of \
         its threads' (from `/proc/self/stat`), the tests' processes aside.\n",
        per_test(srun) - per_test(local),
        per_test(srun),
        per_test(local),
        local.tests,
        speedups.join(", ")
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_done_event_is_read_and_rendered() {
        let stdout = "{\"event\":\"start\"}\n{\"event\":\"done\",\"tests\":50,\
                      \"cpu_seconds\":0.25,\"after\":{\"bytes\":19}}\n";
        let mut fast = parse_done(stdout).unwrap();
        assert_eq!(
            (fast.tests, fast.cpu, fast.bytes_after),
            (50, Some(0.25), 19)
        );
        fast.wall = 0.5;
        let srun = Run {
            wall: 4.0,
            ..fast.clone()
        };
        let scaling = vec![
            (
                1,
                Run {
                    wall: 20.0,
                    ..fast.clone()
                },
            ),
            (
                8,
                Run {
                    wall: 4.0,
                    ..fast.clone()
                },
            ),
        ];
        let text = render(&fast, &srun, &scaling, &fast);
        assert!(text.contains("costs 70.0 ms more"), "{text}");
        assert!(text.contains("-j 8 5.00x"), "{text}");
        assert!(text.contains("| 0.25 s | 19 bytes |"), "{text}");
    }
}
