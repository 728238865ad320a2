//! The matchmaker's reads and writes (`matches`, `match_seats`): the pool of versions that
//! play, the matches each pair has had, the backlog, a new match with its seats, and the
//! leases lost with their workers. Which match to make is `ladder::matchmaker`'s.

use rusqlite::{Connection, named_params, params};

use super::teams::ACTIVE_VERSION;
use super::{MatchId, MatchKind, MatchState, Result, VersionId, VersionState};

/// A version of the pool, as stored.
pub struct PoolRow {
    pub version: VersionId,
    pub mu: f64,
    pub sigma: f64,
    /// Rated matches played.
    pub played: u32,
    /// Matches queued or running.
    pub in_flight: u32,
    /// Matches made with it since `since` (queued, running or done).
    pub since: u32,
}

/// The active version of every enabled team, by id, with its matches since `since` (Unix ms).
pub fn pool(conn: &Connection, since: i64) -> Result<Vec<PoolRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT v.id, v.mu, v.sigma, v.matches,
             (SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
              WHERE s.version_id = v.id AND m.state IN (:queued, :running)),
             (SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
              WHERE s.version_id = v.id AND m.created_at >= :since
                AND m.state IN (:queued, :running, :done))
         FROM teams t JOIN versions v ON v.id = {ACTIVE_VERSION}
         WHERE t.disabled = 0 ORDER BY v.id"
    ))?;
    let params = named_params! {
        ":since": since,
        ":queued": MatchState::Queued,
        ":running": MatchState::Running,
        ":done": MatchState::Done,
        ":ready": VersionState::Ready,
    };
    let rows = stmt
        .query_map(params, |r| {
            Ok(PoolRow {
                version: r.get(0)?,
                mu: r.get(1)?,
                sigma: r.get(2)?,
                played: r.get(3)?,
                in_flight: r.get(4)?,
                since: r.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The versions with a higher id than `version` that share a ladder match (queued, in play or
/// done) with it, and how many each.
pub fn pair_counts(conn: &Connection, version: VersionId) -> Result<Vec<(VersionId, u32)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT b.version_id, COUNT(*) FROM match_seats a
         JOIN match_seats b ON b.match_id = a.match_id AND b.version_id > a.version_id
         JOIN matches m ON m.id = a.match_id
         WHERE a.version_id = ?1 AND m.kind != ?2
           AND m.state IN (?3, ?4, ?5)
         GROUP BY b.version_id",
    )?;
    let params = params![
        version,
        MatchKind::Final,
        MatchState::Queued,
        MatchState::Running,
        MatchState::Done
    ];
    let rows = stmt
        .query_map(params, |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Ladder matches made since `since`, among the last `limit` made.
pub fn made_since(conn: &Connection, limit: u32, since: i64) -> Result<u32> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM (SELECT created_at, kind FROM matches ORDER BY id DESC LIMIT ?1)
         WHERE created_at >= ?2 AND kind != ?3",
        params![limit, since, MatchKind::Final],
        |r| r.get(0),
    )?)
}

/// Matches queued (any kind), and ladder matches queued or in play.
pub fn backlog(conn: &Connection) -> Result<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FILTER (WHERE state = ?1),
                COUNT(*) FILTER (WHERE kind != ?3)
         FROM matches WHERE state IN (?1, ?2)",
        params![MatchState::Queued, MatchState::Running, MatchKind::Final],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// Queues a match of `kind` made at `now` with its seats, in the caller's transaction.
pub fn insert_match(
    conn: &Connection,
    kind: MatchKind,
    now: i64,
    seed: i64,
    rounds: u32,
    seats: &[VersionId],
) -> Result<MatchId> {
    conn.execute(
        "INSERT INTO matches (created_at, state, kind, seed, rounds) VALUES (?1, ?5, ?2, ?3, ?4)",
        params![now, kind, seed, rounds, MatchState::Queued],
    )?;
    let id = MatchId(conn.last_insert_rowid());
    for (seat, version) in seats.iter().enumerate() {
        conn.execute(
            "INSERT INTO match_seats (match_id, seat, version_id) VALUES (?1, ?2, ?3)",
            params![id, seat as i64, version],
        )?;
    }
    Ok(id)
}

/// Which leases were lost with their workers.
#[derive(Clone, Copy, Debug)]
pub enum Lost<'a> {
    /// Every lease that ran out before this time (Unix ms).
    ExpiredBefore(i64),
    /// Every lease whose owner is `LIKE` this pattern (the server's own, at start).
    OwnedLike(&'a str),
}

/// What [`expire`] does with a lost lease.
pub struct Expiry<'a> {
    /// A match tried this many times is failed.
    pub max_attempts: u32,
    /// A match that took its worker down this many times is failed.
    pub max_crashes: i64,
    /// A build that did this many times is failed, with this verdict.
    pub build_max_crashes: i64,
    pub build_verdict: &'a str,
    pub now: i64,
}

/// Requeues (or fails) the running matches and builds whose lease was `lost`, each a crash
/// of its worker (see `ladder::matchmaker::expire`); returns how many matches it touched.
pub fn expire(conn: &Connection, lost: Lost, e: &Expiry) -> Result<usize> {
    let (condition, value): (&str, &dyn rusqlite::ToSql) = match &lost {
        Lost::ExpiredBefore(at) => ("lease_until < ?1", at),
        Lost::OwnedLike(pattern) => ("lease_owner LIKE ?1", pattern),
    };
    let n = conn.execute(
        &format!(
            "UPDATE matches SET
                 crashes = crashes + 1,
                 state = CASE WHEN attempts >= ?2 OR crashes + 1 >= ?4 THEN ?5
                     ELSE ?6 END,
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
             WHERE state = ?7 AND rated = 0 AND ({condition})"
        ),
        params![
            value,
            e.max_attempts,
            e.now,
            e.max_crashes,
            MatchState::Failed,
            MatchState::Queued,
            MatchState::Running
        ],
    )?;
    conn.execute(
        &format!(
            "UPDATE versions SET
                 state = CASE WHEN build_attempts >= ?2 THEN ?4 ELSE ?5 END,
                 failure = CASE WHEN build_attempts >= ?2 THEN ?3 ELSE failure END,
                 lease_owner = NULL, lease_until = NULL
             WHERE state IN (?6, ?7) AND ({condition})"
        ),
        params![
            value,
            e.build_max_crashes,
            e.build_verdict,
            VersionState::Failed,
            VersionState::Queued,
            VersionState::Building,
            VersionState::Checking
        ],
    )?;
    Ok(n)
}
