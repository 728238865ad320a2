//! Workers' registrations: `rollarena arena worker DIR NAME` makes one and prints its token
//! (stored as a SHA-256, as teams' are), `--revoke` closes it. The worker API takes a worker's
//! token only: a team's or the organiser's is refused (403), an unknown or revoked one too
//! (401), each saying which it was. [`list`] is what the organiser's page shows of them.

use rusqlite::Connection;

use super::wire::Hello;
use crate::store::db;
use crate::store::{WorkerId, sessions, workers};
use crate::{Arena, admin, tokens};

/// A worker the token opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worker {
    pub id: WorkerId,
    pub name: String,
}

/// Registers a worker; returns its token (shown once). Names follow the teams' rules.
pub fn add(arena: &Arena, name: &str) -> Result<String, String> {
    admin::check_name(name).map_err(|e| e.replace("team name", "worker name"))?;
    let conn = arena.conn()?;
    if workers::find(&conn, name)?.is_some() {
        return Err(format!(
            "there is already a worker named {name:?}: choose another name (or revoke it with \
             `rollarena arena worker DIR {name:?} --revoke` and register a new one)"
        ));
    }
    let token = tokens::generate(tokens::Kind::Worker);
    workers::insert(&conn, name, &tokens::hash(&token), db::now_ms())?;
    Ok(token)
}

/// Revokes a worker's token: it is refused from now on (its leases run out as any lost
/// worker's do).
pub fn revoke(arena: &Arena, name: &str) -> Result<(), String> {
    let conn = arena.conn()?;
    if !workers::revoke(&conn, name)? {
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
    let internal = |e: crate::store::StoreError| (500, e.to_string());
    let row = workers::of_token(conn, &hash).map_err(internal)?;
    match row {
        Some((_, name, true)) => Err((
            401,
            format!("the token of worker {name:?} was revoked by the organiser: ask for a new one"),
        )),
        Some((id, name, false)) => Ok(Worker { id, name }),
        None => {
            let other = sessions::is_login_token(conn, &hash).map_err(internal)?;
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
    let said = workers::Said {
        instance: &hello.name,
        version: &hello.version,
        arch: &hello.arch,
        jobs: hello.jobs,
    };
    Ok(workers::touch(conn, worker.id, &said, db::now_ms())?)
}

/// Notes a worker's contact (heartbeats, uploads).
pub fn seen(conn: &Connection, worker: &Worker) -> Result<(), String> {
    Ok(workers::seen(conn, worker.id, db::now_ms())?)
}

/// A worker, as the organiser's page lists it (the store's row).
pub use crate::store::workers::WorkerRow;

/// Every worker, by name.
pub fn list(conn: &Connection) -> Result<Vec<WorkerRow>, String> {
    Ok(workers::list(conn, db::now_ms() - 3_600_000)?)
}
