//! One test process: its command line and environment, what runs between fork and exec
//! (the memory limit, a parent-death signal), and the wait for its end (a timeout, a stop
//! request), after which its whole process group is killed.

use std::fs::File;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use std::os::fd::OwnedFd;

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::process::{Pid, PidfdFlags, Resource, Rlimit, Signal, WaitOptions};

use crate::command::{Status, TestCommand};
use crate::groups::kill_group;
use crate::{template, watchdog};

/// The test's command: `file` is the candidate, `text` (its path replaces `@@` in the
/// arguments, its text `{}` when the command asks for it, it is `HDD_FILE`, and `stdin`
/// is open on it), `work` the current folder unless the command names one, `id` the
/// test's number in the run; the process leads a new process group. With a template
/// (`--exec`), the process is `/bin/sh -c` on the template.
pub(crate) fn command(
    test: &TestCommand,
    (file, text): (&Path, &[u8]),
    work: &Path,
    id: u64,
    stdin: File,
    stderr: File,
) -> Command {
    let dir = test.current_dir.as_deref().unwrap_or(work);
    let args = test.args_for(file, text);
    let mut command = match &test.exec {
        None => {
            let mut command = Command::new(&test.program);
            command.args(args);
            command
        }
        Some(template) => {
            let mut words = vec![test.program.clone().into_os_string()];
            words.extend(args);
            let shell = template::expand(
                template,
                &template::Test {
                    words: &words,
                    dir,
                    file,
                    id,
                },
            );
            let mut command = Command::new("/bin/sh");
            command.arg("-c").arg(shell);
            command
        }
    };
    command
        .current_dir(dir)
        .env("HDD_FILE", file)
        .env(watchdog::MARK_NAME, watchdog::mark())
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(stderr)
        .process_group(0);
    let rlimit = test.mem_limit.map(|limit| Rlimit {
        current: Some(limit),
        maximum: Some(limit),
    });
    // Code between fork and exec makes the standard library fork instead of using
    // posix_spawn, which costs a copy of hdd's page tables per test (see `watchdog`):
    // only when a memory limit needs it, or when there is no watchdog to kill the tests
    // if hdd dies; the parent-death signal then comes for free.
    if rlimit.is_none() && watchdog::running() {
        return command;
    }
    let parent = rustix::process::getpid();
    // SAFETY: the closure runs in the child between fork and exec, where a fork of a
    // multi-threaded process may only make async-signal-safe calls. It makes three
    // system calls through rustix (prctl, getppid, setrlimit) on values copied into it;
    // it allocates nothing (an `Errno` becomes an `io::Error` without allocating) and
    // takes no lock.
    //
    // The parent-death signal (SIGKILL) is sent when the *thread* that forked the child
    // ends, not the process. That thread is the one running `Shared::run`, which reaps
    // the child before it returns on every path (`wait`: the test's end, a timeout, a
    // stop request; after an error of the wait itself the group is killed and
    // `bury_group` reaps it), so it outlives the child; should it panic, the child dies
    // with it, which is what we want. If hdd died before the
    // signal was armed, the parent is no longer hdd: the test is not started.
    unsafe {
        command.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            if rustix::process::getppid() != Some(parent) {
                return Err(Errno::SRCH.into());
            }
            if let Some(rlimit) = rlimit {
                rustix::process::setrlimit(Resource::As, rlimit)?;
            }
            Ok(())
        });
    }
    command
}

/// How long a test that must end (a timeout, a stop, a cancel) has between SIGTERM and
/// SIGKILL when it runs through a template (`--exec`): `srun` uses it to cancel its
/// remote job step.
pub(crate) const GRACE: Duration = Duration::from_secs(5);

/// How often a waiting test's thread looks at `stop` when nothing happens: it sleeps
/// in `poll` on the child's pidfd, woken at once by the child's end. (A stop or a cancel
/// kills a local test's group at once, which wakes it; only a stop during `run_one` or
/// `run_all` and a cancel of a test run through a template wait for the next look.) At
/// -j 128 with tests that sleep, hdd's own CPU time while they sleep was 16.8% of a core
/// with the naps of 0.5 to 5 ms that came before, 4.4% with a look every 50 ms, 1.5%
/// with this.
const LOOK: Duration = Duration::from_millis(250);

/// Waits for `child` up to `timeout`, then kills its process group; kills the group as
/// soon as `stop` says so, and returns `None` then. With `graceful` (a template), the
/// group gets SIGTERM and [`GRACE`] to end before SIGKILL. Always kills what is left of
/// the group when the test ends, and reaps the child on every path but an error of the
/// wait itself (after which the group is killed too).
///
/// The thread sleeps in `poll` on a pidfd of the child (Linux 5.3 and later; before,
/// it naps 0.5 to 5 ms between looks), so a thousand tests in flight cost no CPU while
/// they run elsewhere.
pub(crate) fn wait(
    mut child: Child,
    timeout: Duration,
    stop: &dyn Fn() -> bool,
    graceful: bool,
) -> std::io::Result<Option<Status>> {
    let started = Instant::now();
    let group = i32::try_from(child.id()).expect("a pid fits in i32");
    let pidfd = rustix::process::pidfd_open(Pid::from_child(&child), PidfdFlags::empty()).ok();
    let mut nap = Duration::from_micros(500);
    let ended = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(Some(Status::from(status))),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
        let timed_out = started.elapsed() >= timeout;
        if timed_out || stop() {
            if graceful {
                terminate(group, &mut child, pidfd.as_ref());
            }
            kill_group(group);
            break child.wait().map(|_| timed_out.then_some(Status::TimedOut));
        }
        let left = timeout.saturating_sub(started.elapsed());
        match &pidfd {
            Some(fd) => sleep_on(fd, left.min(LOOK)),
            None => {
                std::thread::sleep(nap.min(left));
                nap = (nap * 2).min(Duration::from_millis(5));
            }
        }
    };
    kill_group(group);
    ended
}

/// Sends SIGTERM to the group and waits up to [`GRACE`] for the whole group to end: its
/// leader (`/bin/sh -c`, which dies at once) and what it started (`srun`, cancelling its
/// job step). Members that die once the leader is gone are this process's children (a
/// child subreaper): they are reaped as they die, so the group empties.
fn terminate(group: i32, child: &mut Child, pidfd: Option<&OwnedFd>) {
    let Some(pid) = Pid::from_raw(group) else {
        return;
    };
    let _ = rustix::process::kill_process_group(pid, Signal::TERM);
    let deadline = Instant::now() + GRACE;
    let mut leader_done = false;
    loop {
        if !leader_done {
            // Reaped by `try_wait` (its status kept for the caller's `wait`), never by
            // `waitpgid` below.
            leader_done = !matches!(child.try_wait(), Ok(None));
        }
        if leader_done {
            while let Ok(Some(_)) = rustix::process::waitpgid(pid, WaitOptions::NOHANG) {}
            if rustix::process::test_kill_process_group(pid).is_err() {
                return;
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        match pidfd.filter(|_| !leader_done) {
            Some(fd) => sleep_on(fd, left.min(Duration::from_millis(20))),
            None => std::thread::sleep(left.min(Duration::from_millis(10))),
        }
    }
}

/// Sleeps until the process of `pidfd` ends, or `most` has passed.
fn sleep_on(pidfd: &OwnedFd, most: Duration) {
    let timeout = Timespec {
        tv_sec: i64::try_from(most.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(most.subsec_nanos()),
    };
    let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
    // An interruption (EINTR) or an error only means looking again sooner.
    let _ = rustix::event::poll(&mut fds, Some(&timeout));
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;
    use crate::groups::{LiveGroup, spawn_leader};

    /// A test's leader, listed as such (an unlisted child of this process would be
    /// taken for a test's leftover by the sweeps of other unit tests).
    fn leader(program: &str, args: &[&str]) -> (Child, LiveGroup) {
        spawn_leader(Command::new(program).args(args).process_group(0)).unwrap()
    }

    #[test]
    fn a_stop_request_kills_the_test_at_once() {
        let stop = AtomicBool::new(false);
        let begun = Instant::now();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::SeqCst);
            });
            let (child, _listed) = leader("sleep", &["30"]);
            let ended = wait(
                child,
                Duration::from_secs(30),
                &|| stop.load(Ordering::SeqCst),
                false,
            );
            assert_eq!(ended.unwrap(), None);
        });
        assert!(
            begun.elapsed() < Duration::from_secs(5),
            "{:?}",
            begun.elapsed()
        );
    }

    /// With code between fork and exec (here for `--mem-limit`), the test's leader gets
    /// a parent-death signal: it dies when the thread that started it ends.
    #[test]
    fn the_leader_dies_with_the_thread_that_started_it() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let test = dir.path().join("test.sh");
        std::fs::write(&test, "#!/bin/sh\nexec sleep 30\n").unwrap();
        std::fs::set_permissions(&test, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut test = TestCommand::new(&test, "in".into(), Duration::from_secs(30)).unwrap();
        test.mem_limit = Some(1 << 30);
        let file = dir.path().join("in");
        std::fs::write(&file, "x").unwrap();
        let pid = std::thread::spawn(move || {
            let stdin = File::open(&file).unwrap();
            let stderr = File::create(file.with_extension("err")).unwrap();
            let mut command = command(
                &test,
                (&file, b"x"),
                file.parent().unwrap(),
                0,
                stdin,
                stderr,
            );
            let (child, _listed) = spawn_leader(&mut command).unwrap();
            i32::try_from(child.id()).unwrap()
            // The thread ends without waiting for its child.
        })
        .join()
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while crate::procfs::stat(pid).is_some_and(|s| !s.is_zombie()) {
            assert!(Instant::now() < deadline, "the leader outlived its thread");
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::NOHANG);
        }
    }

    #[test]
    fn a_timeout_is_told_from_an_ending() {
        let (child, _listed) = leader("sleep", &["30"]);
        let ended = wait(child, Duration::from_millis(50), &|| false, false);
        assert_eq!(ended.unwrap(), Some(Status::TimedOut));
        let (child, _listed) = leader("sh", &["-c", "exit 3"]);
        let ended = wait(child, Duration::from_secs(30), &|| false, false);
        assert_eq!(ended.unwrap(), Some(Status::Exited(3)));
    }
}
