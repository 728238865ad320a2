//! The arena's core (issue 28), through its library: uploads refused as data (each bad upload
//! in, its message out, the arena unchanged), builds that exceed their limits (real processes
//! in the sandbox), a broken bot whose check fails with its diagnosis, the Python and C kits
//! submitted, built, checked and playing ladder matches through `Service` (records verified,
//! ratings moved once per match), recovery after a simulated crash, a spy bot that reads
//! nothing of another team's version, hostile trees and disk quotas (`quotas` at build time,
//! `serve_trees` under the real server, `worker_trees` under a remote worker); and (`hostile`)
//! a hostile team's attacks at build time (Java) and at run time (Python) as real uploads to
//! the real server, and its forged forms. The server's own suites are its folders: `web`,
//! `finals`, `remote`, `live`.
//!
//! Bots and builds run under the sandbox's wrapper, which re-executes the rollarena binary;
//! the test binary names it with `sandbox::use_binary`. Arenas live in world-traversable
//! temporary directories, since seats and builds run under uids of their own as root.

mod builds;
pub mod finals;
mod grading;
mod hostile;
mod ladder;
pub mod live;
mod quotas;
mod recovery;
pub mod remote;
mod serve_trees;
pub mod spying;
mod uploads;
pub mod web;
mod worker_trees;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rollarena::arena::config::Config;
use rollarena::arena::store::TeamId;
use rollarena::arena::{Arena, admin};

use crate::check::{rollarena, shared_tempdir};

/// A new arena for `game` with the settings `edit` changes; its directory is kept alive by the
/// returned guard.
pub fn arena(game: &str, edit: impl FnOnce(&mut Config)) -> (tempfile::TempDir, Arena) {
    arena_in(shared_tempdir("arena-"), game, edit)
}

/// A new arena as [`arena`] makes, in the world-traversable directory `tmp`.
pub fn arena_in(
    tmp: tempfile::TempDir,
    game: &str,
    edit: impl FnOnce(&mut Config),
) -> (tempfile::TempDir, Arena) {
    rollarena::sandbox::use_binary(rollarena().to_path_buf());
    let dir = tmp.path().join("arena");
    let mut config = Config::new(game, Default::default()).unwrap();
    config.time = Duration::from_secs(2);
    config.ladder.placement_matches = 2;
    edit(&mut config);
    admin::init_with(&dir, &config).unwrap();
    (tmp, Arena::open(&dir).unwrap())
}

/// Adds a team; its id.
pub fn team(arena: &Arena, name: &str) -> TeamId {
    admin::add_team(arena, name).unwrap();
    admin::team_id(&arena.conn().unwrap(), name).unwrap()
}

/// A kit's file from `examples/`.
pub fn kit_file(kit: &str, file: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(kit)
            .join(file),
    )
    .unwrap()
}

/// A version's state and failure.
pub fn state(arena: &Arena, version: i64) -> (String, Option<String>) {
    arena
        .conn()
        .unwrap()
        .query_row(
            "SELECT state, failure FROM versions WHERE id = ?1",
            [version],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

/// Waits (polling the database) until `done` says so, or fails after `limit` saying what it
/// waited for.
pub fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The errors of the arena's failed matches.
pub fn failed_matches(conn: &rusqlite::Connection) -> Vec<String> {
    conn.prepare("SELECT COALESCE(error, '') FROM matches WHERE state = 'failed'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Whether `program` exists; a missing one skips the test loudly (fails under CI).
pub fn have(program: &str) -> bool {
    if Path::new(program).is_file() {
        return true;
    }
    let message = format!("{program} is missing");
    assert!(std::env::var_os("CI").is_none(), "{message} (CI is set)");
    eprintln!("\n!!!!!!!! SKIP: {message} !!!!!!!!\n");
    false
}

/// Every path under `dir`, for comparing an arena before and after.
pub fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out.sort();
    out
}
