//! Remote workers (`rollarena worker`) and the server's worker API, on loopback with the real
//! binary, real bots (the Python kit against the built-in greedy anchor) and `serve
//! --workers 0`, so every match is played by a remote worker:
//!
//! - `api`: who may call the worker API (a wrong, missing, revoked, team's or organiser's
//!   token: 401/403, each with its message), an incompatible version, an architecture the
//!   arena has no build for (not leased), a record that comes back after its lease ran out
//!   (409, counts nothing), a record edited after play (422, kept aside, the worker's refusal
//!   counted, the match played again), the same record unedited (counted once);
//! - `kill`: two workers, one SIGKILLed mid-match: the match runs again on the other, counts
//!   once, each version's ratings form one chain, no bot of the killed worker is left; a
//!   worker SIGSTOPped past its lease and continued drops the match it lost;
//! - `artifacts`: an artifact whose bytes do not match its hash is refused by the worker and
//!   not cached, and the match fails with the reason after its attempts.
//! - `restart`: the server stopped and started again under a worker, which carries on;
//! - `spying`: the arena's spy bot on a remote worker, told where the worker caches the
//!   victim's artifact, reads nothing of it, of the worker's directories or of the other seat;
//! - `slurm`: `examples/slurm/worker.sbatch` as a job array on the real single-node Slurm of
//!   `tests/slurm`, counted on the server, then scancel.
//!
//! Each test has uid ranges of its own (63000-63499 belong to this suite) so that the
//! processes it counts are its own. Waits are for states, with wide limits.

mod api;
mod artifacts;
mod kill;
mod restart;
mod slurm;
mod spying;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::arena::web::{Arena, Server, kit, submit};
use crate::check::rollarena;

pub use crate::arena::web::wait_for;

/// An arena for these tests: Rolit, the greedy anchor, the Python kit as team `py`, its seats
/// and builds under `uids` (two ranges), a lease of `lease`.
pub fn arena(uids: [(u32, u32); 2], lease: &str, extra_toml: &str) -> Arena {
    let arena = Arena::init(&["--anchor", "greedy"], extra_toml);
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace(
            "bot_uids = \"60000-60999\"",
            &format!("bot_uids = \"{}-{}\"", uids[0].0, uids[0].1),
        )
        .replace(
            "uids = \"61000-61099\"",
            &format!("uids = \"{}-{}\"", uids[1].0, uids[1].1),
        )
        .replace("lease = \"2m\"", &format!("lease = \"{lease}\""));
    assert!(text.contains(&format!("lease = \"{lease}\"")), "{text}");
    std::fs::write(&toml, text).unwrap();
    arena
}

/// Submits a Python bot (`source`, or the kit's) as a new team `name`, waiting for its check.
pub fn python_team(arena: &Arena, server: &Server, name: &str, source: Option<&str>) -> String {
    let token = arena.team(name);
    let tmp = crate::check::shared_tempdir("rollarena-remote-bot-");
    let file = tmp.path().join("bot.py");
    match source {
        Some(s) => std::fs::write(&file, s).unwrap(),
        None => std::fs::copy(kit("python").join("bot.py"), &file)
            .map(|_| ())
            .unwrap(),
    }
    let (code, out, err) = submit(server, &token, &file, &["--wait"]);
    assert_eq!(code, 0, "{out}{err}");
    token
}

/// The Python kit, sleeping `secs` before it starts: its matches last long enough to be
/// caught in play.
pub fn slow_python(secs: f64) -> String {
    let source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let (head, rest) = source.split_once("\nimport ").unwrap();
    format!("{head}\nimport time as _t; _t.sleep({secs})\nimport {rest}")
}

/// `rollarena arena worker DIR NAME`: the worker's token.
pub fn register(arena: &Arena, name: &str) -> String {
    arena.token("worker", name)
}

/// A running `rollarena worker`.
pub struct Worker {
    pub child: Child,
    stderr: Arc<Mutex<String>>,
    pub cache: tempfile::TempDir,
}

impl Worker {
    /// Starts a worker of `server` with `token`, its bots under `uids`, a fresh cache.
    pub fn start(server: &str, token: &str, uids: (u32, u32), name: &str) -> Worker {
        Worker::start_in(server, token, uids, name, &std::env::temp_dir())
    }

    /// [`Worker::start`] with its cache and its work directory (run directories, records in
    /// progress: `TMPDIR`) under `tmp`.
    pub fn start_in(
        server: &str,
        token: &str,
        uids: (u32, u32),
        name: &str,
        tmp: &std::path::Path,
    ) -> Worker {
        let cache = tempfile::tempdir_in(tmp).unwrap();
        let mut child = Command::new(rollarena())
            .args(["worker", "--server", server, "--jobs", "1", "--name", name])
            .args(["--bot-uids", &format!("{}-{}", uids.0, uids.1)])
            .arg("--cache")
            .arg(cache.path())
            .env("ROLLARENA_WORKER_TOKEN", token)
            .env("TMPDIR", tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let log = stderr.clone();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 {
                log.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        Worker {
            child,
            stderr,
            cache,
        }
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    pub fn signal(&self, signal: i32) {
        unsafe { libc::kill(self.pid(), signal) };
    }

    /// SIGTERM, and waits for it to exit (its exit status).
    pub fn stop(mut self) -> std::process::ExitStatus {
        let stderr = self.stderr.clone();
        crate::arena::web::terminate(&mut self.child, "the worker", || {
            stderr.lock().unwrap().clone()
        })
    }

    /// Waits for it to exit by itself; its status.
    pub fn wait(mut self, limit: Duration) -> (std::process::ExitStatus, String) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(200));
                return (status, self.stderr());
            }
            assert!(
                started.elapsed() < limit,
                "the worker did not exit: {}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        unsafe { libc::kill(self.pid(), libc::SIGCONT) };
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks that every version's ratings form one chain over its rated matches (each match's
/// rating before is the previous one's after, the last the version's own) and that no match
/// counts twice.
pub fn ratings_chain(arena: &Arena) {
    let conn = arena.db();
    let versions = arena.ids("SELECT id FROM versions");
    for v in versions {
        let mut stmt = conn
            .prepare(
                "SELECT s.mu_before, s.mu_after FROM match_seats s JOIN matches m ON m.id = \
                 s.match_id WHERE s.version_id = ?1 AND m.rated = 1 ORDER BY m.finished_at, m.id",
            )
            .unwrap();
        let chain: Vec<(f64, f64)> = stmt
            .query_map([v], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for w in chain.windows(2) {
            assert!(
                (w[0].1 - w[1].0).abs() < 1e-9,
                "version {v}: a match's rating before is not the previous match's after: {chain:?}"
            );
        }
        let (mu, matches): (f64, i64) = conn
            .query_row("SELECT mu, matches FROM versions WHERE id = ?1", [v], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(matches as usize, chain.len(), "version {v}: rated matches");
        if let Some(last) = chain.last() {
            assert!(
                (last.1 - mu).abs() < 1e-9,
                "version {v}: {chain:?} ends at {mu}"
            );
        }
    }
}

/// A path under the arena.
pub fn under(arena: &Arena, rel: &str) -> std::path::PathBuf {
    arena.dir().join(rel)
}
