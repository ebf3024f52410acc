//! Temporary root folders stamped with their owner, and the removal of those whose owner
//! is dead.
//!
//! An executor's root folder (the tests' folders are in it) is removed when the executor
//! is dropped, but not if hdd is killed (SIGKILL) or crashes. So its name says whose it
//! is: `hdd-PID-START-XXXXXX`, with the owner's pid and its start time (clock ticks
//! since boot, from `/proc`). When an executor is created, the folders of owners that
//! are dead (no process with that pid, a zombie, or one with another start time: the
//! pid was reused) are removed. A live run's folder is never touched, nor a folder of another
//! user, nor anything that does not parse as a stamp (such as the `hdd-check-*`
//! folders kept for the user). Without `/proc` nothing is stamped or removed.

use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

use crate::procfs::{self, Stat};

/// Who made a root folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    pid: i32,
    start: u64,
}

impl Stamp {
    /// This process's stamp, if `/proc` tells its start time.
    pub(crate) fn mine() -> Option<Stamp> {
        let pid = i32::try_from(std::process::id()).ok()?;
        let start = procfs::stat(pid)?.start;
        Some(Stamp { pid, start })
    }

    /// The folder name's prefix: `hdd-PID-START-` (a random suffix follows).
    pub(crate) fn prefix(self) -> String {
        format!("hdd-{self}-")
    }

    /// The stamp in a folder's name `hdd-PID-START-SUFFIX`, if it has one.
    fn parse(name: &OsStr) -> Option<Stamp> {
        let rest = name.to_str()?.strip_prefix("hdd-")?;
        let mut parts = rest.splitn(3, '-');
        let pid = parts.next().filter(|p| is_number(p))?.parse().ok()?;
        let start = parts.next().filter(|s| is_number(s))?.parse().ok()?;
        let suffix = parts.next()?;
        if suffix.is_empty() || !suffix.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        Some(Stamp { pid, start })
    }

    /// Whether the owner is dead, given the process that has its pid now (`None`: there
    /// is none). A zombie is dead: only its exit status waits for its parent.
    fn owner_is_dead(self, now: Option<Stat>) -> bool {
        now.is_none_or(|now| now.start != self.start || now.is_zombie())
    }
}

/// `PID-START`.
impl fmt::Display for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.pid, self.start)
    }
}

/// The folder of this boot of this machine in a shared work root: `hdd-boot-ID`, with
/// the kernel's boot id (`hdd-boot-unknown` without `/proc`).
pub(crate) fn boot_folder() -> String {
    let id = fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    let id: String = id
        .trim()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    format!("hdd-boot-{}", if id.is_empty() { "unknown" } else { &id })
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Removes the stamped folders in `dir` that belong to this user and whose owner is dead.
pub(crate) fn remove_dead(dir: &Path) {
    if Stamp::mine().is_none() {
        // No /proc: no way to tell the dead from the living.
        return;
    }
    let uid = rustix::process::geteuid().as_raw();
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(stamp) = Stamp::parse(&entry.file_name()) else {
            continue;
        };
        let path = entry.path();
        let ours = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == uid);
        if ours && stamp.owner_is_dead(procfs::stat(stamp.pid)) {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_read_from_folder_names() {
        let parse = |name: &str| Stamp::parse(OsStr::new(name));
        assert_eq!(
            parse("hdd-4242-987654-aB3xYz"),
            Some(Stamp {
                pid: 4242,
                start: 987_654
            })
        );
        let mine = Stamp::mine().unwrap();
        assert_eq!(parse(&format!("{}Q1w2E3", mine.prefix())), Some(mine));
        for name in [
            "hdd-check-aB3xYz",
            "hdd-aB3xYz",
            "hdd-4242-aB3xYz",
            "hdd-4242-987654-",
            "hdd-4242-987654-a.b",
            "hdd--987654-aB3xYz",
            "hdd-+42-987654-aB3xYz",
            "other-4242-987654-aB3xYz",
        ] {
            assert_eq!(parse(name), None, "{name}");
        }
    }

    #[test]
    fn an_owner_is_dead_when_its_pid_is_gone_or_reused() {
        let stamp = Stamp {
            pid: 4242,
            start: 100,
        };
        let now = |state, start| {
            Some(Stat {
                state,
                ppid: 1,
                pgrp: 4242,
                start,
                cpu: 0,
            })
        };
        assert!(!stamp.owner_is_dead(now(b'S', 100)), "the same process");
        assert!(stamp.owner_is_dead(None), "no such process");
        assert!(
            stamp.owner_is_dead(now(b'Z', 100)),
            "the same process, dead"
        );
        assert!(
            stamp.owner_is_dead(now(b'R', 250)),
            "another process with that pid"
        );
    }

    #[test]
    fn only_dead_owners_folders_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let mine = Stamp::mine().unwrap();
        let dead = Stamp {
            start: mine.start + 1,
            ..mine
        };
        let names = [
            format!("{}live01", mine.prefix()),
            format!("{}dead01", dead.prefix()),
            "hdd-check-kept01".to_owned(),
        ];
        for name in &names {
            fs::create_dir(tmp.path().join(name)).unwrap();
            fs::write(tmp.path().join(name).join("file"), "x").unwrap();
        }
        remove_dead(tmp.path());
        let left: Vec<bool> = names.iter().map(|n| tmp.path().join(n).exists()).collect();
        assert_eq!(left, [true, false, true]);
    }
}
