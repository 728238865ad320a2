//! Claiming and counting as data, in-process (no bot runs): the final's matches are claimed
//! before the ladder's and counted without rating; re-judging rebuilds the ratings from the
//! scripted results exactly as the ladder applied them, and a voided match leaves them as if
//! it had never been played.

use rollarena::arena::finals::{KIND, rejudge};
use rollarena::arena::ladder::matchmaker::{Pick, insert};
use rollarena::arena::ladder::worker::{self, SeatResult};
use rusqlite::params;

use crate::arena::{arena, team};

/// A ready version of a new team (its files are never read here).
fn version(arena: &rollarena::arena::Arena, name: &str) -> i64 {
    let team = team(arena, name);
    let conn = arena.conn().unwrap();
    let (mu, sigma) = rollarena::arena::rating::initial();
    conn.execute(
        "INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
             submitted_at, state, run_command, mu, sigma)
         VALUES (?1, 'v1', 'python', '', 0, 0, 'ready', 'bot.py', ?2, ?3)",
        params![team, mu, sigma],
    )
    .unwrap();
    conn.last_insert_rowid()
}

fn results(ranks: &[u32]) -> Vec<SeatResult> {
    ranks
        .iter()
        .map(|&rank| SeatResult {
            points: f64::from(3 - rank),
            rank,
            forfeits: 0,
        })
        .collect()
}

/// Claims the next match and counts it with `ranks`; its id and kind.
fn play(arena: &rollarena::arena::Arena, ranks: &[u32]) -> (i64, String) {
    let mut conn = arena.conn().unwrap();
    let lease = std::time::Duration::from_secs(60);
    let m = worker::claim(&conn, "test", lease)
        .unwrap()
        .expect("a queued match");
    assert!(worker::finish(&mut conn, arena, &m, "test", &results(ranks)).unwrap());
    let kind = conn
        .query_row("SELECT kind FROM matches WHERE id = ?1", [m.id], |r| {
            r.get(0)
        })
        .unwrap();
    (m.id, kind)
}

fn ratings(arena: &rollarena::arena::Arena) -> Vec<(i64, f64, f64, i64, Option<String>)> {
    arena
        .conn()
        .unwrap()
        .prepare("SELECT id, mu, sigma, matches, sprt FROM versions ORDER BY id")
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn finals_go_first_and_rate_nothing_and_recomputing_matches_the_ladder() {
    let (_tmp, arena) = arena("rolit", |_| {});
    let v: Vec<i64> = ["A", "B", "C"].iter().map(|n| version(&arena, n)).collect();
    let mut conn = arena.conn().unwrap();
    // Six ladder matches with scripted results, then rebuilt from scratch: the same values.
    let script: [(usize, usize, [u32; 2]); 6] = [
        (0, 1, [1, 2]),
        (1, 2, [1, 2]),
        (2, 0, [1, 1]),
        (0, 1, [2, 1]),
        (0, 2, [1, 2]),
        (1, 2, [2, 1]),
    ];
    for (a, b, ranks) in script {
        let pick = Pick {
            seats: vec![v[a], v[b]],
            kind: rollarena::arena::store::MatchKind::Ladder,
        };
        insert(&mut conn, &pick, 2, 1).unwrap();
        assert_eq!(play(&arena, &ranks).1, "ladder");
    }
    let incremental = ratings(&arena);
    assert_eq!(incremental.iter().map(|r| r.3).sum::<i64>(), 12);
    assert_eq!(rejudge::recompute(&arena).unwrap(), 6);
    assert_eq!(ratings(&arena), incremental, "bit for bit");

    // A ladder match queued before a final's: the final's is claimed first, and counted
    // without moving any rating.
    insert(
        &mut conn,
        &Pick {
            seats: vec![v[0], v[1]],
            kind: rollarena::arena::store::MatchKind::Ladder,
        },
        2,
        2,
    )
    .unwrap();
    insert(
        &mut conn,
        &Pick {
            seats: vec![v[1], v[2]],
            kind: KIND,
        },
        2,
        3,
    )
    .unwrap();
    let (final_id, kind) = play(&arena, &[2, 1]);
    assert_eq!(kind, KIND.as_str());
    assert_eq!(
        ratings(&arena),
        incremental,
        "a final's match rates nothing"
    );
    let (rated, rank): (bool, i64) = conn
        .query_row(
            "SELECT m.rated, s.rank FROM matches m JOIN match_seats s ON s.match_id = m.id
             WHERE m.id = ?1 AND s.seat = 1",
            [final_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(!rated);
    assert_eq!(rank, 1, "its points and ranks are kept");
    assert_eq!(play(&arena, &[1, 2]).1, "ladder");
    let with_seventh = ratings(&arena);
    assert_eq!(
        rejudge::recompute(&arena).unwrap(),
        7,
        "the final's match is not counted"
    );
    assert_eq!(ratings(&arena), with_seventh);

    // Voiding the first match gives the ratings of the ladder without it: replayed here.
    let fresh = {
        let (_tmp2, other) = arena_without_first(&script);
        ratings(&other)
    };
    let first: i64 = conn
        .query_row("SELECT MIN(id) FROM matches", [], |r| r.get(0))
        .unwrap();
    let done = rejudge::rejudge(
        &arena,
        first,
        &rejudge::Action::Void {
            reason: "scripted".into(),
        },
    )
    .unwrap();
    assert_eq!(done.was, "done");
    assert_eq!(done.counted, 6);
    let after: Vec<_> = ratings(&arena)
        .into_iter()
        .map(|r| (r.1, r.2, r.3))
        .collect();
    let want: Vec<_> = fresh.into_iter().map(|r| (r.1, r.2, r.3)).collect();
    assert_eq!(after, want);
    // Re-judging refuses what it cannot do, saying why.
    let e = rejudge::rejudge(
        &arena,
        999,
        &rejudge::Action::Void {
            reason: String::new(),
        },
    )
    .unwrap_err();
    assert!(e.contains("no match 999"), "{e}");
    insert(
        &mut conn,
        &Pick {
            seats: vec![v[0], v[2]],
            kind: rollarena::arena::store::MatchKind::Ladder,
        },
        2,
        4,
    )
    .unwrap();
    let queued: i64 = conn
        .query_row("SELECT MAX(id) FROM matches", [], |r| r.get(0))
        .unwrap();
    let e = rejudge::rejudge(
        &arena,
        queued,
        &rejudge::Action::Rerun {
            reason: String::new(),
        },
    )
    .unwrap_err();
    assert!(e.contains("not been played yet"), "{e}");
}

/// Another arena where the script's matches after the first, then the seventh, are played:
/// what voiding the first must give.
fn arena_without_first(
    script: &[(usize, usize, [u32; 2])],
) -> (tempfile::TempDir, rollarena::arena::Arena) {
    let (tmp, arena) = arena("rolit", |_| {});
    let v: Vec<i64> = ["A", "B", "C"].iter().map(|n| version(&arena, n)).collect();
    let mut conn = arena.conn().unwrap();
    for &(a, b, ranks) in &script[1..] {
        insert(
            &mut conn,
            &Pick {
                seats: vec![v[a], v[b]],
                kind: rollarena::arena::store::MatchKind::Ladder,
            },
            2,
            1,
        )
        .unwrap();
        play(&arena, &ranks);
    }
    insert(
        &mut conn,
        &Pick {
            seats: vec![v[0], v[1]],
            kind: rollarena::arena::store::MatchKind::Ladder,
        },
        2,
        2,
    )
    .unwrap();
    play(&arena, &[1, 2]);
    (tmp, arena)
}
