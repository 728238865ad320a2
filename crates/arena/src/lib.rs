//! The arena server's library: an arena is a directory (`DIR/arena.toml`, the SQLite database
//! `DIR/arena.db`, the submissions' files and the records) that teams submit bots to, and
//! that builds, checks and rates them in a continuous ladder.
//!
//! It sits above `tournament` and `report` (it uses their ratings, SPRT, runner and viewer)
//! and below `cli`. The parts, each using only the parts listed before it (`tests/layout.rs`
//! holds them to this order):
//! - [`config`]: `arena.toml`, every setting with its default;
//! - [`tokens`]: the organiser's, teams' and workers' tokens, stored only as hashes;
//! - [`store`]: the database (its migrations, the time it stores) and every query of it,
//!   typed ids and states, pooled connections;
//! - [`rating`]: the Weng-Lin ratings, a new version's and their update after a match;
//! - [`rundir`]: the per-match and per-build directories bots run in (never `versions/`), and
//!   the sandboxes of seats and builds;
//! - [`records`]: where a match's record is, its compressed storage once counted, and what
//!   others may see of it;
//! - [`live`]: the matches in play, as spectators may watch them;
//! - [`freeze`]: the contest's closing time, which submissions, pins and the ladder obey;
//! - [`admin`]: creating an arena, teams, pausing;
//! - [`pinning`]: which version of a team plays (the one it pinned, or its latest ready one);
//! - [`grading`]: "where the game was lost", every counted match's moves graded;
//! - [`submissions`]: uploads checked and stored, then built and checked in the sandbox;
//! - [`ladder`]: the matchmaker, the match workers (with leases), each version's evaluation;
//! - [`remote`]: remote workers: their API, tokens, artifacts, and the `worker` process;
//! - [`finals`]: the last day: the final tournament, re-judging, export;
//! - [`views`]: what the pages and the JSON API show, read from the database;
//! - [`status`]: what the organiser reads from the shell (`arena teams`, `arena status`);
//! - [`service`]: all of the above running in the background, with recovery at start;
//! - [`web`]: the server's routes, templates, logins and JSON API (`rollarena serve`).
//!
//! The web layer (routes and templates) stays thin over plain functions of this module that
//! tests call directly. protocol/ARENA.md describes the directory, the tables and the
//! policies.

// The lower crates' modules, reached as `crate::X`.
use rollarena_games::{game, show};
use rollarena_rules::{duration, record, seed, verify};
use rollarena_run::{arbiter, check, sandbox};
use rollarena_tournament::{report, tournament};

pub mod admin;
pub mod config;
pub mod finals;
pub mod freeze;
pub mod grading;
pub mod ladder;
pub mod live;
pub mod pinning;
pub mod rating;
pub mod records;
pub mod remote;
pub mod rundir;
pub mod service;
pub mod status;
pub mod store;
pub mod submissions;
pub mod tokens;
pub mod views;
pub mod web;

use std::path::{Path, PathBuf};

/// An open arena: its directory, settings and database. Each thread takes its own connection
/// from the pool.
#[derive(Clone, Debug)]
pub struct Arena {
    pub dir: PathBuf,
    pub config: config::Config,
    /// The public messages of the matches in play (shared by the workers and the web layer).
    pub live: std::sync::Arc<live::LiveHub>,
    /// The recipes `serve` found it cannot build (their probe failed): not offered, and left
    /// out of `config.recipes` (see `submissions::offer`).
    pub unavailable: Vec<submissions::offer::Unavailable>,
    /// The database's connections, opened once (see [`store::pool`]).
    pub pool: std::sync::Arc<store::Pool>,
}

impl Arena {
    /// Opens the arena at `dir`: reads `arena.toml` and brings the database up to date. The
    /// directory is kept absolute, so that the checks of the directories above it (and the
    /// paths given to bots) do not depend on where the server was started.
    pub fn open(dir: &Path) -> Result<Arena, String> {
        let config = config::Config::load(dir)?;
        let dir = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Arena::with_config(&dir, config)
    }

    /// The arena at `dir` (absolute) with these settings: opens its database (bringing it up
    /// to date) for the connections of [`Arena::conn`].
    pub fn with_config(dir: &Path, config: config::Config) -> Result<Arena, String> {
        Ok(Arena {
            dir: dir.to_path_buf(),
            config,
            live: Default::default(),
            unavailable: Vec::new(),
            pool: store::Pool::open(dir)?,
        })
    }

    /// A connection to the database, from the arena's pool (it returns there when dropped).
    pub fn conn(&self) -> Result<store::Conn, String> {
        Ok(self.pool.get()?)
    }

    /// A version's directory: `versions/<id>/`.
    pub fn version_dir(&self, version: i64) -> PathBuf {
        self.dir.join("versions").join(version.to_string())
    }

    /// A match's record, relative to the arena's directory.
    pub fn record_path(match_id: i64) -> String {
        format!("records/{match_id}.jsonl")
    }
}

/// A database error, in words.
pub(crate) fn sql(e: rusqlite::Error) -> String {
    format!("database: {e}")
}
