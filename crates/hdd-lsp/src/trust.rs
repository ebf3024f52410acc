//! Which workspace configurations the user has allowed to run.
//!
//! A `.hdd.toml` that came with a cloned repository can name any command, so the server
//! asks before running one (`window/showMessageRequest`, showing the command) and
//! remembers the answer per workspace path and file content: one line `HASH PATH` per
//! trusted configuration, in `$HDD_DATA_DIR/trusted`, else the user's data folder
//! (`~/.local/share/hdd/trusted`). A changed file has another hash and is asked about
//! again.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file of trusted configurations.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: PathBuf,
}

impl TrustStore {
    /// The store in `$HDD_DATA_DIR`, else in the user's data folder; `None` when there
    /// is neither (then nothing is remembered and every run asks).
    #[must_use]
    pub fn from_env() -> Option<TrustStore> {
        let dir = std::env::var_os("HDD_DATA_DIR")
            .map(PathBuf::from)
            .or_else(|| dirs::data_dir().map(|d| d.join("hdd")))?;
        Some(TrustStore::at(&dir))
    }

    /// The store in `dir`.
    #[must_use]
    pub fn at(dir: &Path) -> TrustStore {
        TrustStore {
            path: dir.join("trusted"),
        }
    }

    /// Whether the configuration of `root` whose content hashes to `hash` was trusted.
    #[must_use]
    pub fn is_trusted(&self, root: &Path, hash: &str) -> bool {
        let Ok(text) = fs::read_to_string(&self.path) else {
            return false;
        };
        let wanted = line(root, hash);
        text.lines().any(|l| l == wanted)
    }

    /// Remembers that the configuration of `root` hashing to `hash` is trusted.
    ///
    /// # Errors
    /// When the store cannot be written.
    pub fn trust(&self, root: &Path, hash: &str) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        // One write of one line: two servers appending at once do not mix lines.
        file.write_all(format!("{}\n", line(root, hash)).as_bytes())
    }
}

fn line(root: &Path, hash: &str) -> String {
    format!("{hash} {}", root.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_is_per_workspace_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let store = TrustStore::at(&dir.path().join("data"));
        let (a, b) = (Path::new("/w/a"), Path::new("/w/b"));
        assert!(!store.is_trusted(a, "h1"));
        store.trust(a, "h1").unwrap();
        assert!(store.is_trusted(a, "h1"));
        assert!(!store.is_trusted(a, "h2"));
        assert!(!store.is_trusted(b, "h1"));
    }
}
