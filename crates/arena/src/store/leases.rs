//! A match's life under a worker's lease (`matches` and `match_seats`): claimed, renewed,
//! counted, failed, given back. A lease is its owner's text (`local:...`, `worker:...`); every
//! write after the claim checks that the owner still holds it. The rules (who plays what, when
//! a match counts) are `ladder::worker`'s and `remote::server`'s.

use rusqlite::{Connection, OptionalExtension, params};

use super::{MatchId, MatchKind, MatchState, Result, VersionId, WorkerId};

/// Takes the next queued match for `owner` until `lease_until`: the final tournament's first,
/// then the oldest; with `arch`, only a match whose every seat is a built-in bot or a version
/// built on `arch` (`here`: this machine's architecture, which a version not packed yet will
/// be built on). Its id, if there was one.
pub fn claim(
    conn: &Connection,
    owner: &str,
    now: i64,
    lease_until: i64,
    arch: Option<&str>,
    here: &str,
) -> Result<Option<MatchId>> {
    Ok(conn
        .query_row(
            "UPDATE matches SET state = ?6, lease_owner = ?1, lease_until = ?2,
                 attempts = attempts + 1, started_at = ?3
             WHERE id = (SELECT m.id FROM matches m WHERE m.state = ?7
                     AND (?4 IS NULL OR NOT EXISTS (
                         SELECT 1 FROM match_seats s JOIN versions v ON v.id = s.version_id
                         WHERE s.match_id = m.id AND v.language != 'builtin'
                           AND COALESCE(v.artifact_arch, ?5) != ?4))
                     ORDER BY m.kind != ?8, m.id LIMIT 1)
               AND state = ?7
             RETURNING id",
            params![
                owner,
                lease_until,
                now,
                arch,
                here,
                MatchState::Running,
                MatchState::Queued,
                MatchKind::Final
            ],
            |r| r.get(0),
        )
        .optional()?)
}

/// Match `id`'s seed and rounds, if there is one.
pub fn seed_and_rounds(conn: &Connection, id: MatchId) -> Result<Option<(i64, u32)>> {
    Ok(conn
        .query_row(
            "SELECT seed, rounds FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// A seat of a match, as its worker runs it.
pub struct SeatRow {
    pub version: VersionId,
    pub team: String,
    pub run_command: Option<String>,
}

/// Match `id`'s seats, in order.
pub fn seats(conn: &Connection, id: MatchId) -> Result<Vec<SeatRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.version_id, t.name, v.run_command FROM match_seats s
         JOIN versions v ON v.id = s.version_id JOIN teams t ON t.id = v.team_id
         WHERE s.match_id = ?1 ORDER BY s.seat",
    )?;
    let rows = stmt
        .query_map([id], |r| {
            Ok(SeatRow {
                version: r.get(0)?,
                team: r.get(1)?,
                run_command: r.get(2)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Renews `owner`'s lease on match `id` until `lease_until`; whether it still held it.
pub fn renew(conn: &Connection, id: MatchId, owner: &str, lease_until: i64) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE matches SET lease_until = ?1 WHERE id = ?2 AND lease_owner = ?3 AND state = ?4",
        params![lease_until, id, owner, MatchState::Running],
    )? == 1)
}

/// Until when match `id`'s lease runs (`None`: no such match, or no lease).
pub fn lease_until(conn: &Connection, id: MatchId) -> Result<Option<i64>> {
    Ok(conn
        .query_row("SELECT lease_until FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?
        .flatten())
}

/// Match `id`'s state, the owner of its lease, and whether it was rated.
pub fn holder(
    conn: &Connection,
    id: MatchId,
) -> Result<Option<(MatchState, Option<String>, bool)>> {
    Ok(conn
        .query_row(
            "SELECT state, lease_owner, rated FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

/// Notes which remote worker plays match `id`.
pub fn set_worker(conn: &Connection, id: MatchId, worker: WorkerId) -> Result<()> {
    conn.execute(
        "UPDATE matches SET worker_id = ?1 WHERE id = ?2",
        params![worker, id],
    )?;
    Ok(())
}

/// Marks match `id` done at `now` (`rated`: its ratings were applied), with its record at
/// `record_path`, its lease released, and numbered in the order matches are counted.
pub fn mark_done(
    conn: &Connection,
    id: MatchId,
    rated: bool,
    now: i64,
    record_path: &str,
) -> Result<()> {
    conn.execute(
        "UPDATE matches SET state = ?5, rated = ?1, finished_at = ?2, record_path = ?3,
             lease_owner = NULL, lease_until = NULL, error = NULL,
             counted_seq = (SELECT COALESCE(MAX(counted_seq), 0) + 1 FROM matches)
         WHERE id = ?4",
        params![rated, now, record_path, id, MatchState::Done],
    )?;
    Ok(())
}

/// Marks match `id` failed with `error` at `now`, if `owner` still holds it.
pub fn fail(
    conn: &Connection,
    id: MatchId,
    owner: &str,
    error: &str,
    now: i64,
    record_path: &str,
) -> Result<()> {
    conn.execute(
        "UPDATE matches SET state = ?6, error = ?1, finished_at = ?2,
             record_path = ?3, lease_owner = NULL, lease_until = NULL
         WHERE id = ?4 AND lease_owner = ?5 AND state = ?7",
        params![
            error,
            now,
            record_path,
            id,
            owner,
            MatchState::Failed,
            MatchState::Running
        ],
    )?;
    Ok(())
}

/// Gives match `id` back to the queue with its attempt not counted, if `owner` still holds it.
pub fn release(conn: &Connection, id: MatchId, owner: &str) -> Result<()> {
    conn.execute(
        "UPDATE matches SET state = ?3, lease_owner = NULL, lease_until = NULL,
             attempts = MAX(attempts - 1, 0)
         WHERE id = ?1 AND lease_owner = ?2 AND state = ?4",
        params![id, owner, MatchState::Queued, MatchState::Running],
    )?;
    Ok(())
}

/// Queues match `id` again with its attempt counted (keeping `error`), or fails it at `now`
/// once it had `max_attempts`, if `owner` still holds it.
pub fn requeue(
    conn: &Connection,
    id: MatchId,
    owner: &str,
    max_attempts: u32,
    error: &str,
    now: i64,
) -> Result<()> {
    conn.execute(
        "UPDATE matches SET
             state = CASE WHEN attempts >= ?1 THEN ?6 ELSE ?7 END,
             finished_at = CASE WHEN attempts >= ?1 THEN ?2 ELSE NULL END,
             error = ?3, lease_owner = NULL, lease_until = NULL
         WHERE id = ?4 AND lease_owner = ?5 AND state = ?8",
        params![
            max_attempts,
            now,
            error,
            id,
            owner,
            MatchState::Failed,
            MatchState::Queued,
            MatchState::Running
        ],
    )?;
    Ok(())
}

/// What a seat scored in a counted match, with its rating before and after (`None` for a
/// match that rates nothing: the final's).
pub struct SeatScore {
    pub points: f64,
    pub rank: u32,
    pub forfeits: u32,
    pub ratings: Option<((f64, f64), (f64, f64))>,
}

/// Records what seat `seat` of match `id` scored (and its ratings, when it rates).
pub fn score_seat(conn: &Connection, id: MatchId, seat: usize, score: &SeatScore) -> Result<()> {
    match score.ratings {
        Some(((mu0, s0), (mu1, s1))) => conn.execute(
            "UPDATE match_seats SET points = ?1, rank = ?2, forfeits = ?3, mu_before = ?4,
                 sigma_before = ?5, mu_after = ?6, sigma_after = ?7
             WHERE match_id = ?8 AND seat = ?9",
            params![
                score.points,
                score.rank,
                score.forfeits,
                mu0,
                s0,
                mu1,
                s1,
                id,
                seat as i64
            ],
        )?,
        None => conn.execute(
            "UPDATE match_seats SET points = ?1, rank = ?2, forfeits = ?3
             WHERE match_id = ?4 AND seat = ?5",
            params![score.points, score.rank, score.forfeits, id, seat as i64],
        )?,
    };
    Ok(())
}
