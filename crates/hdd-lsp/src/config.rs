//! What test a reduction runs: `.hdd.toml` at the workspace root, or the client's
//! `initializationOptions` (the same keys, in JSON).
//!
//! ```toml
//! test = "./test.sh"               # an executable, relative to the workspace root
//! # or: command = ["./target", "@@"]  (`@@`: the candidate's path; without it, stdin)
//! jobs = 2
//! timeout = 60                     # seconds a test may run
//! lang = "c"                       # default: from the file's extension
//! interesting_exit_code = 0
//! same_crash = "heap-use-after-free"
//! mem_limit = 2048                 # megabytes of address space per test
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hdd_exec::TestCommand;
use serde::Deserialize;

/// The name of the configuration file at the workspace root.
pub const CONFIG_FILE: &str = ".hdd.toml";

/// The keys of a configuration.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The test script: exit 0 (or `interesting_exit_code`) = still interesting.
    pub test: Option<String>,
    /// A test command with arguments, `@@` for the candidate's path.
    pub command: Option<Vec<String>>,
    /// Tests at once (default: the cores, at most 4, so the editor stays responsive).
    pub jobs: Option<usize>,
    /// Seconds a test may run (default 60).
    pub timeout: Option<f64>,
    /// The language (`hdd langs`), or `text`.
    pub lang: Option<String>,
    /// The exit code that means interesting.
    pub interesting_exit_code: Option<i32>,
    /// Interesting only if the test's stderr matches this regex too.
    pub same_crash: Option<String>,
    /// Each test's address space, in megabytes.
    pub mem_limit: Option<u64>,
}

/// Where a configuration comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The client's `initializationOptions`: the user's own editor configuration, trusted.
    Client,
    /// `.hdd.toml` in the workspace, which came with the workspace (a cloned repository,
    /// say): it runs nothing before the user has trusted its content.
    File {
        /// Its path.
        path: PathBuf,
        /// XXH3-128 of its bytes, in hex: a changed file must be trusted again.
        hash: String,
    },
}

/// A configuration, where it comes from and the folder its paths are relative to.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The keys.
    pub config: Config,
    /// Where they come from.
    pub origin: Origin,
    /// The workspace root.
    pub root: PathBuf,
}

/// The configuration of the workspace at `root`: the client's `init` options when they
/// name a test, else `.hdd.toml` there; `Ok(None)` when neither exists.
///
/// # Errors
/// A message for the user when a configuration exists and is wrong.
pub fn load(root: &Path, init: Option<&serde_json::Value>) -> Result<Option<Loaded>, String> {
    if let Some(init) = init.filter(|v| !v.is_null()) {
        let config: Config = serde_json::from_value(init.clone())
            .map_err(|e| format!("hdd: initializationOptions: {e}"))?;
        if config.test.is_some() || config.command.is_some() {
            return Ok(Some(Loaded {
                config,
                origin: Origin::Client,
                root: root.to_owned(),
            }));
        }
    }
    let path = root.join(CONFIG_FILE);
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(None);
    };
    let text = String::from_utf8(bytes.clone())
        .map_err(|_| format!("hdd: {} is not UTF-8", path.display()))?;
    let config: Config =
        toml::from_str(&text).map_err(|e| format!("hdd: {}: {e}", path.display()))?;
    let hash = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&bytes));
    Ok(Some(Loaded {
        config,
        origin: Origin::File { path, hash },
        root: root.to_owned(),
    }))
}

impl Loaded {
    /// The test as a command for a candidate named `file_name`.
    ///
    /// # Errors
    /// A message for the user: no test, both `test` and `command`, a test that is not an
    /// executable file, a bad regex.
    pub fn test_command(&self, file_name: OsString) -> Result<TestCommand, String> {
        let config = &self.config;
        let (program, args): (&str, &[String]) = match (&config.test, &config.command) {
            (Some(test), None) => (test, &[]),
            (None, Some(command)) => match command.split_first() {
                Some((program, args)) => (program, args),
                None => return Err(self.wrong("`command` is empty")),
            },
            (Some(_), Some(_)) => return Err(self.wrong("give `test` or `command`, not both")),
            (None, None) => return Err(self.wrong("no `test` and no `command`")),
        };
        let timeout = config.timeout.unwrap_or(60.0);
        if !(timeout.is_finite() && timeout > 0.0) {
            return Err(self.wrong("`timeout` must be a positive number of seconds"));
        }
        let program = Path::new(program);
        let program = if program.components().count() > 1 {
            self.root.join(program)
        } else {
            TestCommand::find_program(program)
        };
        let mut command = TestCommand::new(&program, file_name, Duration::from_secs_f64(timeout))
            .map_err(|e| self.wrong(&e.to_string()))?;
        command.args = args.iter().map(OsString::from).collect();
        command.interesting_exit_code = config.interesting_exit_code.unwrap_or(0);
        command.same_crash = config
            .same_crash
            .as_deref()
            .map(regex::bytes::Regex::new)
            .transpose()
            .map_err(|e| self.wrong(&format!("same_crash: {e}")))?;
        command.mem_limit = match config.mem_limit {
            Some(0) => return Err(self.wrong("`mem_limit` must be at least 1 (megabytes)")),
            Some(mb) => Some(mb.saturating_mul(1 << 20)),
            None => None,
        };
        Ok(command)
    }

    /// Tests at once.
    #[must_use]
    pub fn jobs(&self) -> usize {
        self.config.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZero::get)
                .min(4)
        })
    }

    /// What the configuration would run, for the trust prompt.
    #[must_use]
    pub fn describe(&self) -> String {
        match (&self.config.test, &self.config.command) {
            (Some(test), _) => test.clone(),
            (None, Some(command)) => command.join(" "),
            (None, None) => String::new(),
        }
    }

    fn wrong(&self, what: &str) -> String {
        match &self.origin {
            Origin::Client => format!("hdd: initializationOptions: {what}"),
            Origin::File { path, .. } => format!("hdd: {}: {what}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_options_come_first_and_a_file_is_hashed() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(dir.path(), None).unwrap().is_none());
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "test = \"./t.sh\"\njobs = 3\n",
        )
        .unwrap();
        let file = load(dir.path(), None).unwrap().unwrap();
        assert_eq!(file.config.test.as_deref(), Some("./t.sh"));
        assert_eq!(file.jobs(), 3);
        let Origin::File { hash, .. } = &file.origin else {
            panic!("{file:?}")
        };
        assert_eq!(hash.len(), 32);
        let init = serde_json::json!({"command": ["cat", "@@"]});
        let client = load(dir.path(), Some(&init)).unwrap().unwrap();
        assert_eq!(client.origin, Origin::Client);
        assert_eq!(client.describe(), "cat @@");
        let command = client.test_command("a.c".into()).unwrap();
        assert!(command.program.ends_with("cat"));
        assert_eq!(command.args, vec![OsString::from("@@")]);
    }

    #[test]
    fn wrong_configurations_are_explained() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), "tset = 1\n").unwrap();
        let err = load(dir.path(), None).unwrap_err();
        assert!(err.contains("unknown field `tset`"), "{err}");
        std::fs::write(dir.path().join(CONFIG_FILE), "jobs = 1\n").unwrap();
        let loaded = load(dir.path(), None).unwrap().unwrap();
        let err = loaded.test_command("a".into()).unwrap_err();
        assert!(err.contains("no `test` and no `command`"), "{err}");
        std::fs::write(dir.path().join(CONFIG_FILE), "test = \"./missing.sh\"\n").unwrap();
        let loaded = load(dir.path(), None).unwrap().unwrap();
        let err = loaded.test_command("a".into()).unwrap_err();
        assert!(err.contains("missing.sh"), "{err}");
    }
}
