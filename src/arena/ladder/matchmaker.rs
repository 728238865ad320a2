//! The matchmaker: keeps the workers busy with matches among the active versions of enabled
//! teams (and the built-in anchors `arena.toml` names), as CodinGame's ladder does:
//!
//! - **Placement first.** A version that has played (or has in flight) fewer than
//!   `placement_matches` matches is chosen first, against opponents drawn at random from the
//!   whole pool, so its first rating is measured against the whole ladder rather than one
//!   corner of it. Placements are shared out across teams: the placing version with the
//!   fewest matches in flight goes first (then the one with fewest matches), so a team whose
//!   slow bots keep their matches long in play does not hold every worker while other new
//!   versions wait for theirs.
//! - **Then uncertainty.** Otherwise the version with the largest Weng-Lin sigma plays, against
//!   opponents drawn from those closest to it in mu (the nearest `2 (players - 1) + 1`), so
//!   matches are informative and pairings still vary.
//! - **Seats.** The game's table size is the arena's `players`; the seats are shuffled, and
//!   every match has a multiple of `players` rounds, so each seat moves first equally often.
//!
//! [`choose`] is a plain function of the pool, tested as data; [`top_up`] applies it.

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rusqlite::{Connection, params};

use crate::arena::pinning::ACTIVE_VERSION;
use crate::arena::{Arena, admin, db, sql};

/// A version that can play.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub version: i64,
    pub mu: f64,
    pub sigma: f64,
    /// Rated matches played.
    pub played: u32,
    /// Matches queued or running.
    pub in_flight: u32,
}

/// A match to make: its versions in seat order, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub seats: Vec<i64>,
    pub kind: &'static str,
}

/// Chooses the next match from the pool, or none when it is smaller than a table.
pub fn choose(
    pool: &[Candidate],
    players: usize,
    placement: u32,
    rng: &mut impl Rng,
) -> Option<Pick> {
    if pool.len() < players || players == 0 {
        return None;
    }
    let load = |c: &Candidate| c.played + c.in_flight;
    let placing = pool
        .iter()
        .filter(|c| load(c) < placement)
        .min_by_key(|c| (c.in_flight, load(c), c.version));
    let (focus, kind) = match placing {
        Some(c) => (c, "placement"),
        None => (
            pool.iter()
                .max_by(|a, b| {
                    a.sigma
                        .partial_cmp(&b.sigma)
                        .unwrap_or(std::cmp::Ordering::Equal)
                        .then(load(b).cmp(&load(a)))
                        .then(b.version.cmp(&a.version))
                })
                .expect("the pool is not empty"),
            "ladder",
        ),
    };
    let mut others: Vec<&Candidate> = pool.iter().filter(|c| c.version != focus.version).collect();
    if kind == "ladder" {
        others.sort_by(|a, b| {
            (a.mu - focus.mu)
                .abs()
                .partial_cmp(&(b.mu - focus.mu).abs())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.version.cmp(&b.version))
        });
        others.truncate(2 * (players - 1) + 1);
    }
    let mut seats: Vec<i64> = others
        .choose_multiple(rng, players - 1)
        .map(|c| c.version)
        .collect();
    seats.push(focus.version);
    seats.shuffle(rng);
    Some(Pick { seats, kind })
}

/// The pool: the active version of every enabled team (its pinned version, or its latest
/// ready one).
pub fn pool(conn: &Connection) -> Result<Vec<Candidate>, String> {
    // Read afresh for every match made: a team's new pin plays from its next match on, and a
    // match already queued keeps the versions it was made with.
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT v.id, v.mu, v.sigma, v.matches,
                 (SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
                  WHERE s.version_id = v.id AND m.state IN ('queued', 'running'))
             FROM teams t JOIN versions v ON v.id = {ACTIVE_VERSION}
             WHERE t.disabled = 0 ORDER BY v.id"
        ))
        .map_err(sql)?;
    stmt.query_map([], |r| {
        Ok(Candidate {
            version: r.get(0)?,
            mu: r.get(1)?,
            sigma: r.get(2)?,
            played: r.get(3)?,
            in_flight: r.get(4)?,
        })
    })
    .map_err(sql)?
    .collect::<Result<_, _>>()
    .map_err(sql)
}

/// Makes matches until `backlog` are queued (none while the arena is paused, nor once the
/// contest has closed); returns how many it made.
pub fn top_up(arena: &Arena, conn: &mut Connection, backlog: usize) -> Result<usize, String> {
    if admin::paused_in(conn)? || crate::arena::finals::freeze::closed(conn)?.is_some() {
        return Ok(0);
    }
    let queued: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM matches WHERE state = 'queued'",
            [],
            |r| r.get(0),
        )
        .map_err(sql)?;
    let mut made = 0;
    let mut rng = rand::rng();
    let config = &arena.config;
    for _ in queued.max(0) as usize..backlog {
        let pool = pool(conn)?;
        let Some(pick) = choose(
            &pool,
            config.players,
            config.ladder.placement_matches,
            &mut rng,
        ) else {
            break;
        };
        // The seed decides the deal of games with hidden information: 53 bits from the
        // operating system, never fewer (a seat told `start.seed` could try them all).
        insert(conn, &pick, config.rounds, crate::seed::random_seed())?;
        made += 1;
    }
    Ok(made)
}

/// Queues one match with its seats.
pub fn insert(conn: &mut Connection, pick: &Pick, rounds: u32, seed: u64) -> Result<i64, String> {
    let tx = conn.transaction().map_err(sql)?;
    tx.execute(
        "INSERT INTO matches (created_at, state, kind, seed, rounds) VALUES (?1, 'queued', ?2, ?3, ?4)",
        params![db::now_ms(), pick.kind, seed as i64, rounds],
    )
    .map_err(sql)?;
    let id = tx.last_insert_rowid();
    for (seat, version) in pick.seats.iter().enumerate() {
        tx.execute(
            "INSERT INTO match_seats (match_id, seat, version_id) VALUES (?1, ?2, ?3)",
            params![id, seat as i64, version],
        )
        .map_err(sql)?;
    }
    tx.commit().map_err(sql)?;
    Ok(id)
}

/// Queues again the matches and builds whose lease ran out (a worker that died or stopped
/// answering), or marks a match failed once it was tried `max_attempts` times; returns how
/// many matches it requeued or failed.
pub fn sweep(conn: &Connection, max_attempts: u32) -> Result<usize, String> {
    let now = db::now_ms();
    expire(conn, "lease_until < ?1", now, max_attempts)
}

/// Times a match may take its worker down (its lease lost: the worker died, or the server
/// with it) before it is failed.
pub const MAX_CRASHES: i64 = 2;

/// Requeues (or fails) running matches and builds matching `condition` (with `?1` bound to
/// `value`): each such lease lost is a crash of its worker (`matches.crashes`, and a build's
/// attempt, counted as it started): a match or a build that took its worker down
/// [`MAX_CRASHES`] times is failed, as is a match tried `max_attempts` times.
pub fn expire(
    conn: &Connection,
    condition: &str,
    value: impl rusqlite::ToSql,
    max_attempts: u32,
) -> Result<usize, String> {
    let n = conn
        .execute(
            &format!(
                "UPDATE matches SET
                     crashes = crashes + 1,
                     state = CASE WHEN attempts >= ?2 OR crashes + 1 >= ?4 THEN 'failed'
                         ELSE 'queued' END,
                     error = CASE
                         WHEN crashes + 1 >= ?4 THEN 'it took its worker down ' ||
                             CASE WHEN crashes + 1 = 2 THEN 'twice' ELSE (crashes + 1) || ' times' END
                             || ' (the worker died or stopped answering while it played, \
                             its lease lost): it is not played again'
                         WHEN attempts >= ?2
                         THEN 'its worker was lost ' || attempts || ' times (lease expired)'
                         ELSE error END,
                     finished_at = CASE WHEN attempts >= ?2 OR crashes + 1 >= ?4 THEN ?3
                         ELSE NULL END,
                     lease_owner = NULL, lease_until = NULL
                 WHERE state = 'running' AND rated = 0 AND ({condition})"
            ),
            params![value, max_attempts, db::now_ms(), MAX_CRASHES],
        )
        .map_err(sql)?;
    conn.execute(
        &format!(
            "UPDATE versions SET
                 state = CASE WHEN build_attempts >= ?2 THEN 'failed' ELSE 'queued' END,
                 failure = CASE WHEN build_attempts >= ?2 THEN ?3 ELSE failure END,
                 lease_owner = NULL, lease_until = NULL
             WHERE state IN ('building', 'checking') AND ({condition})"
        ),
        params![
            value,
            crate::arena::submissions::builder::MAX_CRASHES,
            crate::arena::submissions::builder::crash_verdict(
                crate::arena::submissions::builder::MAX_CRASHES,
                "the server stopped while it built or was checked"
            )
        ],
    )
    .map_err(sql)?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn c(version: i64, mu: f64, sigma: f64, played: u32) -> Candidate {
        Candidate {
            version,
            mu,
            sigma,
            played,
            in_flight: 0,
        }
    }

    #[test]
    fn a_new_version_places_first_then_the_most_uncertain_plays_its_neighbours() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let settled = [
            c(1, 30.0, 2.0, 50),
            c(2, 20.0, 3.0, 50),
            c(3, 25.0, 5.0, 50),
            c(4, 10.0, 1.0, 50),
            c(5, 40.0, 1.0, 50),
        ];
        let mut pool = settled.to_vec();
        pool.push(c(6, 25.0, 8.3, 0));
        let pick = choose(&pool, 2, 10, &mut rng).unwrap();
        assert_eq!(pick.kind, "placement");
        assert!(pick.seats.contains(&6));
        // Ladder: version 3 (sigma 5) against one of the 3 closest in mu: 1, 2 (5 away) or 4/5
        // (15 away) — the nearest three are 1, 2 and then 4 (by id among equals).
        for _ in 0..50 {
            let pick = choose(&settled, 2, 10, &mut rng).unwrap();
            assert_eq!(pick.kind, "ladder");
            assert!(pick.seats.contains(&3));
            assert!(!pick.seats.contains(&5), "{:?}", pick.seats);
            assert_eq!(pick.seats.len(), 2);
        }
        // Four seats, distinct versions, every version seated first some time.
        let mut first = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let pick = choose(&settled, 4, 0, &mut rng).unwrap();
            let mut s = pick.seats.clone();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), 4);
            first.insert(pick.seats[0]);
        }
        assert!(first.len() >= 4, "seats rotate: {first:?}");
        assert_eq!(choose(&settled[..1], 2, 10, &mut rng), None);
    }

    #[test]
    fn placements_are_shared_out_across_the_placing_versions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // Version 1 is new and slow: its one match in flight lasts. Version 2 has placed 3 and
        // has none in flight: it places next, rather than version 1 (the fewest played) taking
        // every worker until it catches up.
        let mut slow = c(1, 25.0, 8.0, 0);
        slow.in_flight = 1;
        let pool = [slow, c(2, 25.0, 8.0, 3), c(3, 25.0, 1.0, 50)];
        let mut with_one = 0;
        for _ in 0..50 {
            let pick = choose(&pool, 2, 10, &mut rng).unwrap();
            assert_eq!(pick.kind, "placement");
            assert!(pick.seats.contains(&2), "{pick:?}");
            with_one += pick.seats.contains(&1) as u32;
        }
        assert!(with_one < 50, "version 1 is an opponent only by the draw");
    }

    #[test]
    fn a_match_or_a_build_whose_worker_died_twice_with_it_is_failed() {
        let dir = tempfile::tempdir().unwrap();
        let conn = db::create(dir.path()).unwrap();
        conn.execute_batch(
            "INSERT INTO teams (name, token_hash, created_at) VALUES ('a', 'h', 0);
             INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
                 submitted_at, state, mu, sigma) VALUES (1, 'v', 'python', 's', 1, 0, 'ready', 25, 8);
             INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
                 submitted_at, state, mu, sigma) VALUES (1, 'w', 'python', 's', 1, 0, 'queued', 25, 8);
             INSERT INTO matches (created_at, kind, seed, rounds) VALUES (0, 'ladder', 1, 2);",
        )
        .unwrap();
        let state = |sql: &str| -> (String, Option<String>) {
            conn.query_row(sql, [], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
        };
        for lost in 1..=2 {
            // Claimed (as a worker and a builder do), then the server dies: found at start.
            conn.execute_batch(
                "UPDATE matches SET state = 'running', attempts = attempts + 1,
                     lease_owner = 'embedded:1:0';
                 UPDATE versions SET state = 'building', build_attempts = build_attempts + 1,
                     lease_owner = 'embedded:1:builder-0' WHERE id = 2;",
            )
            .unwrap();
            expire(&conn, "lease_owner LIKE ?1", "embedded:%", 10).unwrap();
            let m = state("SELECT state, error FROM matches");
            let v = state("SELECT state, failure FROM versions WHERE id = 2");
            if lost == 1 {
                assert_eq!((m.0.as_str(), v.0.as_str()), ("queued", "queued"));
            } else {
                assert_eq!(m.0, "failed");
                assert!(m.1.unwrap().starts_with("it took its worker down twice"));
                assert_eq!(v.0, "failed");
                assert!(
                    v.1.unwrap()
                        .starts_with("the build crashed the builder twice")
                );
            }
        }
    }

    #[test]
    fn placement_counts_matches_in_flight() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let mut busy = c(2, 25.0, 8.0, 0);
        busy.in_flight = 10;
        let pool = [c(1, 25.0, 1.0, 50), busy, c(3, 25.0, 8.0, 3)];
        let pick = choose(&pool, 2, 10, &mut rng).unwrap();
        assert!(pick.seats.contains(&3), "{pick:?}");
    }
}
