//! Process groups: every test runs as the leader of its own, and is stopped by killing
//! the whole group, so nothing it started survives it (what leaves the group is the
//! business of `orphans`). Running tests' leaders are listed process-wide with their
//! start times: for a second Ctrl-C to kill them all, for the watchdog, and for
//! `orphans` to tell which leftover may still belong to a running test.

use std::collections::BTreeMap;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions};

use crate::procfs;
use crate::watchdog;

/// Every running test's leader (its pid is its group's id), with its start time (clock
/// ticks since boot, as in `/proc`).
static LEADERS: Mutex<BTreeMap<i32, u64>> = Mutex::new(BTreeMap::new());

/// The running tests' leaders. Held while a test is spawned and while leftovers are
/// killed, so a sweep never takes a test that just started for a leftover.
pub(crate) fn leaders() -> MutexGuard<'static, BTreeMap<i32, u64>> {
    LEADERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running test's process group, listed while this lives.
#[derive(Debug)]
pub(crate) struct LiveGroup {
    group: i32,
    start: u64,
}

impl LiveGroup {
    /// The group's id.
    pub(crate) fn id(&self) -> i32 {
        self.group
    }
}

impl Drop for LiveGroup {
    fn drop(&mut self) {
        let mut leaders = leaders();
        if leaders.get(&self.group) == Some(&self.start) {
            leaders.remove(&self.group);
            watchdog::unwatch(self.group);
        }
    }
}

/// Spawns `command` (which makes its process a group leader) and lists it as a running
/// test's leader, under the list's lock.
pub(crate) fn spawn_leader(command: &mut Command) -> std::io::Result<(Child, LiveGroup)> {
    let mut leaders = leaders();
    let child = command.spawn()?;
    let group = i32::try_from(child.id()).expect("a pid fits in i32");
    // Unknown (never: it is our child, not yet reaped) counts as started at boot, so
    // no leftover is ever taken for not this test's.
    let start = procfs::stat(group).map_or(0, |stat| stat.start);
    leaders.insert(group, start);
    watchdog::watch(group);
    Ok((child, LiveGroup { group, start }))
}

/// Kills the process group `group` (a stale or empty group is not an error).
pub(crate) fn kill_group(group: i32) {
    if let Some(pid) = Pid::from_raw(group) {
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
    }
}

/// Kills the group of every running test.
pub(crate) fn kill_live_groups() {
    for &group in leaders().keys() {
        kill_group(group);
    }
}

/// After a test's leader was reaped: kills what is left of its group and reaps its
/// members, which became this process's children when the leader died (it is a child
/// subreaper, see `orphans`), waiting up to `patience` for them to die. Without that
/// they would stay zombies.
pub(crate) fn bury_group(group: i32, patience: Duration) {
    let Some(pid) = Pid::from_raw(group) else {
        return;
    };
    let deadline = Instant::now() + patience;
    let mut nap = Duration::from_micros(100);
    loop {
        kill_group(group);
        match rustix::process::waitpgid(pid, WaitOptions::NOHANG) {
            // One reaped: there may be more.
            Ok(Some(_)) => continue,
            // Some are still dying.
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(5));
            }
            // None left (ECHILD), or out of patience: the sweeps reap the rest.
            Ok(None) | Err(_) => return,
        }
    }
}
