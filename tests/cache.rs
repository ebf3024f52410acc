//! The verdicts kept across runs (`HDD_CACHE_DIR`, `--no-cache`): a second run on a
//! reduced file tests almost nothing, an edited test or `--no-cache` tests again, and two
//! runs sharing the cache at once both end well.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::common::{case_with_log, done, oracle_env};

/// Forty small functions and a struct; the test needs the one that holds 0x5eed and
/// the head of `f33`.
fn input() -> String {
    let mut text = String::from("struct s { int a; char *b; };\n");
    for i in 0..40 {
        text.push_str(&format!(
            "int f{i}(int a) {{ struct s x; x.a = a + {i}; return x.a * 2; }}\n"
        ));
        if i == 20 {
            text.push_str("int keep(void) { int z = 3; return z + 0x5eed; }\n");
        }
    }
    text
}

/// `hdd reduce --json ARGS in.c ./test.sh` in `dir` with the verdicts in `cache`.
fn reduce(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
        .env("HDD_CACHE_DIR", cache)
        .current_dir(dir)
        .args(["reduce", "--json", "-j", "2", "--force"])
        .args(args)
        .args(["in.c", "./test.sh"])
        .output()
        .expect("the hdd binary runs")
}

/// How many times the test ran (each run leaves a record in the log).
fn runs(log: &Path) -> usize {
    fs::read_dir(log).unwrap().count()
}

fn case() -> (tempfile::TempDir, std::path::PathBuf) {
    case_with_log(
        "in.c",
        input(),
        "{record}\necho | record run\ngrep -q 0x5eed in.c",
    )
}

#[test]
fn a_second_run_on_the_reduced_file_tests_almost_nothing() {
    // With a lenient tail the first result may not parse, and the second run's grammar
    // passes would then start from a text with errors, with candidates the first never
    // made: the property holds for results that parse.
    let (tmp, log) = case();
    let cache = tmp.path().join("cache");
    let first = done(&reduce(tmp.path(), &cache, &["--valid-only"]));
    let first_runs = runs(&log);
    assert_eq!(first["earlier_verdicts"], 0);
    assert!(first_runs > 30, "{first_runs} tests: too few to measure");
    let reduced = fs::read(tmp.path().join("in.c")).unwrap();

    fs::remove_dir_all(&log).unwrap();
    fs::create_dir(&log).unwrap();
    let second = done(&reduce(tmp.path(), &cache, &["--valid-only"]));
    // The four checks around a reduction (the original twice, an empty file, the
    // result) always run; of the reduction's own tests, under 5% run again.
    let again = runs(&log) - 4;
    assert!(
        again * 20 < first_runs - 4,
        "{again} of {first_runs} tests ran again"
    );
    assert!(second["earlier_verdicts"].as_u64().unwrap() > 30);
    assert_eq!(fs::read(tmp.path().join("in.c")).unwrap(), reduced);

    // --no-cache tests everything again.
    fs::remove_dir_all(&log).unwrap();
    fs::create_dir(&log).unwrap();
    let fresh = done(&reduce(tmp.path(), &cache, &["--no-cache"]));
    assert_eq!(fresh["earlier_verdicts"], 0);
    assert!(runs(&log) > again + 4, "--no-cache used the cache");
}

#[test]
fn an_edited_test_or_another_timeout_is_another_test() {
    let (tmp, log) = case();
    let cache = tmp.path().join("cache");
    done(&reduce(tmp.path(), &cache, &[]));
    fs::write(tmp.path().join("in.c"), input()).unwrap();
    let replayed = done(&reduce(tmp.path(), &cache, &[]));
    assert!(replayed["earlier_verdicts"].as_u64().unwrap() > 0);

    let other = done(&reduce(tmp.path(), &cache, &["--timeout", "30"]));
    assert_eq!(other["earlier_verdicts"], 0, "a timeout changes verdicts");
    let script = tmp.path().join("test.sh");
    let mut text = fs::read_to_string(&script).unwrap();
    text.push_str("# edited\n");
    fs::write(&script, text).unwrap();
    let edited = done(&reduce(tmp.path(), &cache, &[]));
    assert_eq!(
        edited["earlier_verdicts"], 0,
        "an edited script is a new test"
    );
    assert!(runs(&log) > 0);
}

#[test]
fn two_runs_at_once_share_the_cache() {
    let (tmp, _log) = case();
    let cache = tmp.path().join("cache");
    // Two copies of the input in two folders, one test script (by its absolute path),
    // so both runs write the same cache file at once.
    let test = tmp.path().join("test.sh");
    let dirs: Vec<_> = ["a", "b"]
        .iter()
        .map(|name| {
            let dir = tmp.path().join(name);
            fs::create_dir(&dir).unwrap();
            fs::write(dir.join("in.c"), input()).unwrap();
            dir
        })
        .collect();
    let spawn = |dir: &Path| {
        oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
            .env("HDD_CACHE_DIR", &cache)
            .current_dir(dir)
            .args(["reduce", "--json", "-j", "2", "in.c"])
            .arg(&test)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children: Vec<_> = dirs.iter().map(|d| spawn(d)).collect();
    let results: Vec<Value> = children
        .into_iter()
        .map(|c| done(&c.wait_with_output().unwrap()))
        .collect();
    for (dir, result) in dirs.iter().zip(&results) {
        let text = fs::read_to_string(dir.join("in.c")).unwrap();
        assert!(text.contains("0x5eed"), "{text}");
        assert_eq!(result["status"], "ok");
    }
    // A third run reads every whole record both left, and tests little.
    let third_dir = tmp.path().join("c");
    fs::create_dir(&third_dir).unwrap();
    fs::write(third_dir.join("in.c"), input()).unwrap();
    let third = done(
        &oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
            .env("HDD_CACHE_DIR", &cache)
            .current_dir(&third_dir)
            .args(["reduce", "--json", "-j", "1", "in.c"])
            .arg(&test)
            .output()
            .unwrap(),
    );
    let files: Vec<_> = fs::read_dir(&cache).unwrap().collect();
    assert_eq!(files.len(), 1, "one test, one file");
    let most = results
        .iter()
        .map(|r| r["tests"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(
        third["tests"].as_u64().unwrap() < most,
        "{third} after {most}"
    );
}
