//! Artifacts the worker must not trust: bytes that do not match the hash they were fetched
//! by are refused, nothing of them is cached, and the match fails with the reason once its
//! attempts are spent (no worker could play it). A version built on another architecture is
//! never leased to this machine's workers.

use std::time::Duration;

use super::{Worker, arena, python_team, register, under, wait_for};
use crate::arena::web::{Server, Who, post};

const UIDS: [(u32, u32); 2] = [(63200, 63219), (63220, 63229)];
const W: (u32, u32) = (63230, 63249);

#[test]
fn an_artifact_that_does_not_match_its_hash_is_refused() {
    let arena = arena(UIDS, "30s", "");
    let server = Server::start(&arena, 0);
    python_team(&arena, &server, "py", None);
    let token = register(&arena, "w");
    // A first lease packs the artifact; the lease is given back.
    let hello = serde_json::to_vec(&serde_json::json!({
        "name": "t", "version": env!("CARGO_PKG_VERSION"), "protocol": 1,
        "arch": std::env::consts::ARCH, "jobs": 1, "free": 1
    }))
    .unwrap();
    let l = post(
        &format!("{}/api/worker/lease", server.url),
        Who::Token(&token),
        "application/json",
        &hello,
    );
    assert_eq!(l.status, 200, "{}", l.body);
    let l = l.json();
    let r = post(
        &format!(
            "{}/api/worker/matches/{}/release?lease={}",
            server.url,
            l["match"],
            l["lease"].as_str().unwrap()
        ),
        Who::Token(&token),
        "application/json",
        b"{}",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let version = arena.ids("SELECT id FROM versions WHERE artifact_sha256 IS NOT NULL")[0];
    let sha: String = arena
        .db()
        .query_row(
            "SELECT artifact_sha256 FROM versions WHERE id = ?1",
            [version],
            |r| r.get(0),
        )
        .unwrap();
    // The server's copy altered: one byte of its tar.gz.
    let file = under(&arena, &format!("versions/{version}/artifact.tar.gz"));
    let mut bytes = std::fs::read(&file).unwrap();
    let i = bytes.len() / 2;
    bytes[i] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();

    let worker = Worker::start(&server.url, &token, W, "w-1");
    wait_for(
        "a match failed for its artifact",
        Duration::from_secs(300),
        || {
            arena.count(
                "SELECT COUNT(*) FROM matches WHERE state = 'failed' AND error LIKE '%SHA-256%'",
            ) >= 1
        },
    );
    let err = worker.stderr();
    assert!(
        err.contains(&format!("the artifact fetched as {sha}")),
        "{err}"
    );
    assert!(err.contains("refused and not cached"), "{err}");
    let cached = worker.cache.path().join("artifacts");
    assert!(!cached.join(&sha).exists(), "not cached");
    // Every staging directory is removed once its artifact is refused. The worker goes on
    // leasing this version's matches, each fetch unpacking into a staging directory of its
    // own name, so one may be there at any moment: those seen now must go, and soon.
    let staging = || -> Vec<std::ffi::OsString> {
        std::fs::read_dir(&cached)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().starts_with(".staging"))
            .collect()
    };
    let seen = staging();
    wait_for(
        "the refused artifacts' staging directories to be removed",
        Duration::from_secs(120),
        || staging().iter().all(|n| !seen.contains(n)),
    );
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'"),
        0
    );

    // Built on another architecture: never leased to this one.
    arena
        .db()
        .execute(
            "UPDATE versions SET artifact_arch = 'riscv64' WHERE id = ?1",
            [version],
        )
        .unwrap();
    wait_for("no match in play", Duration::from_secs(60), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'") == 0
    });
    std::thread::sleep(Duration::from_secs(5));
    assert!(arena.count("SELECT COUNT(*) FROM matches WHERE state = 'queued'") > 0);
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'"),
        0,
        "nothing this worker can run is leased to it"
    );
    assert!(worker.stop().success());
    server.stop();
}
