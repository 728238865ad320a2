//! "Where the game was lost" on the arena's match pages: after a match is counted, every move
//! of its record is graded by its game's registry entry ([`crate::game::registry::Analysis`]:
//! the balls a move lost against the best, exact where the search finishes within
//! [`PER_POSITION`], an estimate elsewhere), folded per seat ([`summarise`]) and kept beside
//! the record as `records/<id>.grades.json`, which the match page reads.
//!
//! **Bounded, never in the ladder's way.** One thread grades one match at a time, newest
//! first, and after each rests three times as long as the match took: at most a quarter of one
//! core. Matches of a game without analysis, or whose analysis is not for the arena
//! ([`crate::game::registry::Analysis::arena`]: the match page speaks of balls), are never
//! graded (the thread ends at once), and a match whose grading fails keeps a file saying why,
//! so that it is not tried again.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Arena, records, store};
use crate::game::grade::{Budget, SeatSummary, summarise};
use crate::game::registry;

/// The search time of one position.
pub const PER_POSITION: Duration = Duration::from_millis(20);
/// The largest losses kept per seat.
const WORST: usize = 3;
/// How long the grader waits when no match is left to grade.
const IDLE: Duration = Duration::from_secs(2);
/// How many of the newest counted matches are looked at for one without grades.
const LOOK_BACK: i64 = 200;

/// What the match page shows of a match's grades.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Grades {
    /// Why the match could not be graded (then `seats` is empty).
    pub error: Option<String>,
    /// The search time of each position, in ms.
    pub budget_ms: u64,
    /// Per seat, in seat order, over every round of the match.
    pub seats: Vec<SeatSummary>,
}

/// Where match `id`'s grades are kept, under the arena's directory.
pub fn path(dir: &Path, id: i64) -> PathBuf {
    dir.join("records").join(format!("{id}.grades.json"))
}

/// Match `id`'s grades, when it has been graded.
pub fn read(dir: &Path, id: i64) -> Option<Grades> {
    let bytes = std::fs::read(path(dir, id)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Grades the arena's counted matches until `stop`, one at a time, resting three times as long
/// as each took; returns at once when the arena's game has no analysis for the arena.
pub fn run(arena: &Arena, stop: &AtomicBool) {
    let analysable = registry::find(&arena.config.game)
        .is_ok_and(|e| e.analysis.as_ref().is_some_and(|a| a.arena));
    if !analysable {
        return;
    }
    while !stop.load(Ordering::SeqCst) {
        let started = Instant::now();
        let rest = match grade_next(arena, stop) {
            Ok(true) => started.elapsed() * 3,
            Ok(false) => IDLE,
            Err(e) => {
                tracing::warn!("arena grader: {e}");
                IDLE
            }
        };
        sleep_unless(stop, rest.max(Duration::from_millis(50)));
    }
}

/// Sleeps `how_long`, or less once `stop` is set.
fn sleep_unless(stop: &AtomicBool, how_long: Duration) {
    let until = Instant::now() + how_long;
    while !stop.load(Ordering::SeqCst) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
    }
}

/// Grades the newest counted match without grades: whether there was one.
pub fn grade_next(arena: &Arena, stop: &AtomicBool) -> Result<bool, String> {
    let conn = arena.conn()?;
    let ids: Vec<i64> = store::matches::newest_rated(&conn, LOOK_BACK)?
        .into_iter()
        .map(i64::from)
        .collect();
    drop(conn);
    let Some(id) = ids.into_iter().find(|&id| !path(&arena.dir, id).exists()) else {
        return Ok(false);
    };
    let grades = match grade(&arena.dir, id, stop) {
        Ok(Some(g)) => g,
        // Stopped half-way: graded again at the next start.
        Ok(None) => return Ok(true),
        Err(e) => Grades {
            error: Some(e),
            budget_ms: PER_POSITION.as_millis() as u64,
            seats: Vec::new(),
        },
    };
    let file = path(&arena.dir, id);
    let json = serde_json::to_vec(&grades).map_err(|e| e.to_string())?;
    crate::tournament::output::write_atomic(&file, &json)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    // Root's only, as the records are.
    super::rundir::set_mode(&file, 0o600)?;
    Ok(true)
}

/// Every round of match `id` graded and folded per seat; `None` when `stop` came first.
fn grade(dir: &Path, id: i64, stop: &AtomicBool) -> Result<Option<Grades>, String> {
    let record = records::find(dir, id).ok_or("its record is gone")?;
    let (rounds, _) = crate::record::reader::read_records(&dir.join(&record))
        .map_err(|e| format!("its record cannot be read: {e}"))?;
    let budget = Budget {
        time: Some(PER_POSITION),
        nodes: None,
    };
    let mut graded = Vec::new();
    let mut seats = 0;
    let mut within = 1;
    for round in &rounds {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let entry = registry::find(&round.game)?;
        let analysis = entry
            .analysis
            .as_ref()
            .ok_or_else(|| format!("{} has no analysis", round.game))?;
        seats = seats.max(round.seats.len());
        within = analysis.terms.within;
        graded.extend((analysis.grade)(round, &budget)?);
    }
    let seats = summarise(&graded, seats, WORST, within);
    Ok(Some(Grades {
        error: None,
        budget_ms: PER_POSITION.as_millis() as u64,
        seats,
    }))
}
