//! The live view: `tournament FILE --live DIR` keeps `DIR/index.html` showing the standings
//! while the tournament runs. The runner calls [`write()`] as each table is folded; the page is
//! replaced atomically (a screen never loads half of it) and reloads itself every few
//! seconds. When the tournament ends, the full report is written to `DIR` as well, and its
//! front page (which does not reload) replaces the live one.
//!
//! The page also tells how far the event is and when it should end: the time since the first
//! page of this run and, once a table has ended in it, the time left at the rate of the tables
//! this run has played (tables kept from an earlier run do not count for the rate); and, when
//! the runner names the output directory ([`write_from`]), the crosstable of every round so far
//! and the tables still playing, each with a viewer of the rounds it has played
//! ([`super::live_rounds`]); without it, for events of two players per table, the crosstable of
//! the head-to-head results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Instant, SystemTime};

use serde_json::json;

use super::live_rounds::Rounds;
use super::page;
use crate::tournament::aggregate::Standings;

/// Seconds between reloads of the live page.
pub const RELOAD_SECONDS: u32 = 5;

/// One live page written at a time: tables end on threads of their own, and the atomic write
/// goes through one temporary name.
static WRITING: Mutex<()> = Mutex::new(());

/// Per live directory: when its first page was written, and the tables played then.
static STARTED: Mutex<BTreeMap<PathBuf, (Instant, u32)>> = Mutex::new(BTreeMap::new());

/// Seconds since the first page of `dir`, and the seconds left at the rate of the tables
/// played since (none before a table has ended, or when the schedule's size is unknown).
fn progress(dir: &Path, standings: &Standings) -> (f64, Option<f64>) {
    let mut started = STARTED.lock().unwrap_or_else(|p| p.into_inner());
    let (at, played_then) = *started
        .entry(dir.to_path_buf())
        .or_insert((Instant::now(), standings.tables_played));
    let elapsed = at.elapsed().as_secs_f64();
    let done = standings.tables_played.saturating_sub(played_then);
    let left = standings
        .tables_scheduled
        .map(|n| n.saturating_sub(standings.tables_played));
    let eta = match left {
        Some(0) => Some(0.0),
        Some(left) if done > 0 => Some(elapsed / f64::from(done) * f64::from(left)),
        _ => None,
    };
    (elapsed, eta)
}

/// Per live directory: the rounds read of the output's results so far.
static ROUNDS: Mutex<BTreeMap<PathBuf, Rounds>> = Mutex::new(BTreeMap::new());

/// Writes the live standings page `dir/index.html`.
pub fn write(dir: &Path, standings: &Standings) -> Result<(), crate::Error> {
    write_from(dir, None, standings)
}

/// Writes the live page `dir/index.html`, with what `output/results.jsonl` holds so far when
/// `output` is given (the crosstable, the tables playing).
pub fn write_from(
    dir: &Path,
    output: Option<&Path>,
    standings: &Standings,
) -> Result<(), crate::Error> {
    let _one = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let names: Vec<&str> = standings.standings.iter().map(|r| r.bot.as_str()).collect();
    let (elapsed_s, eta_s) = progress(dir, standings);
    let rounds = match output {
        Some(output) => {
            let mut all = ROUNDS.lock().unwrap_or_else(|p| p.into_inner());
            let seen = all
                .entry(dir.to_path_buf())
                .or_insert_with(|| Rounds::new(names.iter().map(|n| n.to_string()).collect()));
            seen.update(output, dir)?;
            seen.data()
        }
        None => serde_json::Value::Null,
    };
    let data = json!({
        "rounds": rounds,
        "elapsed_s": elapsed_s,
        "eta_s": eta_s,
        "kind": "live",
        "root": "",
        "title": standings.tournament,
        "names": names,
        "standings": standings,
        "updated": humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
    });
    page::write(
        &dir.join("index.html"),
        &page::render(&data, Some(RELOAD_SECONDS)),
    )
    .map(|_| ())
}
