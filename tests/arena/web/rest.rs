//! A ladder that rests: two teams submit the same deterministic kit, which draws every match;
//! the real server's ladder plays until both ratings are settled (`[ladder] rest_sigma`, set
//! high here so that it takes a few matches), then stops by itself: the leaderboard (page and
//! API) and `arena status` say "at rest", both versions share rank 1, and no match is made
//! while it rests. A new version wakes it (it places, then the ladder rests again), and so
//! does `arena resume` (each version plays one match more). Every finished match's record is
//! stored compressed and reads back whole; the bytes per match are printed.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Arena, Server, Who, get, kit, submit, version_id, wait_for};
use crate::arena::finals::arena_cmd;

/// This test's bots' and builds' uids.
const UIDS: [(u32, u32); 2] = [(59400, 59449), (59450, 59499)];

/// The ladder's settings for the test: 2 placement matches, settled at sigma 6.5 (about eight
/// drawn matches from a new version's 8.33), no rate limit.
fn settle_fast(arena: &Arena) {
    let path = arena.dir().join("arena.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    for (from, to) in [
        ("placement_matches = 10", "placement_matches = 2"),
        ("rest_sigma = 2.5", "rest_sigma = 6.5"),
        ("max_matches_per_minute = 120", "max_matches_per_minute = 0"),
    ] {
        assert!(text.contains(from), "{from} in {text}");
        text = text.replace(from, to);
    }
    std::fs::write(&path, text).unwrap();
}

fn leaderboard(server: &Server) -> Value {
    get(&format!("{}/api/leaderboard", server.url), Who::Nobody).json()
}

/// Waits until the ladder is at rest; returns the finished matches then.
fn wait_for_rest(arena: &Arena, server: &Server, what: &str) -> i64 {
    wait_for(what, Duration::from_secs(120), || {
        !leaderboard(server)["at_rest_since"].is_null()
    });
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('queued', 'running')"),
        0,
        "at rest with nothing in play"
    );
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'failed'"),
        0
    );
    arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'")
}

#[test]
fn a_ladder_of_two_drawing_kits_comes_to_rest_and_wakes_on_a_new_version() {
    if !crate::arena::have("/usr/bin/python3") {
        return;
    }
    let started = Instant::now();
    let arena = Arena::init(&["--size", "6", "--rounds", "2"], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    settle_fast(&arena);
    let alpha = arena.team("Alpha");
    let beta = arena.team("Beta");
    let server = Server::start(&arena, 2);
    for token in [&alpha, &beta] {
        let (code, out, err) = submit(&server, token, &kit("python"), &["--wait"]);
        assert_eq!(code, 0, "{out}\n{err}");
    }

    // At rest by itself: both settled, sharing rank 1 (every match a draw), nothing placing.
    let first = wait_for_rest(&arena, &server, "the ladder to rest");
    let lb = leaderboard(&server);
    let rows = lb["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{lb}");
    assert!(lb["placing"].as_array().unwrap().is_empty(), "{lb}");
    for r in rows {
        assert_eq!(r["rank"], 1, "equal ratings share a rank: {lb}");
        assert!(r["sigma"].as_f64().unwrap() <= 6.5, "{r}");
    }
    assert!((3..=20).contains(&first), "{first} matches until rest");
    let page = get(&format!("{}/", server.url), Who::Nobody).body;
    assert!(page.contains("The ladder is at rest"), "{page}");
    let (code, out, err) = arena_cmd(&arena, &["status"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("The ladder is at rest since"), "{out}");
    // It stays at rest: no match is made.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches"),
        first,
        "a match made at rest"
    );

    // The records: stored compressed, each read back whole; the bytes per match.
    let (mut plain, mut packed) = (0u64, 0u64);
    for (id, path) in arena
        .db()
        .prepare("SELECT id, record_path FROM matches WHERE state = 'done'")
        .unwrap()
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(Result::unwrap)
    {
        assert_eq!(path, format!("records/{id}.jsonl.gz"));
        assert!(!arena.dir().join(format!("records/{id}.jsonl")).exists());
        let file = arena.dir().join(&path);
        packed += std::fs::metadata(&file).unwrap().len();
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&file).unwrap()),
            &mut text,
        )
        .unwrap();
        plain += text.len() as u64;
        let (records, torn) = rollarena::record::read_records(&file).unwrap();
        assert!(!torn);
        assert_eq!(records.len(), 2, "match {id}");
        rollarena::verify::verify(&records).unwrap();
    }
    eprintln!(
        "{first} matches until rest; records: {} bytes a match plain, {} compressed",
        plain / first as u64,
        packed / first as u64
    );
    assert!(packed * 3 < plain, "{packed} compressed of {plain}");
    // The record routes read them.
    let last = arena.ids("SELECT MAX(id) FROM matches")[0];
    let record = get(
        &format!("{}/api/matches/{last}/record", server.url),
        Who::Nobody,
    );
    assert_eq!(record.status, 200, "{}", record.body);

    // A new version wakes it: it places (listed apart until then), then the ladder rests again.
    let (code, out, err) = submit(
        &server,
        &alpha,
        &kit("python"),
        &["--name", "again", "--wait"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let new = version_id(&out);
    wait_for("the new version to play", Duration::from_secs(60), || {
        arena.count(&format!(
            "SELECT COUNT(*) FROM match_seats WHERE version_id = {new}"
        )) > 0
    });
    let second = wait_for_rest(&arena, &server, "the ladder to rest again");
    assert!(second > first, "{second} after {first}");
    let played: i64 = arena.count(&format!("SELECT matches FROM versions WHERE id = {new}"));
    assert!(played >= 2, "the new version placed: {played}");
    let lb = leaderboard(&server);
    assert!(
        lb["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["version_id"] == new),
        "{lb}"
    );

    // The organiser's resume wakes it too: each version plays one match more, then it rests.
    let (code, out, err) = arena_cmd(&arena, &["resume"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("woke the ladder"), "{out}");
    let third = wait_for_rest(&arena, &server, "the ladder to rest after the wake");
    assert_eq!(third, second + 1, "one match: the two versions meet once");
    assert!(server.stop().success());
    eprintln!("rest test: {:.1} s", started.elapsed().as_secs_f64());
}
