//! DESIGN.md's invariants that need the binary, files and processes; one test each.

use std::fs;

use crate::common::{assert_no_survivor, case_with_log, hdd, script, stderr};

const INPUT: &str = "int unused(int a) { return a * 2; }\n\
                     struct s { int x; int y; };\n\
                     int keep(void) { int z = 3; return z + 0x5eed; }\n\
                     static const char *names[] = { \"a\", \"b\", \"c\" };\n";

/// Interesting iff the candidate still holds `0x5eed`; and, at every test, the file in
/// the user's folder (the best so far) must hold it too, or the test writes a marker.
fn marker_test(dir: &std::path::Path) {
    script(
        &dir.join("test.sh"),
        &format!(
            "grep -q 0x5eed \"{best}\" || touch \"{bad}\"\ngrep -q 0x5eed \"$HDD_FILE\"",
            best = dir.join("in.c").display(),
            bad = dir.join("BEST-NOT-INTERESTING").display()
        ),
    );
}

#[test]
fn invariant_1_the_result_is_interesting_and_smaller() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    marker_test(tmp.path());
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read_to_string(tmp.path().join("in.c")).unwrap();
    assert!(result.contains("0x5eed"));
    assert!(result.len() < INPUT.len());
    assert!(stderr(&out).contains("tokens"), "a summary is printed");
}

#[test]
fn invariant_2_original_never_lost_and_best_always_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    marker_test(tmp.path());
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(tmp.path().join("in.c.orig")).unwrap(),
        INPUT
    );
    assert!(
        !tmp.path().join("BEST-NOT-INTERESTING").exists(),
        "at some test, the file on disk was not interesting"
    );
    let leftovers: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".hdd-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    // A second run would overwrite the backup: refused without --force.
    let reduced = fs::read(tmp.path().join("in.c")).unwrap();
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(tmp.path().join("in.c.orig")).unwrap(),
        INPUT
    );
    assert_eq!(fs::read(tmp.path().join("in.c")).unwrap(), reduced);

    // With -o, the input is left untouched and no backup is made.
    fs::write(tmp.path().join("other.c"), INPUT).unwrap();
    let out = hdd(
        tmp.path(),
        &["reduce", "-o", "out.c", "other.c", "./test.sh"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(tmp.path().join("other.c")).unwrap(),
        INPUT
    );
    assert!(!tmp.path().join("other.c.orig").exists());
    assert!(
        fs::read_to_string(tmp.path().join("out.c"))
            .unwrap()
            .contains("0x5eed")
    );
}

/// With `--valid-only`; by default a lenient tail at the end also tries texts that do
/// not parse, when the test still passes with a syntax error appended (this one does).
#[test]
fn invariant_3_only_valid_new_texts_reach_the_test() {
    let (tmp, log) = case_with_log(
        "in.c",
        INPUT,
        "{record}\nrecord in < \"$HDD_FILE\"\ngrep -q 0x5eed \"$HDD_FILE\"",
    );
    let out = hdd(
        tmp.path(),
        &["reduce", "--valid-only", "-o", "out.c", "in.c", "./test.sh"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read(tmp.path().join("out.c")).unwrap();
    let mut seen = std::collections::HashSet::new();
    for entry in fs::read_dir(&log).unwrap() {
        let text = fs::read(entry.unwrap().path()).unwrap();
        assert_eq!(
            crate::common::parse_c(&text).0,
            0,
            "{}",
            String::from_utf8_lossy(&text)
        );
        // The original, the result and the empty file are also run by the checks
        // around the reduction (twice, at the end, once).
        if text != INPUT.as_bytes() && text != result && !text.is_empty() {
            assert!(seen.insert(text), "a text reached the test twice");
        }
    }
    assert!(!seen.is_empty());
}

#[test]
fn invariant_4_each_test_has_its_own_folder_and_process_group() {
    // Records the folder and whether the test leads its own process group, and leaves a
    // grandchild behind that would write a file later if it survived.
    let (tmp, log) = case_with_log(
        "in.c",
        INPUT,
        "{record}\n\
         pgid=$(ps -o pgid= -p $$ | tr -d ' ')\n\
         echo \"$PWD $([ \"$pgid\" = $$ ] && echo leader)\" | record run\n\
         [ \"$(ls)\" = in.c ] || exit 1\n\
         {linger}\n\
         grep -q 0x5eed in.c",
    );
    let out = hdd(
        tmp.path(),
        &["reduce", "-j", "2", "-o", "out.c", "in.c", "./test.sh"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut dirs = std::collections::HashSet::new();
    let mut runs = 0;
    for entry in fs::read_dir(&log).unwrap() {
        let path = entry.unwrap().path();
        if !path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("run.")
        {
            continue;
        }
        let line = fs::read_to_string(path).unwrap();
        let (dir, leader) = line
            .trim()
            .split_once(' ')
            .unwrap_or_else(|| panic!("not a folder and a leader flag: {line:?}"));
        assert_eq!(
            leader, "leader",
            "the test is not its process group's leader"
        );
        assert_ne!(std::path::Path::new(dir), tmp.path());
        dirs.insert(dir.to_owned());
        runs += 1;
    }
    assert!(runs > 3);
    assert_eq!(dirs.len(), runs, "two tests shared a folder");
    assert!(assert_no_survivor(&log) > 3);
}

#[test]
fn invariant_6_the_original_must_be_interesting() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    script(
        &tmp.path().join("test.sh"),
        "echo 'gcc: fatal error: no bug here' >&2\nexit 7",
    );
    let out = hdd(tmp.path(), &["reduce", "in.c", "./test.sh"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("is not interesting"), "{err}");
    assert!(err.contains("exit code 7"), "{err}");
    assert!(err.contains("no bug here"), "{err}");
    assert!(err.contains("to reproduce: cd "), "{err}");
    let kept = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("the test's folder is kept: "))
        .expect("the kept folder is named");
    assert_eq!(
        fs::read_to_string(std::path::Path::new(kept).join("in.c")).unwrap(),
        INPUT
    );
    fs::remove_dir_all(std::path::Path::new(kept).parent().unwrap()).unwrap();
    assert_eq!(fs::read_to_string(tmp.path().join("in.c")).unwrap(), INPUT);
    assert!(!tmp.path().join("in.c.orig").exists());
}
