//! Rows the unit tests set up directly (a version in any state, a built-in team, a match
//! with its seats), so that their SQL stays in the store too. Tests only.

use rusqlite::{Connection, params};

use super::{MatchId, MatchKind, MatchState, TeamId, VersionId, VersionState};

/// A version `id` of `team` in `state` (mu 25, sigma 8.3), with `failure` if given.
pub fn version(
    conn: &Connection,
    id: VersionId,
    team: TeamId,
    state: VersionState,
    failure: Option<&str>,
) {
    conn.execute(
        "INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
             submitted_at, state, failure, mu, sigma)
         VALUES (?1, ?2, 'v', 'python', '', 1, 0, ?3, ?4, 25, 8.3)",
        params![id, team, state, failure],
    )
    .unwrap();
}

/// Marks `team` as one of the arena's built-in bots.
pub fn set_builtin(conn: &Connection, team: TeamId) {
    conn.execute("UPDATE teams SET builtin = 1 WHERE id = ?1", [team])
        .unwrap();
}

/// A match `id` of `kind` in `state`, created at 0 (seed 1, 2 rounds), its record at
/// `record_path`.
pub fn match_row(
    conn: &Connection,
    id: MatchId,
    kind: MatchKind,
    state: MatchState,
    record_path: Option<&str>,
) {
    conn.execute(
        "INSERT INTO matches (id, created_at, state, kind, seed, rounds, record_path)
         VALUES (?1, 0, ?2, ?3, 1, 2, ?4)",
        params![id, state, kind, record_path],
    )
    .unwrap();
}

/// Match `id`'s state and error.
pub fn match_outcome(conn: &Connection, id: MatchId) -> (MatchState, Option<String>) {
    conn.query_row(
        "SELECT state, error FROM matches WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// Version `id`'s state and failure.
pub fn version_outcome(conn: &Connection, id: VersionId) -> (VersionState, Option<String>) {
    conn.query_row(
        "SELECT state, failure FROM versions WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}
