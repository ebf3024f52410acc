//! What Linux's `/proc` says about a process: its state, parent, process group and start
//! time (`/proc/PID/stat`), and the signals this process ignores (`/proc/self/status`).

use std::fs;

/// The fields of `/proc/PID/stat` hdd uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    /// `R`, `S`, `D`, `Z` (a zombie: dead, waiting for its parent to reap it), …
    pub(crate) state: u8,
    /// The parent's pid (the process, not the thread).
    pub(crate) ppid: i32,
    /// The process group.
    pub(crate) pgrp: i32,
    /// When it started, in clock ticks since boot. Two processes that had the same pid
    /// have different start times (a pid is only reused after its process is gone), and a
    /// process starts no earlier than its ancestors.
    pub(crate) start: u64,
    /// The CPU time it used, in user and system mode (its own threads, not its
    /// children), in clock ticks.
    pub(crate) cpu: u64,
}

impl Stat {
    /// Whether it is a zombie: dead, waiting to be reaped.
    pub(crate) fn is_zombie(&self) -> bool {
        self.state == b'Z'
    }
}

/// The stat of process `pid`, if it exists (and is visible).
pub(crate) fn stat(pid: i32) -> Option<Stat> {
    parse(&fs::read(format!("/proc/{pid}/stat")).ok()?)
}

/// The CPU time this process has used (every thread of it, not its children).
pub(crate) fn own_cpu_time() -> Option<std::time::Duration> {
    let me = i32::try_from(std::process::id()).ok()?;
    let ticks = stat(me)?.cpu;
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Some(std::time::Duration::from_secs_f64(
        ticks as f64 / per_second as f64,
    ))
}

/// The pid of every process, as `/proc` lists them.
pub(crate) fn pids() -> impl Iterator<Item = i32> {
    fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
}

/// Whether this process ignores signal `signal` (`SigIgn` in `/proc/self/status`);
/// `false` when that cannot be read.
pub(crate) fn ignores(signal: i32) -> bool {
    fs::read_to_string("/proc/self/status").is_ok_and(|status| ignored_in(&status, signal))
}

/// Whether the `SigIgn:` mask (hexadecimal, bit N - 1 for signal N) of a status file
/// has `signal`.
fn ignored_in(status: &str, signal: i32) -> bool {
    let Some(mask) = status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
    else {
        return false;
    };
    (1..=64).contains(&signal) && mask & (1 << (signal - 1)) != 0
}

/// Parses `pid (comm) state ppid pgrp session … starttime …`. The command name may hold
/// spaces and parentheses, so the fields are counted from the last `)`.
fn parse(text: &[u8]) -> Option<Stat> {
    let close = text.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&text[close + 1..]).ok()?;
    let mut fields = rest.split_ascii_whitespace();
    let state = *fields.next()?.as_bytes().first()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    // After state, ppid and pgrp: session, tty_nr, tpgid, flags, minflt, cminflt,
    // majflt, cmajflt, utime, stime (fields 14 and 15 of proc(5)), cutime, cstime,
    // priority, nice, num_threads, itrealvalue, then starttime (field 22).
    let utime: u64 = fields.nth(8)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let start = fields.nth(6)?.parse().ok()?;
    Some(Stat {
        state,
        ppid,
        pgrp,
        start,
        cpu: utime + stime,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_parsed_from_the_last_parenthesis() {
        let line = b"4242 (a) b (c)) S 17 4242 17 0 -1 4194560 120 0 0 0 1 2 0 0 20 0 1 0 \
                     987654 1000 50 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n";
        assert_eq!(
            parse(line),
            Some(Stat {
                state: b'S',
                ppid: 17,
                pgrp: 4242,
                start: 987_654,
                cpu: 3,
            })
        );
        assert_eq!(parse(b"4242 (cut short) Z 1 2"), None);
    }

    #[test]
    fn ignored_signals_are_read_from_the_mask() {
        let status = "Name:\tsh\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000005\n";
        assert!(ignored_in(status, 1), "SIGHUP");
        assert!(!ignored_in(status, 2), "SIGINT");
        assert!(ignored_in(status, 3), "SIGQUIT");
        assert!(!ignored_in(status, 0) && !ignored_in(status, 65));
        assert!(!ignored_in("Name:\tsh\n", 1), "no mask");
    }

    #[test]
    fn this_process_is_listed_with_its_parent() {
        let me = i32::try_from(std::process::id()).unwrap();
        let stat = stat(me).expect("/proc is mounted");
        assert_eq!(
            Some(stat.ppid),
            rustix::process::getppid().map(|p| p.as_raw_nonzero().get())
        );
        assert!(pids().any(|pid| pid == me));
        assert!(!stat.is_zombie());
    }
}
