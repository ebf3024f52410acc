//! Leftovers: processes a test started that left its process group (`setsid`, a double
//! fork, `timeout`'s own group, job control) and so escape the group kill.
//!
//! The process becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`): a descendant whose
//! parent dies is reparented to it instead of to init. Its children are then the running
//! tests' leaders (listed in `groups`), the watchdog, and orphans — descendants of tests,
//! since tests are the only processes hdd starts. A sweep reads `/proc`, keeps this
//! process's children, and for each one that is neither a running test's leader nor the
//! watchdog (nor in this process's own group, where a host program's own children are):
//!
//! - a zombie is reaped (it is dead; only its exit status is left);
//! - a live one is killed if it cannot belong to a running test. Whose it is cannot be
//!   read anywhere (it has its own session or group; its parent is gone), but a process
//!   starts no earlier than its ancestors: a leftover that started before every running
//!   test (by `/proc`'s start time, in clock ticks, a tie counting as "may belong") is
//!   from a test that ended. One that may belong to a running test is spared until the
//!   tests running when it started have all ended (each test's end asks for a sweep).
//!
//! Killing by pid is safe from pid reuse: a child's pid cannot be reused before its parent
//! (this process) reaps it, and only sweeps reap children that are not leaders, under the
//! leaders' lock. The members still in a test's group are reaped when the test ends
//! (`groups::bury_group`).
//!
//! When sweeps run: each test's end asks a thread of its own (`hdd-sweeper`) for one,
//! and it sweeps at most every [`EVERY`] (a pass reads every process's stat: 0.44 ms
//! with 77 processes, measured), so tests never wait for a sweep and a burst of ends
//! costs one; after `run_one` and `run_all`, and when an executor is dropped, the caller sweeps
//! at once; on a second Ctrl-C, the sweep kills every leftover whatever its age. A sweep
//! makes passes until one finds nothing to kill or reap.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions};

use crate::groups::leaders;
use crate::procfs::{self, Stat};
use crate::watchdog;

/// The least time between two sweeps of the sweeper thread.
const EVERY: Duration = Duration::from_millis(50);

/// How long the sweeper thread waits for what it killed to die.
const PATIENCE: Duration = Duration::from_millis(200);

/// Makes this process a child subreaper (once); returns whether it is one.
pub(crate) fn adopt() -> bool {
    static ADOPTED: OnceLock<bool> = OnceLock::new();
    *ADOPTED.get_or_init(|| {
        rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok()
    })
}

/// Asks the sweeper thread for a sweep (a test ended); sweeps here if there is no such
/// thread.
pub(crate) fn sweep_soon() {
    /// Whether a sweep was asked for, and the sweeper's wake-up call.
    static ASKED: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());
    static SWEEPER: OnceLock<bool> = OnceLock::new();
    let (asked, wake) = &ASKED;
    let running = *SWEEPER.get_or_init(|| {
        let sweeper = move || {
            loop {
                {
                    let mut asked = asked.lock().unwrap_or_else(PoisonError::into_inner);
                    while !*asked {
                        asked = wake.wait(asked).unwrap_or_else(PoisonError::into_inner);
                    }
                    *asked = false;
                }
                sweep(PATIENCE, false);
                std::thread::sleep(EVERY);
            }
        };
        std::thread::Builder::new()
            .name("hdd-sweeper".into())
            .spawn(sweeper)
            .is_ok()
    });
    if !running {
        sweep(PATIENCE, false);
        return;
    }
    *asked.lock().unwrap_or_else(PoisonError::into_inner) = true;
    wake.notify_one();
}

/// Sweeps until a pass finds nothing to kill or reap (the children of what it killed
/// are reparented to this process when it dies, and are found by the next pass), or
/// `patience` runs out. With `everything`, leftovers that may belong to a running test
/// are killed too (hdd is quitting).
pub(crate) fn sweep(patience: Duration, everything: bool) {
    let deadline = Instant::now() + patience;
    let mut nap = Duration::from_micros(200);
    while pass(everything) > 0 && Instant::now() < deadline {
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// What a sweep does with a child of this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Not a leftover, or one that may belong to a running test.
    Spare,
    /// A dead leftover.
    Reap,
    /// A live leftover of an ended test.
    Kill,
}

/// Who this process is, for [`fate`].
#[derive(Debug, Clone, Copy)]
struct Me {
    pid: i32,
    group: i32,
    watchdog: Option<i32>,
}

/// What to do with process `pid`, whose stat is `stat`, given the running tests'
/// `leaders` (pid to start time).
fn fate(pid: i32, stat: &Stat, me: Me, leaders: &BTreeMap<i32, u64>, everything: bool) -> Fate {
    if stat.ppid != me.pid
        || leaders.contains_key(&pid)
        || stat.pgrp == me.group
        || (me.watchdog == Some(pid) && !stat.is_zombie())
    {
        return Fate::Spare;
    }
    if stat.is_zombie() {
        return Fate::Reap;
    }
    let may_be_a_running_tests = leaders.values().any(|&start| start <= stat.start);
    if may_be_a_running_tests && !everything {
        return Fate::Spare;
    }
    Fate::Kill
}

/// One pass: kills leftovers and reaps dead ones; returns how many it handled.
fn pass(everything: bool) -> usize {
    let Some(pid) = i32::try_from(std::process::id()).ok() else {
        return 0;
    };
    // Read without the lock (it is the slow part), then each child is looked at again
    // under it: a test's leader is listed before the lock is released after its spawn.
    let children: Vec<i32> = procfs::pids()
        .filter(|&p| procfs::stat(p).is_some_and(|stat| stat.ppid == pid))
        .collect();
    if children.is_empty() {
        return 0;
    }
    let leaders = leaders();
    let me = Me {
        pid,
        group: rustix::process::getpgrp().as_raw_nonzero().get(),
        watchdog: watchdog::pid(),
    };
    let mut handled = 0;
    for child in children {
        let Some(stat) = procfs::stat(child) else {
            continue;
        };
        let Some(raw) = Pid::from_raw(child) else {
            continue;
        };
        match fate(child, &stat, me, &leaders, everything) {
            Fate::Spare => continue,
            Fate::Reap => {
                let _ = rustix::process::waitpid(Some(raw), WaitOptions::NOHANG);
                if me.watchdog == Some(child) {
                    watchdog::lost();
                }
            }
            Fate::Kill => {
                let _ = rustix::process::kill_process(raw, Signal::KILL);
            }
        }
        handled += 1;
    }
    handled
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: Me = Me {
        pid: 100,
        group: 100,
        watchdog: Some(101),
    };

    fn child(state: u8, pgrp: i32, start: u64) -> Stat {
        Stat {
            state,
            ppid: ME.pid,
            pgrp,
            start,
            cpu: 0,
        }
    }

    #[test]
    fn leftovers_of_ended_tests_are_killed_and_others_spared() {
        // Two tests running, started at ticks 50 and 70.
        let leaders = BTreeMap::from([(200, 50), (300, 70)]);
        let fate = |pid, stat: Stat| fate(pid, &stat, ME, &leaders, false);
        assert_eq!(fate(200, child(b'S', 200, 50)), Fate::Spare, "a leader");
        assert_eq!(fate(101, child(b'S', 101, 1)), Fate::Spare, "the watchdog");
        assert_eq!(
            fate(101, child(b'Z', 101, 1)),
            Fate::Reap,
            "a dead watchdog"
        );
        assert_eq!(
            fate(150, child(b'S', 100, 10)),
            Fate::Spare,
            "in our own group"
        );
        let not_ours = Stat {
            ppid: 7,
            ..child(b'S', 400, 10)
        };
        assert_eq!(fate(400, not_ours), Fate::Spare, "not our child");
        assert_eq!(
            fate(400, child(b'S', 400, 49)),
            Fate::Kill,
            "older than every test"
        );
        assert_eq!(
            fate(400, child(b'S', 400, 50)),
            Fate::Spare,
            "same tick as a test"
        );
        assert_eq!(
            fate(400, child(b'S', 400, 60)),
            Fate::Spare,
            "the first test's?"
        );
        assert_eq!(
            fate(400, child(b'Z', 400, 60)),
            Fate::Reap,
            "dead: reaped anyway"
        );
        assert_eq!(
            super::fate(400, &child(b'S', 400, 60), ME, &leaders, true),
            Fate::Kill,
            "quitting"
        );
        let none = BTreeMap::new();
        assert_eq!(
            super::fate(400, &child(b'R', 400, 60), ME, &none, false),
            Fate::Kill,
            "no test runs"
        );
    }
}
