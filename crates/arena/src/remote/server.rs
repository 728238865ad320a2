//! The server's side of the worker API, as plain functions over the arena (the HTTP layer,
//! `web::workers`, only parses and answers): `hello`, `lease`, `heartbeat`, `live`, `upload`,
//! `release`, and the artifacts. Every call about a match names its lease; a lease that is no
//! longer the worker's (it ran out and the match was queued again or given to another, or the
//! match is over) answers 409 and changes nothing.
//!
//! An upload counts only through the ladder's own [`judge`] and [`finish`] (the embedded
//! workers' path). One that does not verify is refused (422), logged with the worker's name,
//! counted on the worker's row, kept in `DIR/refused/` as evidence (never in `records/`), and
//! the match is queued again (failed after `max_attempts`).

use std::path::PathBuf;

use rusqlite::Connection;
use serde_json::Value;

use super::artifact;
use super::registry::{self, Worker};
use super::wire::{self, Counted, Hello, Lease, LeaseSeat, Release, Renewed, Welcome};
use crate::ladder::matchmaker;
use crate::ladder::worker::{self as ladder, Rules};
use crate::store::db;
use crate::store::{self, MatchId, MatchState, leases, workers};
use crate::{Arena, rundir};

/// A refusal: why (which the web layer answers with its HTTP status, `web::WebError`) and
/// the message.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub why: Why,
    pub message: String,
}

/// Why a worker's call is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The call is malformed (a name that is not printable, not a SHA-256).
    Bad,
    /// No such match or artifact.
    NotFound,
    /// Another rollarena version, or a lease that is no longer the worker's.
    Conflict,
    /// A record larger than an upload may be.
    TooLarge,
    /// A record that does not verify.
    Unverified,
    /// The arena's own failure (its database, its disk).
    Internal,
}

impl Refused {
    fn new(why: Why, message: impl Into<String>) -> Refused {
        Refused {
            why,
            message: message.into(),
        }
    }
}

impl From<store::StoreError> for Refused {
    /// The arena's own failure: its database.
    fn from(e: store::StoreError) -> Refused {
        Refused::new(Why::Internal, e.to_string())
    }
}

impl From<String> for Refused {
    /// The arena's own failure (its database, its disk).
    fn from(message: String) -> Refused {
        Refused::new(Why::Internal, message)
    }
}

type Result<T> = std::result::Result<T, Refused>;

/// The lease owner of lease `lease` of `worker`.
pub fn owner(worker: &Worker, lease: &str) -> String {
    format!("worker:{}:{lease}", worker.name)
}

/// Checks a worker's version and notes what it said of itself.
pub fn hello(arena: &Arena, conn: &Connection, worker: &Worker, h: &Hello) -> Result<Welcome> {
    if h.version != wire::VERSION || h.protocol != wire::PROTOCOL {
        return Err(Refused::new(
            Why::Conflict,
            format!(
                "incompatible versions: this server runs rollarena {} (worker protocol {}), the \
                 worker rollarena {} (protocol {}): run the server's version on the workers \
                 (built-in bots, records and the referee must be the same)",
                wire::VERSION,
                wire::PROTOCOL,
                h.version,
                h.protocol
            ),
        ));
    }
    if h.name.chars().any(char::is_control) || h.name.len() > 256 {
        return Err(Refused::new(
            Why::Bad,
            "the worker's --name must be printable and at most 256 bytes",
        ));
    }
    registry::touch(conn, worker, h)?;
    Ok(Welcome {
        worker: worker.name.clone(),
        version: wire::VERSION.into(),
        protocol: wire::PROTOCOL,
        arch: std::env::consts::ARCH.into(),
        lease_ms: arena.config.ladder.lease.as_millis() as u64,
    })
}

/// Leases the oldest queued match the worker's architecture can run (`None`: nothing to play
/// now). Queues more matches when none waits, as an idle embedded worker does.
pub fn lease(
    arena: &Arena,
    conn: &mut Connection,
    worker: &Worker,
    h: &Hello,
) -> Result<Option<Lease>> {
    hello(arena, conn, worker, h)?;
    if h.free == 0 {
        return Ok(None);
    }
    let lease_len = arena.config.ladder.lease;
    for _ in 0..8 {
        let lease = crate::tokens::random_hex(8);
        let owner = owner(worker, &lease);
        let claimed = ladder::claim_for(conn, &owner, lease_len, Some(&h.arch))?;
        let Some(m) = claimed else {
            if matchmaker::top_up(arena, conn, 2 * h.jobs.max(1) as usize)? > 0 {
                continue;
            }
            return Ok(None);
        };
        leases::set_worker(conn, MatchId(m.id), worker.id)?;
        // What a lost worker streamed of an earlier attempt ends here: the new one starts over.
        arena.live.end(m.id);
        let mut seats = Vec::with_capacity(m.seats.len());
        let mut broken = None;
        for s in &m.seats {
            match artifact::ensure(arena, conn, s.version) {
                Ok(a) => seats.push(LeaseSeat {
                    name: s.name.clone(),
                    run: s.run_command.clone(),
                    artifact: a,
                }),
                Err(e) => {
                    broken = Some(format!("the artifact of version {}: {e}", s.version));
                    break;
                }
            }
        }
        if let Some(e) = broken {
            // The arena's own failure (a build directory gone): the match cannot be played
            // anywhere, so it fails with the reason rather than go round the workers.
            tracing::error!("arena: match {}: {e}", m.id);
            ladder::fail(conn, &m, &owner, &e)?;
            continue;
        }
        let lease_until = leases::lease_until(conn, MatchId(m.id))?.unwrap_or_default();
        return Ok(Some(Lease {
            match_id: m.id,
            lease,
            lease_until,
            lease_ms: lease_len.as_millis() as u64,
            seed: m.seed,
            rounds: m.rounds,
            rules: Rules::of(&arena.config),
            seats,
        }));
    }
    Ok(None)
}

/// Refuses a call about a match whose lease `lease` is no longer the worker's, saying what
/// became of it.
fn held(conn: &Connection, worker: &Worker, id: i64, lease: &str) -> Result<String> {
    let owner = owner(worker, lease);
    if ladder::holds(conn, id, &owner)? {
        return Ok(owner);
    }
    let row = leases::holder(conn, MatchId(id))?;
    let what = match row {
        None => {
            return Err(Refused::new(
                Why::NotFound,
                format!("there is no match {id}"),
            ));
        }
        Some((MatchState::Done, ..)) => "it was counted already".to_string(),
        Some((MatchState::Running, Some(_), _)) => "it was given to another worker".to_string(),
        Some((MatchState::Queued, ..)) => "it is queued again".to_string(),
        Some((state, ..)) => format!("it is {state}"),
    };
    Err(Refused::new(
        Why::Conflict,
        format!(
            "the lease {lease} on match {id} is no longer this worker's (it ran out, or the \
             match was released): {what}. Nothing this worker sends about it counts"
        ),
    ))
}

/// Renews a lease.
pub fn heartbeat(
    arena: &Arena,
    conn: &Connection,
    worker: &Worker,
    id: i64,
    lease: &str,
) -> Result<Renewed> {
    let owner = held(conn, worker, id, lease)?;
    registry::seen(conn, worker)?;
    if !ladder::heartbeat(conn, id, &owner, arena.config.ladder.lease)? {
        held(conn, worker, id, lease)?;
    }
    let lease_until = leases::lease_until(conn, MatchId(id))?.unwrap_or_default();
    Ok(Renewed { lease_until })
}

/// Publishes a batch of live messages of a match the worker holds, in order.
pub fn live(
    arena: &Arena,
    conn: &Connection,
    worker: &Worker,
    id: i64,
    lease: &str,
    messages: Vec<Value>,
) -> Result<()> {
    held(conn, worker, id, lease)?;
    for m in messages {
        arena.live.publish(id, m);
    }
    Ok(())
}

/// Gives a match back: to the queue as if never leased, or, with an error (the worker could
/// not play it), to the queue with the attempt counted (failed after `max_attempts`).
pub fn release(
    arena: &Arena,
    conn: &Connection,
    worker: &Worker,
    id: i64,
    lease: &str,
    r: &Release,
) -> Result<()> {
    let owner = held(conn, worker, id, lease)?;
    registry::seen(conn, worker)?;
    match &r.error {
        None => ladder::release(conn, id, &owner)?,
        Some(e) => {
            tracing::warn!(
                "arena: worker {:?} could not play match {id}: {e}",
                worker.name
            );
            requeue(
                conn,
                id,
                &owner,
                arena.config.ladder.max_attempts,
                &format!("worker {:?} could not play it: {e}", worker.name),
            )?;
        }
    }
    arena.live.end(id);
    Ok(())
}

/// Queues a match again with its attempt counted, or fails it after `max_attempts`, keeping
/// `error` as the reason.
fn requeue(
    conn: &Connection,
    id: i64,
    owner: &str,
    max_attempts: u32,
    error: &str,
) -> std::result::Result<(), String> {
    let now = db::now_ms();
    Ok(leases::requeue(
        conn,
        MatchId(id),
        owner,
        max_attempts,
        error,
        now,
    )?)
}

/// Takes a match's record from the worker that holds it: verified with the referee, then
/// counted (see the module header).
pub fn upload(
    arena: &Arena,
    conn: &mut Connection,
    worker: &Worker,
    id: i64,
    lease: &str,
    record: &[u8],
) -> Result<Counted> {
    let owner = held(conn, worker, id, lease)?;
    registry::seen(conn, worker)?;
    if record.len() > wire::MAX_RECORD {
        return Err(Refused::new(
            Why::TooLarge,
            format!(
                "the record is {} bytes, more than the {} an upload may be",
                record.len(),
                wire::MAX_RECORD
            ),
        ));
    }
    let m = ladder::claimed(conn, id)?
        .ok_or_else(|| Refused::new(Why::NotFound, format!("no match {id}")))?;
    let incoming = private_dir(arena, "incoming")?.join(format!("{id}-{lease}.jsonl"));
    std::fs::write(&incoming, record).map_err(|e| format!("{}: {e}", incoming.display()))?;
    let results = match ladder::judge(&incoming, &m) {
        Ok(r) => r,
        Err(discrepancy) => {
            let kept = private_dir(arena, "refused")?.join(format!("{id}-{lease}.jsonl"));
            std::fs::rename(&incoming, &kept).map_err(|e| format!("{}: {e}", kept.display()))?;
            tracing::warn!(
                "arena: refused the record of match {id} from worker {:?}: {discrepancy} (kept \
                 as {})",
                worker.name,
                kept.display()
            );
            workers::count_refused_upload(conn, worker.id)?;
            requeue(
                conn,
                id,
                &owner,
                arena.config.ladder.max_attempts,
                &format!(
                    "a record from worker {:?} did not verify: {discrepancy}",
                    worker.name
                ),
            )?;
            arena.live.end(id);
            return Err(Refused::new(
                Why::Unverified,
                format!(
                    "the record of match {id} does not verify, so it counts nothing and the \
                     match is played again: {discrepancy}"
                ),
            ));
        }
    };
    // Still this worker's (checked again inside `finish`'s transaction): the record takes its
    // place, then the match is counted.
    held(conn, worker, id, lease)?;
    let path = arena.dir.join(Arena::record_path(id));
    std::fs::rename(&incoming, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !ladder::finish(conn, arena, &m, &owner, &results)? {
        held(conn, worker, id, lease)?;
    }
    workers::count_match(conn, worker.id, MatchId(id), db::now_ms())?;
    arena.live.end(id);
    Ok(Counted {
        match_id: id,
        points: results.iter().map(|r| r.points).collect(),
        ranks: results.iter().map(|r| r.rank).collect(),
    })
}

/// `DIR/NAME/`, root's only.
fn private_dir(arena: &Arena, name: &str) -> std::result::Result<PathBuf, String> {
    let dir = arena.dir.join(name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    rundir::set_mode(&dir, 0o700)?;
    Ok(dir)
}

/// The bytes of the artifact with this hash.
pub fn artifact_bytes(arena: &Arena, conn: &Connection, sha256: &str) -> Result<Vec<u8>> {
    if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Refused::new(
            Why::Bad,
            format!("{sha256:?} is not a SHA-256 (64 hex digits)"),
        ));
    }
    let path = artifact::find(arena, conn, sha256)?.ok_or_else(|| {
        Refused::new(
            Why::NotFound,
            format!("no version has the artifact {sha256}"),
        )
    })?;
    Ok(std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?)
}
