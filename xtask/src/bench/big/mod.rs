//! `cargo xtask bench --big`: hdd (release build) on generated big inputs (C of 1, 5 and
//! 50 MB, 50 MB of text, JSON objects and arrays nested 100,000 deep) with grep tests:
//! when the first candidate is tested, the whole run, the tests, the result's size, hdd's
//! peak memory, and how long hdd takes to exit after a Ctrl-C (SIGINT) 5 s into a second
//! run. Writes its own section of `corpus/BENCH.md`.
//!
//! Modules: `inputs` (what each input and its test are), `measure` (one run, watched
//! from outside).

mod inputs;
mod measure;

use std::fmt::Write as _;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, Result};

use self::inputs::{BigInput, JSON_LEVELS};
pub(crate) use self::measure::Measured;
use self::measure::Setup;
use super::clock::Utc;
use super::process;
use super::table;

/// When the second run of each input gets its SIGINT.
const INTERRUPT_AFTER: Duration = Duration::from_secs(5);

/// One row: an input, its size, and its two runs.
struct Row {
    name: &'static str,
    bytes: usize,
    full: Measured,
    interrupted: Measured,
}

/// The options of `--big`: `-j`, `--timeout` (seconds, per run) and `--cases`.
pub(super) struct BigArgs<'a> {
    pub(super) jobs: u32,
    pub(super) timeout: u32,
    pub(super) cases: Option<&'a str>,
}

pub(super) fn bench_big(args: &BigArgs<'_>, root: &Path) -> Result<()> {
    process::release_path(root)?;
    let target = process::target_dir(root);
    let hdd = target.join("release/hdd");
    let dir = target.join("bench/big");
    let limit = Duration::from_secs(u64::from(args.timeout));
    let mut rows = Vec::new();
    for input in inputs::all() {
        if args.cases.is_some_and(|c| !input.name.contains(c)) {
            continue;
        }
        rows.push(run_input(
            &input,
            &dir.join(input.name),
            &hdd,
            args.jobs,
            limit,
        )?);
    }
    let now = Utc::now();
    let command = format!(
        "cargo xtask {}",
        hdd_exec::shell_words(std::env::args().skip(1))
    );
    let header = format!(
        "## Big inputs\n\n{} on {} cores (`nproc`), -j {}, timeout {} s: `{command}`",
        now.minute(),
        process::nproc(),
        args.jobs,
        args.timeout
    );
    let rendered = format!("{}\n{}\n", render(&rows), legend());
    print!("{rendered}");
    table::write_section(
        &root.join("corpus/BENCH.md"),
        "big",
        &header,
        &[],
        &rendered,
    )
}

/// Writes `input` and its test to `dir`, and runs hdd on it twice: to its end (or the
/// time limit), and with a SIGINT 5 s in.
fn run_input(input: &BigInput, dir: &Path, hdd: &Path, jobs: u32, limit: Duration) -> Result<Row> {
    let staged = Staged::write(input, dir)?;
    let setup = staged.setup(input, hdd, jobs);
    eprintln!("{}: reducing", input.name);
    let full = measure::run(&setup, limit, None)?;
    eprintln!("{}: reducing, with a SIGINT after 5 s", input.name);
    let interrupted = measure::run(&setup, limit, Some(INTERRUPT_AFTER))?;
    let _ = fs::remove_file(&setup.output);
    Ok(Row {
        name: input.name,
        bytes: staged.bytes,
        full,
        interrupted,
    })
}

/// One run of the release hdd (built by the caller) on the big input named `name`, in
/// `target/bench/big/NAME/`: its size in bytes and what the run showed.
pub(super) fn measure_named(
    name: &str,
    root: &Path,
    jobs: u32,
    limit: Duration,
) -> Result<(usize, Measured)> {
    let input = inputs::all()
        .into_iter()
        .find(|i| i.name == name)
        .with_context(|| format!("no big input named {name}"))?;
    let target = process::target_dir(root);
    let staged = Staged::write(&input, &target.join("bench/big").join(input.name))?;
    let hdd = target.join("release/hdd");
    let setup = staged.setup(&input, &hdd, jobs);
    eprintln!("{}: reducing", input.name);
    let measured = measure::run(&setup, limit, None)?;
    let _ = fs::remove_file(&setup.output);
    Ok((staged.bytes, measured))
}

/// An input and its test written to a folder.
struct Staged {
    dir: std::path::PathBuf,
    path: std::path::PathBuf,
    test: std::path::PathBuf,
    log: std::path::PathBuf,
    bytes: usize,
}

impl Staged {
    fn write(input: &BigInput, dir: &Path) -> Result<Staged> {
        eprintln!("{}: writing the input", input.name);
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let text = input.text();
        let path = dir.join(input.file);
        fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
        let log = dir.join("test-runs");
        let test = dir.join("test.sh");
        fs::write(&test, measure::test_script(&log, &input.test_body()))
            .with_context(|| format!("writing {}", test.display()))?;
        fs::set_permissions(&test, fs::Permissions::from_mode(0o755))?;
        Ok(Staged {
            dir: dir.to_owned(),
            path,
            test,
            log,
            bytes: text.len(),
        })
    }

    fn setup<'a>(&'a self, input: &BigInput, hdd: &'a Path, jobs: u32) -> Setup<'a> {
        Setup {
            hdd,
            input: &self.path,
            lang: input.lang,
            test: &self.test,
            log: &self.log,
            jobs,
            output: self.dir.join(format!("out-{}", input.file)),
        }
    }
}

/// The markdown table, one row per input.
fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "| input | bytes | start s | first test s | first accepted s | total s | tests | \
         final bytes | peak RSS MB | RSS / input | SIGINT → exit s |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for row in rows {
        let m = &row.full;
        let total = format!("{:.1}{}", m.total, if m.timed_out { " t" } else { "" });
        let rss = m.peak_rss_kb.map(|kb| kb as f64 / 1000.0);
        let ratio = rss.map(|mb| format!("{:.1}", mb * 1e6 / row.bytes as f64));
        // A run that ended before its SIGINT has nothing to show.
        let stop = match (&row.interrupted.sigint_to_exit, row.interrupted.exit_code) {
            (Some(s), Some(130)) => format!("{s:.2}"),
            (Some(s), code) => format!(
                "{s:.2} (exit {})",
                code.map_or("-".into(), |c| c.to_string())
            ),
            (None, _) => "ended first".to_owned(),
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {total} | {} | {} | {} | {} | {stop} |",
            row.name,
            row.bytes,
            secs(m.started),
            secs(m.first_test),
            secs(m.first_accepted),
            count(m.tests),
            count(m.final_bytes),
            rss.map_or("-".into(), |mb| format!("{mb:.0}")),
            ratio.unwrap_or_else(|| "-".into()),
        )
        .expect("writing to a String");
    }
    out
}

fn legend() -> String {
    format!(
        "start = the `start` event (input read, test checked, input parsed); first test = the \
         first run of the test after it (the test notes its runs); first accepted = the first \
         `accepted` event; total: t = stopped at the time limit; tests and final bytes from the \
         `done` event; peak RSS = hdd's own `VmHWM` (its tests not counted), and over the \
         input's size; SIGINT → exit = a second run, sent SIGINT 5 s in (\"ended first\": it was \
         over by then). All times in seconds from the start of the process. Tests: C, text and \
         JSON records `grep -q MAGIC` (one function, line or record in the middle), nested \
         JSON: 42 and {JSON_LEVELS} levels of the nesting."
    )
}

fn secs(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |s| format!("{s:.2}"))
}

fn count(value: Option<u64>) -> String {
    value.map_or_else(|| "-".to_owned(), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_show_each_measure_or_a_dash() {
        let full = Measured {
            started: Some(1.0),
            first_test: Some(1.25),
            first_accepted: Some(2.0),
            total: 300.0,
            timed_out: true,
            exit_code: Some(130),
            tests: Some(12),
            final_bytes: None,
            peak_rss_kb: Some(20_000),
            sigint_to_exit: None,
        };
        let interrupted = Measured {
            sigint_to_exit: Some(0.3),
            exit_code: Some(130),
            ..Measured::default()
        };
        let table = render(&[Row {
            name: "c-1mb",
            bytes: 1_000_000,
            full,
            interrupted,
        }]);
        let row = table.lines().nth(2).unwrap();
        assert_eq!(
            row,
            "| c-1mb | 1000000 | 1.00 | 1.25 | 2.00 | 300.0 t | 12 | - | 20 | 20.0 | 0.30 |"
        );
    }
}
