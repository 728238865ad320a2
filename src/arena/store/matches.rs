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
