//! Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed), through signal-hook: the
//! first signal asks every running test to stop (the caller keeps its best result and
//! exits 130); a second one kills every test's process group and the tests' leftovers
//! (see `orphans`) and quits at once.
//!
//! The signals are read by a thread of their own (signal-hook's iterator), not in a
//! signal handler, so what follows a signal is ordinary code: it may print, lock and
//! kill.

use std::io::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::groups::kill_live_groups;
use crate::{orphans, procfs};

/// Set by SIGINT, SIGTERM and SIGHUP once [`stop_on_signals`] is called.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit code after a second signal: 128 + SIGINT, as a shell reports it.
const QUIT: i32 = 130;

const STOPPING: &[u8] =
    b"\nhdd: stopping every test, keeping the best result (press Ctrl-C again to quit at once)\n";

/// From now on SIGINT (Ctrl-C), SIGTERM and SIGHUP (unless ignored from the start, as
/// under `nohup`) do not kill the process at once: every running test of any
/// [`LocalExecutor`](crate::LocalExecutor) is killed at once (process group and all) and
/// no new test starts; [`Executor::wait`](hdd_core::Executor::wait),
/// [`LocalExecutor::run_one`](crate::LocalExecutor::run_one) and each stopped run of
/// [`LocalExecutor::run_all`](crate::LocalExecutor::run_all) fail with
/// [`Error::Interrupted`](crate::Error::Interrupted), so the caller can keep its best
/// result and exit. A second signal kills every test's process group and leftovers and
/// exits with code 130 at once. Calling it again does nothing more.
///
/// # Errors
/// When the signal handlers or their thread cannot be set up.
pub fn stop_on_signals() -> std::io::Result<()> {
    static LISTENING: OnceLock<()> = OnceLock::new();
    if LISTENING.get().is_some() {
        return Ok(());
    }
    let mut wanted = vec![SIGINT, SIGTERM];
    // Under `nohup` (SIGHUP ignored from the start) the terminal's closing must not stop
    // the run: SIGHUP stays ignored.
    if !procfs::ignores(SIGHUP) {
        wanted.push(SIGHUP);
    }
    let mut signals = Signals::new(wanted)?;
    std::thread::Builder::new()
        .name("hdd-signals".into())
        .spawn(move || {
            for _ in signals.forever() {
                if !INTERRUPTED.swap(true, Ordering::SeqCst) {
                    let _ = std::io::stderr().write_all(STOPPING);
                    continue;
                }
                // A second signal. Every best result was written whole (a rename), so
                // the file on disk is interesting.
                kill_live_groups();
                orphans::sweep(Duration::from_millis(500), true);
                std::process::exit(QUIT);
            }
        })?;
    let _ = LISTENING.set(());
    Ok(())
}

/// Whether SIGINT, SIGTERM or SIGHUP arrived since [`stop_on_signals`].
#[must_use]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
