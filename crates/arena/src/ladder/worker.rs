//! A match worker's steps, the same for an embedded worker and (through the server) a remote
//! one: [`claim`] a queued match under a lease, [`play`] it with the arbiter's own match
//! runner (the function every tournament table runs) into `records/<id>.jsonl`, [`judge`] the
//! record with the referee, and [`finish`] it: the seats' results, the ratings and the
//! `rated` flag in one transaction, only while the lease is still the worker's, so a match
//! counts once whatever crashes when.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::evaluation;
use crate::arbiter::{BotSpec, Limits, MatchConfig, run_match};
use crate::config::Config;
use crate::rating;
use crate::record::RecordWriter;
use crate::sandbox::{Isolation, ResourceLimits};
use crate::store::db;
use crate::store::{MatchId, MatchState, VersionId, leases, matches, versions};
use crate::submissions::checking::seat;
use crate::{Arena, sql};

/// One seat of a claimed match.
#[derive(Clone, Debug)]
pub struct Seat {
    pub version: i64,
    /// The name the record gives the seat: the team's and the version's.
    pub name: String,
    pub run_command: String,
}

/// A match a worker holds.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub id: i64,
    pub seed: u64,
    pub rounds: u32,
    pub seats: Vec<Seat>,
}

/// Takes a queued match for `owner` until `lease` from now: the final tournament's first
/// (`kind = 'final'`: the contest's last day waits for nothing else), then the oldest.
pub fn claim(conn: &Connection, owner: &str, lease: Duration) -> Result<Option<Claimed>, String> {
    claim_for(conn, owner, lease, None)
}

/// [`claim`], for a worker that runs artifacts built on the CPU architecture `arch` only (a
/// remote one): the queued match, in the same order, whose every seat is a built-in bot or a version built
/// on `arch` (a version not packed yet will be packed on this machine, so it counts as built
/// on this machine's).
pub fn claim_for(
    conn: &Connection,
    owner: &str,
    lease: Duration,
    arch: Option<&str>,
) -> Result<Option<Claimed>, String> {
    let now = db::now_ms();
    let until = now + lease.as_millis() as i64;
    let id = leases::claim(conn, owner, now, until, arch, std::env::consts::ARCH)?;
    match id {
        Some(id) => claimed(conn, id.0),
        None => Ok(None),
    }
}

/// Match `id` as a worker holds it: its seed, rounds and seats.
pub fn claimed(conn: &Connection, id: i64) -> Result<Option<Claimed>, String> {
    let Some((seed, rounds)) = leases::seed_and_rounds(conn, MatchId(id))? else {
        return Ok(None);
    };
    let seats = leases::seats(conn, MatchId(id))?
        .into_iter()
        .map(|s| Seat {
            version: s.version.0,
            name: format!("{} #{}", s.team, s.version),
            run_command: s.run_command.unwrap_or_default(),
        })
        .collect();
    Ok(Some(Claimed {
        id,
        seed: seed as u64,
        rounds,
        seats,
    }))
}

/// Renews the lease; false when it is no longer the worker's (it ran out and the match was
/// given to another, or the match is over).
pub fn heartbeat(conn: &Connection, id: i64, owner: &str, lease: Duration) -> Result<bool, String> {
    let until = db::now_ms() + lease.as_millis() as i64;
    Ok(leases::renew(conn, MatchId(id), owner, until)?)
}

/// How a play ended.
#[derive(Debug)]
pub enum Played {
    /// The record is written.
    Recorded,
    /// Stopped before its end (shutdown, or the lease was lost): nothing counts.
    Stopped,
}

/// What every match of an arena is played with, as plain data: the game and its options, the
/// time control, the seats' limits. The embedded worker reads it from `arena.toml`; a remote
/// one receives it with its lease. Both build the match from it with [`Rules::match_config`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub game: String,
    /// The game's options, `players` included.
    pub options: Map<String, Value>,
    /// Time per move and to answer `hello`, in milliseconds.
    pub time_ms: u64,
    pub startup_ms: u64,
    pub retries: u32,
    pub hide_legal: bool,
    /// Each seat's limits.
    pub limits: ResourceLimits,
}

impl Rules {
    /// The rules of an arena's matches.
    pub fn of(config: &Config) -> Rules {
        Rules {
            game: config.game.clone(),
            options: config.options_with_players(),
            time_ms: config.time.as_millis() as u64,
            startup_ms: config.startup.as_millis() as u64,
            retries: config.retries,
            hide_legal: config.hide_legal,
            limits: config.bot_limits(),
        }
    }

    /// The match runner's configuration for match `id` with these seats (name, command).
    pub fn match_config(
        &self,
        id: i64,
        seed: u64,
        rounds: u32,
        seats: Vec<(String, Vec<String>)>,
        iso: &Isolation,
    ) -> Result<MatchConfig, String> {
        let entry = crate::game::registry::find(&self.game)?;
        let game = (entry.build)(&self.options)?;
        let bots = seats
            .into_iter()
            .map(|(name, argv)| BotSpec {
                name,
                named: true,
                argv,
                cwd: None,
                log: None,
                resources: Some(self.limits),
                tc: None,
            })
            .collect();
        Ok(MatchConfig {
            game,
            bots,
            rounds,
            time: crate::arbiter::clock::TimeControl {
                startup: Duration::from_millis(self.startup_ms),
                per_move: Duration::from_millis(self.time_ms),
                ..crate::arbiter::clock::TimeControl::default()
            },
            retries: self.retries,
            freeze: true,
            hide_legal: self.hide_legal,
            limits: Limits::default(),
            isolation: iso.clone(),
            seed,
            match_id: match_name(id),
            table: None,
            openings: Vec::new(),
            deals: Vec::new(),
            withdraw_after: Some(3),
        })
    }
}

/// Plays the match into its record (written afresh: a record left by an earlier attempt is
/// dropped), renewing the lease as it goes, each seat running a copy of its version's build
/// made for this match (`checking::seat`). `stop` ends it early.
pub fn play(
    arena: &Arena,
    iso: &Isolation,
    m: &Claimed,
    owner: &str,
    stop: &AtomicBool,
) -> Result<Played, String> {
    let config = &arena.config;
    let path = arena.dir.join(Arena::record_path(m.id));
    // Each seat runs a copy of its version's build, made for this match in a run directory
    // nobody can guess, and removed when the match ends (when `runs` is dropped).
    let mut runs = Vec::with_capacity(m.seats.len());
    let mut seats = Vec::with_capacity(m.seats.len());
    for s in &m.seats {
        let build = arena.version_dir(s.version).join("build");
        let (argv, run) = seat(&arena.dir, &build, &s.run_command)?;
        runs.push(run);
        seats.push((s.name.clone(), argv));
    }
    let match_config = Rules::of(config).match_config(m.id, m.seed, m.rounds, seats, iso)?;
    let lease = config.ladder.lease;
    let conn = arena.conn()?;
    // The record and the live stream observe the same events.
    let hub = arena.live.clone();
    let id = m.id;
    let live = crate::live::observer(Box::new(move |msg| hub.publish(id, msg)));
    // A heartbeat about every third of the lease.
    let every = (lease.as_millis() as u64 / 3 / WATCH.as_millis() as u64).max(1);
    let mut ticks = 0u64;
    let played = play_match(&match_config, &path, live, &mut || {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        ticks += 1;
        !ticks.is_multiple_of(every) || heartbeat(&conn, m.id, owner, lease).unwrap_or(true)
    });
    arena.live.end(m.id);
    played
}

/// How often [`play_match`] asks its `watch` whether to go on.
pub const WATCH: Duration = Duration::from_millis(200);

/// Plays a match with the arbiter's match runner into the record at `path` (written afresh)
/// and into `live`, asking `watch` every [`WATCH`] whether to go on (false: the worker stops,
/// or its lease is lost; the match is [`Played::Stopped`]). The one way every worker plays,
/// embedded or remote.
pub fn play_match(
    config: &MatchConfig,
    path: &Path,
    live: Box<dyn crate::arbiter::events::Observer>,
    watch: &mut dyn FnMut() -> bool,
) -> Result<Played, String> {
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    // An earlier attempt's compressed record, if one got that far, is not this play's.
    let gz = std::path::PathBuf::from(format!("{}.gz", path.display()));
    if gz.exists() {
        std::fs::remove_file(&gz).map_err(|e| format!("{}: {e}", gz.display()))?;
    }
    let writer = RecordWriter::append(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut observers: Vec<Box<dyn crate::arbiter::events::Observer>> =
        vec![Box::new(writer), live];
    let played = runtime.block_on(async {
        let watching = async {
            loop {
                tokio::time::sleep(WATCH).await;
                if !watch() {
                    return;
                }
            }
        };
        tokio::select! {
            r = run_match(config, &mut observers) => Some(r),
            _ = watching => None,
        }
    });
    match played {
        Some(Ok(_)) => Ok(Played::Recorded),
        Some(Err(e)) => Err(format!("the record could not be written: {e}")),
        None => Ok(Played::Stopped),
    }
}

/// The match id records give an arena match.
pub fn match_name(id: i64) -> String {
    format!("arena-{id}")
}

/// A seat's result, as the verified record says.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    pub points: f64,
    pub rank: u32,
    pub forfeits: u32,
}

/// Verifies the record of match `m` with the referee and reads the seats' results from it; an
/// error is the discrepancy, and the match does not count.
pub fn judge(path: &Path, m: &Claimed) -> Result<Vec<SeatResult>, String> {
    // Verified as it is read, a line at a time (as `replay --verify`): the lean reading of
    // moves, and never a whole record's moves in memory.
    let opened =
        std::fs::File::open(path).map_err(|e| format!("the record cannot be read: {e}"))?;
    let mut verifier = crate::verify::Verifier::new();
    let (file, found) = crate::verify::verify_stream(
        std::io::BufReader::with_capacity(1 << 16, opened),
        &mut verifier,
    )
    .map_err(|e| format!("the record cannot be read: {e}"))?;
    if file.torn.is_some() {
        return Err("the record's last line is torn".into());
    }
    let report = match found {
        Some(d) => Err(d),
        None => verifier.finish(),
    }
    .map_err(|d| format!("the record failed verification: {d}"))?;
    let records = verifier.rounds();
    let [whole] = &report.matches[..] else {
        return Err(format!(
            "the record holds {} matches, not the one match {}",
            report.matches.len(),
            match_name(m.id)
        ));
    };
    if whole.match_id != match_name(m.id) {
        return Err(format!(
            "the record is of match {:?}, not {}",
            whole.match_id,
            match_name(m.id)
        ));
    }
    // A record of another match of the same seats (an earlier one, replayed) is not this one.
    if records[0].match_seed != m.seed || whole.rounds != m.rounds {
        return Err(format!(
            "the record is of a match with seed {} and {} rounds, not match {}'s (seed {}, {} \
             rounds)",
            records[0].match_seed,
            whole.rounds,
            match_name(m.id),
            m.seed,
            m.rounds
        ));
    }
    let standings = whole
        .standings
        .as_ref()
        .ok_or("the record does not hold every round of the match")?;
    for (seat, s) in m.seats.iter().enumerate() {
        let named = records[0].seats.get(seat).map(|r| r.name.as_str());
        if named != Some(s.name.as_str()) {
            return Err(format!(
                "seat {seat} of the record is {named:?}, not {:?}",
                s.name
            ));
        }
    }
    let mut results = vec![
        SeatResult {
            points: 0.0,
            rank: 0,
            forfeits: 0
        };
        m.seats.len()
    ];
    for st in standings {
        let r = results
            .get_mut(st.seat)
            .ok_or("the record's standings name a seat the match does not have")?;
        r.points = st.points as f64;
        r.rank = st.rank;
        r.forfeits = st.forfeits.values().sum();
    }
    Ok(results)
}

/// Counts a judged match: the seats' results and ratings, the versions' ratings and
/// evaluations, and the match done and rated, in one transaction, only if `owner` still holds
/// its lease. Returns false (and changes nothing) when it does not. A match of a kind that is
/// not rated (the final tournament's, `kind = 'final'`) records its seats' points and ranks
/// only (the final has standings of its own, folded from them).
pub fn finish(
    conn: &mut Connection,
    arena: &Arena,
    m: &Claimed,
    owner: &str,
    results: &[SeatResult],
) -> Result<bool, String> {
    let test = arena.config.sprt()?;
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    if !holds(&tx, m.id, owner)? {
        return Ok(false);
    }
    if matches::kind(&tx, MatchId(m.id))?.is_some_and(|k| !k.is_rated()) {
        count_unrated(&tx, m, results)?;
        tx.commit().map_err(sql)?;
        store_record(conn, arena, m.id);
        return Ok(true);
    }
    let mut before = Vec::with_capacity(m.seats.len());
    for s in &m.seats {
        before.push(versions::rating(&tx, VersionId(s.version))?);
    }
    let input: Vec<(f64, f64, u32)> = before
        .iter()
        .zip(results)
        .map(|(&(mu, sigma), r)| (mu, sigma, r.rank))
        .collect();
    let after = rating::update(&input);
    for (seat, ((s, r), (&(mu0, s0), &(mu1, s1)))) in m
        .seats
        .iter()
        .zip(results)
        .zip(before.iter().zip(&after))
        .enumerate()
    {
        let score = leases::SeatScore {
            points: r.points,
            rank: r.rank,
            forfeits: r.forfeits,
            ratings: Some(((mu0, s0), (mu1, s1))),
        };
        leases::score_seat(&tx, MatchId(m.id), seat, &score)?;
        versions::rate(&tx, VersionId(s.version), (mu1, s1))?;
    }
    mark_done(&tx, m.id, true)?;
    for s in &m.seats {
        evaluation::update(&tx, &test, s.version)?;
    }
    tx.commit().map_err(sql)?;
    store_record(conn, arena, m.id);
    Ok(true)
}

/// Counts a match that is not rated (a final's; inside [`finish`]'s transaction, its lease
/// checked): the seats' points, ranks and forfeits; no rating.
fn count_unrated(conn: &Connection, m: &Claimed, results: &[SeatResult]) -> Result<(), String> {
    for (seat, r) in results.iter().enumerate() {
        let score = leases::SeatScore {
            points: r.points,
            rank: r.rank,
            forfeits: r.forfeits,
            ratings: None,
        };
        leases::score_seat(conn, MatchId(m.id), seat, &score)?;
    }
    mark_done(conn, m.id, false)
}

/// Keeps a counted match's record compressed (`records::store_compressed`). The match counts
/// whatever happens here: a record that could not be compressed stays plain and readable,
/// and the failure is logged.
fn store_record(conn: &Connection, arena: &Arena, id: i64) {
    match crate::records::store_compressed(conn, &arena.dir, id) {
        Ok(Some(sizes)) => tracing::debug!(
            "match {id}: record {} bytes, {} compressed",
            sizes.plain,
            sizes.compressed
        ),
        Ok(None) => {}
        Err(e) => tracing::warn!("match {id}: its record stays uncompressed: {e}"),
    }
}

/// Marks a counted match done (`rated`: its ratings were applied), its lease released, and
/// numbered in the order matches are counted (`counted_seq`: the order a re-judging rebuilds
/// the ratings in).
pub fn mark_done(conn: &Connection, id: i64, rated: bool) -> Result<(), String> {
    let path = Arena::record_path(id);
    Ok(leases::mark_done(
        conn,
        MatchId(id),
        rated,
        db::now_ms(),
        &path,
    )?)
}

/// Marks a match failed (a record that did not verify, a seat that cannot start), if `owner`
/// still holds it. The record stays for the organiser to read.
pub fn fail(conn: &Connection, m: &Claimed, owner: &str, error: &str) -> Result<(), String> {
    let path = Arena::record_path(m.id);
    Ok(leases::fail(
        conn,
        MatchId(m.id),
        owner,
        error,
        db::now_ms(),
        &path,
    )?)
}

/// Gives a match back to the queue (the worker is stopping), if `owner` still holds it.
pub fn release(conn: &Connection, id: i64, owner: &str) -> Result<(), String> {
    Ok(leases::release(conn, MatchId(id), owner)?)
}

pub fn holds(conn: &Connection, id: i64, owner: &str) -> Result<bool, String> {
    let row = leases::holder(conn, MatchId(id))?;
    Ok(matches!(row, Some((MatchState::Running, Some(o), false)) if o == owner))
}

/// Claims, plays, judges and counts one match; returns false when there was none to play.
///
/// A panic of our code while it does (the match's, not the arena's: the seats are processes
/// of their own, and all that runs here is the arbiter's handling of what they say) fails that
/// match alone, with the panic's message; the worker goes on. What still takes the whole
/// process down (a stack overflow, an abort) is counted when the server starts again
/// (`matches.crashes`, see `matchmaker::expire`).
pub fn work_once(
    arena: &Arena,
    iso: &Isolation,
    conn: &mut Connection,
    owner: &str,
    stop: &AtomicBool,
) -> Result<bool, String> {
    let Some(m) = claim(conn, owner, arena.config.ladder.lease)? else {
        return Ok(false);
    };
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        play_and_count(arena, iso, conn, &m, owner, stop)
    }));
    match played {
        Ok(done) => done,
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            arena.live.end(m.id);
            fail(
                &*arena.conn()?,
                &m,
                owner,
                &format!(
                    "the arena's code failed while playing it (a panic: {what}); it is not played again"
                ),
            )?;
            Ok(true)
        }
    }
}

/// [`work_once`]'s match, claimed: played, judged and counted.
fn play_and_count(
    arena: &Arena,
    iso: &Isolation,
    conn: &mut Connection,
    m: &Claimed,
    owner: &str,
    stop: &AtomicBool,
) -> Result<bool, String> {
    let m = m.clone();
    match play(arena, iso, &m, owner, stop) {
        Ok(Played::Recorded) => {}
        Ok(Played::Stopped) => {
            release(conn, m.id, owner)?;
            return Ok(true);
        }
        Err(e) => {
            fail(conn, &m, owner, &e)?;
            return Ok(true);
        }
    }
    let path = arena.dir.join(Arena::record_path(m.id));
    match judge(&path, &m) {
        Ok(results) => {
            finish(conn, arena, &m, owner, &results)?;
        }
        Err(discrepancy) => fail(conn, &m, owner, &discrepancy)?,
    }
    Ok(true)
}
