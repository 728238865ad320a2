//! Matches (`matches`, `match_seats`): made by the matchmaker or the finals, claimed and
//! played by workers under leases, finished, rated, re-judged. The states are
//! [`MatchState`], the kinds [`MatchKind`].

use rusqlite::{Connection, OptionalExtension, params};

use super::{MatchId, MatchKind, MatchState, Result};

/// The state of match `id`, if there is one.
pub fn state(conn: &Connection, id: MatchId) -> Result<Option<MatchState>> {
    Ok(conn
        .query_row("SELECT state FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?)
}

/// The kind of match `id`, if there is one.
pub fn kind(conn: &Connection, id: MatchId) -> Result<Option<MatchKind>> {
    Ok(conn
        .query_row("SELECT kind FROM matches WHERE id = ?1", [id], |r| r.get(0))
        .optional()?)
}

/// How many matches of `kind` were played to their end.
pub fn count_done(conn: &Connection, kind: MatchKind) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM matches WHERE state = ?1 AND kind = ?2",
        params![MatchState::Done, kind],
        |r| r.get(0),
    )?)
}

/// Points match `id`'s row at its record's new place, if it was at `was`.
pub fn move_record(conn: &Connection, id: MatchId, was: &str, now_at: &str) -> Result<()> {
    conn.execute(
        "UPDATE matches SET record_path = ?1 WHERE id = ?2 AND record_path = ?3",
        params![now_at, id, was],
    )?;
    Ok(())
}

/// Where match `id`'s record is, as its row says.
pub fn record_path(conn: &Connection, id: MatchId) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT record_path FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?
        .flatten())
}

/// The newest `limit` rated matches played to their end, newest first.
pub fn newest_rated(conn: &Connection, limit: i64) -> Result<Vec<MatchId>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM matches WHERE state = ?2 AND rated = 1 ORDER BY id DESC LIMIT ?1",
    )?;
    let ids = stmt
        .query_map(params![limit, MatchState::Done], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(ids)
}

/// Version `version`'s rated games, as (its rank, another seat's rank) per pair of seats, in
/// the order of the matches and the other seats.
pub fn rated_pairs(conn: &Connection, version: super::VersionId) -> Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT me.rank, other.rank FROM match_seats me
         JOIN matches m ON m.id = me.match_id AND m.rated = 1
         JOIN match_seats other ON other.match_id = me.match_id AND other.seat != me.seat
         WHERE me.version_id = ?1 ORDER BY me.match_id, other.seat",
    )?;
    // A pair with a rank missing (not counted) is left out, as before.
    let pairs = stmt
        .query_map([version], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
        })?
        .filter_map(rusqlite::Result::ok)
        .collect();
    Ok(pairs)
}
