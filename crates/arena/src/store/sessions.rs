//! Logins: the organisers' and teams' tokens looked up by hash, the browser sessions
//! (`sessions`, stored by the hash of their id) and the failed logins counted per address
//! (`login_attempts`). What a token or a cookie means is `web::auth`'s; this is its SQL.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Result, TeamId};

/// Whether `hash` is an organiser's token's.
pub fn is_organiser_token(conn: &Connection, hash: &str) -> Result<bool> {
    Ok(conn
        .query_row(
            "SELECT id FROM organisers WHERE token_hash = ?1",
            [hash],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        .is_some())
}

/// The team whose token's hash is `hash`: its id and name.
pub fn team_of_token(conn: &Connection, hash: &str) -> Result<Option<(TeamId, String)>> {
    Ok(conn
        .query_row(
            "SELECT id, name FROM teams WHERE token_hash = ?1",
            [hash],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Whether `hash` is any team's or organiser's token's (a worker's must differ).
pub fn is_login_token(conn: &Connection, hash: &str) -> Result<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM teams WHERE token_hash = ?1)
             OR EXISTS (SELECT 1 FROM organisers WHERE token_hash = ?1)",
        [hash],
        |r| r.get(0),
    )?)
}

/// Adds an organiser's token (by its hash).
pub fn add_organiser(conn: &Connection, hash: &str, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO organisers (token_hash, created_at) VALUES (?1, ?2)",
        params![hash, now],
    )?;
    Ok(())
}

/// A session as stored: whose it is, and its CSRF token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The team's (`None` for the organiser's).
    pub team: Option<TeamId>,
    pub organiser: bool,
    pub csrf: String,
}

/// The session whose id's hash is `id_hash`, unless it expired by `now`.
pub fn find(conn: &Connection, id_hash: &str, now: i64) -> Result<Option<Session>> {
    Ok(conn
        .query_row(
            "SELECT team_id, organiser, csrf FROM sessions
             WHERE id_hash = ?1 AND expires_at > ?2",
            params![id_hash, now],
            |r| {
                Ok(Session {
                    team: r.get(0)?,
                    organiser: r.get(1)?,
                    csrf: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Stores a new session (and forgets the ones expired by `now`).
pub fn start(
    conn: &Connection,
    id_hash: &str,
    session: &Session,
    now: i64,
    expires_at: i64,
) -> Result<()> {
    conn.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now])?;
    conn.execute(
        "INSERT INTO sessions (id_hash, team_id, organiser, csrf, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            id_hash,
            session.team,
            session.organiser,
            session.csrf,
            now,
            expires_at
        ],
    )?;
    Ok(())
}

/// Ends the session whose id's hash is `id_hash`.
pub fn end(conn: &Connection, id_hash: &str) -> Result<()> {
    conn.execute("DELETE FROM sessions WHERE id_hash = ?1", [id_hash])?;
    Ok(())
}

/// Ends every session of `team`.
pub fn end_team_sessions(conn: &Connection, team: TeamId) -> Result<()> {
    conn.execute("DELETE FROM sessions WHERE team_id = ?1", [team])?;
    Ok(())
}

/// Counts a failed login of `address` at `now`; how many it had since `since` (this one
/// included). Failures before `since` are forgotten.
pub fn count_failed_login(conn: &Connection, address: &str, now: i64, since: i64) -> Result<i64> {
    conn.execute("DELETE FROM login_attempts WHERE at <= ?1", params![since])?;
    conn.execute(
        "INSERT INTO login_attempts (address, at) VALUES (?1, ?2)",
        params![address, now],
    )?;
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM login_attempts WHERE address = ?1 AND at > ?2",
        params![address, since],
        |r| r.get(0),
    )?)
}
