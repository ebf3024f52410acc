//! Process groups: every test runs as the leader of its own, and is stopped by killing
//! the whole group, so nothing it started survives it. Running tests' groups are listed
//! process-wide, for a second Ctrl-C to kill them all.

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustix::process::{Pid, Signal};

/// The process groups of every running test of this process.
static LIVE_GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// A running test's process group, listed while this lives.
#[derive(Debug)]
pub(crate) struct LiveGroup(i32);

impl LiveGroup {
    pub(crate) fn new(group: i32) -> LiveGroup {
        live_groups().insert(group);
        LiveGroup(group)
    }
}

impl Drop for LiveGroup {
    fn drop(&mut self) {
        live_groups().remove(&self.0);
    }
}

fn live_groups() -> MutexGuard<'static, BTreeSet<i32>> {
    LIVE_GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills the process group `group` (a stale or empty group is not an error).
pub(crate) fn kill_group(group: i32) {
    if let Some(pid) = Pid::from_raw(group) {
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
    }
}

/// Kills the group of every running test.
pub(crate) fn kill_live_groups() {
    for &group in live_groups().iter() {
        kill_group(group);
    }
}
