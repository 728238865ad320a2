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
    Version {
        failure,
        ..Version::new(id, team, state)
    }
    .insert(conn);
}

/// A version as a test sets it up, from [`Version::new`]'s defaults: a Python source of one
/// byte submitted at 0, labelled `v`, rated 25 ± 8.3 after no match.
pub struct Version<'a> {
    pub id: VersionId,
    pub team: TeamId,
    pub state: VersionState,
    pub failure: Option<&'a str>,
    pub label: &'a str,
    pub mu: f64,
    pub sigma: f64,
    /// Rated matches played.
    pub matches: i64,
}

impl Version<'_> {
    pub fn new(id: VersionId, team: TeamId, state: VersionState) -> Self {
        Version {
            id,
            team,
            state,
            failure: None,
            label: "v",
            mu: 25.0,
            sigma: 8.3,
            matches: 0,
        }
    }

    pub fn insert(&self, conn: &Connection) {
        conn.execute(
            "INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
                 submitted_at, state, failure, mu, sigma, matches)
             VALUES (?1, ?2, ?3, 'python', '', 1, 0, ?4, ?5, ?6, ?7, ?8)",
            params![
                self.id,
                self.team,
                self.label,
                self.state,
                self.failure,
                self.mu,
                self.sigma,
                self.matches
            ],
        )
        .unwrap();
    }
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

/// Marks match `id` done at `at` with its ratings applied, and no record (where a test needs
/// none: `leases::mark_done` stores one's path).
pub fn done_rated(conn: &Connection, id: MatchId, at: i64) {
    conn.execute(
        "UPDATE matches SET state = ?2, rated = 1, finished_at = ?3 WHERE id = ?1",
        params![id, MatchState::Done, at],
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
