//! The interestingness test as local processes: one thread, one private folder and
//! one process group per running test, under a root folder stamped with its owner.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use hdd_core::{BoxError, Executor, TextKey, Ticket};
use rustix::process::Signal;

use crate::command::{Status, TestCommand};
use crate::error::Error;
use crate::groups::{bury_group, kill_group, spawn_leader};
use crate::signals::interrupted;
use crate::stamps::{self, Stamp};
use crate::verdicts::VerdictStore;
use crate::{launch, orphans, watchdog};

/// How long the end of a test waits for the members of its group to die, and `run_one`,
/// `run_all` and dropping an executor wait for the tests' leftovers to die (they are
/// killed with SIGKILL, so only a process stuck in the kernel takes long).
const PATIENCE: Duration = Duration::from_millis(500);

/// One test run, for reporting.
#[derive(Debug)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// Whether that means interesting ([`TestCommand::interesting_exit_code`],
    /// [`TestCommand::same_crash`]).
    pub interesting: bool,
    /// The last lines of its standard error.
    pub stderr_tail: String,
    /// Its working folder, if it was kept.
    pub kept_dir: Option<PathBuf>,
}

/// Runs the test as local processes, up to `jobs` at once, each in a private folder and
/// its own process group. Dropping it kills every test still running, with everything
/// the tests started.
///
/// Creating one makes the process a child subreaper, so that what tests start and leave
/// behind outside their process groups comes back to it to be killed (see the crate's
/// documentation): a program that creates one should start no child processes of its
/// own outside its process group, or they may be taken for tests' leftovers.
#[derive(Debug)]
pub struct LocalExecutor {
    shared: Arc<Shared>,
    jobs: usize,
    running: HashMap<Ticket, JoinHandle<()>>,
    done_tx: Sender<(Ticket, Result<bool, Error>)>,
    done_rx: Receiver<(Ticket, Result<bool, Error>)>,
    /// Where verdicts are kept for later runs (`set_verdict_store`).
    store: Option<Arc<VerdictStore>>,
    /// The verdicts of earlier runs, until the engine asks for them.
    earlier: Vec<(TextKey, bool)>,
    /// The threads of tests cancelled while they ran through a template, still ending
    /// them gracefully: joined when they are done, or when the executor is dropped.
    dying: Vec<JoinHandle<()>>,
}

/// What the executor and its test threads share.
#[derive(Debug)]
struct Shared {
    command: TestCommand,
    /// More runs an interesting candidate needs to be trusted.
    confirmations: AtomicU32,
    root: tempfile::TempDir,
    next: AtomicU64,
    groups: Mutex<Groups>,
    /// This executor's own stop ([`LocalExecutor::stop_flag`]).
    stop: Arc<AtomicBool>,
}

/// The process groups of running tests, and the tickets cancelled whose threads have not
/// ended yet: a cancelled test does not start (nor does a confirmation run of it), and
/// one running through a template is ended by its thread, SIGTERM first, then SIGKILL.
#[derive(Debug, Default)]
struct Groups {
    running: HashMap<Ticket, i32>,
    cancelled: HashSet<Ticket>,
}

impl LocalExecutor {
    /// An executor with its sandboxes under the system temporary folder, in a root
    /// folder named after this process (`hdd-PID-START-XXXXXX`). The root folders there
    /// left by runs that died without removing them (a SIGKILL) are removed first.
    ///
    /// # Errors
    /// When the temporary folder cannot be made.
    pub fn new(command: TestCommand, jobs: usize) -> Result<LocalExecutor, Error> {
        Self::with_stop_flag(command, jobs, Arc::new(AtomicBool::new(false)))
    }

    /// As [`LocalExecutor::new`], stopped (as by a signal) when `stop` is set: see
    /// [`LocalExecutor::stop_flag`].
    ///
    /// # Errors
    /// As [`LocalExecutor::new`].
    pub fn with_stop_flag(
        command: TestCommand,
        jobs: usize,
        stop: Arc<AtomicBool>,
    ) -> Result<LocalExecutor, Error> {
        Self::under(command, jobs, stop, &std::env::temp_dir())
    }

    /// As [`LocalExecutor::with_stop_flag`], with the tests' folders under `work_root`
    /// instead of the system temporary folder (`--work-root`: a file system every node
    /// of a cluster sees, for `--exec`), in its folder `hdd-boot-ID` (`ID`: this boot of
    /// this machine, `/proc/sys/kernel/random/boot_id`). Folders there left by dead runs
    /// are removed first, as in the temporary folder; those of other machines are not
    /// touched.
    ///
    /// # Errors
    /// When the folder cannot be made under `work_root`.
    pub fn with_root(
        command: TestCommand,
        jobs: usize,
        stop: Arc<AtomicBool>,
        work_root: &Path,
    ) -> Result<LocalExecutor, Error> {
        // A folder that machines may share (a cluster's file system): the stamps there
        // are kept per boot of a machine, the only place where a pid and a start time
        // name one process.
        let boot = work_root.join(stamps::boot_folder());
        fs::create_dir_all(&boot).map_err(io("creating", &boot))?;
        Self::under(command, jobs, stop, &boot)
    }

    /// The executor, its root folder made in `work_root` after the folders there of
    /// dead runs are removed.
    fn under(
        command: TestCommand,
        jobs: usize,
        stop: Arc<AtomicBool>,
        work_root: &Path,
    ) -> Result<LocalExecutor, Error> {
        orphans::adopt();
        watchdog::start();
        stamps::remove_dead(work_root);
        let prefix = Stamp::mine().map_or_else(|| "hdd-".to_owned(), Stamp::prefix);
        let root = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(work_root)
            .map_err(|source| Error::Io {
                what: "creating a temporary folder in",
                path: work_root.to_owned(),
                source,
            })?;
        let (done_tx, done_rx) = mpsc::channel();
        Ok(LocalExecutor {
            shared: Arc::new(Shared {
                command,
                confirmations: AtomicU32::new(0),
                root,
                next: AtomicU64::new(0),
                groups: Mutex::new(Groups::default()),
                stop,
            }),
            jobs: jobs.max(1),
            running: HashMap::new(),
            done_tx,
            done_rx,
            store: None,
            earlier: Vec::new(),
            dying: Vec::new(),
        })
    }

    /// Runs the test once on `text`, waiting for it. With `keep`, the test's folder is
    /// left on disk (moved out of hdd's temporary folder) so the user can look at it and
    /// rerun the test. The leftovers of the test are killed before it returns.
    ///
    /// # Errors
    /// When the sandbox cannot be made or the test cannot be started;
    /// [`Error::Interrupted`] when a stop was requested (see [`stop_on_signals`]) before
    /// or while the test ran: it was killed at once. With `keep`, when the test deleted
    /// its own folder and was not interesting ([`Error::Io`]: "the test deleted its own
    /// folder").
    ///
    /// [`stop_on_signals`]: crate::stop_on_signals
    pub fn run_one(&self, text: &[u8], keep: bool) -> Result<Outcome, Error> {
        let outcome = self.shared.run(text, keep, None);
        orphans::sweep(PATIENCE, false);
        outcome
    }

    /// Runs the test on each text, all at once, waiting for every run, then kills their
    /// leftovers. A run stopped by a stop request (see [`stop_on_signals`]) is
    /// `Err(`[`Error::Interrupted`]`)`; the runs that ended before it keep their outcome.
    ///
    /// [`stop_on_signals`]: crate::stop_on_signals
    pub fn run_all(&self, texts: &[&[u8]]) -> Vec<Result<Outcome, Error>> {
        let shared = &*self.shared;
        let outcomes = std::thread::scope(|scope| {
            let runs: Vec<_> = texts
                .iter()
                .map(|text| scope.spawn(move || shared.run(text, false, None)))
                .collect();
            runs.into_iter()
                .map(|run| run.join().expect("a test thread does not panic"))
                .collect()
        });
        orphans::sweep(PATIENCE, false);
        outcomes
    }

    /// Every candidate the test finds interesting is run `k` more times, and counts as
    /// interesting only if every run says so (`--confirm K`, for flaky tests).
    pub fn set_confirmations(&mut self, k: u32) {
        self.shared.confirmations.store(k, Ordering::Relaxed);
    }

    /// Keeps the verdicts of the tests this executor runs in `store` (those of tests
    /// that timed out aside), and hands the engine the verdicts earlier runs left there
    /// ([`Executor::earlier_verdicts`]). The checks `run_one` and `run_all` make are
    /// neither looked up nor kept: they always run.
    pub fn set_verdict_store(&mut self, mut store: VerdictStore) {
        self.earlier = store.take_earlier();
        self.store = Some(Arc::new(store));
    }

    /// A flag that stops this executor alone, as a signal stops every executor (see
    /// [`stop_on_signals`]) once it is set: its running tests are killed at once, no new
    /// test starts, [`Executor::wait`] and `run_one` fail with [`Error::Interrupted`]
    /// and [`Executor::stop_requested`] is true. For a program that runs several
    /// reductions and cancels one (a language server).
    ///
    /// [`stop_on_signals`]: crate::stop_on_signals
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shared.stop)
    }

    fn cancel_all(&mut self) {
        let tickets: Vec<Ticket> = self.running.keys().copied().collect();
        self.cancel(&tickets);
    }
}

impl Shared {
    /// Whether a signal or this executor's own flag asked for a stop.
    fn stopped(&self) -> bool {
        interrupted() || self.stop.load(Ordering::SeqCst)
    }

    fn groups(&self) -> std::sync::MutexGuard<'_, Groups> {
        self.groups.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs the test on `text`; under a `ticket`, its process group is registered so it
    /// can be cancelled (a cancelled test ends as killed by SIGKILL). A stop request
    /// kills it at once and fails with [`Error::Interrupted`].
    fn run(&self, text: &[u8], keep: bool, ticket: Option<Ticket>) -> Result<Outcome, Error> {
        if self.stopped() {
            return Err(Error::Interrupted);
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.path().join(format!("t{n}"));
        let work = dir.join("work");
        fs::create_dir_all(&work).map_err(io("creating", &work))?;
        let file = work.join(&self.command.file_name);
        fs::write(&file, text).map_err(io("writing", &file))?;
        let stderr_path = dir.join("stderr");
        let stderr = File::create(&stderr_path).map_err(io("creating", &stderr_path))?;
        let stdin = File::open(&file).map_err(io("reading", &file))?;
        let mut command = launch::command(&self.command, (&file, text), &work, n, stdin, stderr);
        let spawned = {
            // Spawned under the lock: a cancel either comes first (no spawn) or finds
            // the group registered.
            let mut groups = self.groups();
            if let Some(t) = ticket
                && groups.cancelled.contains(&t)
            {
                drop(groups);
                let _ = fs::remove_dir_all(&dir);
                return Ok(Outcome {
                    status: Status::Signaled(Signal::KILL.as_raw()),
                    interesting: false,
                    stderr_tail: String::new(),
                    kept_dir: None,
                });
            }
            let spawned = spawn_leader(&mut command);
            if let (Ok((_, live)), Some(t)) = (&spawned, ticket) {
                groups.running.insert(t, live.id());
            }
            spawned
        };
        let (child, live) = match spawned {
            Ok(spawned) => spawned,
            Err(source) => {
                let _ = fs::remove_dir_all(&dir);
                return Err(Error::TestNotRunnable {
                    path: self.command.program.clone(),
                    source,
                });
            }
        };
        // A test cancelled while it runs through a template ends here, gracefully.
        let ended = launch::wait(
            child,
            self.command.timeout,
            &|| self.stopped() || ticket.is_some_and(|t| self.groups().cancelled.contains(&t)),
            self.command.exec.is_some(),
        );
        bury_group(live.id(), PATIENCE);
        drop(live);
        if let Some(t) = ticket {
            let mut groups = self.groups();
            groups.running.remove(&t);
            orphans::sweep_soon();
        }
        let status = match ended {
            Ok(Some(status)) => status,
            Ok(None) => {
                let _ = fs::remove_dir_all(&dir);
                return Err(Error::Interrupted);
            }
            Err(source) => {
                let _ = fs::remove_dir_all(&dir);
                return Err(io("waiting for", &work)(source));
            }
        };
        let mut outcome = Outcome {
            status,
            interesting: self.command.verdict(status, &stderr_path),
            stderr_tail: String::new(),
            kept_dir: None,
        };
        if ticket.is_none() {
            outcome.stderr_tail = tail(&stderr_path, 10);
        }
        if keep {
            let kept = keep_folder(&work, &stderr_path, &outcome);
            if kept.is_err() {
                let _ = fs::remove_dir_all(&dir);
            }
            outcome.kept_dir = Some(kept?);
        }
        let _ = fs::remove_dir_all(&dir);
        Ok(outcome)
    }
}

/// How to turn an I/O error about `path` into an [`Error`].
fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_owned();
    move |source| Error::Io { what, path, source }
}

/// Moves a test's folder `work` (and its stderr) out of hdd's temporary folder, into a
/// new `hdd-check-*` folder; returns the moved `work`. A test that deleted its own
/// folder leaves nothing to keep: an error if it was not interesting (the folder was
/// wanted to show why), else an empty folder takes its place (no one will look).
/// Nothing is left behind when keeping fails.
fn keep_folder(work: &Path, stderr: &Path, outcome: &Outcome) -> Result<PathBuf, Error> {
    let deleted = !work.is_dir();
    if deleted && !outcome.interesting {
        let why = format!(
            "the original is not interesting (the test ended with {}) and hdd keeps that \
             folder to show why; a test must not delete its folder",
            outcome.status
        );
        return Err(Error::Io {
            what: "the test deleted its own folder",
            path: work.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, why),
        });
    }
    let kept = tempfile::Builder::new()
        .prefix("hdd-check-")
        .tempdir()
        .map_err(io("creating a folder in", &std::env::temp_dir()))?;
    let moved = if deleted {
        fs::create_dir(kept.path().join("work"))
    } else {
        fs::rename(work, kept.path().join("work"))
    };
    // On an error `kept` is dropped, and removed with it.
    moved.map_err(io("keeping", work))?;
    let _ = fs::rename(stderr, kept.path().join("stderr"));
    Ok(kept.keep().join("work"))
}

impl Executor for LocalExecutor {
    fn jobs(&self) -> usize {
        self.jobs
    }

    fn stop_requested(&self) -> bool {
        self.shared.stopped()
    }

    fn earlier_verdicts(&mut self) -> Vec<(TextKey, bool)> {
        std::mem::take(&mut self.earlier)
    }

    fn start(&mut self, ticket: Ticket, text: &[u8]) -> Result<(), BoxError> {
        let shared = Arc::clone(&self.shared);
        let done = self.done_tx.clone();
        let store = self.store.clone();
        let text = text.to_vec();
        let handle = std::thread::Builder::new()
            .name(format!("hdd-test-{ticket}"))
            .spawn(move || {
                let mut result = shared.run(&text, false, Some(ticket));
                for _ in 0..shared.confirmations.load(Ordering::Relaxed) {
                    if !matches!(&result, Ok(o) if o.interesting) {
                        break;
                    }
                    result = shared.run(&text, false, Some(ticket));
                }
                if let (Some(store), Ok(outcome)) = (&store, &result)
                    && outcome.status != Status::TimedOut
                {
                    store.record(TextKey::of(&text), outcome.interesting);
                }
                // From now on nothing runs for this ticket: a cancel is forgotten.
                shared.groups().cancelled.remove(&ticket);
                let _ = done.send((ticket, result.map(|o| o.interesting)));
            })
            .map_err(|e| BoxError::from(format!("starting a test thread: {e}")))?;
        self.running.insert(ticket, handle);
        Ok(())
    }

    fn wait(&mut self) -> Result<Option<(Ticket, bool)>, BoxError> {
        self.dying.retain(|handle| !handle.is_finished());
        loop {
            if self.running.is_empty() {
                return Ok(None);
            }
            if self.shared.stopped() {
                self.cancel_all();
                return Err(Error::Interrupted.into());
            }
            let (ticket, result) = match self.done_rx.recv_timeout(Duration::from_millis(50)) {
                Ok(done) => done,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => unreachable!("the executor holds a sender"),
            };
            // Verdicts of cancelled tests are not wanted.
            let Some(handle) = self.running.remove(&ticket) else {
                continue;
            };
            let _ = handle.join();
            return match result {
                Ok(interesting) => Ok(Some((ticket, interesting))),
                Err(e) => {
                    self.cancel_all();
                    Err(e.into())
                }
            };
        }
    }

    fn cancel(&mut self, tickets: &[Ticket]) {
        let graceful = self.shared.command.exec.is_some();
        let mut handles = Vec::new();
        {
            let mut groups = self.shared.groups();
            for t in tickets {
                let Some(handle) = self.running.remove(t) else {
                    continue;
                };
                // Until its thread ends, no run of this ticket starts (not even a
                // confirmation), and a running one is ended.
                groups.cancelled.insert(*t);
                match groups.running.get(t) {
                    // Its thread sends SIGTERM, then SIGKILL after a grace period: the
                    // coordinator does not wait for that.
                    Some(_) if graceful => {
                        self.dying.push(handle);
                        continue;
                    }
                    Some(&group) => kill_group(group),
                    None => {}
                }
                handles.push(handle);
            }
        }
        // The threads end within a poll interval of their test's death.
        for handle in handles {
            let _ = handle.join();
        }
    }
}

impl Drop for LocalExecutor {
    fn drop(&mut self) {
        self.cancel_all();
        for handle in self.dying.drain(..) {
            let _ = handle.join();
        }
        orphans::sweep(PATIENCE, false);
    }
}

/// The last `lines` lines of a file (at most its last 4 KiB), lossily decoded.
fn tail(path: &Path, lines: usize) -> String {
    let Ok(mut file) = File::open(path) else {
        return String::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = file.seek(SeekFrom::Start(len.saturating_sub(4096)));
    let mut buf = Vec::new();
    let _ = file.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests;
