//! The ladder's match seeds are 53 bits from the operating system (issue 40): a seat told
//! `start.seed` in Goofspiel or Rollerball must not be able to try every match seed and
//! rebuild the deck. A dozen ladder matches of Goofspiel's built-in anchors are played by the
//! real server; every record's match seed must be above 2^32 (they were 32-bit), below 2^53,
//! the database's, and all different.
//!
//! A false failure: a seed drawn from 53 bits falls below 2^32 with p = 2^-21, so this test
//! fails wrongly with p = 12 x 2^-21, about 1 in 175,000 runs.

use std::time::Duration;

use serde_json::Value;

use super::{Arena, Server, wait_for};

const MATCHES: i64 = 12;

#[test]
fn ladder_seeds_are_53_random_bits() {
    let arena = Arena::init_game(
        "goofspiel",
        &[
            "--anchor",
            "random",
            "--anchor",
            "heuristic",
            "--rounds",
            "2",
        ],
        "",
    );
    arena.own_uids((64250, 64299), (64300, 64319));
    let server = Server::start(&arena, 2);
    wait_for("a dozen ladder matches", Duration::from_secs(120), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'") >= MATCHES
    });
    assert!(server.stop().success());
    let rows: Vec<(i64, String)> = arena
        .db()
        .prepare("SELECT seed, record_path FROM matches WHERE state = 'done' ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for (stored, path) in rows {
        // Stored compressed once counted: read as every reader reads it.
        let (records, _) = rollarena::record::read_records(&arena.dir().join(&path)).unwrap();
        let rounds: Vec<Value> = records
            .iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect();
        assert_eq!(rounds.len(), 2, "{path}");
        let seed = rounds[0]["match_seed"].as_u64().unwrap();
        assert_eq!(
            seed, stored as u64,
            "{path}: the record's seed is the match's"
        );
        assert!(
            seed >= 1 << 32,
            "{path}: match seed {seed} fits in 32 bits (p = 2^-21 by chance)"
        );
        assert!(seed < 1 << 53, "{path}: {seed}");
        assert!(seen.insert(seed), "{path}: seed {seed} twice");
        for r in &rounds {
            assert_eq!(r["match_seed"], seed, "{path}");
            assert_ne!(r["seed"], seed, "{path}: the round's seed is the match's");
        }
    }
    assert!(seen.len() as i64 >= MATCHES);
}
