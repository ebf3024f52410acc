//! File-system helpers shared by the bench modules: sorted sub-folders, file names, and
//! copies whose files are writable by their owner.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

/// The sub-folders of `dir`, sorted by name.
pub(super) fn sorted_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Copies `src` into `dst` (created), files made writable by their owner.
pub(super) fn copy_dir(src: &Path, dst: &Path) -> Result<()> {
    fs::create_dir_all(dst).with_context(|| format!("creating {}", dst.display()))?;
    for entry in fs::read_dir(src).with_context(|| format!("reading {}", src.display()))? {
        let from = entry?.path();
        let to = dst.join(from.file_name().context("an entry without a name")?);
        if from.is_dir() {
            copy_dir(&from, &to)?;
        } else {
            copy_file(&from, &to)?;
        }
    }
    Ok(())
}

pub(super) fn copy_file(from: &Path, to: &Path) -> Result<()> {
    fs::copy(from, to)
        .with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
    let mut permissions = fs::metadata(to)?.permissions();
    permissions.set_mode(permissions.mode() | 0o200);
    fs::set_permissions(to, permissions)?;
    Ok(())
}

/// Writes `text` to `path`, creating its folder (for the tests' fixtures).
#[cfg(test)]
pub(super) fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}
