//! Ctrl-C and SIGTERM, through signal-hook: the first signal asks every running test to
//! stop (the caller keeps its best result and exits 130); a second one kills every
//! test's process group and quits at once.
//!
//! The signals are read by a thread of their own (signal-hook's iterator), not in a
//! signal handler, so what follows a signal is ordinary code: it may print, lock and
//! kill.

use std::io::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::groups::kill_live_groups;

/// Set by SIGINT and SIGTERM once [`stop_on_signals`] is called.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit code after a second signal: 128 + SIGINT, as a shell reports it.
const QUIT: i32 = 130;

const STOPPING: &[u8] =
    b"\nhdd: stopping every test, keeping the best result (press Ctrl-C again to quit at once)\n";

/// From now on SIGINT (Ctrl-C) and SIGTERM do not kill the process at once: the next
/// [`Executor::wait`](hdd_core::Executor::wait) of any
/// [`LocalExecutor`](crate::LocalExecutor) stops its tests (process groups and all) and
/// fails with [`Error::Interrupted`](crate::Error::Interrupted), so the caller can keep
/// its best result and exit. A second signal kills every test's process group and exits
/// with code 130 at once. Calling it again does nothing more.
///
/// # Errors
/// When the signal handlers or their thread cannot be set up.
pub fn stop_on_signals() -> std::io::Result<()> {
    static LISTENING: OnceLock<()> = OnceLock::new();
    if LISTENING.get().is_some() {
        return Ok(());
    }
    let mut signals = Signals::new([SIGINT, SIGTERM])?;
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
                std::process::exit(QUIT);
            }
        })?;
    let _ = LISTENING.set(());
    Ok(())
}

/// Whether SIGINT or SIGTERM arrived since [`stop_on_signals`].
#[must_use]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
