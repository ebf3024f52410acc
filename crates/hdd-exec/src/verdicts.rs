//! The persistent verdict cache: what a test said of each text it was run on, kept on
//! disk across runs, so that a run interrupted and started again, or a second run on an
//! already reduced file, does not test again what an earlier run tested.
//!
//! One file per test, named by the test's key: a stable XXH3-128 hash of everything
//! that decides a verdict besides the candidate (the test program's path and content,
//! its arguments, the candidate's file name, the timeout, the interesting exit code, the
//! stderr pattern, the memory limit). A verdict is a record of 32 bytes appended to its
//! test's file:
//!
//! | bytes | what |
//! |---|---|
//! | 0..16 | the text's XXH3-128 hash, little-endian |
//! | 16..24 | the text's length, little-endian |
//! | 24 | 1 = interesting, 0 = not |
//! | 25..28 | zero |
//! | 28..32 | the low 32 bits of the XXH3-64 of bytes 0..28, little-endian |
//!
//! Each record is one `write` to a file opened for appending, so two hdd processes
//! running the same test at once append whole records, never a mix of both; a record
//! cut short (a full disk, a crash) or garbled fails its check and is skipped, and the
//! reader finds the next whole record after it. Tests that timed out are not recorded
//! (their verdict depends on the machine's load). The folder is capped
//! ([`DEFAULT_MAX_BYTES`]): when a store is opened over the cap, the files of the tests
//! used longest ago go first, and a file too big alone keeps its newest records.
//!
//! What the key cannot see: files the test reads besides the candidate, and the tools it
//! runs (a compiler upgraded since). A run that must not trust earlier verdicts uses
//! `--no-cache`.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hdd_core::TextKey;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use crate::command::TestCommand;
use crate::error::Error;

/// The size of one record.
const RECORD: usize = 32;

/// The extension of a store's files; a new record format gets a new one.
const EXTENSION: &str = "v1";

/// The default cap of the cache folder's size: 64 MiB, two million verdicts.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;

/// Verdicts of one test, on disk: those of earlier runs, read when it was opened, and
/// this run's, appended as tests end.
#[derive(Debug)]
pub struct VerdictStore {
    path: PathBuf,
    file: Mutex<File>,
    earlier: Vec<(TextKey, bool)>,
}

impl VerdictStore {
    /// The cache folder: `$HDD_CACHE_DIR` if set, else `hdd/verdicts` in the user's
    /// cache folder (`$XDG_CACHE_HOME`, `~/.cache` on Linux); `None` when there is none.
    #[must_use]
    pub fn default_root() -> Option<PathBuf> {
        match std::env::var_os("HDD_CACHE_DIR") {
            Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
            _ => dirs::cache_dir().map(|d| d.join("hdd").join("verdicts")),
        }
    }

    /// Opens the store of `test`'s verdicts in `root` (made if missing), reads the
    /// verdicts earlier runs left there, and keeps the folder under `max_bytes`. Runs
    /// that confirm each success `confirmations` more times
    /// ([`LocalExecutor::set_confirmations`](crate::LocalExecutor::set_confirmations))
    /// keep their verdicts apart from runs that confirm fewer.
    ///
    /// # Errors
    /// When the folder or the file cannot be made or read, or the test program cannot
    /// be read.
    pub fn open(
        root: &Path,
        test: &TestCommand,
        confirmations: u32,
        max_bytes: u64,
    ) -> Result<VerdictStore, Error> {
        let io = |what: &'static str, path: &Path| {
            let path = path.to_owned();
            move |source| Error::Io { what, path, source }
        };
        fs::create_dir_all(root).map_err(io("creating the cache folder", root))?;
        let program = fs::read(&test.program).map_err(io("reading", &test.program))?;
        let path = root.join(format!(
            "{:032x}.{EXTENSION}",
            test_key(test, confirmations, &program)
        ));
        enforce_cap(root, &path, max_bytes);
        let mut bytes = Vec::new();
        match File::open(&path) {
            Ok(mut file) => {
                file.read_to_end(&mut bytes)
                    .map_err(io("reading the cache file", &path))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io("opening the cache file", &path)(e)),
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io("opening the cache file", &path))?;
        Ok(VerdictStore {
            path,
            file: Mutex::new(file),
            earlier: decode(&bytes),
        })
    }

    /// The file this store appends to.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The verdicts earlier runs left, each text once (its newest verdict); a second
    /// call gives none.
    pub fn take_earlier(&mut self) -> Vec<(TextKey, bool)> {
        std::mem::take(&mut self.earlier)
    }

    /// Appends a verdict. A write that fails (a full disk) loses the verdict, nothing
    /// else: the cache is an optimization.
    pub fn record(&self, key: TextKey, interesting: bool) {
        let record = encode(key, interesting);
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = file.write_all(&record);
    }
}

/// The key of everything but the candidate that decides a test's verdict.
fn test_key(test: &TestCommand, confirmations: u32, program: &[u8]) -> u128 {
    let mut h = Xxh3::new();
    let mut field = |bytes: &[u8]| {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(b"hdd verdicts v1");
    field(test.program.as_os_str().as_encoded_bytes());
    field(program);
    field(&(test.args.len() as u64).to_le_bytes());
    for arg in &test.args {
        field(arg.as_encoded_bytes());
    }
    field(test.file_name.as_encoded_bytes());
    field(&test.timeout.as_nanos().to_le_bytes());
    field(&test.interesting_exit_code.to_le_bytes());
    match &test.same_crash {
        Some(re) => field(format!("some {}", re.as_str()).as_bytes()),
        None => field(b"none"),
    }
    field(
        &test
            .mem_limit
            .map_or(0, |m| m.saturating_add(1))
            .to_le_bytes(),
    );
    field(&confirmations.to_le_bytes());
    // Only when set, so that the keys of tests run in their private folders stay those
    // earlier versions wrote.
    if let Some(dir) = &test.current_dir {
        field(b"current dir");
        field(dir.as_os_str().as_encoded_bytes());
    }
    if test.text_in_args {
        field(b"text in args");
    }
    if let Some(template) = &test.exec {
        field(b"exec");
        field(template.as_bytes());
    }
    h.digest128()
}

fn encode(key: TextKey, interesting: bool) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..16].copy_from_slice(&key.hash.to_le_bytes());
    r[16..24].copy_from_slice(&key.len.to_le_bytes());
    r[24] = u8::from(interesting);
    let check = xxh3_64(&r[..28]) as u32;
    r[28..].copy_from_slice(&check.to_le_bytes());
    r
}

/// The record at the start of `bytes`, if it is whole and passes its check.
fn decode_one(bytes: &[u8]) -> Option<(TextKey, bool)> {
    let r: &[u8; RECORD] = bytes.get(..RECORD)?.try_into().ok()?;
    let check = u32::from_le_bytes(r[28..].try_into().ok()?);
    if check != xxh3_64(&r[..28]) as u32 || r[24] > 1 || r[25..28] != [0, 0, 0] {
        return None;
    }
    let hash = u128::from_le_bytes(r[..16].try_into().ok()?);
    let len = u64::from_le_bytes(r[16..24].try_into().ok()?);
    Some((TextKey { hash, len }, r[24] == 1))
}

/// Every valid record of a file, each key once with its last verdict, in the order
/// their keys first appear. After a bad record the reader moves on byte by byte until a
/// record checks again.
fn decode(bytes: &[u8]) -> Vec<(TextKey, bool)> {
    let mut order = Vec::new();
    let mut verdicts: HashMap<TextKey, bool> = HashMap::new();
    let mut at = 0;
    while at + RECORD <= bytes.len() {
        match decode_one(&bytes[at..]) {
            Some((key, verdict)) => {
                if verdicts.insert(key, verdict).is_none() {
                    order.push(key);
                }
                at += RECORD;
            }
            None => at += 1,
        }
    }
    order.into_iter().map(|k| (k, verdicts[&k])).collect()
}

/// Keeps the folder's store files under `max`: over it, the files used longest ago
/// (oldest modification time; `keep` last) are removed until the rest takes three
/// quarters of the cap; `keep` alone over half the cap keeps its newest records, up to a
/// quarter of it. Every step is best effort: a file another process removed first, or
/// one it appends to meanwhile, costs cached verdicts, never a wrong one.
fn enforce_cap(root: &Path, keep: &Path, max: u64) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    if total <= max {
        return;
    }
    files.sort_by_key(|f| (f.2 == keep, f.0));
    for (_, len, path) in &files {
        if total <= max / 4 * 3 {
            break;
        }
        if path == keep {
            if *len > max / 2 {
                shrink(keep, max / 4);
            }
        } else if fs::remove_file(path).is_ok() {
            total -= len;
        }
    }
}

/// Rewrites `path` with only its last records, at most `bytes` of them (a new file
/// renamed into place).
fn shrink(path: &Path, bytes: u64) {
    let Ok(data) = fs::read(path) else {
        return;
    };
    let keep = usize::try_from(bytes).unwrap_or(usize::MAX) / RECORD * RECORD;
    let tail = &data[data.len().saturating_sub(keep)..];
    let records: Vec<u8> = decode(tail)
        .into_iter()
        .flat_map(|(key, verdict)| encode(key, verdict))
        .collect();
    let tmp = path.with_extension("shrinking");
    if fs::write(&tmp, &records).is_ok() && fs::rename(&tmp, path).is_err() {
        let _ = fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;
    use std::time::Duration;

    use super::*;

    fn test_command(dir: &Path, body: &str) -> TestCommand {
        let path = dir.join("test.sh");
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        TestCommand::new(&path, "in.c".into(), Duration::from_secs(5)).unwrap()
    }

    #[test]
    fn verdicts_come_back_in_the_next_run_of_the_same_test_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cache");
        let test = test_command(dir.path(), "grep -q a in.c");
        let mut store = VerdictStore::open(&root, &test, 0, DEFAULT_MAX_BYTES).unwrap();
        assert!(store.take_earlier().is_empty());
        store.record(TextKey::of(b"a"), true);
        store.record(TextKey::of(b"b"), false);
        store.record(TextKey::of(b"a"), false);
        drop(store);

        let mut again = VerdictStore::open(&root, &test, 0, DEFAULT_MAX_BYTES).unwrap();
        assert_eq!(
            again.take_earlier(),
            [(TextKey::of(b"a"), false), (TextKey::of(b"b"), false)],
            "the newest verdict of a text wins"
        );
        assert!(again.take_earlier().is_empty(), "handed out once");

        let mut other_timeout = test.clone();
        other_timeout.timeout = Duration::from_secs(6);
        let mut other = VerdictStore::open(&root, &other_timeout, 0, DEFAULT_MAX_BYTES).unwrap();
        assert!(
            other.take_earlier().is_empty(),
            "another timeout, another test"
        );
        let edited = test_command(dir.path(), "grep -q b in.c");
        let mut other = VerdictStore::open(&root, &edited, 0, DEFAULT_MAX_BYTES).unwrap();
        assert!(
            other.take_earlier().is_empty(),
            "an edited script, another test"
        );
    }

    #[test]
    fn the_record_format_is_stable() {
        // A file written by an earlier version must still be read: the bytes of one
        // record are fixed.
        let r = encode(TextKey { hash: 1, len: 2 }, true);
        assert_eq!(r[0], 1);
        assert_eq!(r[16], 2);
        assert_eq!(r[24], 1);
        assert_eq!(
            u32::from_le_bytes(r[28..].try_into().unwrap()),
            xxh3_64(&r[..28]) as u32
        );
        assert_eq!(decode_one(&r), Some((TextKey { hash: 1, len: 2 }, true)));
    }

    #[test]
    fn garbled_and_cut_records_are_skipped() {
        let a = encode(TextKey::of(b"a"), true);
        let b = encode(TextKey::of(b"b"), false);
        let c = encode(TextKey::of(b"c"), true);
        let mut bytes = a.to_vec();
        bytes.extend_from_slice(&b[..13]); // cut short (a crash mid-write)
        bytes.extend_from_slice(&c);
        let mut garbled = b;
        garbled[3] ^= 0xff;
        bytes.extend_from_slice(&garbled);
        bytes.extend_from_slice(&b[..31]);
        assert_eq!(
            decode(&bytes),
            [(TextKey::of(b"a"), true), (TextKey::of(b"c"), true)]
        );
    }

    #[test]
    fn two_writers_at_once_leave_only_whole_records() {
        let dir = tempfile::tempdir().unwrap();
        let test = test_command(dir.path(), "true");
        let stores: Vec<VerdictStore> = (0..2)
            .map(|_| VerdictStore::open(dir.path(), &test, 0, DEFAULT_MAX_BYTES).unwrap())
            .collect();
        std::thread::scope(|scope| {
            for (w, store) in stores.iter().enumerate() {
                scope.spawn(move || {
                    for i in 0..2000u32 {
                        let text = format!("{w}-{i}");
                        store.record(TextKey::of(text.as_bytes()), i % 3 == 0);
                    }
                });
            }
        });
        let bytes = fs::read(stores[0].path()).unwrap();
        assert_eq!(bytes.len(), 2 * 2000 * RECORD);
        let all = decode(&bytes);
        assert_eq!(all.len(), 4000);
        for w in 0..2 {
            for i in 0..2000u32 {
                let key = TextKey::of(format!("{w}-{i}").as_bytes());
                assert!(all.contains(&(key, i % 3 == 0)));
            }
        }
    }

    #[test]
    fn the_folder_stays_under_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cache");
        fs::create_dir(&root).unwrap();
        // Ten old stores of 4 KiB each, then a new one: the cap is 16 KiB.
        for i in 0..10u8 {
            fs::write(root.join(format!("{i:032x}.{EXTENSION}")), [i; 4096]).unwrap();
            let file = File::options()
                .write(true)
                .open(root.join(format!("{i:032x}.{EXTENSION}")))
                .unwrap();
            let age = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000 + u64::from(i));
            file.set_modified(age).unwrap();
        }
        let test = test_command(dir.path(), "true");
        let store = VerdictStore::open(&root, &test, 0, 16 << 10).unwrap();
        let left: Vec<String> = fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let total: u64 = fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum();
        assert!(total <= 12 << 10, "{total} bytes left: {left:?}");
        assert!(
            left.contains(&format!("{:032x}.{EXTENSION}", 9)),
            "newest kept"
        );
        assert!(
            !left.contains(&format!("{:032x}.{EXTENSION}", 0)),
            "oldest gone"
        );
        assert!(store.path().exists());
    }

    #[test]
    fn a_store_too_big_alone_keeps_its_newest_records() {
        let dir = tempfile::tempdir().unwrap();
        let test = test_command(dir.path(), "true");
        let store = VerdictStore::open(dir.path(), &test, 0, DEFAULT_MAX_BYTES).unwrap();
        for i in 0..1000u32 {
            store.record(TextKey::of(&i.to_le_bytes()), true);
        }
        drop(store);
        // 32,000 bytes against a cap of 8 KiB: a quarter of it, 64 records, stays.
        let mut store = VerdictStore::open(dir.path(), &test, 0, 8 << 10).unwrap();
        let earlier = store.take_earlier();
        assert_eq!(earlier.len(), 64);
        assert_eq!(
            earlier.last().unwrap().0,
            TextKey::of(&999u32.to_le_bytes())
        );
    }
}
