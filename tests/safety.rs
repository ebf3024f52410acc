//! The user's files are sacred: the original is never lost (an `-o` naming the input or
//! the test, a backup that exists, a full disk), someone else's edit is never overwritten,
//! and bad arguments get one clear sentence, not a panic.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::{case_with_log, hdd, script, stderr};

const INPUT: &str = "int unused(int a) { return a * 2; }\n\
                     int keep(void) { int z = 3; return z + 0x5eed; }\n\
                     struct s { int a; char *b; };\n";

/// A folder with `in.c` and a `test.sh` that needs the marker; it also leaves `RAN` in
/// the folder, so a refusal can be shown to come before any test.
fn setup() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("in.c"), INPUT).unwrap();
    script(
        &tmp.path().join("test.sh"),
        &format!(
            "touch {}\ngrep -q 0x5eed in.c",
            tmp.path().join("RAN").display()
        ),
    );
    tmp
}

fn assert_refused(dir: &Path, args: &[&str], message: &str) {
    let out = hdd(dir, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(message),
        "{args:?}: expected {message:?} in {err}"
    );
    assert!(
        !dir.join("RAN").exists(),
        "{args:?}: a test ran before the refusal"
    );
    assert_eq!(fs::read_to_string(dir.join("in.c")).unwrap(), INPUT);
    assert!(!dir.join("in.c.orig").exists());
}

/// A folder, a FIFO (reading it would block for ever) or a device as the input: refused
/// in one sentence before any test, nothing written.
#[test]
fn an_input_that_is_not_a_regular_file_is_refused() {
    let tmp = setup();
    let dir = tmp.path();
    fs::create_dir(dir.join("folder.c")).unwrap();
    assert_refused(
        dir,
        &["reduce", "folder.c", "./test.sh"],
        "folder.c is a folder: hdd reduces a regular file",
    );
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe.c"))
        .status()
        .unwrap();
    assert!(made.success());
    assert_refused(
        dir,
        &["reduce", "pipe.c", "./test.sh"],
        "pipe.c is not a regular file",
    );
    assert_refused(
        dir,
        &["reduce", "--lang", "c", "/dev/zero", "./test.sh"],
        "/dev/zero is not a regular file",
    );
    assert!(!dir.join("RAN").exists(), "a test ran");
    assert!(!dir.join("pipe.c.orig").exists());
}

#[test]
fn an_output_naming_the_input_or_the_test_or_a_missing_folder_is_refused() {
    let tmp = setup();
    let dir = tmp.path();
    let test_before = fs::read(dir.join("test.sh")).unwrap();
    assert_refused(
        dir,
        &["reduce", "-o", "in.c", "in.c", "./test.sh"],
        "is the input in.c",
    );
    assert_refused(
        dir,
        &["reduce", "-o", "./in.c", "in.c", "./test.sh"],
        "is the input",
    );
    std::os::unix::fs::symlink(dir.join("in.c"), dir.join("alias.c")).unwrap();
    assert_refused(
        dir,
        &["reduce", "-o", "alias.c", "in.c", "./test.sh"],
        "is the input",
    );
    assert_refused(
        dir,
        &["reduce", "-o", "test.sh", "in.c", "./test.sh"],
        "is the test",
    );
    assert_eq!(fs::read(dir.join("test.sh")).unwrap(), test_before);
    assert_refused(
        dir,
        &["reduce", "-o", "nowhere/out.c", "in.c", "./test.sh"],
        "the folder nowhere does not exist",
    );
    fs::create_dir(dir.join("folder")).unwrap();
    assert_refused(
        dir,
        &["reduce", "-o", "folder", "in.c", "./test.sh"],
        "is a folder",
    );
}

/// A backup that exists (an interrupted run's) is never replaced: hdd stops, or with
/// `--force` backs up to a fresh name; a backup that is a link is not written through.
#[test]
fn an_existing_backup_is_never_overwritten() {
    let tmp = setup();
    let dir = tmp.path();
    // An earlier run was interrupted: the original in in.c.orig, a partial result in in.c.
    fs::rename(dir.join("in.c"), dir.join("in.c.orig")).unwrap();
    let partial = "int keep(void) { int z = 3; return z + 0x5eed; }\n";
    fs::write(dir.join("in.c"), partial).unwrap();
    let out = hdd(dir, &["reduce", "in.c", "./test.sh"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));

    let out = hdd(dir, &["reduce", "--force", "in.c", "./test.sh"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("backed up as in.c.orig.1"), "{err}");
    assert_eq!(fs::read_to_string(dir.join("in.c.orig")).unwrap(), INPUT);
    assert_eq!(
        fs::read_to_string(dir.join("in.c.orig.1")).unwrap(),
        partial
    );

    // The backup's name is a link to somebody's file: that file is untouched.
    let other = tempfile::tempdir().unwrap();
    let victim = other.path().join("victim.txt");
    fs::write(&victim, "precious").unwrap();
    let tmp = setup();
    let dir = tmp.path();
    std::os::unix::fs::symlink(&victim, dir.join("in.c.orig")).unwrap();
    let out = hdd(dir, &["reduce", "--force", "in.c", "./test.sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(fs::read_to_string(dir.join("in.c.orig.1")).unwrap(), INPUT);
}

/// The result keeps the input's mode, and a new `-o` file gets it too.
#[test]
fn results_keep_the_file_mode() {
    for output in [None, Some("out.c")] {
        let tmp = setup();
        let dir = tmp.path();
        fs::set_permissions(dir.join("in.c"), fs::Permissions::from_mode(0o640)).unwrap();
        let mut args = vec!["reduce"];
        args.extend(output.iter().flat_map(|o| ["-o", *o]));
        args.extend(["in.c", "./test.sh"]);
        let out = hdd(dir, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        let written = match output {
            None => vec!["in.c", "in.c.orig"],
            Some(out) => vec![out],
        };
        for name in written {
            let mode = fs::metadata(dir.join(name)).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o640, "{name}");
        }
    }
}

/// Someone edits the input while hdd runs (here, the test itself, on its fifth run, so
/// the edit lands between two of hdd's writes): the edit stays, the result goes beside
/// it, exit code 6.
#[test]
fn someone_elses_edit_wins() {
    let (tmp, log) = case_with_log("in.c", INPUT, "");
    let dir = tmp.path();
    let file = dir.join("in.c");
    script(
        &dir.join("test.sh"),
        &format!(
            "echo run >> {log}/runs\n\
             [ \"$(wc -l < {log}/runs)\" -eq 5 ] && printf '/* mine */\\n' >> {file}\n\
             grep -q 0x5eed in.c",
            log = log.display(),
            file = file.display()
        ),
    );
    let out = hdd(dir, &["reduce", "-j", "1", "in.c", "./test.sh"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("in.c was changed by someone else"), "{err}");
    assert!(err.contains("in.c.hdd-best"), "{err}");
    let theirs = fs::read_to_string(&file).unwrap();
    assert!(
        theirs.ends_with("/* mine */\n"),
        "the edit was lost: {theirs:?}"
    );
    let best = fs::read_to_string(dir.join("in.c.hdd-best")).unwrap();
    assert!(
        best.contains("0x5eed") && best.len() < INPUT.len() / 2,
        "{best}"
    );
    assert_eq!(fs::read_to_string(dir.join("in.c.orig")).unwrap(), INPUT);
}

/// A full disk (a small tmpfs) when the backup is written: no truncated backup, the
/// input as it was, one clear message. Needs root to mount; says so and skips
/// otherwise.
#[test]
fn a_full_disk_leaves_the_original_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let mnt = tmp.path().join("small");
    fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&mnt)
        .output();
    if !mounted.as_ref().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: cannot mount a small tmpfs here ({mounted:?})");
        return;
    }
    let _unmount = Unmount(&mnt);
    let input: String = (0..6000)
        .map(|i| format!("int f{i}(void) {{ return {i}; }}\n"))
        .collect::<String>()
        + "int keep = 0x5eed;\n";
    assert!(input.len() > 128 * 1024, "bigger than half the disk");
    fs::write(mnt.join("in.c"), &input).unwrap();
    script(&tmp.path().join("test.sh"), "grep -q 0x5eed in.c");
    let test = tmp.path().join("test.sh");
    let out = hdd(&mnt, &["reduce", "in.c", test.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("writing the backup in.c.orig failed, in.c is untouched: No space left"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(mnt.join("in.c")).unwrap(), input);
    let names: Vec<String> = fs::read_dir(&mnt)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["in.c"], "a partial file was left behind");
}

struct Unmount<'a>(&'a Path);

impl Drop for Unmount<'_> {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0).status();
    }
}

#[test]
fn arguments_out_of_range_are_one_clear_sentence() {
    let tmp = setup();
    let dir = tmp.path();
    assert_refused(
        dir,
        &["reduce", "--timeout", "1e20", "in.c", "./test.sh"],
        "--timeout 100000000000000000000 is too long",
    );
    assert_refused(
        dir,
        &["reduce", "--timeout", "0", "in.c", "./test.sh"],
        "--timeout must be a positive number of seconds",
    );
    let out = hdd(
        dir,
        &["reduce", "--json", "--timeout", "1e20", "in.c", "./test.sh"],
    );
    let last: Value = serde_json::from_str(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .expect("a JSON event"),
    )
    .unwrap();
    assert_eq!(last["event"], "error");
    assert_eq!(last["exit_code"], 2);
}

/// Scripts the system cannot run: each gets one sentence naming the cause, with the
/// system's message at most once.
#[test]
fn unrunnable_tests_are_named_in_one_sentence() {
    for (body, message) in [
        (
            "grep -q 0x5eed in.c\n",
            "a script needs a first line like #!/bin/sh",
        ),
        (
            "#!/nonexistent/sh\ngrep -q 0x5eed in.c\n",
            "names the interpreter /nonexistent/sh in its #! line, and there is no such file",
        ),
        (
            "#!/bin/sh\r\ngrep -q 0x5eed in.c\r\n",
            "has Windows line endings: its #! line ends with a carriage return",
        ),
    ] {
        let tmp = setup();
        let dir = tmp.path();
        fs::write(dir.join("test.sh"), body).unwrap();
        let out = hdd(dir, &["reduce", "in.c", "./test.sh"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(message), "expected {message:?} in {err}");
        assert!(err.matches("os error").count() <= 1, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(fs::read_to_string(dir.join("in.c")).unwrap(), INPUT);
    }
}

/// Output that nobody reads any more (`hdd langs | true`, a closed terminal) is not a
/// panic: the command ends as it would have.
#[test]
fn a_closed_output_is_not_a_panic() {
    for _ in 0..3 {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "set -o pipefail; {} langs | true",
                env!("CARGO_BIN_EXE_hdd")
            ))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}
