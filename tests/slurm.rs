//! Tests through a real one-node Slurm cluster (tests/cluster/single-node-slurm.sh):
//! `--exec 'srun …'` gives the same result as local tests, and Ctrl-C leaves no job
//! step and no test process behind. Skipped, with the reason printed, only where the
//! cluster cannot start (not root, packages missing); `.ci/run` installs the packages
//! and sets `HDD_REQUIRE_SLURM=1`, under which a cluster that does not start fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{oracle_env, processes_with, root, script, stderr};

/// The template of the README's recipe.
const SRUN: &str = "srun -Q --exact -n1 --chdir={dir} {cmd}";

/// A running one-node cluster, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    fn start() -> Result<Cluster, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = Command::new(root().join("tests/cluster/single-node-slurm.sh"))
            .arg("start")
            .arg(dir.path())
            .output()
            .map_err(|e| format!("running single-node-slurm.sh: {e}"))?;
        if !out.status.success() {
            return Err(stderr(&out).trim().to_owned());
        }
        Ok(Cluster { dir })
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// A command of the cluster's clients.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        oracle_env(&mut command).env("SLURM_CONF", self.conf());
        command
    }

    /// The job steps `squeue -s` lists.
    fn steps(&self) -> Vec<String> {
        let out = self
            .command("squeue")
            .args(["-s", "-h", "-o", "%i %j"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(root().join("tests/cluster/single-node-slurm.sh"))
            .arg("stop")
            .arg(self.dir.path())
            .status();
    }
}

/// The cluster, or `None` after printing why it cannot start here.
fn cluster() -> Option<Cluster> {
    match Cluster::start() {
        Ok(cluster) => Some(cluster),
        Err(why) if std::env::var_os("HDD_REQUIRE_SLURM").is_none() => {
            eprintln!(
                "SKIPPED: the Slurm tests need a one-node cluster, which cannot start here: {why}"
            );
            None
        }
        Err(why) => panic!("HDD_REQUIRE_SLURM is set and the cluster did not start: {why}"),
    }
}

/// Processes killed (SIGKILL) when a failed assertion ends the test early: a run of
/// hdd left behind would go on starting job steps.
struct Reaper(Vec<u32>);

impl Drop for Reaper {
    fn drop(&mut self) {
        for pid in self.0.iter().rev() {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
    }
}

/// The pid of `name`, a child of `parent`, once it runs.
fn child_named(parent: u32, name: &str) -> u32 {
    let begun = Instant::now();
    loop {
        for entry in fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some((comm, rest)) = stat.rsplit_once(") ") else {
                continue;
            };
            let ppid: u32 = rest.split(' ').nth(1).unwrap_or("0").parse().unwrap_or(0);
            if ppid == parent && comm.ends_with(&format!("({name}")) {
                return pid;
            }
        }
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "{name} never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn copy_case(case: &str, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(root().join("corpus").join(case)).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn tests_run_as_slurm_job_steps_and_ctrl_c_leaves_none() {
    let Some(cluster) = cluster() else {
        return;
    };
    let hdd = env!("CARGO_BIN_EXE_hdd");

    // The same case, reduced with local tests and with every test a job step of one
    // allocation: the same bytes with --deterministic.
    let work = tempfile::tempdir().unwrap();
    let (local, remote) = (work.path().join("local"), work.path().join("slurm"));
    let case = "c/warn-stale-macro-huffcode";
    copy_case(case, &local);
    copy_case(case, &remote);
    let reduce = [
        "--deterministic",
        "--no-cache",
        "-j",
        "2",
        "huffcode.c",
        "./test.sh",
    ];
    let out = oracle_env(&mut Command::new(hdd))
        .arg("reduce")
        .args(reduce)
        .current_dir(&local)
        .output()
        .unwrap();
    assert!(out.status.success(), "local: {}", stderr(&out));
    let out = cluster
        .command("salloc")
        .args(["-Q", "-n2", hdd, "reduce", "--json", "--exec", SRUN])
        .args(reduce)
        .current_dir(&remote)
        .output()
        .unwrap();
    assert!(out.status.success(), "through srun: {}", stderr(&out));
    let (a, b) = (
        fs::read(local.join("huffcode.c")).unwrap(),
        fs::read(remote.join("huffcode.c")).unwrap(),
    );
    assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"event\":\"done\""), "{stdout}");

    // Ctrl-C while job steps run: hdd exits 130, and neither a step nor a test is left.
    let dir = work.path().join("stop");
    fs::create_dir_all(&dir).unwrap();
    let lines: String = (1..=40).map(|i| format!("line {i}\n")).collect();
    fs::write(dir.join("in.txt"), lines + "KEEP\n").unwrap();
    // The original (41 lines) passes at once; smaller candidates sleep: job steps stay.
    script(
        &dir.join("test.sh"),
        "grep -q KEEP in.txt || exit 1\n[ \"$(wc -l < in.txt)\" -gt 30 ] && exit 0\nexec sleep 61.25",
    );
    // hdd runs in a shell inside the allocation, which, once hdd is gone, waits up to
    // 10 s for the job's steps to end and notes how many are left: the steps must end
    // because hdd had srun cancel them, not because the allocation ended.
    let driver = format!(
        "{hdd} reduce -j 2 --no-cache --exec '{SRUN}' in.txt ./test.sh; echo $? > rc; \
         for i in $(seq 100); do \
           n=$(squeue -s -h -j \"$SLURM_JOB_ID\" -o %j | grep -c test.sh); \
           [ \"$n\" = 0 ] && break; sleep 0.1; \
         done; echo \"$n\" > steps-left"
    );
    let salloc = cluster
        .command("salloc")
        .args(["-Q", "-n2", "sh", "-c", &driver])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reaper = Reaper(vec![salloc.id()]);
    let shell = child_named(salloc.id(), "sh");
    let hdd_pid = child_named(shell, "hdd");
    reaper.0.push(hdd_pid);
    let begun = Instant::now();
    while cluster.steps().len() < 2 || processes_with("sleep 61.25").len() < 2 {
        assert!(
            begun.elapsed() < Duration::from_secs(30),
            "no job step ran: {:?}",
            cluster.steps()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let kill = Command::new("kill")
        .args(["-INT", &hdd_pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = salloc.wait_with_output().unwrap();
    reaper.0.clear();
    let read = |name: &str| fs::read_to_string(dir.join(name)).unwrap_or_default();
    assert_eq!(read("rc").trim(), "130", "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    assert_eq!(
        read("steps-left").trim(),
        "0",
        "steps left in the allocation"
    );
    let begun = Instant::now();
    while !cluster.steps().is_empty() || !processes_with("sleep 61.25").is_empty() {
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "left behind: steps {:?}, test processes {:?}",
            cluster.steps(),
            processes_with("sleep 61.25")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let best = fs::read_to_string(dir.join("in.txt")).unwrap();
    assert!(best.contains("KEEP"), "the best on disk is interesting");
}
