//! The ratings as a whole: reset and rebuilt from the counted matches in the order they were
//! counted (`finals::rejudge`), and matches voided or put back in the queue by the organiser.
//! How a rating moves is `crate::rating`'s.

use rusqlite::{Connection, OptionalExtension, params};

use super::{MatchId, MatchKind, MatchState, Result, VersionId};

/// Match `id`'s state and kind, if there is such a match.
pub fn state_and_kind(conn: &Connection, id: MatchId) -> Result<Option<(MatchState, MatchKind)>> {
    Ok(conn
        .query_row("SELECT state, kind FROM matches WHERE id = ?1", [id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?)
}

/// Voids match `id` (at `now`, unless it finished before), with `why` as its error.
pub fn void(conn: &Connection, id: MatchId, why: &str, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE matches SET state = ?4, rated = 0, error = ?1, lease_owner = NULL,
             lease_until = NULL, counted_seq = NULL,
             finished_at = COALESCE(finished_at, ?2)
         WHERE id = ?3",
        params![why, now, id, MatchState::Void],
    )?;
    Ok(())
}

/// Puts match `id` back in the queue as if it had never been played (its seats' results
/// cleared).
pub fn requeue_afresh(conn: &Connection, id: MatchId) -> Result<()> {
    conn.execute(
        "UPDATE matches SET state = ?2, rated = 0, error = NULL, attempts = 0, crashes = 0,
             lease_owner = NULL, lease_until = NULL, started_at = NULL,
             finished_at = NULL, record_path = NULL, counted_seq = NULL
         WHERE id = ?1",
        params![id, MatchState::Queued],
    )?;
    conn.execute(
        "UPDATE match_seats SET points = NULL, rank = NULL, forfeits = NULL,
             mu_before = NULL, sigma_before = NULL, mu_after = NULL, sigma_after = NULL
         WHERE match_id = ?1",
        [id],
    )?;
    Ok(())
}

/// Every version back at the rating `(mu, sigma)`, with no rated match and no evaluation; and
/// every match rated that will be counted again (the ladder's, done). Returns those matches,
/// in the order they were counted.
pub fn reset(conn: &Connection, (mu, sigma): (f64, f64)) -> Result<Vec<MatchId>> {
    conn.execute(
        "UPDATE versions SET mu = ?1, sigma = ?2, matches = 0, sprt = NULL",
        params![mu, sigma],
    )?;
    conn.execute(
        "UPDATE matches SET rated = (state = ?1 AND kind != ?2)",
        params![MatchState::Done, MatchKind::Final],
    )?;
    let mut stmt = conn.prepare(
        "SELECT id FROM matches WHERE rated = 1
         ORDER BY COALESCE(counted_seq, 0), finished_at, id",
    )?;
    let ids = stmt
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(ids)
}

/// A seat of a counted match, with its version's rating now.
pub struct RatedSeat {
    pub seat: i64,
    pub version: VersionId,
    pub rank: Option<u32>,
    pub mu: f64,
    pub sigma: f64,
}

/// Match `id`'s seats, in order, with their versions' ratings now.
pub fn rated_seats(conn: &Connection, id: MatchId) -> Result<Vec<RatedSeat>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.seat, s.version_id, s.rank, v.mu, v.sigma FROM match_seats s
         JOIN versions v ON v.id = s.version_id WHERE s.match_id = ?1 ORDER BY s.seat",
    )?;
    let seats = stmt
        .query_map([id], |r| {
            Ok(RatedSeat {
                seat: r.get(0)?,
                version: r.get(1)?,
                rank: r.get(2)?,
                mu: r.get(3)?,
                sigma: r.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(seats)
}

/// Records seat `seat` of match `id`'s rating before and after it.
pub fn rate_seat(
    conn: &Connection,
    id: MatchId,
    seat: i64,
    (mu0, s0): (f64, f64),
    (mu1, s1): (f64, f64),
) -> Result<()> {
    conn.execute(
        "UPDATE match_seats SET mu_before = ?1, sigma_before = ?2, mu_after = ?3,
             sigma_after = ?4 WHERE match_id = ?5 AND seat = ?6",
        params![mu0, s0, mu1, s1, id, seat],
    )?;
    Ok(())
}
