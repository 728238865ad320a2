//! Remote workers (`workers`, `worker_matches`): their registrations (by the hash of their
//! token), what each last said of itself, and the matches their uploads counted. The rules
//! (who may use the worker API) are `remote::registry`'s.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::{MatchId, MatchState, Result, WorkerId};

/// The worker named `name`, if any.
pub fn find(conn: &Connection, name: &str) -> Result<Option<WorkerId>> {
    Ok(conn
        .query_row("SELECT id FROM workers WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Registers a worker by its token's hash.
pub fn insert(conn: &Connection, name: &str, token_hash: &str, now: i64) -> Result<WorkerId> {
    conn.execute(
        "INSERT INTO workers (name, token_hash, created_at) VALUES (?1, ?2, ?3)",
        params![name, token_hash, now],
    )?;
    Ok(WorkerId(conn.last_insert_rowid()))
}

/// Revokes the worker named `name`; whether there is one.
pub fn revoke(conn: &Connection, name: &str) -> Result<bool> {
    Ok(conn.execute("UPDATE workers SET revoked = 1 WHERE name = ?1", [name])? > 0)
}

/// The worker whose token's hash is `hash`: its id, name, and whether it was revoked.
pub fn of_token(conn: &Connection, hash: &str) -> Result<Option<(WorkerId, String, bool)>> {
    Ok(conn
        .query_row(
            "SELECT id, name, revoked FROM workers WHERE token_hash = ?1",
            [hash],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

/// What a worker said of itself in its hello.
pub struct Said<'a> {
    pub instance: &'a str,
    pub version: &'a str,
    pub arch: &'a str,
    pub jobs: u32,
}

/// Notes what worker `id` said of itself at `now`.
pub fn touch(conn: &Connection, id: WorkerId, said: &Said, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE workers SET instance = ?1, version = ?2, arch = ?3, jobs = ?4, last_contact = ?5
         WHERE id = ?6",
        params![said.instance, said.version, said.arch, said.jobs, now, id],
    )?;
    Ok(())
}

/// Notes worker `id`'s contact at `now`.
pub fn seen(conn: &Connection, id: WorkerId, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE workers SET last_contact = ?1 WHERE id = ?2",
        params![now, id],
    )?;
    Ok(())
}

/// Counts an upload of worker `id` refused because it did not verify.
pub fn count_refused_upload(conn: &Connection, id: WorkerId) -> Result<()> {
    conn.execute(
        "UPDATE workers SET refused_uploads = refused_uploads + 1 WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

/// Notes that worker `id`'s upload counted for match `m` at `now`.
pub fn count_match(conn: &Connection, id: WorkerId, m: MatchId, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO worker_matches (worker_id, match_id, finished_at) VALUES (?1, ?2, ?3)",
        params![id, m, now],
    )?;
    Ok(())
}

/// A worker, as the organiser's page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct WorkerRow {
    pub name: String,
    pub revoked: bool,
    /// What its last request said (`None` before its first).
    pub instance: Option<String>,
    pub version: Option<String>,
    pub arch: Option<String>,
    pub jobs: Option<u32>,
    /// Unix ms.
    pub last_contact: Option<i64>,
    /// Matches its uploads counted, ever and in the last hour.
    pub matches_played: i64,
    pub matches_last_hour: i64,
    /// Uploads refused because they did not verify.
    pub refused_uploads: i64,
    /// Matches it holds a lease on now.
    pub holding: i64,
}

/// Every worker, by name (`hour_ago`: where "the last hour" starts).
pub fn list(conn: &Connection, hour_ago: i64) -> Result<Vec<WorkerRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT w.name, w.revoked, w.instance, w.version, w.arch, w.jobs, w.last_contact,
             (SELECT COUNT(*) FROM worker_matches x WHERE x.worker_id = w.id),
             (SELECT COUNT(*) FROM worker_matches x WHERE x.worker_id = w.id
                  AND x.finished_at > ?1),
             w.refused_uploads,
             (SELECT COUNT(*) FROM matches m WHERE m.worker_id = w.id
                  AND m.state = ?2 AND m.lease_owner LIKE 'worker:%')
         FROM workers w ORDER BY w.name",
    )?;
    let rows = stmt
        .query_map(params![hour_ago, MatchState::Running], |r| {
            Ok(WorkerRow {
                name: r.get(0)?,
                revoked: r.get(1)?,
                instance: r.get(2)?,
                version: r.get(3)?,
                arch: r.get(4)?,
                jobs: r.get(5)?,
                last_contact: r.get(6)?,
                matches_played: r.get(7)?,
                matches_last_hour: r.get(8)?,
                refused_uploads: r.get(9)?,
                holding: r.get(10)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}
