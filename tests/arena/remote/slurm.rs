//! `examples/slurm/worker.sbatch` on the real single-node Slurm that `tests/slurm` starts (its
//! `Cluster`, skipped loudly without Slurm): `serve --workers 0` on loopback, a 2-task array of
//! workers submitted with sbatch as the example's README says (the token in the environment),
//! matches played by them counted on the server, then `scancel`: the workers give their
//! matches back.

use std::process::Command;
use std::time::Duration;

use super::{arena, python_team, register, wait_for};
use crate::arena::web::Server;
use crate::slurm::{Cluster, states};

const UIDS: [(u32, u32); 2] = [(63300, 63319), (63320, 63329)];

#[test]
fn workers_run_as_a_slurm_job_array() {
    let Some(_cluster) = Cluster::start() else {
        return;
    };
    let arena = arena(UIDS, "20s", "");
    let server = Server::start(&arena, 0);
    python_team(&arena, &server, "py", None);
    let token = register(&arena, "slurm");
    let work = crate::check::shared_tempdir("rollarena-slurm-workers-");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/slurm/worker.sbatch");
    let out = Command::new("sbatch")
        .args([
            "--parsable",
            "--array=1-2",
            "--cpus-per-task=1",
            "--mem-per-cpu=1G",
        ])
        .arg(&script)
        .arg(&server.url)
        .args(["--bot-uids", "63330-63349"])
        .current_dir(work.path())
        .env("ROLLARENA", crate::check::rollarena())
        .env("ROLLARENA_WORKER_TOKEN", &token)
        .env("ROLLARENA_CACHE", work.path().join("cache"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sbatch: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let job = String::from_utf8_lossy(&out.stdout)
        .trim()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let outputs = || {
        let mut text = String::new();
        for e in std::fs::read_dir(work.path()).unwrap().flatten() {
            if e.file_name().to_string_lossy().ends_with(".out") {
                text.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
        text
    };
    let counted = || {
        arena.count(
            "SELECT COUNT(*) FROM worker_matches x JOIN workers w ON w.id = x.worker_id
             WHERE w.name = 'slurm'",
        )
    };
    let started = std::time::Instant::now();
    while counted() < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the array's workers did not play: {:?}\n{}",
            states(&job),
            outputs()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let instance: String = arena
        .db()
        .query_row(
            "SELECT instance FROM workers WHERE name = 'slurm'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(instance.starts_with(&format!("slurm-{job}-")), "{instance}");
    assert!(
        Command::new("scancel")
            .arg(&job)
            .status()
            .unwrap()
            .success()
    );
    wait_for("the array to end", Duration::from_secs(120), || {
        states(&job).iter().all(|(_, s, _)| {
            !matches!(
                s.as_str(),
                "PENDING" | "RUNNING" | "COMPLETING" | "CONFIGURING"
            )
        })
    });
    wait_for("their matches given back", Duration::from_secs(120), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'") == 0
    });
    assert!(
        outputs().contains("stopping: the matches in play are given back"),
        "{}",
        outputs()
    );
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'failed'"),
        0
    );
    server.stop();
}
