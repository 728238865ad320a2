//! The worker process (`rollarena worker`): `jobs` threads, each leasing a match, fetching the
//! artifacts it needs (through the [`Cache`]), playing it with the ladder's own
//! [`play_match`] in this machine's sandbox (each seat a fresh copy of its artifact in a run
//! directory, as the embedded worker does), streaming its live messages in batches, renewing
//! the lease every third of it from a thread of its own, and uploading the record.
//!
//! The server may go away (a restart, a network cut): every call is retried with backoff
//! (1 s doubling to 30 s) and the worker carries on where it was; a lease lost meanwhile is
//! the server's to requeue, and the worker drops that match when a heartbeat says so. A
//! refused token or an incompatible server stops the worker at once with the server's
//! message. On SIGTERM or SIGINT it stops its matches (their bots killed) and releases them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::cache::{Cache, Missing};
use super::client::{CallError, Client};
use super::wire::{Hello, Lease, Welcome};
use crate::ladder::worker::{Played, play_match};
use crate::rundir::RunDir;
use crate::sandbox::Isolation;
use crate::submissions::checking::seat;

/// How often an idle job asks for a match.
const IDLE: Duration = Duration::from_secs(1);
/// How often live messages are sent.
const LIVE_BATCH: Duration = Duration::from_millis(200);

/// A worker's settings.
pub struct Worker {
    pub client: Client,
    /// This process's name, as the organiser's page shows it.
    pub name: String,
    pub jobs: u32,
    pub cache: Cache,
    pub iso: Isolation,
    /// Where run directories and records in progress go (traversable by the bots' uids).
    pub work: PathBuf,
}

/// Backoff for calls to an unreachable server: 1 s, doubling, at most 30 s.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Backoff {
        Backoff(Duration::from_secs(1))
    }
    fn next(&mut self) -> Duration {
        let d = self.0;
        self.0 = (self.0 * 2).min(Duration::from_secs(30));
        d
    }
}

/// Sleeps `d`, waking early when `stop` is set; false when it was.
fn nap(d: Duration, stop: &AtomicBool) -> bool {
    let until = Instant::now() + d;
    while Instant::now() < until {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100).min(until - Instant::now()));
    }
    !stop.load(Ordering::SeqCst)
}

/// Whether a refusal means this worker cannot work with this server at all.
fn fatal(e: &CallError) -> bool {
    matches!(
        e,
        CallError::Refused {
            status: 401 | 403 | 404 | 409 | 400,
            ..
        }
    )
}

/// Says hello until the server answers (retrying while it is unreachable); a refusal is the
/// error.
pub fn connect(w: &Worker, stop: &AtomicBool) -> Result<Option<Welcome>, String> {
    let mut backoff = Backoff::new();
    loop {
        match w.client.hello(&Hello::this(&w.name, w.jobs, w.jobs)) {
            Ok(welcome) => return Ok(Some(welcome)),
            Err(CallError::Unreachable(e)) => {
                let wait = backoff.next();
                tracing::warn!(
                    "cannot reach the server at {} ({e}); trying again in {}s",
                    w.client.base(),
                    wait.as_secs()
                );
                if !nap(wait, stop) {
                    return Ok(None);
                }
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Runs the worker until `stop` is set or the server refuses it for good (the error).
pub fn run(w: Arc<Worker>, stop: Arc<AtomicBool>) -> Result<(), String> {
    let Some(welcome) = connect(&w, &stop)? else {
        return Ok(());
    };
    eprintln!(
        "rollarena worker: {} playing for {} as worker {:?} ({} job{}, {}); SIGTERM or Ctrl-C \
         stops it",
        w.name,
        w.client.base(),
        welcome.worker,
        w.jobs,
        if w.jobs == 1 { "" } else { "s" },
        std::env::consts::ARCH
    );
    let free = Arc::new(AtomicU32::new(w.jobs));
    let failure: Arc<Mutex<Option<String>>> = Arc::default();
    let mut threads = Vec::new();
    for n in 0..w.jobs {
        let (w, stop, free, failure) = (w.clone(), stop.clone(), free.clone(), failure.clone());
        threads.push(
            std::thread::Builder::new()
                .name(format!("worker-job-{n}"))
                .spawn(move || {
                    if let Err(e) = job(&w, &stop, &free) {
                        failure
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .get_or_insert(e);
                        stop.store(true, Ordering::SeqCst);
                    }
                })
                .map_err(|e| format!("cannot start a thread: {e}"))?,
        );
    }
    for t in threads {
        let _ = t.join();
    }
    match failure.lock().unwrap_or_else(|p| p.into_inner()).take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One job: lease, play, upload, until stopped.
fn job(w: &Worker, stop: &AtomicBool, free: &AtomicU32) -> Result<(), String> {
    let mut backoff = Backoff::new();
    let mut unreachable = false;
    while !stop.load(Ordering::SeqCst) {
        let hello = Hello::this(&w.name, w.jobs, free.load(Ordering::SeqCst));
        match w.client.lease(&hello) {
            Ok(None) => {
                unreachable = false;
                backoff = Backoff::new();
                nap(IDLE, stop);
            }
            Ok(Some(lease)) => {
                unreachable = false;
                backoff = Backoff::new();
                free.fetch_sub(1, Ordering::SeqCst);
                play(w, &lease, stop);
                free.fetch_add(1, Ordering::SeqCst);
            }
            Err(e) if fatal(&e) => return Err(e.to_string()),
            Err(e) => {
                let wait = backoff.next();
                if !unreachable {
                    tracing::warn!("{e}; trying again (every {}s at most)", 30);
                }
                unreachable = matches!(e, CallError::Unreachable(_));
                nap(wait, stop);
            }
        }
    }
    Ok(())
}

/// Gives a match back, with the reason when the worker could not play it.
fn give_back(w: &Worker, lease: &Lease, error: Option<String>) {
    if let Some(e) = &error {
        tracing::warn!("match {}: cannot play it: {e}", lease.match_id);
    }
    if let Err(e) = w.client.release(lease.match_id, &lease.lease, error) {
        tracing::warn!("match {}: releasing it: {e}", lease.match_id);
    }
}

/// Refuses a lease with an artifact built on another architecture than `arch`.
pub fn runnable(lease: &Lease, arch: &str) -> Result<(), String> {
    match lease
        .seats
        .iter()
        .filter_map(|s| s.artifact.as_ref())
        .find(|a| a.arch != arch)
    {
        Some(other) => Err(format!(
            "this worker runs on {arch}, and an artifact of the match was built on {}: it \
             cannot run it",
            other.arch
        )),
        None => Ok(()),
    }
}

/// Plays one leased match and uploads its record.
fn play(w: &Worker, lease: &Lease, stop: &AtomicBool) {
    let id = lease.match_id;
    if let Err(e) = runnable(lease, std::env::consts::ARCH) {
        return give_back(w, lease, Some(e));
    }
    // Each seat runs a fresh copy of its artifact, removed when `runs` is dropped.
    let mut runs: Vec<Option<RunDir>> = Vec::new();
    let mut seats = Vec::new();
    for s in &lease.seats {
        let dir = match &s.artifact {
            None => PathBuf::new(),
            Some(a) => match w.cache.get(&w.client, a) {
                Ok(dir) => dir,
                Err(Missing::Unreachable(e)) => {
                    tracing::warn!("match {id}: cannot fetch an artifact ({e}); left to expire");
                    return;
                }
                Err(Missing::Refused(e)) => return give_back(w, lease, Some(e)),
            },
        };
        match seat(&w.work, &dir, &s.run) {
            Ok((argv, run)) => {
                runs.push(run);
                seats.push((s.name.clone(), argv));
            }
            Err(e) => return give_back(w, lease, Some(e)),
        }
    }
    let config = match lease
        .rules
        .match_config(id, lease.seed, lease.rounds, seats, &w.iso)
    {
        Ok(c) => c,
        Err(e) => return give_back(w, lease, Some(e)),
    };
    let records = w.work.join("records");
    let made = std::fs::create_dir_all(&records)
        .map_err(|e| format!("{}: {e}", records.display()))
        .and_then(|_| crate::rundir::set_mode(&records, 0o700));
    if let Err(e) = made {
        return give_back(w, lease, Some(e));
    }
    let path = records.join(format!("{id}-{}.jsonl", lease.lease));
    let done = Arc::new(AtomicBool::new(false));
    let lost = Arc::new(AtomicBool::new(false));
    let buffer: Arc<Mutex<Vec<Value>>> = Arc::default();
    let played = std::thread::scope(|scope| {
        scope.spawn(|| heartbeats(w, lease, &done, &lost));
        scope.spawn(|| live(w, lease, &buffer, &done, &lost));
        let sink = buffer.clone();
        let observer = crate::live::observer(Box::new(move |m| {
            sink.lock().unwrap_or_else(|p| p.into_inner()).push(m)
        }));
        let played = play_match(&config, &path, observer, &mut || {
            !stop.load(Ordering::SeqCst) && !lost.load(Ordering::SeqCst)
        });
        done.store(true, Ordering::SeqCst);
        played
    });
    drop(runs);
    match played {
        Ok(Played::Recorded) => upload(w, lease, &path, stop),
        Ok(Played::Stopped) if lost.load(Ordering::SeqCst) => {
            tracing::warn!(
                "match {id}: the lease was lost (the server gave the match to another); dropped"
            );
        }
        Ok(Played::Stopped) => give_back(w, lease, None),
        Err(e) => give_back(w, lease, Some(e)),
    }
    let _ = std::fs::remove_file(&path);
}

/// Renews the lease every third of it until the match is done; sets `lost` when the server
/// says the lease is no longer this worker's.
fn heartbeats(w: &Worker, lease: &Lease, done: &AtomicBool, lost: &AtomicBool) {
    let every = Duration::from_millis((lease.lease_ms / 3).max(200));
    loop {
        if !nap(every, done) {
            return;
        }
        match w.client.heartbeat(lease.match_id, &lease.lease) {
            Ok(_) => {}
            Err(CallError::Unreachable(e)) => {
                tracing::warn!(
                    "match {}: heartbeat: the server cannot be reached ({e})",
                    lease.match_id
                )
            }
            Err(e) => {
                tracing::warn!("match {}: heartbeat: {e}", lease.match_id);
                lost.store(true, Ordering::SeqCst);
                return;
            }
        }
    }
}

/// Sends the live messages in batches until the match is done (then the last batch).
fn live(
    w: &Worker,
    lease: &Lease,
    buffer: &Mutex<Vec<Value>>,
    done: &AtomicBool,
    lost: &AtomicBool,
) {
    loop {
        let last = !nap(LIVE_BATCH, done);
        let batch = std::mem::take(&mut *buffer.lock().unwrap_or_else(|p| p.into_inner()));
        if !batch.is_empty() && !lost.load(Ordering::SeqCst) {
            // Live messages are a view: one the server misses is not retried.
            if let Err(e) = w.client.live(lease.match_id, &lease.lease, &batch)
                && !matches!(e, CallError::Unreachable(_))
            {
                tracing::debug!("match {}: live: {e}", lease.match_id);
            }
        }
        if last {
            return;
        }
    }
}

/// Uploads the record, retrying while the server is unreachable (for at most twice the
/// lease: after that the match was surely given to another).
fn upload(w: &Worker, lease: &Lease, path: &Path, stop: &AtomicBool) {
    let id = lease.match_id;
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return give_back(w, lease, Some(format!("{}: {e}", path.display()))),
    };
    let give_up = Instant::now() + Duration::from_millis(lease.lease_ms * 2);
    let mut backoff = Backoff::new();
    loop {
        match w.client.upload(id, &lease.lease, &bytes) {
            Ok(c) => {
                tracing::info!("match {id}: counted (points {:?})", c.points);
                return;
            }
            Err(CallError::Unreachable(e)) if Instant::now() < give_up => {
                tracing::warn!("match {id}: upload: the server cannot be reached ({e}); retrying");
                if !nap(backoff.next(), stop) {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!("match {id}: the record was not counted: {e}");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::wire::{Artifact, LeaseSeat};

    #[test]
    fn a_lease_built_on_another_architecture_is_refused() {
        let game = crate::game::registry::default_name();
        let config = crate::config::Config::new(game, Default::default()).unwrap();
        let seat = |arch: Option<&str>| LeaseSeat {
            name: "s".into(),
            run: "bot".into(),
            artifact: arch.map(|a| Artifact {
                sha256: "0".repeat(64),
                bytes: 1,
                arch: a.into(),
            }),
        };
        let mut lease = Lease {
            match_id: 1,
            lease: "l".into(),
            lease_until: 0,
            lease_ms: 1,
            seed: 1,
            rounds: 2,
            rules: crate::ladder::worker::Rules::of(&config),
            seats: vec![seat(None), seat(Some("x86_64"))],
        };
        assert!(runnable(&lease, "x86_64").is_ok());
        lease.seats.push(seat(Some("aarch64")));
        let err = runnable(&lease, "x86_64").unwrap_err();
        assert!(err.contains("built on aarch64"), "{err}");
    }
}
