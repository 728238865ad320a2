//! Workers' registrations: `rollarena arena worker DIR NAME` makes one and prints its token
//! (stored as a SHA-256, as teams' are), `--revoke` closes it. The worker API takes a worker's
//! token only: a team's or the organiser's is refused (403), an unknown or revoked one too
//! (401), each saying which it was. [`list`] is what the organiser's page shows of them.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::wire::Hello;
use crate::{Arena, admin, db, sql, tokens};

/// A worker the token opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worker {
    pub id: i64,
    pub name: String,
}

/// Registers a worker; returns its token (shown once). Names follow the teams' rules.
pub fn add(arena: &Arena, name: &str) -> Result<String, String> {
    admin::check_name(name).map_err(|e| e.replace("team name", "worker name"))?;
    let conn = arena.conn()?;
    let taken: Option<i64> = conn
        .query_row("SELECT id FROM workers WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .optional()
        .map_err(sql)?;
    if taken.is_some() {
        return Err(format!(
            "there is already a worker named {name:?}: choose another name (or revoke it with \
             `rollarena arena worker DIR {name:?} --revoke` and register a new one)"
        ));
    }
    let token = tokens::generate(tokens::Kind::Worker);
    conn.execute(
        "INSERT INTO workers (name, token_hash, created_at) VALUES (?1, ?2, ?3)",
        params![name, tokens::hash(&token), db::now_ms()],
    )
    .map_err(sql)?;
    Ok(token)
}

/// Revokes a worker's token: it is refused from now on (its leases run out as any lost
/// worker's do).
pub fn revoke(arena: &Arena, name: &str) -> Result<(), String> {
    let conn = arena.conn()?;
    let n = conn
        .execute("UPDATE workers SET revoked = 1 WHERE name = ?1", [name])
        .map_err(sql)?;
    if n == 0 {
        return Err(format!("there is no worker named {name:?}"));
    }
    Ok(())
}

/// Why a token does not open the worker API: (HTTP status, message).
pub type Refused = (u16, String);

/// The worker a bearer token is.
pub fn authenticate(conn: &Connection, token: Option<&str>) -> Result<Worker, Refused> {
    let Some(token) = token else {
        return Err((
            401,
            "send the worker's token as `Authorization: Bearer TOKEN` (the organiser makes one \
             with `rollarena arena worker DIR NAME`)"
                .into(),
        ));
    };
    let hash = tokens::hash(token);
    let internal = |e: rusqlite::Error| (500, format!("database: {e}"));
    let row: Option<(i64, String, bool)> = conn
        .query_row(
            "SELECT id, name, revoked FROM workers WHERE token_hash = ?1",
            [&hash],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .map_err(internal)?;
    match row {
        Some((_, name, true)) => Err((
            401,
            format!("the token of worker {name:?} was revoked by the organiser: ask for a new one"),
        )),
        Some((id, name, false)) => Ok(Worker { id, name }),
        None => {
            let other: bool = conn
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM teams WHERE token_hash = ?1)
                         OR EXISTS (SELECT 1 FROM organisers WHERE token_hash = ?1)",
                    [&hash],
                    |r| r.get(0),
                )
                .map_err(internal)?;
            if other {
                Err((
                    403,
                    "this is a team's or the organiser's token: the worker API takes a worker's \
                     token (worker_...), made with `rollarena arena worker DIR NAME`"
                        .into(),
                ))
            } else {
                Err((
                    401,
                    "this worker token is not valid in this arena: check that it was copied \
                     whole, or ask the organiser for one (`rollarena arena worker DIR NAME`)"
                        .into(),
                ))
            }
        }
    }
}

/// Notes what a worker said of itself, and when.
pub fn touch(conn: &Connection, worker: &Worker, hello: &Hello) -> Result<(), String> {
    conn.execute(
        "UPDATE workers SET instance = ?1, version = ?2, arch = ?3, jobs = ?4, last_contact = ?5
         WHERE id = ?6",
        params![
            hello.name,
            hello.version,
            hello.arch,
            hello.jobs,
            db::now_ms(),
            worker.id
        ],
    )
    .map_err(sql)?;
    Ok(())
}

/// Notes a worker's contact (heartbeats, uploads).
pub fn seen(conn: &Connection, worker: &Worker) -> Result<(), String> {
    conn.execute(
        "UPDATE workers SET last_contact = ?1 WHERE id = ?2",
        params![db::now_ms(), worker.id],
    )
    .map_err(sql)?;
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

/// Every worker, by name.
pub fn list(conn: &Connection) -> Result<Vec<WorkerRow>, String> {
    let hour_ago = db::now_ms() - 3_600_000;
    let mut stmt = conn
        .prepare_cached(
            "SELECT w.name, w.revoked, w.instance, w.version, w.arch, w.jobs, w.last_contact,
                 (SELECT COUNT(*) FROM worker_matches x WHERE x.worker_id = w.id),
                 (SELECT COUNT(*) FROM worker_matches x WHERE x.worker_id = w.id
                      AND x.finished_at > ?1),
                 w.refused_uploads,
                 (SELECT COUNT(*) FROM matches m WHERE m.worker_id = w.id
                      AND m.state = 'running' AND m.lease_owner LIKE 'worker:%')
             FROM workers w ORDER BY w.name",
        )
        .map_err(sql)?;
    stmt.query_map([hour_ago], |r| {
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
    })
    .map_err(sql)?
    .collect::<Result<_, _>>()
    .map_err(sql)
}
