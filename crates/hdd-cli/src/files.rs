//! The user's files: where the result goes, the original's backup, and atomic writes
//! (the file on disk is always whole, old or new).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow};

use crate::args::ReduceArgs;
use crate::exit::Failure;

/// Where results go, and where the original is backed up (in-place mode only).
pub(crate) fn destinations(args: &ReduceArgs) -> Result<(PathBuf, Option<PathBuf>), Failure> {
    if let Some(out) = &args.output {
        return Ok((out.clone(), None));
    }
    let mut backup = args.file.clone().into_os_string();
    backup.push(".orig");
    let backup = PathBuf::from(backup);
    if backup.exists() && !args.force {
        return Err(Failure::usage(anyhow!(
            "{} already exists; pass --force to overwrite it, or -o OUT to leave {} untouched",
            backup.display(),
            args.file.display()
        )));
    }
    Ok((args.file.clone(), Some(backup)))
}

/// Writes `bytes` to `dest` through a temporary file in the same folder and a rename,
/// so `dest` always holds either the old or the new content, never a partial one.
pub(crate) fn write_atomically(dest: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".hdd-")
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_data())
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    if let Ok(meta) = fs::metadata(dest) {
        let _ = fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(dest)
        .with_context(|| format!("replacing {}", dest.display()))?;
    Ok(())
}
