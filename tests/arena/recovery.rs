//! Recovery after a crash, simulated in the database as a SIGKILL leaves it: a match left
//! `running` by a dead server's worker (its lease not yet run out) with a half-written record,
//! another left by a remote worker whose lease ran out, and a version left `building`. The
//! next `Service::start` queues them again; each match is played again from its start and
//! counted once, and a result that comes back late changes nothing.

use std::sync::Arc;
use std::time::Duration;

use rollarena::arena::admin;
use rollarena::arena::ladder::{matchmaker, worker};
use rollarena::arena::service::Service;
use rollarena::arena::store::db;
use rollarena::arena::submissions::{Upload, accept};

use super::{arena, kit_file, state, team, wait_for};

#[test]
fn unfinished_matches_and_builds_are_requeued_and_counted_once() {
    let (_tmp, arena) = arena("rolit", |c| {
        c.options.insert("size".into(), "6".into());
        c.ladder.anchors = vec!["greedy".into(), "random".into()];
    });
    admin::sync_anchors(&arena).unwrap();
    let mut conn = arena.conn().unwrap();
    let pool = matchmaker::pool(&conn, None).unwrap();
    assert_eq!(pool.len(), 2);
    let pick = matchmaker::Pick {
        seats: pool.iter().map(|c| c.version).collect(),
        kind: rollarena::arena::store::MatchKind::Ladder,
    };
    admin::set_paused(&arena, true).unwrap();
    let local = matchmaker::insert(&mut conn, &pick, 2, 7).unwrap();
    let remote = matchmaker::insert(&mut conn, &pick, 2, 8).unwrap();
    // The dead server's worker held `local` (lease still valid) and wrote half a record;
    // a remote worker held `remote` and stopped answering (lease run out).
    let dead = "embedded:999999:0";
    let claimed = worker::claim(&conn, dead, Duration::from_secs(3600))
        .unwrap()
        .unwrap();
    assert_eq!(claimed.id, local);
    let record = arena.dir.join(rollarena::arena::Arena::record_path(local));
    std::fs::write(
        &record,
        b"{\"format\":1,\"arbiter\":\"rollarena 0.1.0\",\"game\":\"ro",
    )
    .unwrap();
    let gone = worker::claim(&conn, "remote:gone", Duration::from_secs(60))
        .unwrap()
        .unwrap();
    assert_eq!(gone.id, remote);
    conn.execute(
        "UPDATE matches SET lease_until = ?1 WHERE id = ?2",
        [db::now_ms() - 1000, remote],
    )
    .unwrap();
    // A version the dead server was building.
    let t = team(&arena, "rebuilt");
    let v = accept(
        &arena,
        t,
        Upload {
            file_name: "bot.py".into(),
            bytes: kit_file("python", "bot.py"),
            language: None,
            label: None,
        },
    )
    .unwrap();
    conn.execute(
        "UPDATE versions SET state = 'building', lease_owner = ?1, lease_until = ?2 WHERE id = ?3",
        rusqlite::params![dead, db::now_ms() + 3_600_000, v],
    )
    .unwrap();

    let arena = Arc::new(arena);
    let service = Service::start(arena.clone(), 2).unwrap();
    let state_of = |id: i64| -> (String, bool, i64) {
        conn.query_row(
            "SELECT state, rated, attempts FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    wait_for(
        "both matches to be played again",
        Duration::from_secs(300),
        || state_of(local).0 == "done" && state_of(remote).0 == "done",
    );
    wait_for(
        "the version to be rebuilt",
        Duration::from_secs(300),
        || state(&arena, v).0 == "ready",
    );
    service.shutdown();
    for id in [local, remote] {
        let (s, rated, attempts) = state_of(id);
        assert_eq!(
            (s.as_str(), rated, attempts),
            ("done", true, 2),
            "match {id}"
        );
        let stored = rollarena::arena::records::find(&arena.dir, id).unwrap();
        assert!(stored.ends_with(".jsonl.gz"), "{stored}: stored compressed");
        let (records, torn) = rollarena::record::read_records(&arena.dir.join(stored)).unwrap();
        assert!(!torn);
        assert_eq!(
            records.len(),
            2,
            "match {id} was played again from its start"
        );
        rollarena::verify::verify(&records).unwrap();
    }
    // The matchmaker was paused: exactly these two matches count, once each.
    for c in &pool {
        let n: i64 = conn
            .query_row(
                "SELECT matches FROM versions WHERE id = ?1",
                [c.version],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 2, "version {}", c.version);
    }
    // A late result from the dead workers changes nothing.
    let before: f64 = conn
        .query_row(
            "SELECT mu FROM versions WHERE id = ?1",
            [pool[0].version],
            |r| r.get(0),
        )
        .unwrap();
    let late = vec![
        worker::SeatResult {
            points: 30.0,
            rank: 1,
            forfeits: 0
        };
        2
    ];
    assert!(!worker::finish(&mut conn, &arena, &claimed, dead, &late).unwrap());
    assert!(!worker::finish(&mut conn, &arena, &gone, "remote:gone", &late).unwrap());
    let after: f64 = conn
        .query_row(
            "SELECT mu FROM versions WHERE id = ?1",
            [pool[0].version],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(before, after);
}

/// The child of [`a_build_dies_with_its_server_and_is_queued_again`]: serves the arena that
/// `ROLLARENA_ARENA_CHILD` names until it is killed. Does nothing when run on its own.
#[test]
#[ignore = "run by a_build_dies_with_its_server_and_is_queued_again as its server"]
fn serve_until_killed() {
    let Some(dir) = std::env::var_os("ROLLARENA_ARENA_CHILD") else {
        return;
    };
    rollarena::sandbox::use_binary(crate::check::rollarena().to_path_buf());
    let arena = rollarena::arena::Arena::open(std::path::Path::new(&dir)).unwrap();
    let _service = Service::start(Arc::new(arena), 1).unwrap();
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .count()
}

#[test]
fn a_build_dies_with_its_server_and_is_queued_again() {
    let marker = format!(
        "arena-build-marker-{}",
        rollarena::arena::tokens::random_hex(6)
    );
    let build = format!("sleep 300; echo {marker}");
    let (_tmp, arena) = arena("rolit", |c| {
        c.recipes.push(rollarena::arena::config::Recipe {
            name: "slow".into(),
            main: "bot.sh".into(),
            extensions: vec![],
            build,
            run: "/bin/sh bot.sh".into(),
            probe: String::new(),
        });
    });
    let t = team(&arena, "slow builders");
    let v = accept(
        &arena,
        t,
        Upload {
            file_name: "bot.sh".into(),
            bytes: b"exit 0\n".to_vec(),
            language: Some("slow".into()),
            label: None,
        },
    )
    .unwrap();
    let mut server = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "arena::recovery::serve_until_killed",
            "--ignored",
        ])
        .env("ROLLARENA_ARENA_CHILD", &arena.dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the build to run", Duration::from_secs(120), || {
        state(&arena, v).0 == "building" && processes_with(&marker) > 0
    });
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    wait_for(
        "the build's processes to die with their server",
        Duration::from_secs(10),
        || processes_with(&marker) == 0,
    );
    assert_eq!(
        state(&arena, v).0,
        "building",
        "the row says what the dead server left"
    );
    rollarena::arena::service::recover(&arena).unwrap();
    assert_eq!(
        state(&arena, v).0,
        "queued",
        "queued again at the next start"
    );
}
