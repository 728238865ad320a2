//! The matchmaker: keeps the workers busy with matches that teach something, among the
//! active versions of enabled teams (and the built-in anchors `arena.toml` names), as
//! CodinGame's and Kaggle's ladders spend their games where ratings are uncertain, and rests
//! when none would:
//!
//! - **Placement first.** A version that has played (or has in flight) fewer than
//!   `placement_matches` matches is chosen first, against opponents drawn at random from the
//!   whole pool, so its first rating is measured against the whole ladder rather than one
//!   corner of it. Placements are shared out across teams: the placing version with the
//!   fewest matches in flight goes first (then the one with fewest matches), so a team whose
//!   slow bots keep their matches long in play does not hold every worker while other new
//!   versions wait for theirs.
//! - **Then uncertainty.** Otherwise the version with the largest Weng-Lin sigma above
//!   `rest_sigma` plays, against the opponents a match would teach most about (the nearest
//!   `2 (players - 1) + 1` by [`information`]: both sigmas large, the ratings close, as
//!   TrueSkill's match quality has it), drawn among them so that pairings still vary.
//! - **Caps.** Two versions meet at most `max_matches_per_pair` times (matches queued, in play
//!   or done; 0: no cap), and the ladder makes at most `max_matches_per_minute` matches in any
//!   minute (0: no limit).
//! - **Rest.** When no version is placing, none has a sigma above `rest_sigma` (and none owes
//!   the match an organiser's wake asks of each), or every such version's pairings are at
//!   their cap, the ladder makes no match: once none is in play it is at rest
//!   ([`super::rest`]) until a new version, a wake or a new team.
//! - **Seats.** The game's table size is the arena's `players`; the seats are shuffled, and
//!   every match has a multiple of `players` rounds, so each seat moves first equally often.
//!
//! [`choose`] is a plain function of the pool, tested as data; [`top_up`] applies it.

use std::collections::HashMap;

use rand::Rng;
use rand::seq::SliceRandom;
use rusqlite::Connection;

use crate::store::db;
use crate::store::ladder::{self as store_ladder, Lost};
use crate::store::rest;
use crate::store::{MatchKind, VersionId};
use crate::{Arena, admin, sql};

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
    /// Matches made with it since the organiser's last wake (0 when there was none).
    pub since_wake: u32,
}

/// A match to make: its versions in seat order, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub seats: Vec<i64>,
    pub kind: MatchKind,
}

/// Why [`choose`] makes no match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idle {
    /// Fewer versions than a table's seats.
    TooFew,
    /// No match would teach anything (see the module header): the ladder rests.
    Rest,
}

/// What the matchmaker aims at, from `[ladder]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub players: usize,
    pub placement: u32,
    /// A rating is settled once its sigma is at most this.
    pub rest_sigma: f64,
    /// Matches two versions may play together (0: no cap).
    pub pair_cap: u32,
    /// The organiser woke the ladder: a version that played nothing since plays once more.
    pub woken: bool,
}

/// Matches each pair of versions has played or has in flight, keyed by (smaller, larger).
pub type PairCounts = HashMap<(i64, i64), u32>;

fn pair(a: i64, b: i64) -> (i64, i64) {
    (a.min(b), a.max(b))
}

/// What a match between `a` and `b` would teach: the share of their uncertainty a result
/// removes, largest when both sigmas are large and the outcome is a coin toss (Weng-Lin's
/// Bradley-Terry model: `p (1 - p) (σa² + σb²) / c²`).
pub fn information(a: &Candidate, b: &Candidate) -> f64 {
    const BETA: f64 = 25.0 / 6.0;
    let var = a.sigma * a.sigma + b.sigma * b.sigma;
    let c2 = var + 2.0 * BETA * BETA;
    let p = 1.0 / (1.0 + ((b.mu - a.mu) / c2.sqrt()).exp());
    p * (1.0 - p) * var / c2
}

/// Chooses the next match from the pool (see the module header), or says why there is none.
pub fn choose(
    pool: &[Candidate],
    policy: &Policy,
    pairs: &PairCounts,
    rng: &mut impl Rng,
) -> Result<Pick, Idle> {
    let players = policy.players;
    if pool.len() < players || players == 0 {
        return Err(Idle::TooFew);
    }
    let open = |a: i64, b: i64| {
        policy.pair_cap == 0 || pairs.get(&pair(a, b)).copied().unwrap_or(0) < policy.pair_cap
    };
    let load = |c: &Candidate| c.played + c.in_flight;
    // The opponents `focus` may meet, best first: seats that can still meet each other.
    let seat = |focus: &Candidate, ranked: Vec<&Candidate>, rng: &mut _| -> Option<Vec<i64>> {
        let (mut near, rest): (Vec<&Candidate>, Vec<&Candidate>) = {
            let k = (2 * (players - 1) + 1).min(ranked.len());
            let (a, b) = ranked.split_at(k);
            (a.to_vec(), b.to_vec())
        };
        near.shuffle(rng);
        let mut seats = vec![focus.version];
        for c in near.into_iter().chain(rest) {
            if seats.len() == players {
                break;
            }
            if seats.iter().all(|&s| open(s, c.version)) {
                seats.push(c.version);
            }
        }
        (seats.len() == players).then_some(seats)
    };
    let mut placing: Vec<&Candidate> = pool.iter().filter(|c| load(c) < policy.placement).collect();
    placing.sort_by_key(|c| (c.in_flight, load(c), c.version));
    for focus in placing {
        let mut others: Vec<&Candidate> = pool
            .iter()
            .filter(|c| c.version != focus.version && open(focus.version, c.version))
            .collect();
        others.shuffle(rng);
        let ranked = others;
        // Drawn from the whole pool: every opponent is as near as any other.
        let mut seats = vec![focus.version];
        for c in ranked {
            if seats.len() == players {
                break;
            }
            if seats.iter().all(|&s| open(s, c.version)) {
                seats.push(c.version);
            }
        }
        if seats.len() == players {
            seats.shuffle(rng);
            return Ok(Pick {
                seats,
                kind: MatchKind::Placement,
            });
        }
    }
    let mut uncertain: Vec<&Candidate> = pool
        .iter()
        .filter(|c| c.sigma > policy.rest_sigma || (policy.woken && c.since_wake == 0))
        .collect();
    uncertain.sort_by(|a, b| {
        b.sigma
            .total_cmp(&a.sigma)
            .then(load(a).cmp(&load(b)))
            .then(a.version.cmp(&b.version))
    });
    for focus in uncertain {
        let mut others: Vec<&Candidate> = pool
            .iter()
            .filter(|c| c.version != focus.version && open(focus.version, c.version))
            .collect();
        others.sort_by(|a, b| {
            information(focus, b)
                .total_cmp(&information(focus, a))
                .then(a.version.cmp(&b.version))
        });
        if let Some(mut seats) = seat(focus, others, rng) {
            seats.shuffle(rng);
            return Ok(Pick {
                seats,
                kind: MatchKind::Ladder,
            });
        }
    }
    Err(Idle::Rest)
}

/// The pool: the active version of every enabled team (its pinned version, or its latest
/// ready one), with its matches since the wake at `woken_at` (Unix ms).
pub fn pool(conn: &Connection, woken_at: Option<i64>) -> Result<Vec<Candidate>, String> {
    // Read afresh for every match made: a team's new pin plays from its next match on, and a
    // match already queued keeps the versions it was made with.
    let rows = store_ladder::pool(conn, woken_at.unwrap_or(i64::MAX))?;
    Ok(rows
        .into_iter()
        .map(|r| Candidate {
            version: r.version.0,
            mu: r.mu,
            sigma: r.sigma,
            played: r.played,
            in_flight: r.in_flight,
            since_wake: r.since,
        })
        .collect())
}

/// How many ladder matches (queued, in play or done) each pair of the pool's versions has.
pub fn pair_counts(conn: &Connection, pool: &[Candidate]) -> Result<PairCounts, String> {
    let mut counts = PairCounts::new();
    for c in pool {
        for (other, n) in store_ladder::pair_counts(conn, VersionId(c.version))? {
            counts.insert(pair(c.version, other.0), n);
        }
    }
    Ok(counts)
}

/// Ladder matches made in the last minute (at most `limit` are looked at).
fn made_last_minute(conn: &Connection, limit: u32) -> Result<u32, String> {
    Ok(store_ladder::made_since(
        conn,
        limit,
        db::now_ms() - 60_000,
    )?)
}

/// Makes matches until `backlog` are queued (none while the arena is paused, nor once the
/// contest has closed, nor past `max_matches_per_minute`); returns how many it made. Marks
/// the ladder at rest when no match would teach anything and none is in play, and clears the
/// mark when it makes one.
pub fn top_up(arena: &Arena, conn: &mut Connection, backlog: usize) -> Result<usize, String> {
    if admin::paused_in(conn)? || crate::freeze::closed(conn)?.is_some() {
        return Ok(0);
    }
    let config = &arena.config;
    let (queued, in_play) = store_ladder::backlog(conn)?;
    let mut wanted = backlog.saturating_sub(queued.max(0) as usize);
    let per_minute = config.ladder.max_matches_per_minute;
    if per_minute > 0 && wanted > 0 {
        let made = made_last_minute(conn, per_minute)?;
        wanted = wanted.min(per_minute.saturating_sub(made) as usize);
    }
    if wanted == 0 {
        return Ok(0);
    }
    let woken_at = rest::woken_at(conn)?;
    let mut made = 0;
    let mut rng = rand::rng();
    for _ in 0..wanted {
        let pool = pool(conn, woken_at)?;
        let pairs = if config.ladder.max_matches_per_pair > 0 {
            pair_counts(conn, &pool)?
        } else {
            PairCounts::new()
        };
        let policy = Policy {
            players: config.players,
            placement: config.ladder.placement_matches,
            rest_sigma: config.ladder.rest_sigma,
            pair_cap: config.ladder.max_matches_per_pair,
            woken: woken_at.is_some(),
        };
        match choose(&pool, &policy, &pairs, &mut rng) {
            Ok(pick) => {
                // The seed decides the deal of games with hidden information: 53 bits from the
                // operating system, never fewer (a seat told `start.seed` could try them all).
                insert(conn, &pick, config.rounds, crate::seed::random_seed())?;
                made += 1;
            }
            Err(Idle::Rest) => {
                if made == 0 && in_play == 0 && rest::since(conn)?.is_none() {
                    tracing::info!(
                        "the ladder is at rest: no match would teach anything (every rating's \
                         sigma at most {}, no version placing)",
                        config.ladder.rest_sigma
                    );
                    rest::set(conn)?;
                }
                break;
            }
            Err(Idle::TooFew) => break,
        }
    }
    if made > 0 {
        rest::clear(conn)?;
    }
    Ok(made)
}

/// Queues one match with its seats.
pub fn insert(conn: &mut Connection, pick: &Pick, rounds: u32, seed: u64) -> Result<i64, String> {
    let tx = conn.transaction().map_err(sql)?;
    let seats: Vec<VersionId> = pick.seats.iter().copied().map(VersionId).collect();
    let id = store_ladder::insert_match(&tx, pick.kind, db::now_ms(), seed as i64, rounds, &seats)?;
    tx.commit().map_err(sql)?;
    Ok(id.0)
}

/// Queues again the matches and builds whose lease ran out (a worker that died or stopped
/// answering), or marks a match failed once it was tried `max_attempts` times; returns how
/// many matches it requeued or failed.
pub fn sweep(conn: &Connection, max_attempts: u32) -> Result<usize, String> {
    let now = db::now_ms();
    expire(conn, Lost::ExpiredBefore(now), max_attempts)
}

/// Times a match may take its worker down (its lease lost: the worker died, or the server
/// with it) before it is failed.
pub const MAX_CRASHES: i64 = 2;

/// Requeues (or fails) the running matches and builds whose lease was `lost`: each such
/// lease lost is a crash of its worker (`matches.crashes`, and a build's attempt, counted as
/// it started): a match or a build that took its worker down [`MAX_CRASHES`] times is failed,
/// as is a match tried `max_attempts` times.
pub fn expire(conn: &Connection, lost: Lost, max_attempts: u32) -> Result<usize, String> {
    use crate::submissions::builder;
    let verdict = builder::crash_verdict(
        builder::MAX_CRASHES,
        "the server stopped while it built or was checked",
    );
    let expiry = store_ladder::Expiry {
        max_attempts,
        max_crashes: MAX_CRASHES,
        build_max_crashes: builder::MAX_CRASHES,
        build_verdict: &verdict,
        now: db::now_ms(),
    };
    Ok(store_ladder::expire(conn, lost, &expiry)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{self, MatchId, MatchState, VersionState, fixtures};
    use rand::SeedableRng;

    fn c(version: i64, mu: f64, sigma: f64, played: u32) -> Candidate {
        Candidate {
            version,
            mu,
            sigma,
            played,
            in_flight: 0,
            since_wake: 0,
        }
    }

    fn policy(players: usize, placement: u32, rest_sigma: f64) -> Policy {
        Policy {
            players,
            placement,
            rest_sigma,
            pair_cap: 0,
            woken: false,
        }
    }

    fn pick_one(pool: &[Candidate], p: &Policy, rng: &mut impl Rng) -> Pick {
        choose(pool, p, &PairCounts::new(), rng).unwrap()
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
        let pick = pick_one(&pool, &policy(2, 10, 1.5), &mut rng);
        assert_eq!(pick.kind, MatchKind::Placement);
        assert!(pick.seats.contains(&6));
        // Ladder: version 3 (sigma 5) against one of the 3 it learns most from: 1, 2 (5 away)
        // or 4/5 (15 away, sure of themselves) — the best three are 1, 2 and then 4 (by id
        // among equals).
        for _ in 0..50 {
            let pick = pick_one(&settled, &policy(2, 10, 1.5), &mut rng);
            assert_eq!(pick.kind, MatchKind::Ladder);
            assert!(pick.seats.contains(&3));
            assert!(!pick.seats.contains(&5), "{:?}", pick.seats);
            assert_eq!(pick.seats.len(), 2);
        }
        // Four seats, distinct versions, every version seated first some time.
        let mut first = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let pick = pick_one(&settled, &policy(4, 0, 0.0), &mut rng);
            let mut s = pick.seats.clone();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), 4);
            first.insert(pick.seats[0]);
        }
        assert!(first.len() >= 4, "seats rotate: {first:?}");
        assert_eq!(
            choose(
                &settled[..1],
                &policy(2, 10, 1.5),
                &PairCounts::new(),
                &mut rng
            ),
            Err(Idle::TooFew)
        );
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
            let pick = pick_one(&pool, &policy(2, 10, 1.5), &mut rng);
            assert_eq!(pick.kind, MatchKind::Placement);
            assert!(pick.seats.contains(&2), "{pick:?}");
            with_one += pick.seats.contains(&1) as u32;
        }
        assert!(with_one < 50, "version 1 is an opponent only by the draw");
    }

    #[test]
    fn a_match_or_a_build_whose_worker_died_twice_with_it_is_failed() {
        let dir = tempfile::tempdir().unwrap();
        let conn = db::create(dir.path()).unwrap();
        let team = store::teams::insert(&conn, "a", "h", 0, false).unwrap();
        let (v, w) = (VersionId(1), VersionId(2));
        fixtures::version(&conn, v, team, VersionState::Ready, None);
        fixtures::version(&conn, w, team, VersionState::Queued, None);
        let m = MatchId(1);
        fixtures::match_row(&conn, m, MatchKind::Ladder, MatchState::Queued, None);
        for lost in 1..=2 {
            // Claimed (as a worker and a builder do), then the server dies: found at start.
            let claimed = store::leases::claim(&conn, "embedded:1:0", 0, 1, None, "x").unwrap();
            assert_eq!(claimed, Some(m));
            let built = store::builds::claim(&conn, "embedded:1:builder-0", 0, 1).unwrap();
            assert_eq!(built.map(|b| b.id), Some(w));
            expire(&conn, Lost::OwnedLike("embedded:%"), 10).unwrap();
            let (m_state, error) = fixtures::match_outcome(&conn, m);
            let (v_state, failure) = fixtures::version_outcome(&conn, w);
            if lost == 1 {
                assert_eq!(
                    (m_state, v_state),
                    (MatchState::Queued, VersionState::Queued)
                );
            } else {
                assert_eq!(m_state, MatchState::Failed);
                assert!(error.unwrap().starts_with("it took its worker down twice"));
                assert_eq!(v_state, VersionState::Failed);
                assert!(
                    failure
                        .unwrap()
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
        let pick = pick_one(&pool, &policy(2, 10, 1.5), &mut rng);
        assert!(pick.seats.contains(&3), "{pick:?}");
    }

    #[test]
    fn a_settled_ladder_rests_and_a_wake_plays_each_version_once_more() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let settled = [
            c(1, 25.0, 2.0, 80),
            c(2, 25.0, 2.4, 80),
            c(3, 20.0, 1.0, 80),
        ];
        let none = PairCounts::new();
        assert_eq!(
            choose(&settled, &policy(2, 10, 2.5), &none, &mut rng),
            Err(Idle::Rest)
        );
        // One rating above the threshold: it plays, and only it is the focus.
        let p = pick_one(&settled, &policy(2, 10, 2.2), &mut rng);
        assert!(p.seats.contains(&2), "{p:?}");
        // A new version places even in a settled ladder.
        let mut grown = settled.to_vec();
        grown.push(c(4, 25.0, 8.3, 0));
        assert_eq!(
            pick_one(&grown, &policy(2, 10, 2.5), &mut rng).kind,
            MatchKind::Placement
        );
        // Woken: those that played nothing since the wake play.
        let mut woken = settled.to_vec();
        woken[0].since_wake = 1;
        woken[1].since_wake = 1;
        let wake = Policy {
            woken: true,
            ..policy(2, 10, 2.5)
        };
        let p = pick_one(&woken, &wake, &mut rng);
        assert!(p.seats.contains(&3), "{p:?}");
        woken[2].since_wake = 1;
        assert_eq!(choose(&woken, &wake, &none, &mut rng), Err(Idle::Rest));
    }

    #[test]
    fn capped_pairings_are_not_made_and_a_ladder_of_capped_pairings_rests() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let pool = [
            c(1, 25.0, 6.0, 40),
            c(2, 25.0, 6.0, 40),
            c(3, 30.0, 6.0, 40),
        ];
        let capped = Policy {
            pair_cap: 40,
            ..policy(2, 10, 2.5)
        };
        let mut pairs = PairCounts::from([((1, 2), 40), ((1, 3), 10), ((2, 3), 10)]);
        for _ in 0..50 {
            let p = choose(&pool, &capped, &pairs, &mut rng).unwrap();
            assert!(p.seats.contains(&3), "1 and 2 met 40 times: {p:?}");
        }
        pairs.insert((1, 3), 40);
        pairs.insert((2, 3), 40);
        assert_eq!(choose(&pool, &capped, &pairs, &mut rng), Err(Idle::Rest));
        // A placing version whose every pairing is capped waits too.
        let placing = [c(1, 25.0, 8.0, 3), c(2, 25.0, 6.0, 40)];
        let pairs = PairCounts::from([((1, 2), 40)]);
        assert_eq!(choose(&placing, &capped, &pairs, &mut rng), Err(Idle::Rest));
    }

    #[test]
    fn a_match_teaches_most_between_close_uncertain_ratings() {
        let me = c(1, 25.0, 5.0, 0);
        let close_unsure = c(2, 26.0, 5.0, 0);
        let close_sure = c(3, 26.0, 1.0, 0);
        let far_unsure = c(4, 45.0, 5.0, 0);
        assert!(information(&me, &close_unsure) > information(&me, &close_sure));
        assert!(information(&me, &close_unsure) > information(&me, &far_unsure));
        assert!((information(&me, &far_unsure) - information(&far_unsure, &me)).abs() < 1e-12);
    }

    /// Two deterministic bots that draw every match, played by the ladder's defaults: they come
    /// to rest, and how many matches it takes is the figure the book quotes.
    #[test]
    fn two_bots_that_always_draw_rest_with_the_defaults() {
        let defaults = crate::config::LadderConfig::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        let (mu, sigma) = crate::rating::initial();
        let mut pool = [c(1, mu, sigma, 0), c(2, mu, sigma, 0)];
        let p = Policy {
            players: 2,
            placement: defaults.placement_matches,
            rest_sigma: defaults.rest_sigma,
            pair_cap: defaults.max_matches_per_pair,
            woken: false,
        };
        let mut pairs = PairCounts::new();
        let mut played = 0;
        while let Ok(m) = choose(&pool, &p, &pairs, &mut rng) {
            let after = crate::rating::update(&[
                (pool[0].mu, pool[0].sigma, 1),
                (pool[1].mu, pool[1].sigma, 1),
            ]);
            for (c, (mu, sigma)) in pool.iter_mut().zip(after) {
                (c.mu, c.sigma, c.played) = (mu, sigma, c.played + 1);
            }
            *pairs.entry((1, 2)).or_default() += 1;
            played += 1;
            assert_eq!(m.seats.len(), 2);
            assert!(played < 1000, "never rests");
        }
        eprintln!(
            "two drawing bots rest after {played} matches (sigma {:.2})",
            pool[0].sigma
        );
        assert!(pool.iter().all(|c| c.sigma <= defaults.rest_sigma));
        assert!((50..=150).contains(&played), "{played}");
    }
}
