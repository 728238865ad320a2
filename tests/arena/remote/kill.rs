//! Workers lost mid-match. One is SIGKILLed while it plays: its bots die with it, its match
//! runs again on the other worker once the lease runs out, and counts once. Another is
//! SIGSTOPped past its lease while it plays, and continued after the match was played
//! elsewhere: it learns the lease is gone and drops the match; nothing counts twice. Every
//! version's ratings form one chain throughout.

use std::time::Duration;

use super::{Worker, arena, python_team, ratings_chain, register, slow_python, wait_for};
use crate::arena::web::{Server, processes_of};

const UIDS: [(u32, u32); 2] = [(63050, 63069), (63070, 63079)];
const A: (u32, u32) = (63080, 63099);
const B: (u32, u32) = (63100, 63119);

/// The match worker `name` holds now, once it has bots running.
fn held_by(arena: &crate::arena::web::Arena, name: &str, uids: (u32, u32)) -> i64 {
    let mut held = 0;
    wait_for(
        &format!("worker {name} playing a match"),
        Duration::from_secs(300),
        || {
            let running = arena.ids(&format!(
                "SELECT m.id FROM matches m JOIN workers w ON w.id = m.worker_id
                 WHERE m.state = 'running' AND w.name = '{name}' AND m.lease_owner LIKE 'worker:{name}:%'"
            ),
        );
            if let Some(&id) = running.first()
                && !processes_of(&[uids]).is_empty()
            {
                held = id;
                return true;
            }
            false
        },
    );
    held
}

fn counted_by(arena: &crate::arena::web::Arena, id: i64) -> Vec<String> {
    let conn = arena.db();
    let mut stmt = conn
        .prepare("SELECT w.name FROM worker_matches x JOIN workers w ON w.id = x.worker_id WHERE x.match_id = ?1")
        .unwrap();
    stmt.query_map([id], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn a_lost_worker_s_match_runs_again_elsewhere_and_counts_once() {
    let arena = arena(UIDS, "5s", "");
    let server = Server::start(&arena, 0);
    python_team(&arena, &server, "slow", Some(&slow_python(3.0)));
    let token_a = register(&arena, "a");
    let token_b = register(&arena, "b");
    let a = Worker::start(&server.url, &token_a, A, "a-1");
    let b = Worker::start(&server.url, &token_b, B, "b-1");

    // SIGKILL.
    let killed = held_by(&arena, "a", A);
    a.signal(libc::SIGKILL);
    wait_for(
        "the killed worker's bots to die",
        Duration::from_secs(60),
        || processes_of(&[A]).is_empty(),
    );
    // Done, and counted for the worker that played it (the count is written just after the
    // match is finished, so a look between the two would see it done but not yet counted).
    wait_for(
        "the killed worker's match played again",
        Duration::from_secs(300),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM matches WHERE id = {killed} AND state = 'done'"
            )) == 1
                && !counted_by(&arena, killed).is_empty()
        },
    );
    assert_eq!(
        counted_by(&arena, killed),
        ["b"],
        "counted once, from the other worker"
    );
    assert_eq!(
        arena.count(&format!("SELECT attempts FROM matches WHERE id = {killed}")),
        2,
        "played twice"
    );
    ratings_chain(&arena);
    drop(a);

    // SIGSTOP past the lease, then SIGCONT.
    let a = Worker::start(&server.url, &token_a, A, "a-2");
    let stopped = held_by(&arena, "b", B);
    b.signal(libc::SIGSTOP);
    wait_for(
        "the stopped worker's match played elsewhere",
        Duration::from_secs(300),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM matches WHERE id = {stopped} AND state = 'done'"
            )) == 1
        },
    );
    b.signal(libc::SIGCONT);
    wait_for(
        "the continued worker to drop the match",
        Duration::from_secs(120),
        || {
            let err = b.stderr();
            err.contains(&format!("match {stopped}: the lease was lost"))
                || err.contains(&format!("match {stopped}: the record was not counted"))
        },
    );
    assert_eq!(
        counted_by(&arena, stopped),
        ["a"],
        "counted once, from the worker that held it"
    );
    ratings_chain(&arena);
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'failed'"),
        0
    );
    assert!(a.stop().success());
    assert!(b.stop().success());
    wait_for("every bot gone", Duration::from_secs(60), || {
        processes_of(&[A, B]).is_empty()
    });
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'"),
        0,
        "released on SIGTERM"
    );
    server.stop();
}
