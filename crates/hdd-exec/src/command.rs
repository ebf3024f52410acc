//! The interestingness test: what to run, and what its ending means.

use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::Error;

/// How to run the test, and what its ending means.
#[derive(Debug, Clone)]
pub struct TestCommand {
    /// The test program, absolute.
    pub program: PathBuf,
    /// Its arguments; each `@@` in them becomes the candidate's path.
    pub args: Vec<OsString>,
    /// The name the candidate gets in the test's folder (the original file name).
    pub file_name: OsString,
    /// A test running longer is killed and counts as not interesting.
    pub timeout: Duration,
    /// The exit code that means interesting (0 by default; a death by signal N counts
    /// as exit code 128 + N, as in a shell).
    pub interesting_exit_code: i32,
    /// When set, interesting also needs the test's stderr to match.
    pub same_crash: Option<regex::bytes::Regex>,
    /// The test's address-space limit, in bytes (`RLIMIT_AS`).
    pub mem_limit: Option<u64>,
    /// Where the test runs: its private folder (the one holding the candidate) when
    /// `None`, else this folder (`hdd bisect` and `hdd entropy` run in the user's).
    pub current_dir: Option<PathBuf>,
    /// With `true`, each [`TestCommand::TEXT_PLACEHOLDER`] in the arguments, alone or
    /// inside one (`-opt-bisect-limit={}`), becomes the candidate's text (`hdd bisect`'s
    /// value, as UTF-8).
    pub text_in_args: bool,
    /// With a template (`--exec`), every test runs through it: `/bin/sh -c` runs the
    /// template with `{cmd}` (the test and its arguments), `{dir}` (its folder),
    /// `{file}`, `{name}` and `{id}` replaced, shell-quoted, and its exit status is the
    /// test's. A timeout or a cancel then sends SIGTERM to the template's process group
    /// first (so `srun` can cancel its remote step), SIGKILL after a grace period.
    pub exec: Option<String>,
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
        check_shebang(test)?;
        let program = fs::canonicalize(test).map_err(|source| Error::Io {
            what: "resolving",
            path: test.to_owned(),
            source,
        })?;
        Ok(TestCommand {
            program,
            args: Vec::new(),
            file_name,
            timeout,
            interesting_exit_code: 0,
            same_crash: None,
            mem_limit: None,
            current_dir: None,
            text_in_args: false,
            exec: None,
        })
    }

    /// The program a test command names: a bare name (no `/`) that is not a file here is
    /// looked up on PATH, as a shell would; anything else is `name` itself.
    #[must_use]
    pub fn find_program(name: &Path) -> PathBuf {
        if name.components().count() != 1 || name.exists() {
            return name.to_owned();
        }
        std::env::var_os("PATH")
            .and_then(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
            .unwrap_or_else(|| name.to_owned())
    }

    /// What `@@` stands for in the arguments.
    pub const PATH_PLACEHOLDER: &'static str = "@@";

    /// What the candidate's text replaces in the arguments with
    /// [`TestCommand::text_in_args`].
    pub const TEXT_PLACEHOLDER: &'static str = "{}";

    /// Checks an `--exec` template: it must run the test (`{cmd}`).
    ///
    /// # Errors
    /// A message saying what is wrong.
    pub fn check_template(template: &str) -> Result<(), String> {
        if !template.contains("{cmd}") {
            return Err(format!(
                "the template has no {{cmd}}, so it would never run the test (its \
                 placeholders: {})",
                crate::template::PLACEHOLDERS.join(" ")
            ));
        }
        Ok(())
    }

    /// The arguments of a test of `text`, whose path is `file`: `@@` replaced by the
    /// path and, with [`TestCommand::text_in_args`], `{}` by the text.
    #[must_use]
    pub fn args_for(&self, file: &Path, text: &[u8]) -> Vec<OsString> {
        let value = self
            .text_in_args
            .then(|| String::from_utf8_lossy(text).into_owned());
        self.args
            .iter()
            .map(|arg| {
                if arg == Self::PATH_PLACEHOLDER {
                    return file.as_os_str().to_owned();
                }
                match (&value, arg.to_str()) {
                    (Some(value), Some(s)) if s.contains(Self::TEXT_PLACEHOLDER) => {
                        s.replace(Self::TEXT_PLACEHOLDER, value).into()
                    }
                    _ => arg.clone(),
                }
            })
            .collect()
    }

    /// The interesting exit code and, if any, the stderr pattern, for messages:
    /// `exit code 0`, `exit code 134 and stderr matching "heap-use-after-free"`.
    #[must_use]
    pub fn expectation(&self) -> String {
        let mut s = format!("exit code {}", self.interesting_exit_code);
        if let Some(re) = &self.same_crash {
            s.push_str(&format!(" and stderr matching \"{}\"", re.as_str()));
        }
        s
    }

    /// Whether a test that ended with `status`, having written `stderr`, says
    /// interesting.
    pub(crate) fn verdict(&self, status: Status, stderr: &Path) -> bool {
        if status.code() != Some(self.interesting_exit_code) {
            return false;
        }
        match &self.same_crash {
            None => true,
            Some(re) => fs::read(stderr).is_ok_and(|text| re.is_match(&text)),
        }
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
    /// The exit code a shell would report: the code, or 128 + N for a death by signal
    /// N; `None` for a timeout.
    #[must_use]
    pub fn code(self) -> Option<i32> {
        match self {
            Status::Exited(code) => Some(code),
            Status::Signaled(sig) => Some(128 + sig),
            Status::TimedOut => None,
        }
    }
}

impl From<std::process::ExitStatus> for Status {
    fn from(status: std::process::ExitStatus) -> Status {
        use std::os::unix::process::ExitStatusExt as _;
        match (status.code(), status.signal()) {
            (Some(code), _) => Status::Exited(code),
            (None, Some(sig)) => Status::Signaled(sig),
            (None, None) => Status::Exited(-1),
        }
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

/// Refuses a script whose `#!` line cannot work: an interpreter given by a path that
/// does not exist, or a line ending with a carriage return (a script saved with Windows
/// line endings). A file without `#!` is left to the kernel (it may be a binary).
fn check_shebang(test: &Path) -> Result<(), Error> {
    let mut head = [0u8; 256];
    let n = fs::File::open(test)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let Some(line) = head[..n].strip_prefix(b"#!") else {
        return Ok(());
    };
    let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
    if line.ends_with(b"\r") {
        return Err(Error::TestShebangCarriageReturn {
            path: test.to_owned(),
        });
    }
    let line = String::from_utf8_lossy(line);
    let Some(interpreter) = line.split_whitespace().next() else {
        return Ok(());
    };
    if interpreter.starts_with('/') && !Path::new(interpreter).exists() {
        return Err(Error::TestInterpreterMissing {
            path: test.to_owned(),
            interpreter: interpreter.to_owned(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn broken_shebangs_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let new = |name, text| {
            TestCommand::new(
                &script(dir.path(), name, text),
                "a".into(),
                Duration::from_secs(1),
            )
        };
        let err = new("cr.sh", "#!/bin/sh\r\nexit 0\r\n").unwrap_err();
        assert!(err.to_string().contains("carriage return"), "{err}");
        let err = new("missing.sh", "#!/nonexistent/sh\nexit 0\n").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/sh"), "{err}");
        assert!(new("env.sh", "#!/usr/bin/env sh\nexit 0\n").is_ok());
        assert!(new("plain.sh", "exit 0\n").is_ok(), "left to the kernel");
    }

    #[test]
    fn the_text_replaces_braces_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let test = script(dir.path(), "t.sh", "exit 0\n");
        let mut command = TestCommand::new(&test, "a".into(), Duration::from_secs(1)).unwrap();
        command.args = ["@@", "{}", "-limit={}", "x"].map(OsString::from).to_vec();
        let file = Path::new("/tmp/f");
        let plain = command.args_for(file, b"42");
        assert_eq!(plain, ["/tmp/f", "{}", "-limit={}", "x"]);
        command.text_in_args = true;
        let with = command.args_for(file, b"42");
        assert_eq!(with, ["/tmp/f", "42", "-limit=42", "x"]);
    }
}
