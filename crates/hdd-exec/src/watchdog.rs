//! The watchdog: a small shell process that outlives hdd only to kill the process group
//! of every test still running when hdd dies without cleaning up (SIGKILL, a crash).
//!
//! hdd tells it each running test's group on a pipe (`+GROUP` when a test starts,
//! `-GROUP` when it ended and its group was killed). The watchdog holds the pipe's read
//! end and does nothing else; when hdd dies, for any reason, the kernel closes hdd's end,
//! the watchdog reads end-of-file, kills every group still listed and exits. When hdd
//! ends normally, the list is empty and it just exits.
//!
//! Why not only a parent-death signal (`PR_SET_PDEATHSIG`) on each test's leader? It
//! reaches the leader alone, not the processes the test started (a shell script's
//! compiler, `sleep`, …), and setting it needs code between fork and exec, which makes
//! the standard library fork instead of `posix_spawn`: forking copies hdd's page tables,
//! measured at 27 ms a test with 1 GB of memory in use and 128 ms with 4 GB, against
//! about 1 ms. So the leader gets a parent-death signal only when there is no watchdog
//! (no `/bin/sh`, or it died) or when code runs between fork and exec anyway
//! (`--mem-limit`); see `launch.rs`.
//!
//! Processes a running test started that left its group (`setsid`, a double fork) are
//! not in any listed group, and once hdd is dead they are nobody's children but init's.
//! So every test runs with `HDD_RUN=PID-START` in its environment (this process's pid and
//! start time, as in the stamps of `stamps`: [`mark`]), which its descendants inherit; after the groups, the watchdog
//! kills every process whose environment holds that line (read from `/proc/*/environ`
//! with `grep -z`), until none is left. A descendant that empties its environment
//! (`env -i`) escapes this; while hdd lives, the subreaper catches it (`orphans`).
//!
//! The watchdog runs in a process group of its own, so Ctrl-C on hdd's terminal does
//! not reach it, and ignores SIGHUP, SIGINT and SIGQUIT. Its pipe end in hdd is
//! close-on-exec, so no test inherits it and keeps it open after hdd's death.

use std::io::Write as _;
use std::os::unix::process::CommandExt as _;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use crate::stamps::Stamp;

/// The watchdog's program: a set of groups kept in a string of space-separated numbers
/// (POSIX sh, builtins only), killed when its standard input ends; then the processes
/// whose environment holds the line `$1` (the [`mark`]; `grep` lists them), a few rounds
/// in case one forked meanwhile. (`grep` exits 2 when a process vanished while it read,
/// even if it found some, so its list is what counts.)
const SCRIPT: &str = r#"trap '' HUP INT QUIT PIPE
set=' '
while read -r line; do
  group=${line#?}
  case $line in
    +*) set="$set$group " ;;
    -*) case $set in *" $group "*) set="${set%% $group *} ${set#* $group }" ;; esac ;;
  esac
done
for group in $set; do kill -s KILL -- "-$group" 2>/dev/null; done
[ -n "$1" ] || exit 0
round=0
while [ $round -lt 8 ]; do
  found=$(grep -lzx -e "$1" /proc/[0-9]*/environ 2>/dev/null)
  [ -n "$found" ] || break
  for file in $found; do
    pid=${file#/proc/}
    kill -s KILL "${pid%/environ}" 2>/dev/null
  done
  round=$((round + 1))
done
"#;

/// The name of the environment variable that marks a test and its descendants.
pub(crate) const MARK_NAME: &str = "HDD_RUN";

/// The mark's value, this process's [`Stamp`] `PID-START` (`PID` alone without
/// `/proc`): unique to this process among the live ones.
pub(crate) fn mark() -> &'static str {
    static MARK: OnceLock<String> = OnceLock::new();
    MARK.get_or_init(|| {
        Stamp::mine().map_or_else(|| std::process::id().to_string(), |s| s.to_string())
    })
}

/// The running watchdog: its pid and hdd's end of its pipe.
#[derive(Debug)]
struct Watchdog {
    pid: i32,
    pipe: ChildStdin,
}

/// `None` before [`start`], or when it could not start or died.
static WATCHDOG: Mutex<Option<Watchdog>> = Mutex::new(None);

fn watchdog() -> MutexGuard<'static, Option<Watchdog>> {
    WATCHDOG.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the process-wide watchdog unless it runs; returns whether it runs. Without
/// `/bin/sh` there is none, and tests' leaders get a parent-death signal instead.
pub(crate) fn start() -> bool {
    let mut watchdog = watchdog();
    if watchdog.is_some() {
        return true;
    }
    let child = Command::new("/bin/sh")
        .arg("-c")
        .arg(SCRIPT)
        .arg("hdd-watchdog")
        .arg(format!("{MARK_NAME}={}", mark()))
        .current_dir("/")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    let (Some(pipe), Ok(pid)) = (child.stdin.take(), i32::try_from(child.id())) else {
        return false;
    };
    // The child is not waited for here: if it dies, `orphans` reaps it (see `lost`).
    *watchdog = Some(Watchdog { pid, pipe });
    true
}

/// Whether the watchdog runs (and so will kill the tests' groups if hdd dies).
pub(crate) fn running() -> bool {
    watchdog().is_some()
}

/// The watchdog's pid, while it runs: a child of hdd that is no test's leftover.
pub(crate) fn pid() -> Option<i32> {
    watchdog().as_ref().map(|w| w.pid)
}

/// The watchdog died (found a zombie): it is forgotten.
pub(crate) fn lost() {
    *watchdog() = None;
}

/// Lists `group` as a running test's, to kill if hdd dies.
pub(crate) fn watch(group: i32) {
    tell(&format!("+{group}\n"));
}

/// `group` is no longer a running test's.
pub(crate) fn unwatch(group: i32) {
    tell(&format!("-{group}\n"));
}

/// Sends a line (shorter than `PIPE_BUF`, so written whole). A watchdog that cannot
/// be told (it died; hdd ignores SIGPIPE, as Rust programs do) is forgotten.
fn tell(line: &str) {
    let mut watchdog = watchdog();
    if let Some(w) = watchdog.as_mut()
        && w.pipe.write_all(line.as_bytes()).is_err()
    {
        *watchdog = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the shell `scenario`, with the watchdog's script as `$1`, and checks what it
    /// prints.
    fn assert_scenario(scenario: &str, expected: &str) {
        let out = Command::new("/bin/sh")
            .args(["-c", scenario, "scenario", SCRIPT])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            expected,
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The script itself, fed a list by hand: on end-of-file it kills the groups still
    /// listed, and only those. The groups are led by processes of a shell of their own:
    /// children of this process outside its group would be taken for tests' leftovers
    /// by the executors of the other unit tests (see `orphans`).
    #[test]
    fn the_script_kills_the_groups_still_listed_at_end_of_file() {
        let scenario = r#"
            group() { setsid sleep 30 & pid=$!; until kill -s 0 -- "-$pid" 2>/dev/null; do :; done; }
            group; kept=$pid; group; ended=$pid; group; other=$pid
            printf '+%s\n+%s\n-%s\n' "$ended" "$kept" "$ended" | /bin/sh -c "$1" hdd-watchdog
            wait "$kept"; echo "kept: $?"
            kill -0 "$ended" && kill -0 "$other" && echo "others: alive"
            kill "$ended" "$other"
        "#;
        assert_scenario(scenario, "kept: 137\nothers: alive\n");
    }

    /// At end of file, the processes carrying the mark in their environment are killed
    /// too, wherever they are (here in sessions of their own), and only those.
    #[test]
    fn the_script_kills_the_processes_that_carry_the_mark() {
        let scenario = r#"
            HDD_RUN=me-1 setsid sleep 30 & marked=$!
            HDD_RUN=me-10 setsid sleep 30 & other=$!
            leads() { [ "$(ps -o sid= -p "$1" | tr -d ' ')" = "$1" ]; }
            tries=0
            until leads "$marked" && leads "$other"; do
                tries=$((tries + 1)); [ $tries -lt 5000 ] || { echo "no sessions"; exit; }
            done
            /bin/sh -c "$1" hdd-watchdog HDD_RUN=me-1 < /dev/null
            wait "$marked"; echo "marked: $?"
            kill -0 "$other" && echo "other: alive"
            kill "$other"
        "#;
        assert_scenario(scenario, "marked: 137\nother: alive\n");
    }

    /// The mark names this process and its start time.
    #[test]
    fn the_mark_is_this_process_and_its_start() {
        let pid = std::process::id().to_string();
        let (head, start) = mark().split_once('-').expect("PID-START");
        assert_eq!(head, pid);
        assert!(start.parse::<u64>().is_ok(), "{}", mark());
    }
}
