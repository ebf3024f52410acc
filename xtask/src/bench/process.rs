//! The outside world the benchmark needs: the release build of hdd, PATH (with that build
//! first, and the programs on it), the target folder, `nproc`, and the command line quoted.

use std::env;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, Result, bail};

/// What the benchmark needs besides the tools (run-tool.sh uses all of them).
const PREREQUISITES: [&str; 4] = ["bash", "python3", "setsid", "timeout"];

/// Builds hdd in release mode and returns PATH with that build first, after checking that
/// the programs the harness needs are there.
pub(super) fn release_path(root: &Path) -> Result<OsString> {
    build_release(root)?;
    let release = target_dir(root).join("release");
    if !release.join("hdd").is_file() {
        bail!("{} missing after the build", release.join("hdd").display());
    }
    let path = prepend_path(&release)?;
    for program in PREREQUISITES {
        if !on_path(program, &path) {
            bail!("`{program}` is not on PATH; the harness needs it");
        }
    }
    if !Path::new("/usr/bin/time").is_file() {
        bail!("/usr/bin/time is missing (the harness measures with it): apt-get install time");
    }
    Ok(path)
}

pub(super) fn target_dir(root: &Path) -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

fn build_release(root: &Path) -> Result<()> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("building hdd: cargo build --release -p hdd-cli");
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "hdd-cli"])
        .current_dir(root)
        .stdout(Stdio::null())
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("`cargo build --release -p hdd-cli` failed ({status})");
    }
    Ok(())
}

/// PATH with `dir` first (so the harness runs the freshly built hdd).
fn prepend_path(dir: &Path) -> Result<OsString> {
    let old = env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(dir.to_path_buf()).chain(env::split_paths(&old));
    env::join_paths(dirs).context("a PATH entry contains `:`")
}

pub(super) fn on_path(program: &str, path: &OsStr) -> bool {
    env::split_paths(path).any(|dir| {
        fs::metadata(dir.join(program))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

pub(super) fn nproc() -> String {
    Command::new("nproc")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .or_else(|| {
            std::thread::available_parallelism()
                .ok()
                .map(|n| n.to_string())
        })
        .unwrap_or_else(|| "?".to_owned())
}
