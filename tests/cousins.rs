//! The cousins of reduction end to end: `hdd bisect` on a throw-away git repository and
//! on integers, `hdd entropy` and `hdd reduce --lang bytes` on the corpus's generator
//! (corpus/generators/dup_counts.rs, built here with rustc).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{assert_no_survivor, hdd, linger, log_dir, oracle_env, root, stderr};

/// The generator-driven system under test, built once per run into the target folder.
fn dup_counts() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generators");
        fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("dup_counts");
        let built = Command::new("rustc")
            .args(["-O", "--edition", "2021", "-o"])
            .arg(&exe)
            .arg(root().join("corpus/generators/dup_counts.rs"))
            .current_dir(&dir)
            .output()
            .expect("rustc runs");
        assert!(built.status.success(), "{}", stderr(&built));
        exe
    })
}

/// The JSON line of `event` in `out`'s stdout.
fn event(out: &Output, name: &str) -> Value {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["event"] == name)
        .unwrap_or_else(|| {
            panic!(
                "no {name} event: {}{}",
                String::from_utf8_lossy(&out.stdout),
                stderr(out)
            )
        })
}

/// A repository of 16 commits whose file `state` says `bad` from commit 11 on, and the
/// list of its commits, oldest first, in `dir/commits.txt`.
fn repository(dir: &Path) -> Vec<String> {
    let repo = dir.join("r");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=hdd", "-c", "user.email=hdd@example.com"])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    fs::create_dir_all(&repo).unwrap();
    git(&["init", "-q"]);
    for n in 1..=16 {
        let state = if n >= 11 { "bad" } else { "good" };
        fs::write(repo.join("state"), format!("{state}\n")).unwrap();
        fs::write(repo.join("n"), format!("{n}\n")).unwrap();
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", &format!("commit {n}")]);
    }
    let list = git(&["rev-list", "--reverse", "HEAD"]);
    fs::write(dir.join("commits.txt"), &list).unwrap();
    list.lines().map(str::to_owned).collect()
}

/// A probe: logs the commit it ran on, skips commit `skip` (125), good before commit 11.
fn probe(skip: u32) -> String {
    format!(
        "echo {{}} >> probes.log; n=$(git -C r show {{}}:n); [ \"$n\" = {skip} ] && exit 125; \
         test \"$(git -C r show {{}}:state)\" = good"
    )
}

/// `hdd bisect` over `commits.txt` with [`probe`]`(skip)`, and `options`.
fn bisect_commits(dir: &Path, skip: u32, options: &[&str]) -> Output {
    let probe = probe(skip);
    let mut args = vec!["bisect", "--list", "commits.txt"];
    args.extend(options);
    args.extend(["--", "sh", "-c", &probe]);
    hdd(dir, &args)
}

#[test]
fn bisect_finds_the_bad_commit_in_four_probes() {
    let dir = tempfile::tempdir().unwrap();
    let commits = repository(dir.path());
    let out = bisect_commits(dir.path(), 0, &["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let done = event(&out, "done");
    assert_eq!(done["first_bad"], commits[10].as_str(), "commit 11");
    assert_eq!(done["last_good"], commits[9].as_str(), "commit 10");
    let probes = fs::read_to_string(dir.path().join("probes.log")).unwrap();
    assert!(probes.lines().count() <= 4, "{probes}");
    assert_eq!(done["tests"], probes.lines().count());
}

#[test]
fn bisect_steps_around_a_commit_that_cannot_be_tested() {
    let dir = tempfile::tempdir().unwrap();
    let commits = repository(dir.path());
    let out = bisect_commits(dir.path(), 10, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("first bad: {}", commits[10])),
        "{stdout}"
    );
    // Commit 10 could not be tested: it is named as a possible first bad one.
    assert!(
        stdout.contains(&format!("(any may be the first bad): {}", commits[9])),
        "{stdout}"
    );
    let probes = fs::read_to_string(dir.path().join("probes.log")).unwrap();
    assert!(
        probes.contains(&commits[9]),
        "commit 10 was probed once: {probes}"
    );
}

#[test]
fn bisect_refuses_ends_that_do_not_disagree() {
    let dir = tempfile::tempdir().unwrap();
    let out = hdd(
        dir.path(),
        &[
            "bisect", "--good", "7", "--bad", "7", "--", "test", "{}", "-lt", "3",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--good and --bad are both 7"),
        "{}",
        stderr(&out)
    );
    let out = hdd(
        dir.path(),
        &[
            "bisect",
            "--check-ends",
            "--good",
            "0",
            "--bad",
            "9",
            "--",
            "test",
            "{}",
            "-lt",
            "100",
        ],
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("0 is good and 9 is good"),
        "{}",
        stderr(&out)
    );
    let out = hdd(
        dir.path(),
        &["bisect", "--good", "0", "--bad", "9", "--", "true"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the command has no {}"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bisect_with_four_jobs_takes_fewer_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let rounds = |jobs: &str| {
        let out = hdd(
            dir.path(),
            &[
                "bisect", "-j", jobs, "--json", "--good", "-50", "--bad", "100000", "--", "test",
                "{}", "-lt", "7373",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let done = event(&out, "done");
        assert_eq!(done["first_bad"], "7373");
        assert_eq!(done["last_good"], "7372");
        done["rounds"].as_u64().unwrap()
    };
    let (one, four) = (rounds("1"), rounds("4"));
    assert!(four < one, "-j 4: {four} rounds, -j 1: {one}");
}

#[test]
fn bisect_stops_at_a_probe_that_is_neither_good_nor_bad() {
    let dir = tempfile::tempdir().unwrap();
    let out = hdd(
        dir.path(),
        &[
            "bisect",
            "--good",
            "0",
            "--bad",
            "9",
            "--",
            "sh",
            "-c",
            "echo dying {} >&2; kill -9 $$",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("killed by signal 9") && err.contains("dying"),
        "{err}"
    );
}

/// SplitMix64's stream written here again from its description, for comparison.
fn splitmix_stream(size: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::new();
    while out.len() < size {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend((z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(size);
    out
}

#[test]
fn entropy_finds_a_small_failing_budget_and_replays_it_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let sut = dup_counts().to_str().unwrap();
    let out = hdd(dir.path(), &["entropy", "-j", "2", "--json", "--", sut]);
    assert!(out.status.success(), "{}", stderr(&out));
    let found = event(&out, "found");
    let size = found["size"].as_u64().unwrap() as usize;
    let seed = found["seed"].as_u64().unwrap();
    // No stream under 5 bytes can fail (two items are needed): within 2x of that.
    assert!((5..=10).contains(&size), "{found}");
    assert_eq!(found["status"], "exit code 101");

    // The replay feeds the SUT exactly that stream: the SUT sees the bytes SplitMix64
    // gives, fails the same way, and prints what it prints on that file.
    let stream = splitmix_stream(size, seed);
    fs::write(dir.path().join("expected.bin"), &stream).unwrap();
    let replay = hdd(
        dir.path(),
        &[
            "entropy",
            "--replay",
            &size.to_string(),
            &seed.to_string(),
            "--",
            "sh",
            "-c",
            &format!("tee seen.bin | {sut}"),
        ],
    );
    assert_eq!(replay.status.code(), Some(101), "{}", stderr(&replay));
    assert_eq!(fs::read(dir.path().join("seen.bin")).unwrap(), stream);
    let direct = Command::new(sut)
        .arg(dir.path().join("expected.bin"))
        .output()
        .unwrap();
    assert_eq!(direct.status.code(), Some(101));
    assert_eq!(replay.stdout, direct.stdout);
    assert!(
        stderr(&replay).contains("count overflow merging key"),
        "{}",
        stderr(&replay)
    );
}

#[test]
fn bytes_mode_shrinks_the_generator_stream_to_its_minimal_length_for_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let sut = dup_counts().to_str().unwrap();
    // A failing stream of 64 bytes, written by -o.
    let out = hdd(
        dir.path(),
        &[
            "entropy",
            "--min-size",
            "64",
            "--max-size",
            "64",
            "-o",
            "found.bin",
            "--",
            sut,
            "@@",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let found = fs::read(dir.path().join("found.bin")).unwrap();
    assert_eq!(found.len(), 64);
    let mut results = Vec::new();
    for jobs in ["1", "3"] {
        let file = format!("s{jobs}.bin");
        fs::write(dir.path().join(&file), &found).unwrap();
        let out = hdd(
            dir.path(),
            &[
                "reduce",
                "--lang",
                "bytes",
                "--deterministic",
                "--no-cache",
                "-j",
                jobs,
                "--interesting-exit-code",
                "101",
                &file,
                "--",
                sut,
            ],
        );
        assert!(out.status.success(), "-j {jobs}: {}", stderr(&out));
        results.push(fs::read(dir.path().join(&file)).unwrap());
    }
    assert_eq!(results[0], results[1], "the same for -j 1 and -j 3");
    assert_eq!(results[0].len(), 5, "{:?}", results[0]);
    assert_eq!(
        results[0],
        [2, 0, 1, 0, 255],
        "the shortlex-smallest failing stream"
    );
}

#[test]
fn entropy_shrink_keeps_the_found_stream_beside_the_shrunk_one() {
    let dir = tempfile::tempdir().unwrap();
    let sut = dup_counts().to_str().unwrap();
    let out = hdd(
        dir.path(),
        &["entropy", "--min-size", "32", "--shrink", "-q", "--", sut],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let line = String::from_utf8_lossy(&out.stdout);
    let (size, seed) = line
        .trim()
        .strip_prefix("size=")
        .and_then(|rest| rest.split_once(" seed="))
        .unwrap_or_else(|| panic!("{line}"));
    let file = dir.path().join(format!("entropy-{size}-{seed}.bin"));
    let shrunk = fs::read(&file).unwrap();
    assert_eq!(shrunk.len(), 5, "{shrunk:?}");
    let orig = fs::read(dir.path().join(format!("entropy-{size}-{seed}.bin.orig"))).unwrap();
    assert_eq!(
        orig,
        splitmix_stream(size.parse().unwrap(), seed.parse().unwrap())
    );
}

#[test]
fn ctrl_c_stops_every_probe_of_a_bisection() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_dir(dir.path());
    let probe = format!(
        "{}; echo started >> {}/started; sleep 60",
        linger(&log),
        log.display()
    );
    let child = oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
        .args([
            "bisect", "-j", "3", "--good", "0", "--bad", "100", "--", "sh", "-c", &probe, "{}",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while fs::read_to_string(log.join("started")).map_or(0, |s| s.lines().count()) < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the probes never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    assert_eq!(assert_no_survivor(&log), 3);
}
