//! Local process execution of the interestingness test.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdd_core::{BoxError, Executor};

/// Why a test could not be run at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The test program does not exist.
    #[error("test {path} does not exist")]
    TestMissing {
        /// The path given.
        path: PathBuf,
    },
    /// The test is not a regular file.
    #[error("test {path} is not a file")]
    TestNotAFile {
        /// The path given.
        path: PathBuf,
    },
    /// The test lacks the execute permission.
    #[error("test {path} is not executable (fix: chmod +x {path})")]
    TestNotExecutable {
        /// The path given.
        path: PathBuf,
    },
    /// The kernel refused to run the test (usually a script without a `#!` line).
    #[error(
        "cannot execute test {path}: {source} (does the script start with a line like #!/bin/sh?)"
    )]
    TestNotRunnable {
        /// The path given.
        path: PathBuf,
        /// What the kernel said.
        source: std::io::Error,
    },
    /// A file or folder of the test's sandbox could not be made.
    #[error("{what} {path}: {source}")]
    Io {
        /// What hdd was doing.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// How to run the test.
#[derive(Debug, Clone)]
pub struct TestCommand {
    /// The test program, absolute.
    pub program: PathBuf,
    /// The name the candidate gets in the test's folder (the original file name).
    pub file_name: OsString,
    /// A test running longer is killed and counts as not interesting.
    pub timeout: Duration,
}

impl TestCommand {
    /// Checks that `test` is an executable file and makes its path absolute.
    ///
    /// # Errors
    /// When the test is missing, not a file, or not executable.
    pub fn new(test: &Path, file_name: OsString, timeout: Duration) -> Result<TestCommand, Error> {
        let meta = fs::metadata(test).map_err(|_| Error::TestMissing {
            path: test.to_owned(),
        })?;
        if !meta.is_file() {
            return Err(Error::TestNotAFile {
                path: test.to_owned(),
            });
        }
        if meta.permissions().mode() & 0o111 == 0 {
            return Err(Error::TestNotExecutable {
                path: test.to_owned(),
            });
        }
        let program = fs::canonicalize(test).map_err(|source| Error::Io {
            what: "resolving",
            path: test.to_owned(),
            source,
        })?;
        Ok(TestCommand {
            program,
            file_name,
            timeout,
        })
    }
}

/// How a test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// It exited with this code.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It ran past the timeout and was killed.
    TimedOut,
}

impl Status {
    /// Whether the candidate is interesting (exit code 0).
    #[must_use]
    pub fn interesting(self) -> bool {
        self == Status::Exited(0)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Exited(code) => write!(f, "exit code {code}"),
            Status::Signaled(sig) => write!(f, "killed by signal {sig}"),
            Status::TimedOut => write!(f, "timed out"),
        }
    }
}

/// One test run, for reporting.
#[derive(Debug)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// The last lines of its standard error.
    pub stderr_tail: String,
    /// Its working folder, if it was kept.
    pub kept_dir: Option<PathBuf>,
}

/// Runs the test as local processes, up to `jobs` at once.
#[derive(Debug)]
pub struct LocalExecutor {
    command: TestCommand,
    jobs: usize,
    root: tempfile::TempDir,
    next: AtomicU64,
}

impl LocalExecutor {
    /// An executor with its sandboxes under the system temporary folder.
    ///
    /// # Errors
    /// When the temporary folder cannot be made.
    pub fn new(command: TestCommand, jobs: usize) -> Result<LocalExecutor, Error> {
        let root = tempfile::Builder::new()
            .prefix("hdd-")
            .tempdir()
            .map_err(|source| Error::Io {
                what: "creating a temporary folder in",
                path: std::env::temp_dir(),
                source,
            })?;
        Ok(LocalExecutor {
            command,
            jobs: jobs.max(1),
            root,
            next: AtomicU64::new(0),
        })
    }

    /// Runs the test once on `text`. With `keep`, the test's folder is left on disk (moved
    /// out of hdd's temporary folder) so the user can look at it and rerun the test.
    ///
    /// # Errors
    /// When the sandbox cannot be made or the test cannot be started.
    pub fn run_one(&self, text: &[u8], keep: bool) -> Result<Outcome, Error> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.path().join(format!("t{n}"));
        let work = dir.join("work");
        let io = |what: &'static str, path: &Path| {
            let path = path.to_owned();
            move |source| Error::Io { what, path, source }
        };
        fs::create_dir_all(&work).map_err(io("creating", &work))?;
        let file = work.join(&self.command.file_name);
        fs::write(&file, text).map_err(io("writing", &file))?;
        let stderr_path = dir.join("stderr");
        let stderr = File::create(&stderr_path).map_err(io("creating", &stderr_path))?;
        let child = Command::new(&self.command.program)
            .current_dir(&work)
            .env("HDD_FILE", &file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .process_group(0)
            .spawn();
        let child = match child {
            Ok(child) => child,
            Err(source) => {
                let _ = fs::remove_dir_all(&dir);
                return Err(Error::TestNotRunnable {
                    path: self.command.program.clone(),
                    source,
                });
            }
        };
        let status = wait(child, self.command.timeout).map_err(io("waiting for", &work))?;
        let mut outcome = Outcome {
            status,
            stderr_tail: String::new(),
            kept_dir: None,
        };
        if keep {
            outcome.stderr_tail = tail(&stderr_path, 10);
            let kept = tempfile::Builder::new()
                .prefix("hdd-check-")
                .tempdir()
                .map_err(io("creating a folder in", &std::env::temp_dir()))?
                .keep();
            fs::rename(&work, kept.join("work")).map_err(io("keeping", &work))?;
            let _ = fs::rename(&stderr_path, kept.join("stderr"));
            outcome.kept_dir = Some(kept.join("work"));
        }
        let _ = fs::remove_dir_all(&dir);
        Ok(outcome)
    }
}

impl Executor for LocalExecutor {
    fn jobs(&self) -> usize {
        self.jobs
    }

    fn run(&mut self, texts: &[&[u8]]) -> Result<Vec<bool>, BoxError> {
        let this = &*self;
        let results: Vec<Result<Outcome, Error>> = std::thread::scope(|scope| {
            let handles: Vec<_> = texts
                .iter()
                .map(|text| scope.spawn(move || this.run_one(text, false)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a test thread does not panic"))
                .collect()
        });
        results
            .into_iter()
            .map(|r| r.map(|o| o.status.interesting()).map_err(BoxError::from))
            .collect()
    }
}

/// Waits for `child` up to `timeout`, then kills its process group; always kills what
/// is left of the group when the test ends.
fn wait(mut child: Child, timeout: Duration) -> std::io::Result<Status> {
    let started = Instant::now();
    let group = i32::try_from(child.id()).expect("a pid fits in i32");
    let mut nap = Duration::from_micros(500);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status_of(status);
        }
        if started.elapsed() >= timeout {
            kill_group(group);
            child.wait()?;
            break Status::TimedOut;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    };
    kill_group(group);
    Ok(status)
}

fn status_of(status: ExitStatus) -> Status {
    match (status.code(), status.signal()) {
        (Some(code), _) => Status::Exited(code),
        (None, Some(sig)) => Status::Signaled(sig),
        (None, None) => Status::Exited(-1),
    }
}

fn kill_group(group: i32) {
    // SAFETY: killpg has no memory-safety preconditions; a stale or empty group only
    // makes it fail with ESRCH, which is ignored.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
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
mod tests {
    use super::*;

    fn script(dir: &Path, body: &str) -> PathBuf {
        let path = dir.join("test.sh");
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn executor(dir: &Path, body: &str, timeout: Duration) -> LocalExecutor {
        let test = script(dir, body);
        LocalExecutor::new(TestCommand::new(&test, "in.c".into(), timeout).unwrap(), 2).unwrap()
    }

    #[test]
    fn test_sees_the_candidate_under_its_name_in_its_own_folder() {
        let dir = tempfile::tempdir().unwrap();
        let mut exec = executor(
            dir.path(),
            r#"[ "$HDD_FILE" = "$PWD/in.c" ] && grep -q keep in.c"#,
            Duration::from_secs(10),
        );
        assert_eq!(exec.run(&[b"keep", b"drop"]).unwrap(), vec![true, false]);
    }

    #[test]
    fn timeout_kills_the_test_and_its_grandchildren() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("alive");
        let exec = executor(
            dir.path(),
            &format!("(sleep 2; touch {}) & sleep 30", marker.display()),
            Duration::from_millis(200),
        );
        let outcome = exec.run_one(b"x", false).unwrap();
        assert_eq!(outcome.status, Status::TimedOut);
        std::thread::sleep(Duration::from_millis(2500));
        assert!(
            !marker.exists(),
            "a grandchild of the test survived the timeout"
        );
    }

    #[test]
    fn kept_folder_and_stderr_tail_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let exec = executor(dir.path(), "echo boom >&2; exit 3", Duration::from_secs(10));
        let outcome = exec.run_one(b"x", true).unwrap();
        assert_eq!(outcome.status, Status::Exited(3));
        assert_eq!(outcome.stderr_tail, "boom");
        let kept = outcome.kept_dir.unwrap();
        assert_eq!(fs::read(kept.join("in.c")).unwrap(), b"x");
        fs::remove_dir_all(kept.parent().unwrap()).unwrap();
    }

    #[test]
    fn bad_tests_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let missing =
            TestCommand::new(&dir.path().join("nope"), "a".into(), Duration::from_secs(1));
        assert!(matches!(missing, Err(Error::TestMissing { .. })));
        let plain = dir.path().join("plain.sh");
        fs::write(&plain, "exit 0\n").unwrap();
        let err = TestCommand::new(&plain, "a".into(), Duration::from_secs(1)).unwrap_err();
        assert!(err.to_string().contains("chmod +x"), "{err}");
        fs::set_permissions(&plain, fs::Permissions::from_mode(0o755)).unwrap();
        let exec = LocalExecutor::new(
            TestCommand::new(&plain, "a".into(), Duration::from_secs(1)).unwrap(),
            1,
        )
        .unwrap();
        let err = exec.run_one(b"", false).unwrap_err();
        assert!(err.to_string().contains("#!"), "{err}");
    }
}
