//! The worker API as a worker that misbehaves sees it: wrong tokens, another version, an
//! architecture with no build, a record sent after its lease ran out, a record edited after
//! play. The genuine record used is one a real worker played, given to a copy of its match
//! (same seed, rounds and seats: the same match under another id), so it verifies unedited.

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Worker, arena, python_team, ratings_chain, register, under, wait_for};
use crate::arena::web::{Server, Who, get, post};
use crate::check::rollarena;

const UIDS: [(u32, u32); 2] = [(63000, 63019), (63020, 63029)];
const WORKER_UIDS: (u32, u32) = (63030, 63049);

fn hello(arch: &str, version: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "name": "test", "version": version, "protocol": 1, "arch": arch, "jobs": 1, "free": 1
    }))
    .unwrap()
}

fn this_hello() -> Vec<u8> {
    hello(std::env::consts::ARCH, env!("CARGO_PKG_VERSION"))
}

fn lease(server: &Server, token: &str) -> Value {
    let a = post(
        &format!("{}/api/worker/lease", server.url),
        Who::Token(token),
        "application/json",
        &this_hello(),
    );
    assert_eq!(a.status, 200, "lease: {}", a.body);
    a.json()
}

fn upload(server: &Server, token: &str, id: i64, lease: &str, record: &str) -> (u16, String) {
    let a = post(
        &format!(
            "{}/api/worker/matches/{id}/record?lease={lease}",
            server.url
        ),
        Who::Token(token),
        "application/x-ndjson",
        record.as_bytes(),
    );
    (a.status, a.body)
}

#[test]
fn the_worker_api_refuses_what_must_not_count() {
    let arena = arena(UIDS, "5s", "");
    let server = Server::start(&arena, 0);
    let team = python_team(&arena, &server, "py", None);
    let forger = register(&arena, "forger");
    let url = |p: &str| format!("{}{p}", server.url);

    // Tokens: only a worker's opens the API.
    let team_answer = post(
        &url("/api/worker/hello"),
        Who::Token(&team),
        "application/json",
        &this_hello(),
    );
    assert_eq!(team_answer.status, 403, "{}", team_answer.body);
    assert!(
        team_answer.body.contains("worker's token"),
        "{}",
        team_answer.body
    );
    let org = post(
        &url("/api/worker/lease"),
        Who::Token(&arena.organiser),
        "application/json",
        &this_hello(),
    );
    assert_eq!(org.status, 403, "{}", org.body);
    let wrong = post(
        &url("/api/worker/lease"),
        Who::Token(&format!("worker_{}", "0".repeat(64))),
        "application/json",
        &this_hello(),
    );
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(wrong.body.contains("not valid"), "{}", wrong.body);
    let none = post(
        &url("/api/worker/lease"),
        Who::Nobody,
        "application/json",
        &this_hello(),
    );
    assert_eq!(none.status, 401, "{}", none.body);
    // Nor does a worker's token open a team's API.
    let whoami = get(&url("/api/whoami"), Who::Token(&forger));
    assert_eq!(whoami.status, 401, "{}", whoami.body);

    // Another version is refused, saying why.
    let old = post(
        &url("/api/worker/hello"),
        Who::Token(&forger),
        "application/json",
        &hello(std::env::consts::ARCH, "0.0.1"),
    );
    assert_eq!(old.status, 409, "{}", old.body);
    assert!(old.body.contains("incompatible versions"), "{}", old.body);

    // An architecture the arena has no build for gets nothing, though matches wait.
    let riscv = post(
        &url("/api/worker/lease"),
        Who::Token(&forger),
        "application/json",
        &hello("riscv64", env!("CARGO_PKG_VERSION")),
    );
    assert_eq!(riscv.status, 204, "{}", riscv.body);
    assert!(arena.count("SELECT COUNT(*) FROM matches WHERE state = 'queued'") > 0);

    // A lease carries everything needed to play; the artifact is there by its hash.
    let l = lease(&server, &forger);
    let seats = l["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2, "{l}");
    assert!(
        seats
            .iter()
            .any(|s| s["run"] == "rollarena bot greedy" && s["artifact"].is_null()),
        "{l}"
    );
    let py = seats
        .iter()
        .find(|s| !s["artifact"].is_null())
        .expect("the Python seat's artifact");
    assert_eq!(py["artifact"]["arch"], std::env::consts::ARCH);
    assert_eq!(l["rules"]["game"], "rolit");
    assert!(l["lease"].as_str().unwrap().len() >= 16);
    let sha = py["artifact"]["sha256"].as_str().unwrap();
    let mut response = ureq::get(&url(&format!("/api/worker/artifacts/{sha}")))
        .header("Authorization", &format!("Bearer {forger}"))
        .call()
        .unwrap();
    let bytes = response
        .body_mut()
        .with_config()
        .limit(u64::MAX)
        .read_to_vec()
        .unwrap();
    assert_eq!(
        bytes.len() as u64,
        py["artifact"]["bytes"].as_u64().unwrap()
    );
    use sha2::Digest;
    let digest: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(digest, sha, "the bytes are the artifact its hash names");
    assert_eq!(
        get(
            &url(&format!("/api/worker/artifacts/{sha}")),
            Who::Token(&team)
        )
        .status,
        403
    );
    assert_eq!(
        get(
            &url(&format!("/api/worker/artifacts/{}", "ab".repeat(32))),
            Who::Token(&forger)
        )
        .status,
        404
    );

    // A real worker plays until a match is done, then stops.
    let token = register(&arena, "real");
    let worker = Worker::start(&server.url, &token, WORKER_UIDS, "real-1");
    wait_for(
        "a match played by the worker",
        Duration::from_secs(300),
        || arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'") >= 1,
    );
    assert!(worker.stop().success());
    // Nothing else moves: the matchmaker paused, what is queued set aside.
    arena
        .db()
        .execute(
            "INSERT OR REPLACE INTO state (key, value) VALUES ('paused', 'true')",
            [],
        )
        .unwrap();
    wait_for("no match in play", Duration::from_secs(60), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'") == 0
    });
    arena
        .db()
        .execute(
            "UPDATE matches SET state = 'void' WHERE state = 'queued'",
            [],
        )
        .unwrap();

    // A copy of a done match: the same match under another id.
    let done = arena.ids("SELECT id FROM matches WHERE state = 'done' ORDER BY id LIMIT 1")[0];
    let conn = arena.db();
    conn.execute(
        "INSERT INTO matches (created_at, state, kind, seed, rounds)
         SELECT created_at, 'queued', kind, seed, rounds FROM matches WHERE id = ?1",
        [done],
    )
    .unwrap();
    let copy = conn.last_insert_rowid();
    conn.execute(
        "INSERT INTO match_seats (match_id, seat, version_id)
         SELECT ?1, seat, version_id FROM match_seats WHERE match_id = ?2",
        [copy, done],
    )
    .unwrap();
    // Stored compressed once counted.
    let mut genuine = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(
            std::fs::File::open(under(&arena, &format!("records/{done}.jsonl.gz"))).unwrap(),
        ),
        &mut genuine,
    )
    .unwrap();
    let genuine = genuine.replace(
        &format!("\"match\":\"arena-{done}\""),
        &format!("\"match\":\"arena-{copy}\""),
    );
    let rated_before = arena.count("SELECT COUNT(*) FROM matches WHERE rated = 1");

    // Leased, then lost: the lease runs out and the match is queued again.
    let first = lease(&server, &forger);
    assert_eq!(first["match"], copy);
    wait_for("the lease to run out", Duration::from_secs(60), || {
        arena.count(&format!(
            "SELECT COUNT(*) FROM matches WHERE id = {copy} AND state = 'queued'"
        )) == 1
    });
    let second = lease(&server, &forger);
    assert_eq!(second["match"], copy);
    // The genuine record, sent on the lost lease: refused, counts nothing.
    let (status, body) = upload(
        &server,
        &forger,
        copy,
        first["lease"].as_str().unwrap(),
        &genuine,
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("no longer this worker's"), "{body}");
    assert!(!under(&arena, &format!("records/{copy}.jsonl")).exists());
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE rated = 1"),
        rated_before
    );

    // Live messages and heartbeats: on the live lease only.
    let live = |lease: &str| {
        post(
            &url(&format!("/api/worker/matches/{copy}/live?lease={lease}")),
            Who::Token(&forger),
            "application/json",
            br#"[{"n": 1}, {"n": 2}]"#,
        )
        .status
    };
    assert_eq!(live(second["lease"].as_str().unwrap()), 200);
    assert_eq!(live(first["lease"].as_str().unwrap()), 409);
    let beat = |lease: &str| {
        post(
            &url(&format!(
                "/api/worker/matches/{copy}/heartbeat?lease={lease}"
            )),
            Who::Token(&forger),
            "application/json",
            b"null",
        )
    };
    let renewed = beat(second["lease"].as_str().unwrap());
    assert_eq!(renewed.status, 200, "{}", renewed.body);
    assert!(
        renewed.json()["lease_until"].as_i64().unwrap() >= second["lease_until"].as_i64().unwrap()
    );
    assert_eq!(beat(first["lease"].as_str().unwrap()).status, 409);

    // Edited after play (a seat's points): refused, kept aside, counted on the worker, the
    // match queued again.
    let points = regex::Regex::new(r#""points":\[(\d+),(\d+)\]"#).unwrap();
    let edited = points
        .replace(&genuine, |c: &regex::Captures| {
            format!(
                "\"points\":[{},{}]",
                c[1].parse::<u32>().unwrap() + 1,
                &c[2]
            )
        })
        .into_owned();
    assert_ne!(edited, genuine);
    let lease2 = second["lease"].as_str().unwrap();
    let (status, body) = upload(&server, &forger, copy, lease2, &edited);
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("does not verify"), "{body}");
    assert!(
        !under(&arena, &format!("records/{copy}.jsonl")).exists(),
        "not in records/"
    );
    assert_eq!(
        std::fs::read_to_string(under(&arena, &format!("refused/{copy}-{lease2}.jsonl"))).unwrap(),
        edited,
        "kept aside as evidence"
    );
    assert_eq!(
        arena.count("SELECT refused_uploads FROM workers WHERE name = 'forger'"),
        1
    );
    assert_eq!(
        arena.count(&format!("SELECT COUNT(*) FROM matches WHERE id = {copy} AND state = 'queued' AND error LIKE '%did not verify%'")),
        1
    );
    // Logged with the worker's name (the server's stderr is read by a thread of the test's: the
    // line may arrive after the answer did).
    wait_for(
        "the refusal logged with the worker's name",
        Duration::from_secs(60),
        || server.stderr().contains("forger"),
    );
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE rated = 1"),
        rated_before
    );

    // Unedited, on a live lease: counted, once.
    let third = lease(&server, &forger);
    assert_eq!(third["match"], copy);
    let lease3 = third["lease"].as_str().unwrap();
    let (status, body) = upload(&server, &forger, copy, lease3, &genuine);
    assert_eq!(status, 200, "{body}");
    let (status, body) = upload(&server, &forger, copy, lease3, &genuine);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("counted already"), "{body}");
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE rated = 1"),
        rated_before + 1
    );
    assert_eq!(
        arena.count(&format!(
            "SELECT COUNT(*) FROM worker_matches WHERE match_id = {copy}"
        )),
        1
    );
    ratings_chain(&arena);

    // The organiser sees the workers.
    let page = get(&url("/api/organiser"), Who::Token(&arena.organiser)).json();
    let workers = page["workers"].as_array().unwrap();
    let f = workers.iter().find(|w| w["name"] == "forger").unwrap();
    assert_eq!(f["refused_uploads"], 1);
    assert_eq!(f["matches_played"], 1);
    let r = workers.iter().find(|w| w["name"] == "real").unwrap();
    assert!(r["matches_played"].as_i64().unwrap() >= 1, "{r}");
    assert_eq!(r["instance"], "real-1");
    assert_eq!(r["arch"], std::env::consts::ARCH);
    let traffic = get(&url("/api/worker/traffic"), Who::Token(&arena.organiser)).json();
    assert!(
        traffic["/api/worker/matches/{id}/record"]["bytes_in"]
            .as_u64()
            .unwrap()
            > 0,
        "{traffic}"
    );
    assert_eq!(
        get(&url("/api/worker/traffic"), Who::Token(&team)).status,
        403
    );

    // A revoked token is refused; `rollarena worker` says why and stops.
    let out = Command::new(rollarena())
        .args(["arena", "worker"])
        .arg(arena.dir())
        .args(["forger", "--revoke"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let revoked = Worker::start(&server.url, &forger, WORKER_UIDS, "revoked");
    let (status, err) = revoked.wait(Duration::from_secs(60));
    assert!(!status.success());
    assert!(err.contains("revoked"), "{err}");
    let as_team = Worker::start(&server.url, &team, WORKER_UIDS, "team");
    let (status, err) = as_team.wait(Duration::from_secs(60));
    assert!(!status.success());
    assert!(
        err.contains("(403)") && err.contains("worker's token"),
        "{err}"
    );
    let out = Command::new(rollarena())
        .args(["worker", "--server", "localhost:8080", "--token", &token])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not an address"));
    server.stop();
}
