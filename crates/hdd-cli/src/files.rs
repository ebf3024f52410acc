//! The user's files. The original is sacred: an output that would overwrite the input or
//! the test is refused, a backup never replaces an existing file, every write goes to a
//! temporary file in the same folder that is synced and then renamed into place (so a
//! file on disk is always whole, old or new, and a symlink is replaced, never written
//! through), and someone else's edit of the result's file wins: hdd then writes its best
//! result beside it instead.

use std::ffi::OsString;
use std::fs::{self, File, Permissions};
use std::hash::{DefaultHasher, Hasher as _};
use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context as _, anyhow};

use crate::args::ReduceArgs;
use crate::exit::Failure;

/// What is at a path, as far as telling whether someone changed it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stamp {
    Absent,
    File {
        len: u64,
        modified: SystemTime,
        /// A hash of the content, compared only when the size or time differ (a file
        /// touched, or written back the same, is not a change).
        hash: u64,
    },
}

/// Where a run writes, and what it last wrote there.
#[derive(Debug)]
pub(crate) struct Output {
    /// Where the best result goes: FILE in place, or OUT.
    dest: PathBuf,
    /// The original's backup (in place only): a name nothing had.
    backup: Option<PathBuf>,
    /// `dest` as hdd last left it (at the start: as it was).
    last: Stamp,
    /// Set once someone else changed `dest`: where the best result goes instead.
    diverted: Option<PathBuf>,
    /// The mode new files get: the input's.
    mode: Permissions,
}

impl Output {
    /// Plans where `args` writes, for an input whose bytes are `input`; refuses an `-o`
    /// that names the input or the test (after links), a folder, or a path in a folder
    /// that does not exist. In place, the backup is `FILE.orig`; when that exists (even
    /// as a dangling link) hdd stops, unless `--force`, which picks a fresh name
    /// (`FILE.orig.1`, …): returned as a warning.
    pub(crate) fn plan(
        args: &ReduceArgs,
        test: &Path,
        input: &[u8],
    ) -> Result<(Output, Vec<String>), Failure> {
        let mode = fs::metadata(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))
            .map_err(Failure::usage)?
            .permissions();
        let mut warnings = Vec::new();
        let (dest, backup) = match &args.output {
            Some(out) => {
                check_output(out, &args.file, test)?;
                (out.clone(), None)
            }
            None => {
                let backup = backup_name(&args.file, args.force)?;
                if backup != with_suffix(&args.file, ".orig") {
                    warnings.push(format!(
                        "{} exists: the original is backed up as {} instead",
                        with_suffix(&args.file, ".orig").display(),
                        backup.display()
                    ));
                }
                (args.file.clone(), Some(backup))
            }
        };
        let last = if args.output.is_none() {
            // Stamped from the bytes read, so an edit made since the read counts.
            match fs::symlink_metadata(&dest) {
                Ok(meta) => Stamp::File {
                    len: meta.len(),
                    modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                    hash: hash(input),
                },
                Err(_) => Stamp::Absent,
            }
        } else {
            stamp(&dest).map_err(Failure::failed)?
        };
        let output = Output {
            dest,
            backup,
            last,
            diverted: None,
            mode,
        };
        Ok((output, warnings))
    }

    /// Where the best result is: the destination, or the file beside it once someone
    /// else changed the destination.
    pub(crate) fn best_path(&self) -> &Path {
        self.diverted.as_deref().unwrap_or(&self.dest)
    }

    /// The destination named on the command line.
    pub(crate) fn dest(&self) -> &Path {
        &self.dest
    }

    /// The original's backup, in place.
    pub(crate) fn backup(&self) -> Option<&Path> {
        self.backup.as_deref()
    }

    /// Whether someone else changed the destination, and where the best result went.
    pub(crate) fn diverted(&self) -> Option<&Path> {
        self.diverted.as_deref()
    }

    /// "the best result so far is in X and the original in X.orig", for messages.
    pub(crate) fn kept(&self) -> String {
        format!(
            "the best result so far is in {}{}",
            self.best_path().display(),
            self.backup
                .as_ref()
                .map(|b| format!(" and the original in {}", b.display()))
                .unwrap_or_default()
        )
    }

    /// Writes the original's backup (in place), whole or not at all.
    pub(crate) fn write_backup(&self, input: &[u8], file: &Path) -> Result<(), Failure> {
        let Some(backup) = &self.backup else {
            return Ok(());
        };
        write_new(backup, input, &self.mode)
            .with_context(|| {
                format!(
                    "writing the backup {} failed, {} is untouched",
                    backup.display(),
                    file.display()
                )
            })
            .map_err(Failure::failed)
    }

    /// Writes a new best result: to the destination while it is still what hdd last
    /// wrote there; once someone else changed it, beside it (`FILE.hdd-best`). Returns
    /// the new place the first time it moves, for a warning.
    pub(crate) fn save(&mut self, bytes: &[u8]) -> anyhow::Result<Option<PathBuf>> {
        let moved = self.divert_if_changed()?;
        match &self.diverted {
            Some(beside) => {
                replace(beside, bytes, &self.mode)?;
            }
            None => {
                replace(&self.dest, bytes, &self.mode)?;
                let meta = fs::symlink_metadata(&self.dest)
                    .with_context(|| format!("reading {}", self.dest.display()))?;
                self.last = Stamp::File {
                    len: meta.len(),
                    modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                    hash: hash(bytes),
                };
            }
        }
        Ok(moved)
    }

    /// At the end of a run: if someone else changed the destination since hdd last
    /// wrote it, `best` goes beside it; returns the new place when that happens now.
    pub(crate) fn settle(&mut self, best: &[u8]) -> anyhow::Result<Option<PathBuf>> {
        let moved = self.divert_if_changed()?;
        if moved.is_some() {
            self.save(best)?;
        }
        Ok(moved)
    }

    /// Notices an edit of the destination by someone else: the best result then goes
    /// to a fresh `FILE.hdd-best`. Returns that name when it is picked now.
    fn divert_if_changed(&mut self) -> anyhow::Result<Option<PathBuf>> {
        if self.diverted.is_some() || !self.changed()? {
            return Ok(None);
        }
        let beside = fresh_name(&with_suffix(&self.dest, ".hdd-best"));
        self.diverted = Some(beside.clone());
        Ok(Some(beside))
    }

    /// Whether the destination is no longer what hdd last wrote there (or found there).
    fn changed(&mut self) -> anyhow::Result<bool> {
        let meta = match fs::symlink_metadata(&self.dest) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(self.last != Stamp::Absent);
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.dest.display())),
        };
        let Stamp::File {
            len,
            modified,
            hash: last_hash,
        } = self.last
        else {
            return Ok(true);
        };
        let now = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        if meta.len() == len && now == modified {
            return Ok(false);
        }
        if !meta.is_file() || meta.len() != len {
            return Ok(true);
        }
        let content =
            fs::read(&self.dest).with_context(|| format!("reading {}", self.dest.display()))?;
        if hash(&content) != last_hash {
            return Ok(true);
        }
        // Touched, or written back the same: not a change.
        self.last = Stamp::File {
            len,
            modified: now,
            hash: last_hash,
        };
        Ok(false)
    }
}

/// Refuses an `-o OUT` that would destroy the input or the test, is a folder, or lies
/// in a folder that does not exist.
fn check_output(out: &Path, file: &Path, test: &Path) -> Result<(), Failure> {
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(Failure::usage(anyhow!(
            "-o {}: the folder {} does not exist",
            out.display(),
            folder.display()
        )));
    }
    let Ok(meta) = fs::metadata(out) else {
        return Ok(());
    };
    if meta.is_dir() {
        return Err(Failure::usage(anyhow!(
            "-o {} is a folder; name the file to write",
            out.display()
        )));
    }
    for (what, path) in [("the input", file), ("the test", test)] {
        if fs::metadata(path).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino()) {
            return Err(Failure::usage(anyhow!(
                "-o {} is {what} {}: it would be overwritten; name another file, or leave \
                 -o out to reduce {} in place (its original is then kept in a backup)",
                out.display(),
                path.display(),
                file.display()
            )));
        }
    }
    Ok(())
}

/// `FILE.orig`, or with `force` a fresh `FILE.orig.N` when that exists.
fn backup_name(file: &Path, force: bool) -> Result<PathBuf, Failure> {
    let backup = with_suffix(file, ".orig");
    if fs::symlink_metadata(&backup).is_err() {
        return Ok(backup);
    }
    if !force {
        return Err(Failure::usage(anyhow!(
            "{} already exists (the backup of an earlier run?); move it away, pass --force to \
             keep it and back up to a new name, or -o OUT to leave {} untouched",
            backup.display(),
            file.display()
        )));
    }
    Ok(fresh_name(&backup))
}

/// `path` if nothing is there, else the first of `path.1`, `path.2`, … that is free.
fn fresh_name(path: &Path) -> PathBuf {
    if fs::symlink_metadata(path).is_err() {
        return path.to_owned();
    }
    (1..)
        .map(|n| with_suffix(path, &format!(".{n}")))
        .find(|p| fs::symlink_metadata(p).is_err())
        .expect("some number is free")
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn stamp(path: &Path) -> anyhow::Result<Stamp> {
    match fs::symlink_metadata(path) {
        Ok(meta) => Ok(Stamp::File {
            len: meta.len(),
            modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            hash: if meta.is_file() {
                hash(&fs::read(path).with_context(|| format!("reading {}", path.display()))?)
            } else {
                0
            },
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Stamp::Absent),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    hasher.write(bytes);
    hasher.finish()
}

/// Replaces whatever is at `dest` (a link itself, not its target) with `bytes`, keeping
/// the mode of the file there, else `mode`.
pub(crate) fn replace(dest: &Path, bytes: &[u8], mode: &Permissions) -> anyhow::Result<()> {
    let mode = fs::symlink_metadata(dest)
        .ok()
        .filter(fs::Metadata::is_file)
        .map_or_else(|| mode.clone(), |m| m.permissions());
    let tmp = staged(dest, bytes, &mode).with_context(|| format!("writing {}", dest.display()))?;
    tmp.persist(dest)
        .with_context(|| format!("replacing {}", dest.display()))?;
    sync_folder(dest);
    Ok(())
}

/// Writes `bytes` to `dest`, which must not exist (nor appear meanwhile).
fn write_new(dest: &Path, bytes: &[u8], mode: &Permissions) -> anyhow::Result<()> {
    let tmp = staged(dest, bytes, mode)?;
    tmp.persist_noclobber(dest)
        .with_context(|| format!("creating {}", dest.display()))?;
    sync_folder(dest);
    Ok(())
}

/// `bytes` in a synced temporary file beside `dest`, with `mode` (removed if anything
/// fails: a full disk leaves nothing behind).
fn staged(
    dest: &Path,
    bytes: &[u8],
    mode: &Permissions,
) -> anyhow::Result<tempfile::NamedTempFile> {
    let dir = folder_of(dest);
    let mut tmp = tempfile::Builder::new()
        .prefix(".hdd-")
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    // The file's own errors, without the temporary name: the caller says what it wrote.
    tmp.as_file_mut().write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.as_file().set_permissions(mode.clone())?;
    Ok(tmp)
}

/// Makes a rename in `path`'s folder durable (best effort: some file systems refuse).
fn sync_folder(path: &Path) {
    if let Ok(dir) = File::open(folder_of(path)) {
        let _ = dir.sync_all();
    }
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    #[test]
    fn fresh_names_skip_what_exists_even_dangling_links() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("a.c.orig");
        assert_eq!(fresh_name(&base), base);
        fs::write(&base, "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("nowhere"), with_suffix(&base, ".1")).unwrap();
        assert_eq!(fresh_name(&base), with_suffix(&base, ".2"));
    }

    #[test]
    fn replace_replaces_a_link_not_its_target_and_keeps_the_mode() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.c");
        let link = dir.path().join("link.c");
        fs::write(&target, "original").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        replace(&link, b"new", &Permissions::from_mode(0o600)).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"original");
        assert_eq!(fs::read(&link).unwrap(), b"new");
        assert!(!fs::symlink_metadata(&link).unwrap().is_symlink());

        fs::set_permissions(&target, Permissions::from_mode(0o751)).unwrap();
        replace(&target, b"again", &Permissions::from_mode(0o600)).unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o751);
    }

    #[test]
    fn write_new_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("a.c.orig");
        fs::write(&dest, "theirs").unwrap();
        assert!(write_new(&dest, b"ours", &Permissions::from_mode(0o644)).is_err());
        assert_eq!(fs::read(&dest).unwrap(), b"theirs");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "a temporary file was left behind");
    }
}
