//! Helpers: temp folders with scripts, running the binary, parsing results.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes an executable shell script.
pub(crate) fn script(path: &Path, body: &str) {
    fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `hdd` with `args` in `dir`, its tests in [`oracle_env`].
pub(crate) fn hdd(dir: &Path, args: &[&str]) -> Output {
    oracle_env(&mut Command::new(env!("CARGO_BIN_EXE_hdd")))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the hdd binary runs")
}

/// The environment the tests' oracles run in. This project's machines add a cost to
/// every start of the interpreters the corpus's tests use, which the reductions pay
/// thousands of times: `python3` on PATH is a pyenv shim (a shell script: ~125 ms a start,
/// against ~11 ms for the distribution's `/usr/bin/python3`, which `.ci/run` installs
/// when missing), and `NODE_EXTRA_CA_CERTS` makes node parse a CA bundle at every start
/// (~70 ms against ~30 ms). The answers are the same (the corpus's programs use neither
/// pyenv nor TLS); the time is not. So `/usr/bin/python3` comes first on PATH (through
/// a folder holding only it) and `NODE_EXTRA_CA_CERTS` is removed.
///
/// hdd keeps its tests' verdicts for later runs ([`verdict_cache`]): the tests keep
/// theirs in the target folder, not in the user's cache folder.
pub(crate) fn oracle_env(command: &mut Command) -> &mut Command {
    static PATH: OnceLock<std::ffi::OsString> = OnceLock::new();
    let path = PATH.get_or_init(|| {
        let system = Path::new("/usr/bin/python3");
        let mut dirs: Vec<PathBuf> = Vec::new();
        if system.exists() {
            let bin = Path::new(env!("CARGO_TARGET_TMPDIR")).join("oracle-bin");
            fs::create_dir_all(&bin).unwrap();
            let link = bin.join("python3");
            if fs::read_link(&link).ok().as_deref() != Some(system) {
                let _ = fs::remove_file(&link);
                // Tests running at once may race to make it: one wins.
                let _ = std::os::unix::fs::symlink(system, &link);
            }
            dirs.push(bin);
        }
        dirs.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        std::env::join_paths(dirs).unwrap()
    });
    command
        .env("PATH", path)
        .env_remove("NODE_EXTRA_CA_CERTS")
        .env("HDD_CACHE_DIR", verdict_cache())
}

/// Where the tests' runs of hdd keep their verdicts for later runs (`HDD_CACHE_DIR`).
/// Every test's script lives in a fresh temp folder, and the script's path is part of a
/// verdict's key, so one test never sees another's verdicts.
pub(crate) fn verdict_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("verdicts")
}

/// The `done` event of a successful `--json` run (its last line).
pub(crate) fn done(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().expect("a done event");
    let done: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(done["event"], "done");
    done
}

/// stderr as text.
pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Parses C and returns (error nodes, tokens).
pub(crate) fn parse_c(text: &[u8]) -> (usize, usize) {
    parse(Some(hdd_grammar::Lang::C), text)
}

/// Parses `text` in `lang` and returns (error nodes, tokens); without a language, no
/// errors and whitespace-separated words, as hdd counts them.
pub(crate) fn parse(lang: Option<hdd_grammar::Lang>, text: &[u8]) -> (usize, usize) {
    let Some(lang) = lang else {
        return (0, hdd_core::Document::plain(text.to_vec()).token_count());
    };
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.ts_language()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    (
        hdd_core::count_errors(tree.root_node(), text),
        hdd_core::leaves(tree.root_node()).len(),
    )
}

/// Counts tokens the way the corpus bounds are stated (the bench harness's
/// language-agnostic lexer, re-implemented): quoted strings and template literals are one
/// token each, then hex and decimal numbers with suffixes, identifiers, the longest of a
/// set of multi-character operators, and any other non-space character.
pub(crate) fn lexer_tokens(text: &[u8]) -> usize {
    const OPS: &[&[u8]] = &[
        b">>>=", b"<<=", b">>=", b">>>", b"...", b"===", b"!==", b"**=", b"??=", b"..=", b"?.",
        b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"::", b"=>",
        b"+=", b"-=", b"*=", b"/=", b"%=", b"&=", b"|=", b"^=", b"**", b"??", b"##", b"..",
    ];
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut count = 0;
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        count += 1;
        if matches!(b, b'"' | b'\'' | b'`') {
            i += 1;
            while i < text.len() && text[i] != b && (b == b'`' || text[i] != b'\n') {
                i += if text[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(text.len().max(i));
        } else if word(b) {
            while i < text.len() && (word(text[i]) || (b.is_ascii_digit() && text[i] == b'.')) {
                i += 1;
            }
        } else if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(op)) {
            i += op.len();
        } else {
            i += 1;
        }
    }
    count
}

/// A folder `log` in `dir` for tests' scripts to leave marks in (`pids`: the processes
/// started by [`linger`]).
pub(crate) fn log_dir(dir: &Path) -> PathBuf {
    let log = dir.join("log");
    fs::create_dir(&log).unwrap();
    log
}

/// Shell code for a test script: starts a process that outlives the test unless its
/// process group is killed, and notes its pid in `log/pids` for [`assert_no_survivor`].
/// The process carries the log folder in its environment (`HDD_LINGER`), so a pid the
/// system handed on to another process after the first died is not taken for a survivor;
/// it notes its own pid once it has that mark (the shell's `$!` would name it while it
/// may still be a copy of the shell without it).
pub(crate) fn linger(log: &Path) -> String {
    format!(
        "{{ HDD_LINGER='{}' sh -c 'echo $$ >> \"$HDD_LINGER/pids\"; exec sleep 60' & }}",
        log.display()
    )
}

/// Shell code for a test script that defines `record NAME`: what it reads from stdin
/// becomes a new file `log/NAME.XXXXXX` in one rename, so a test that hdd kills half-way
/// (a stale or timed-out test) leaves no half-written record behind in `log` (its part
/// stays in the folder above).
pub(crate) fn recorder(log: &Path) -> String {
    let parent = log.parent().expect("a log folder has a parent");
    format!(
        "record() {{ part=$(mktemp '{}/part.XXXXXX') && cat > \"$part\" && \
         mv \"$part\" '{}'/\"$1.${{part##*.}}\"; }}",
        parent.display(),
        log.display()
    )
}

/// A temp folder holding `name` with `input`, an empty `log` folder, and a `test.sh`
/// that runs `body`, in which `{log}` stands for the log folder's path, `{linger}` for
/// [`linger`]'s code and `{record}` for [`recorder`]'s.
pub(crate) fn case_with_log(
    name: &str,
    input: impl AsRef<[u8]>,
    body: &str,
) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_dir(tmp.path());
    fs::write(tmp.path().join(name), input).unwrap();
    let body = body
        .replace("{linger}", &linger(&log))
        .replace("{record}", &recorder(&log))
        .replace("{log}", &log.display().to_string());
    script(&tmp.path().join("test.sh"), &body);
    (tmp, log)
}

/// The pids noted in `log/pids` whose process is alive and was started by [`linger`]
/// for `log`.
pub(crate) fn lingerers(log: &Path) -> Vec<u32> {
    fs::read_to_string(log.join("pids"))
        .unwrap_or_default()
        .split_whitespace()
        .map(|pid| pid.parse().expect("a pid"))
        .filter(|&pid| lingering(pid, log))
        .collect()
}

/// Checks that every process [`linger`] started is gone (a zombie waiting to be reaped
/// counts as gone), allowing two seconds for the kills to land. Returns how many there
/// were.
pub(crate) fn assert_no_survivor(log: &Path) -> usize {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let alive = lingerers(log);
        if alive.is_empty() {
            return fs::read_to_string(log.join("pids"))
                .unwrap_or_default()
                .split_whitespace()
                .count();
        }
        assert!(
            Instant::now() < deadline,
            "processes started by a test outlived it: {alive:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The check behind [`assert_no_survivor`] sees a process [`linger`] left running:
/// without this, a marker that never matched would make every survivor check pass.
#[test]
fn a_lingering_process_is_seen_until_it_is_killed() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_dir(tmp.path());
    let status = Command::new("sh")
        .args(["-c", &linger(&log)])
        .status()
        .unwrap();
    assert!(status.success());
    // The shell is gone; the lingering process notes itself a moment later.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut alive = lingerers(&log);
    while alive.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        alive = lingerers(&log);
    }
    assert_eq!(alive.len(), 1, "the lingering process was not seen");
    let _ = Command::new("kill")
        .args(["-9", &alive[0].to_string()])
        .status();
    assert_eq!(assert_no_survivor(&log), 1);
}

/// The processes whose command line (its arguments joined by spaces) holds `marker`.
pub(crate) fn processes_with(marker: &str) -> Vec<u32> {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .filter(|pid: &u32| {
            fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|line| {
                String::from_utf8_lossy(&line)
                    .replace('\0', " ")
                    .contains(marker)
            })
        })
        .collect()
}

/// Waits (up to 10 s) until `path` exists.
pub(crate) fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether `pid` is a live (not zombie) process that [`linger`] started for `log`.
fn lingering(pid: u32, log: &Path) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // `pid (comm) state ...`: the command may hold ") ", so the last one counts.
    let Some((_, rest)) = stat.rsplit_once(") ") else {
        return false;
    };
    if rest.starts_with('Z') {
        return false;
    }
    let Ok(environ) = fs::read(format!("/proc/{pid}/environ")) else {
        return false;
    };
    let mark = format!("HDD_LINGER={}", log.display());
    environ.split(|&b| b == 0).any(|var| var == mark.as_bytes())
}
