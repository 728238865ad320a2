//! A sharded tournament on a real Slurm: Debian's `slurm-wlm` and `munge`, a single-node
//! cluster on localhost started by `tests/slurm/start-cluster.sh` (as root, without systemd)
//! and always stopped by `stop-cluster.sh` afterwards ([`Cluster`]'s `Drop`).
//!
//! The test submits `examples/slurm/shard.sbatch` as a 4-task array (a field of built-in bots
//! and one that crashes at once: its shards still succeed, so the merge runs) and
//! `examples/slurm/merge.sbatch` with `--dependency=afterok`, exactly as the example's README
//! says (the files are used as they are; settings go through arguments, the environment and
//! sbatch options), waits for both (bounded), and checks that the merged results and standings
//! are those of the same tournament run on one machine (timing fields aside, as
//! tests/tournament compares). Then it loses part of a shard, reruns that shard alone
//! (`--array=2`, `SHARDS=4`) and merges again, as the README's "When tasks fail" says.
//!
//! Without Slurm (or not as root) the test prints a loud SKIP, unless `CI` is set: then it
//! fails (`.ci/run` installs the packages). One test process at a time drives the cluster: a
//! file lock in /var/tmp serialises concurrent `cargo test` runs on the machine.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::tournament::{comparable_results, comparable_standings, rollarena};

/// 4 built-in bots and one that crashes at once (`/bin/false`: its shards still succeed, and
/// the merge runs), 2 per table: C(5,2) = 10 tables, twice, 2 rounds each: 40 rounds on 6x6.
const FILE: &str = r#"name = "slurm"
players = 2
rounds = 2
repeat = 2
seed = 11
opening_plies = 2
time = "10s"
[options]
size = 6
[[bot]]
name = "random"
command = "rollarena bot random --seed 1"
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "noisy"
command = "rollarena bot greedy --noise 0.3 --seed 3"
[[bot]]
name = "positional"
command = "rollarena bot positional"
[[bot]]
name = "crasher"
command = "/bin/false"
"#;
const ROUNDS: usize = 40;
const SHARDS: usize = 4;
/// How long the jobs of one submission may take, queueing included.
const LIMIT: Duration = Duration::from_secs(300);
/// How long to wait for another test process's cluster to be stopped.
const LOCK_WAIT: Duration = Duration::from_secs(600);
/// Where the cluster keeps its state and logs (the scripts' default).
const CLUSTER_DIR: &str = "/var/tmp/rollarena-slurm";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

fn ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Says why the test cannot run: a loud SKIP, or a failure under CI.
fn skip(why: &str) {
    if ci() {
        panic!(
            "CI is set but the Slurm test cannot run: {why}; .ci/run installs slurm-wlm and munge"
        );
    }
    // Straight to the process's stderr: libtest hides what a passing test prints with
    // eprintln!, and this must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\nSKIP: the Slurm test did not run: {why}.\n\
         .ci/run installs slurm-wlm and munge (as root); in CI this test fails instead.\n{bar}\n",
        bar = "*".repeat(78)
    );
}

/// The single-node cluster, started for this test; stopped when dropped, whatever happened.
pub(crate) struct Cluster {
    /// Held until the cluster is stopped (fields drop after `Drop::drop`).
    _lock: File,
}

impl Cluster {
    /// Starts the cluster, or says why it cannot (None: skipped).
    pub(crate) fn start() -> Option<Cluster> {
        let missing: Vec<&str> = [
            "sbatch",
            "squeue",
            "scontrol",
            "slurmctld",
            "slurmd",
            "munged",
        ]
        .into_iter()
        .filter(|p| !on_path(p))
        .collect();
        if !missing.is_empty() {
            skip(&format!("{} not found", missing.join(", ")));
            return None;
        }
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            skip("not root (the test starts munged, slurmctld and slurmd)");
            return None;
        }
        let lock = lock();
        let out = Command::new(repo().join("tests/slurm/start-cluster.sh"))
            .output()
            .expect("start-cluster.sh runs");
        let cluster = Cluster { _lock: lock };
        match out.status.code() {
            Some(0) => {
                eprintln!("cluster up:\n{}", String::from_utf8_lossy(&out.stdout));
                Some(cluster)
            }
            Some(3) => {
                skip(String::from_utf8_lossy(&out.stderr).trim());
                None
            }
            _ => panic!(
                "start-cluster.sh failed ({:?}):\n{}{}\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
                daemon_logs()
            ),
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        match Command::new(repo().join("tests/slurm/stop-cluster.sh")).status() {
            Ok(s) if s.success() => {}
            other => eprintln!("stop-cluster.sh: {other:?}"),
        }
    }
}

/// An exclusive lock shared by every test process on the machine, taken within [`LOCK_WAIT`].
fn lock() -> File {
    use std::os::fd::AsRawFd;
    let path = Path::new("/var/tmp/rollarena-slurm.lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .expect("open the Slurm test's lock file");
    let start = Instant::now();
    loop {
        // SAFETY: flock on a valid descriptor; released when the file is closed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return file;
        }
        assert!(
            start.elapsed() < LOCK_WAIT,
            "another test process held {} for {LOCK_WAIT:?}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The last lines of the daemons' logs.
fn daemon_logs() -> String {
    let mut text = String::new();
    for log in ["log/slurmctld.log", "log/slurmd.log", "munge/munged.log"] {
        let path = Path::new(CLUSTER_DIR).join(log);
        let body = std::fs::read_to_string(&path).unwrap_or_else(|e| format!("({e})\n"));
        let lines: Vec<&str> = body.lines().collect();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        text.push_str(&format!("==> {} <==\n{tail}\n", path.display()));
    }
    text
}

/// Everything that says what happened: the jobs' states, their output files, the daemons' logs.
fn diagnostics(work: &Path, jobs: &[&str]) -> String {
    let mut text = String::new();
    for job in jobs {
        let out = Command::new("scontrol")
            .args(["show", "job", "-o", job])
            .output();
        if let Ok(out) = out {
            text.push_str(&String::from_utf8_lossy(&out.stdout));
            text.push_str(&String::from_utf8_lossy(&out.stderr));
        }
    }
    let mut outputs: Vec<PathBuf> = std::fs::read_dir(work)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    outputs.retain(|p| p.extension().is_some_and(|e| e == "out"));
    outputs.sort();
    for p in outputs {
        let body = std::fs::read_to_string(&p).unwrap_or_default();
        text.push_str(&format!("==> {} <==\n{body}\n", p.display()));
    }
    text + &daemon_logs()
}

/// `sbatch --parsable ARGS` in `work`, with the rollarena binary under test: the job id.
fn sbatch(work: &Path, args: &[&str]) -> String {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .current_dir(work)
        .env("ROLLARENA", crate::arbiter::rollarena())
        .output()
        .expect("sbatch runs");
    assert!(
        out.status.success(),
        "sbatch {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let id = text
        .trim()
        .split(';')
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()),
        "a job id: {text:?}"
    );
    id
}

/// Each job (or array task, or range of pending tasks) that `scontrol show job` lists for an
/// id: its name (`1`, `1_3`, `1_[2-4]`), its `JobState`, and whether it waits on a dependency
/// that can no longer be satisfied.
pub(crate) fn states(job: &str) -> Vec<(String, String, bool)> {
    let out: Output = Command::new("scontrol")
        .args(["show", "job", "-o", job])
        .output()
        .expect("scontrol runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |line: &str, key: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .map(str::to_string)
    };
    text.lines()
        .filter_map(|l| {
            let name = match field(l, "ArrayTaskId=") {
                Some(task) => format!("{job}_{task}"),
                None => job.to_string(),
            };
            let never = field(l, "Reason=").as_deref() == Some("DependencyNeverSatisfied");
            Some((name, field(l, "JobState=")?, never))
        })
        .collect()
}

/// Waits until every job has ended; panics with the diagnostics unless all completed.
fn wait(work: &Path, jobs: &[&str]) {
    let start = Instant::now();
    loop {
        let mut done = true;
        let mut failed = Vec::new();
        for job in jobs {
            let states = states(job);
            if states.is_empty() {
                failed.push(format!("{job}: unknown to scontrol"));
            }
            for (name, state, never) in states {
                match state.as_str() {
                    _ if never => failed.push(format!("{name}: its dependency failed")),
                    "COMPLETED" => {}
                    "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" | "REQUEUED"
                    | "RESIZING" | "SUSPENDED" => done = false,
                    other => failed.push(format!("{name}: {other}")),
                }
            }
        }
        assert!(
            failed.is_empty(),
            "jobs failed: {failed:?}\n{}",
            diagnostics(work, jobs)
        );
        if done {
            return;
        }
        assert!(
            start.elapsed() < LIMIT,
            "jobs not done after {LIMIT:?}\n{}",
            diagnostics(work, jobs)
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Submits the shards (`array` of `shard.sbatch`) and the merge after them, and waits.
fn submit(work: &Path, array: &[&str], root: &Path) {
    let shard = repo().join("examples/slurm/shard.sbatch");
    let merge = repo().join("examples/slurm/merge.sbatch");
    let mut args: Vec<&str> = array.to_vec();
    // One core per task, so that two tasks run at once on a 2-core machine (and a 1-core
    // machine can run them at all), and little memory, which any machine has: the scripts'
    // defaults (2 cores, 2 GB a core; 4 GB for the merge) are for real tournaments.
    args.extend([
        "--cpus-per-task=1",
        "--mem-per-cpu=500M",
        s(&shard),
        "t.toml",
        s(root),
        // The crashing bot is there to be played: past the pre-flight, which would stop it.
        "--no-preflight",
    ]);
    let shards = sbatch(work, &args);
    let after = format!("--dependency=afterok:{shards}");
    let merged = sbatch(work, &[&after, "--mem=500M", s(&merge), "t.toml", s(root)]);
    wait(work, &[&shards, &merged]);
}

#[test]
fn shards_as_a_slurm_job_array_merge_into_one_run() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let started = Instant::now();
    // Bots run as nobody: everything they might need must be reachable by everyone.
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let work = dir.path();
    std::fs::write(work.join("t.toml"), FILE).unwrap();

    // The same tournament on one machine.
    let single = work.join("single");
    let run = rollarena(&[
        "tournament",
        s(&work.join("t.toml")),
        "-o",
        s(&single),
        "--jobs",
        "2",
        "--no-preflight",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let reference = (comparable_results(&single), comparable_standings(&single));
    assert_eq!(reference.0.len(), ROUNDS);

    let root = work.join("league");
    submit(work, &["--array=1-4"], &root);
    let merged = root.join("merged");
    let summary = diagnostics(work, &[]);
    assert!(
        comparable_results(&merged) == reference.0,
        "merged rounds differ from a single run\n{summary}"
    );
    assert_eq!(comparable_standings(&merged), reference.1, "{summary}");
    for i in 1..=SHARDS {
        let shard = root.join(format!("shard-{i}-of-{SHARDS}"));
        assert!(
            shard.join("standings.json").is_file(),
            "{} finished",
            shard.display()
        );
    }
    let stdout = std::fs::read_dir(work)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("rollarena-merge-")
        })
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect::<String>();
    assert!(
        stdout.contains(&format!("{SHARDS} shards, {ROUNDS} rounds merged")),
        "the merge's output:\n{stdout}"
    );
    let standings = &reference.1["standings"];
    let crasher = standings
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["bot"] == "crasher")
        .expect("the crasher's row");
    assert_eq!(
        crasher["forfeits"]["crash"], 16,
        "every round it sat in: {crasher}"
    );
    eprintln!("array and merge: {:.1} s", started.elapsed().as_secs_f64());

    // A task that was lost after its first table and a half: rerun it alone, then merge again
    // (the merged directory is replaced).
    let lost = root.join("shard-2-of-4/results.jsonl");
    let text = std::fs::read_to_string(&lost).unwrap();
    let kept: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&lost, kept).unwrap();
    std::fs::write(merged.join("standings.json"), "{}").unwrap();
    let rerun = Instant::now();
    submit(work, &["--array=2", "--export=ALL,SHARDS=4"], &root);
    let outputs = diagnostics(work, &[]);
    assert!(
        outputs.contains("3 kept from before"),
        "the rerun resumed, keeping the finished table and the next one's first round:\n{outputs}"
    );
    assert!(
        comparable_results(&merged) == reference.0,
        "merged rounds differ after the rerun\n{outputs}"
    );
    assert_eq!(comparable_standings(&merged), reference.1, "{outputs}");
    eprintln!(
        "rerun of one shard and merge: {:.1} s",
        rerun.elapsed().as_secs_f64()
    );
    drop(cluster);
}
