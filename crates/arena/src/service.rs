//! The arena's background work, started by `rollarena serve`: `[build] workers` builders
//! (queued versions built and checked, each in a child process of its own:
//! [`crate::submissions::builder`]), the matchmaker (a backlog of matches kept, expired
//! leases swept), N embedded match workers and the grader of finished matches
//! ([`crate::grading`]), each a thread of its own.
//!
//! **A failing build or match fails only itself.** A build runs in a child process, so that
//! nothing it does can end the server. A match plays in its worker's thread (its seats are
//! processes of their own; the worker's part is the arbiter's protocol handling, and the live
//! view streams from it): a panic there is caught and fails that match alone; anything that
//! still takes the process down is counted at the next start (`matches.crashes`, as a lost
//! lease is), and a match that took its worker down twice is `failed`.
//!
//! **Recovery.** One server per arena directory (an exclusive lock on `DIR/arena.lock`, which
//! the kernel drops when the server dies, even by SIGKILL). So at start, every match or build
//! still marked running by an embedded worker belongs to a server that is gone: it is queued
//! again at once (a remote worker's waits for its lease to run out), its half-written record
//! is dropped when it is played again, and a match is counted only by the transaction that
//! sets `rated`, so none counts twice. Each such match or build counts as a crash of its
//! worker: the second one fails it. The web server serves at once; builds resume in the
//! background. No bot or build outlives the server: each runs under
//! the sandbox's wrapper, killed by its parent-death signal when the server's thread that
//! started it dies, taking the process's PID namespace with it.

use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use super::ladder::{matchmaker, worker};
use super::rundir::{self, Sandboxes};
use super::store::builds;
use super::store::ladder::Lost;
use super::submissions::builder;
use super::{Arena, admin};
use crate::sandbox::Isolation;

/// Who embedded workers are, in `lease_owner`.
pub const EMBEDDED: &str = "embedded:";

/// How often idle loops look for work.
const IDLE: Duration = Duration::from_millis(300);

/// The running background work.
pub struct Service {
    arena: Arc<Arena>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    _lock: std::fs::File,
}

impl Service {
    /// Recovers unfinished work, then starts the builder, the matchmaker and `workers` match
    /// workers.
    pub fn start(arena: Arc<Arena>, workers: usize) -> Result<Service, String> {
        let lock = lock(&arena)?;
        recover(&arena)?;
        let sandboxes = Sandboxes::new(&arena)?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        let spawn = |name: String, f: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .name(name)
                .spawn(f)
                .map_err(|e| format!("cannot start a thread: {e}"))
        };
        for n in 0..arena.config.build.builders() {
            let (arena, stop) = (arena.clone(), stop.clone());
            threads.push(spawn(
                format!("arena-builder-{n}"),
                Box::new(move || builder_loop(&arena, n, &stop)),
            )?);
        }
        {
            let (arena, stop) = (arena.clone(), stop.clone());
            threads.push(spawn(
                "arena-matchmaker".into(),
                Box::new(move || matchmaker_loop(&arena, workers, &stop)),
            )?);
        }
        {
            let (arena, stop) = (arena.clone(), stop.clone());
            threads.push(spawn(
                "arena-grader".into(),
                Box::new(move || super::grading::run(&arena, &stop)),
            )?);
        }
        for n in 0..workers {
            let (arena, stop, iso) = (arena.clone(), stop.clone(), sandboxes.seats.clone());
            threads.push(spawn(
                format!("arena-worker-{n}"),
                Box::new(move || worker_loop(&arena, &iso, n, workers, &stop)),
            )?);
        }
        Ok(Service {
            arena,
            stop,
            threads,
            _lock: lock,
        })
    }

    /// Stops everything: matches in play are stopped (their bots killed) and queued again, a
    /// build in progress is killed and queued again; a check in progress is given 2 s to finish
    /// (`builder`'s grace), then killed and queued again (`rollarena serve` exits anyway at its
    /// deadline: the next start queues it again).
    pub fn shutdown(self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads {
            let _ = t.join();
        }
        // Shutdown (task C): the builder left its version `building`; queue it again now, not
        // only at the next start.
        let owner = format!("{EMBEDDED}{}:%", std::process::id());
        if let Err(e) = self
            .arena
            .conn()
            .and_then(|c| Ok(builds::requeue_owned(&c, &owner)?))
        {
            tracing::warn!("arena: stopping: {e}");
        }
    }
}

/// The arena's lock: one server per directory.
pub fn lock(arena: &Arena) -> Result<std::fs::File, String> {
    let path = arena.dir.join("arena.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(format!(
            "another rollarena is serving {} already: stop it first (one server per arena)",
            arena.dir.display()
        ));
    }
    Ok(file)
}

/// Queues again whatever an earlier server left running (see the module header), removes
/// upload leftovers and run directories, makes `versions/` root's only (an arena made before
/// run directories had it 0711), and brings the anchors in line with `arena.toml`.
pub fn recover(arena: &Arena) -> Result<(), String> {
    rundir::set_mode(&arena.dir.join("versions"), 0o700)?;
    rundir::prepare(&arena.dir)?;
    let conn = arena.conn()?;
    let like = format!("{EMBEDDED}%");
    matchmaker::expire(
        &conn,
        Lost::OwnedLike(&like),
        arena.config.ladder.max_attempts,
    )?;
    matchmaker::sweep(&conn, arena.config.ladder.max_attempts)?;
    super::submissions::remove_leftovers(arena)?;
    admin::sync_anchors(arena)?;
    Ok(())
}

fn matchmaker_loop(arena: &Arena, workers: usize, stop: &AtomicBool) {
    let mut conn = None;
    while !stop.load(Ordering::SeqCst) {
        let step = (|| -> Result<(), String> {
            if conn.is_none() {
                conn = Some(arena.conn()?);
            }
            let c = conn.as_mut().expect("connected");
            matchmaker::sweep(c, arena.config.ladder.max_attempts)?;
            matchmaker::top_up(arena, c, workers.max(1) * 2)?;
            super::finals::tournament::advance(arena, c)?;
            Ok(())
        })();
        if let Err(e) = step {
            tracing::warn!("arena matchmaker: {e}");
            conn = None;
        }
        std::thread::sleep(IDLE);
    }
}

fn worker_loop(arena: &Arena, iso: &Isolation, n: usize, workers: usize, stop: &AtomicBool) {
    let owner = format!("{EMBEDDED}{}:{n}", std::process::id());
    let mut conn = None;
    while !stop.load(Ordering::SeqCst) {
        let step = (|| -> Result<bool, String> {
            if conn.is_none() {
                conn = Some(arena.conn()?);
            }
            let c = conn.as_mut().expect("connected");
            if worker::work_once(arena, iso, c, &owner, stop)? {
                return Ok(true);
            }
            // Nothing queued: a worker that waited for the matchmaker's next round would
            // idle most of the time when matches are short (the benchmark's minimal bots play
            // one in a few tens of ms), so it tops the backlog up itself and goes on.
            Ok(matchmaker::top_up(arena, c, workers.max(1) * 2)? > 0)
        })();
        match step {
            Ok(true) => {}
            Ok(false) => std::thread::sleep(IDLE),
            Err(e) => {
                tracing::warn!("arena worker {n}: {e}");
                conn = None;
                std::thread::sleep(IDLE);
            }
        }
    }
}

fn builder_loop(arena: &Arena, n: usize, stop: &AtomicBool) {
    let owner = format!("{EMBEDDED}{}:builder-{n}", std::process::id());
    while !stop.load(Ordering::SeqCst) {
        match build_once(arena, &owner, stop) {
            Ok(true) => {}
            Ok(false) => std::thread::sleep(IDLE),
            Err(e) => {
                tracing::warn!("arena builder {n}: {e}");
                std::thread::sleep(IDLE);
            }
        }
    }
}

/// Builds and checks the next queued version (in a child process, see
/// [`builder::build_once`]); false when there was none.
pub fn build_once(arena: &Arena, owner: &str, stop: &AtomicBool) -> Result<bool, String> {
    builder::build_once(arena, owner, stop)
}
