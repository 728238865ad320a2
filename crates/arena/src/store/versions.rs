//! Versions (`versions`), that is the teams' submissions: stored queued, built, checked,
//! rated. The states are [`VersionState`]; what a build does is `submissions`'.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Result, TeamId, VersionId, VersionState};

/// A new upload's row.
pub struct NewVersion<'a> {
    pub team: TeamId,
    pub label: &'a str,
    pub language: &'a str,
    pub source_sha256: &'a str,
    pub source_bytes: i64,
    pub mu: f64,
    pub sigma: f64,
}

/// Stores a new upload as team's queued version at `now`, superseding the team's version
/// still queued (if any), whose place in the queue it takes; `superseded` is that version's
/// failure text given the new id. Run it in the upload's transaction.
pub fn insert_queued(
    conn: &Connection,
    new: &NewVersion,
    now: i64,
    superseded: impl FnOnce(VersionId) -> String,
) -> Result<VersionId> {
    let waiting: Option<i64> = conn.query_row(
        "SELECT MIN(waiting_since) FROM versions WHERE team_id = ?1 AND state = ?2",
        params![new.team, VersionState::Queued],
        |r| r.get(0),
    )?;
    conn.execute(
        "INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
             submitted_at, state, mu, sigma, waiting_since)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            new.team,
            new.label,
            new.language,
            new.source_sha256,
            new.source_bytes,
            now,
            VersionState::Queued,
            new.mu,
            new.sigma,
            waiting.unwrap_or(now)
        ],
    )?;
    let id = VersionId(conn.last_insert_rowid());
    conn.execute(
        "UPDATE versions SET state = ?1, failure = ?2
         WHERE team_id = ?3 AND state = ?4 AND id != ?5",
        params![
            VersionState::Superseded,
            superseded(id),
            new.team,
            VersionState::Queued,
            id
        ],
    )?;
    Ok(id)
}

/// Stores the one version of a built-in bot: ready at once, run by `run_command`.
pub fn insert_builtin(
    conn: &Connection,
    team: TeamId,
    label: &str,
    run_command: &str,
    now: i64,
    (mu, sigma): (f64, f64),
) -> Result<VersionId> {
    conn.execute(
        "INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
             submitted_at, state, run_command, built_at, checked_at, mu, sigma)
         VALUES (?1, ?2, 'builtin', '', 0, ?3, ?4, ?5, ?3, ?3, ?6, ?7)",
        params![
            team,
            label,
            now,
            VersionState::Ready,
            run_command,
            mu,
            sigma
        ],
    )?;
    Ok(VersionId(conn.last_insert_rowid()))
}

/// How many versions team `team` submitted after `since`, and when the oldest of them was.
pub fn submitted_since(conn: &Connection, team: TeamId, since: i64) -> Result<(i64, Option<i64>)> {
    Ok(conn.query_row(
        "SELECT COUNT(*), MIN(submitted_at) FROM versions
         WHERE team_id = ?1 AND submitted_at > ?2",
        params![team, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// Whether version `id` exists.
pub fn exists(conn: &Connection, id: VersionId) -> Result<bool> {
    Ok(conn
        .query_row("SELECT 1 FROM versions WHERE id = ?1", [id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Version `id`'s rating: (mu, sigma).
pub fn rating(conn: &Connection, id: VersionId) -> Result<(f64, f64)> {
    Ok(
        conn.query_row("SELECT mu, sigma FROM versions WHERE id = ?1", [id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?,
    )
}

/// Sets version `id`'s rating after one more counted match.
pub fn rate(conn: &Connection, id: VersionId, (mu, sigma): (f64, f64)) -> Result<()> {
    conn.execute(
        "UPDATE versions SET mu = ?1, sigma = ?2, matches = matches + 1 WHERE id = ?3",
        params![mu, sigma, id],
    )?;
    Ok(())
}

/// Stores version `id`'s evaluation (JSON).
pub fn set_evaluation(conn: &Connection, id: VersionId, sprt_json: &str) -> Result<()> {
    conn.execute(
        "UPDATE versions SET sprt = ?1 WHERE id = ?2",
        params![sprt_json, id],
    )?;
    Ok(())
}

/// How many versions wait for (or are in) their build or check.
pub fn pending(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM versions WHERE state IN (?1, ?2, ?3)",
        params![
            VersionState::Queued,
            VersionState::Building,
            VersionState::Checking
        ],
        |r| r.get(0),
    )?)
}
