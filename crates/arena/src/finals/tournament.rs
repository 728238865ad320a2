//! The final tournament: a `rollarena tournament` whose tables are the arena's matches.
//!
//! [`start`] takes the field (each enabled team's active version, the anchors only when
//! asked), resolves it into a [`Tournament`] (the arena's game, table size and time control,
//! the schedule asked for) written as `DIR/final/tournament.json`, and queues the schedule's
//! tables as matches of kind `final` (with their table numbers in `final_tables`): the whole
//! schedule for a round robin or a gauntlet (`schedule::fixed`), the first Swiss round for a
//! Swiss one. The arena's workers play them, before any ladder match (`worker::claim`), and
//! count their points and ranks without rating them (`worker::finish`).
//!
//! [`advance`] (called by the server's matchmaker, and by `rollarena arena final --status`)
//! queues the next Swiss round once a round is over, decided from the results as
//! `tournament` decides it (`runner::swiss_phase`), and when every table is over publishes the
//! final: `results.jsonl` (every round in schedule order, with its table number, every seat's
//! stderr and logs taken out), the standings folded as `tournament` folds them
//! (`aggregate::Fold`: ranks, Weng-Lin, Elo) and the organiser's report of `rollarena report`
//! in `DIR/final/report/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::sandbox::Level;
use crate::store::MatchState;
use crate::store::db;
use crate::store::settings::{get_json, set_json};
use crate::tournament::aggregate::{Fold, RoundSummary, Standings};
use crate::tournament::config::{BotConfig, SandboxConfig, ScheduleSpec};
use crate::tournament::output::{self, Meta};
use crate::tournament::schedule::{self, Table};
use crate::tournament::{Tournament, runner};
use crate::{Arena, sql, store};

/// The final's directory inside the arena's.
pub const DIR: &str = "final";

/// The `state` table's key of the final.
const KEY: &str = "final";

/// What the organiser asks for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `round-robin` (the default), `gauntlet` or `swiss`.
    pub schedule: Option<String>,
    /// Rounds per table (default: the ladder's).
    pub rounds: Option<u32>,
    /// Round robin and gauntlet: the whole schedule this many times.
    pub repeat: Option<u32>,
    /// Swiss: its rounds (default: enough to rank the field, ceil(log2 n)).
    pub swiss_rounds: Option<u32>,
    /// Gauntlet: the challengers' team names.
    pub challengers: Vec<String>,
    /// Whether the anchors (built-in bots) play in the final.
    pub anchors: bool,
    /// The tournament's seed (default: drawn at random, and written in `tournament.json`).
    pub seed: Option<u64>,
}

/// The final's progress, as the `state` table keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalState {
    pub schedule: String,
    /// The Swiss round being played (1 for fixed schedules), and how many there are.
    pub phase: u32,
    pub phases: u32,
    pub started_at: i64,
    /// When its results were published (none while it is played, or again after a re-judging).
    pub published_at: Option<i64>,
}

/// The final as the pages and the API show it.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    #[serde(flatten)]
    pub state: FinalState,
    /// Tables of the whole schedule (a Swiss one: rounds × tables a round).
    pub tables_scheduled: Option<u32>,
    /// The final's matches by state: queued, running, done, failed, void.
    pub queued: u32,
    pub running: u32,
    pub done: u32,
    pub failed: u32,
    pub void: u32,
    /// The field: bot names (`team #version`), in the tournament's order.
    pub field: Vec<String>,
}

/// The final's directory of arena `dir`.
pub fn dir_of(dir: &Path) -> PathBuf {
    dir.join(DIR)
}

/// The final's state, if one was started.
pub fn state(conn: &Connection) -> Result<Option<FinalState>, String> {
    get_json(conn, KEY)
}

/// One version of the field.
struct Entrant {
    version: i64,
    name: String,
    command: String,
}

/// The field: every enabled team's active version, best conservative rating first (the order
/// Swiss pairs by before any result), anchors only when asked.
fn field(conn: &Connection, anchors: bool) -> Result<Vec<Entrant>, String> {
    Ok(store::finals::field(conn)?
        .into_iter()
        .filter(|r| anchors || !r.builtin)
        .map(|r| Entrant {
            version: r.version.0,
            // The name the worker gives the seat in the record: tables map seats by it.
            name: format!("{} #{}", r.team, r.version),
            command: r.run_command,
        })
        .collect())
}

/// Whether a final may start now: refused while the contest is open, and once one was started.
pub fn may_start(conn: &Connection) -> Result<(), String> {
    if crate::freeze::closed(conn)?.is_none() {
        return Err(
            "the contest is still open: close it first (`rollarena arena freeze DIR \
                    --now`, or the organiser's page), so that the final plays the versions \
                    the teams had at the closing time"
                .into(),
        );
    }
    if let Some(s) = state(conn)? {
        return Err(format!(
            "a final tournament was started already (at {}, {}): there is one final; re-judge \
             its matches with `rollarena arena rejudge` if one must be played again",
            crate::freeze::utc(s.started_at),
            s.schedule
        ));
    }
    Ok(())
}

/// Starts the final (see the module header); returns its state and the tables queued.
pub fn start(arena: &Arena, opts: &Options) -> Result<(FinalState, usize), String> {
    let mut conn = arena.conn()?;
    may_start(&conn)?;
    // A version submitted before the closing time plays if it passes: wait for its verdict.
    let pending = store::versions::pending(&conn)?;
    if pending > 0 {
        return Err(format!(
            "{pending} submission{} made before the closing time {} still being built or \
             checked: start the final once {} done, so that every version that passes plays",
            if pending == 1 { "" } else { "s" },
            if pending == 1 { "is" } else { "are" },
            if pending == 1 { "it is" } else { "they are" },
        ));
    }
    let field = field(&conn, opts.anchors)?;
    let config = &arena.config;
    let players = config.players;
    if field.len() < players {
        return Err(format!(
            "the final needs at least {players} versions that can play (a table's seats), and \
             the arena has {}{}",
            field.len(),
            if opts.anchors {
                ""
            } else {
                " without the anchors (add --anchors to let them play)"
            }
        ));
    }
    let rounds = opts.rounds.unwrap_or(config.rounds);
    if rounds == 0 || !rounds.is_multiple_of(players as u32) {
        return Err(format!(
            "--rounds {rounds}: a table plays a multiple of its {players} seats' rounds, so \
             every seat moves first equally often"
        ));
    }
    let repeat = opts.repeat.unwrap_or(1);
    if repeat == 0 {
        return Err("--repeat 0: play the schedule at least once".into());
    }
    let name = |team: &str| {
        field
            .iter()
            .find(|e| e.name.rsplit_once(" #").is_some_and(|(t, _)| t == team))
            .map(|e| e.name.clone())
    };
    let kind = opts.schedule.as_deref().unwrap_or("round-robin");
    let (spec, phases) = match kind {
        "round-robin" => {
            if !opts.challengers.is_empty() {
                return Err("--challenger is for --schedule gauntlet".into());
            }
            (ScheduleSpec::RoundRobin, 1)
        }
        "gauntlet" => {
            if opts.challengers.is_empty() {
                return Err(
                    "a gauntlet needs its challengers: name each team with --challenger TEAM"
                        .into(),
                );
            }
            let mut names = Vec::new();
            for c in &opts.challengers {
                names.push(name(c).ok_or_else(|| {
                    format!(
                        "--challenger {c:?} is not a team of the final's field (an enabled \
                         team with a version that passed its check)"
                    )
                })?);
            }
            if names.len() + players - 1 > field.len() {
                return Err(format!(
                    "a gauntlet seats each challenger with {} others of the field, and the \
                     field has {} besides the challengers",
                    players - 1,
                    field.len() - names.len()
                ));
            }
            (ScheduleSpec::Gauntlet { challengers: names }, 1)
        }
        "swiss" => {
            if players != 2 {
                return Err(format!(
                    "a Swiss final pairs two bots a table, and the arena's tables have \
                     {players} seats: use round-robin or gauntlet"
                ));
            }
            if repeat != 1 {
                return Err("--repeat is for round-robin and gauntlet, not swiss".into());
            }
            let n = field.len() as u32;
            let default = u32::BITS - (n - 1).leading_zeros();
            let swiss_rounds = opts.swiss_rounds.unwrap_or(default.max(1));
            if swiss_rounds == 0 {
                return Err("--swiss-rounds 0: play at least one Swiss round".into());
            }
            (ScheduleSpec::Swiss { swiss_rounds }, swiss_rounds)
        }
        other => {
            return Err(format!(
                "--schedule {other:?}: the final plays round-robin, gauntlet or swiss"
            ));
        }
    };
    if opts.swiss_rounds.is_some() && kind != "swiss" {
        return Err("--swiss-rounds is for --schedule swiss".into());
    }
    let t = Tournament {
        name: format!("{} final", config.game),
        game: config.game.clone(),
        options: serde_json::Value::Object(config.options.clone()),
        players,
        rounds,
        schedule: spec,
        repeat,
        seed: opts.seed.unwrap_or_else(crate::seed::random_seed),
        time_ms: config.time.as_millis() as u64,
        tc: None,
        first_move_ms: 0,
        startup_ms: config.startup.as_millis() as u64,
        margin_ms: config.time_control().margin.as_millis() as u64,
        retries: config.retries,
        opening_plies: 0,
        freeze: true,
        hide_legal: config.hide_legal,
        withdraw_after: 3,
        sandbox: SandboxConfig {
            level: Level::Strict,
            user: None,
            uids: config.sandbox.bot_uids.clone(),
            limits: config.bot_limits(),
        },
        bots: field
            .iter()
            .map(|e| BotConfig {
                name: e.name.clone(),
                command: e.command.clone(),
                cwd: None,
                limits: None,
                tc: None,
            })
            .collect(),
        sprt: None,
        added: Vec::new(),
        openings: None,
    };
    let tables = match schedule::fixed(&t) {
        Some(tables) => tables?,
        None => runner::swiss_phase(&t, &BTreeMap::new(), 1),
    };
    let dir = dir_of(&arena.dir);
    if !output::is_empty_dir(&dir) {
        return Err(format!(
            "{} holds files already: move it away (a final's directory is written once)",
            dir.display()
        ));
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Root's only, as `records/`: the server serves what is public of it.
    crate::rundir::set_mode(&dir, 0o700)?;
    let meta = Meta {
        layout: output::LAYOUT_VERSION,
        id: t.id(),
        file: String::new(),
        file_sha256: String::new(),
        shard: None,
        merged_from: Vec::new(),
        tournament: t.clone(),
    };
    output::write_meta(&dir, &meta).map_err(|e| format!("{}: {e}", dir.display()))?;
    let st = FinalState {
        schedule: kind.to_string(),
        phase: 1,
        phases,
        started_at: db::now_ms(),
        published_at: None,
    };
    let tx = conn.transaction().map_err(sql)?;
    queue(&tx, &t, &field, &tables, 1)?;
    set_json(&tx, KEY, Some(&st))?;
    tx.commit().map_err(sql)?;
    Ok((st, tables.len()))
}

/// Queues `tables` (of phase `phase`) as final matches.
fn queue(
    conn: &Connection,
    t: &Tournament,
    field: &[Entrant],
    tables: &[Table],
    phase: u32,
) -> Result<(), String> {
    for table in tables {
        // A seed per table drawn from the operating system, not derived from the
        // tournament's: the final's report (served at /final/) prints the tournament's seed,
        // and a table's seed decides its deals (games with hidden information).
        let seed = crate::seed::random_seed();
        let seats: Vec<store::VersionId> = table
            .bots
            .iter()
            .map(|&bot| store::VersionId(field[bot].version))
            .collect();
        let (index, rounds) = (table.index, t.rounds);
        store::finals::insert_table(
            conn,
            index,
            phase,
            db::now_ms(),
            seed as i64,
            rounds,
            &seats,
        )?;
    }
    Ok(())
}

/// The final's tables: (table, match id, match state), in schedule order.
fn tables(conn: &Connection) -> Result<Vec<(u32, i64, MatchState)>, String> {
    Ok(store::finals::tables(conn)?
        .into_iter()
        .map(|(table, id, state)| (table, id.0, state))
        .collect())
}

/// The final's tournament, from `DIR/final/tournament.json`.
pub fn tournament(arena_dir: &Path) -> Result<Tournament, String> {
    Ok(output::read_meta(&dir_of(arena_dir))?.tournament)
}

/// A done table's rounds, as `results.jsonl` holds them: its table number set, and every
/// seat's stderr and logs taken out (the final is public).
fn public_rounds(
    arena_dir: &Path,
    table: u32,
    match_id: i64,
) -> Result<Vec<crate::record::RoundRecord>, String> {
    let path = arena_dir.join(
        crate::records::find(arena_dir, match_id).unwrap_or_else(|| Arena::record_path(match_id)),
    );
    let (mut records, _) = crate::record::read_records(&path)
        .map_err(|e| format!("the record of match {match_id}: {e}"))?;
    for r in &mut records {
        r.table = Some(table);
        crate::records::strip(r, &|_| false);
    }
    Ok(records)
}

/// Moves the final on (see the module header): the next Swiss round, or the publication once
/// every table is over. Returns true when it changed something.
pub fn advance(arena: &Arena, conn: &mut Connection) -> Result<bool, String> {
    let Some(mut st) = state(conn)? else {
        return Ok(false);
    };
    if st.published_at.is_some() {
        return Ok(false);
    }
    let all = tables(conn)?;
    if all
        .iter()
        .any(|(_, _, s)| matches!(s, MatchState::Queued | MatchState::Running))
    {
        return Ok(false);
    }
    let t = tournament(&arena.dir)?;
    if st.phase < st.phases {
        let mut wins: BTreeMap<u32, Vec<(usize, f64)>> = BTreeMap::new();
        for (table, id, s) in &all {
            if *s == MatchState::Done {
                let rounds = public_rounds(&arena.dir, *table, *id)?;
                wins.insert(
                    *table,
                    rounds
                        .iter()
                        .flat_map(|r| RoundSummary::of(&t, r).wins().collect::<Vec<_>>())
                        .collect(),
                );
            }
        }
        let next = runner::swiss_phase(&t, &wins, st.phase + 1);
        let field: Vec<Entrant> = t
            .bots
            .iter()
            .map(|b| Entrant {
                version: b
                    .name
                    .rsplit_once(" #")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0),
                name: b.name.clone(),
                command: b.command.clone(),
            })
            .collect();
        st.phase += 1;
        let tx = conn.transaction().map_err(sql)?;
        queue(&tx, &t, &field, &next, st.phase)?;
        set_json(&tx, KEY, Some(&st))?;
        tx.commit().map_err(sql)?;
        return Ok(true);
    }
    publish(arena, &t, &all)?;
    st.published_at = Some(db::now_ms());
    set_json(conn, KEY, Some(&st))?;
    Ok(true)
}

/// Writes `results.jsonl`, the standings and the report of the final.
fn publish(
    arena: &Arena,
    t: &Tournament,
    all: &[(u32, i64, MatchState)],
) -> Result<Standings, String> {
    let dir = dir_of(&arena.dir);
    let write_err = |e: std::io::Error| format!("cannot write the final's results: {e}");
    let mut results = crate::tournament::results::Rewrite::create(&dir.join(output::RESULTS))
        .map_err(write_err)?;
    let mut fold = Fold::new(t);
    for (table, id, s) in all {
        if *s != MatchState::Done {
            continue;
        }
        for r in public_rounds(&arena.dir, *table, *id)? {
            fold.add(&RoundSummary::of(t, &r));
            results
                .line(&serde_json::to_vec(&r).map_err(|e| e.to_string())?)
                .map_err(write_err)?;
        }
    }
    results.finish().map_err(write_err)?;
    let standings = fold.standings(runner::scheduled_tables(t).ok());
    output::write_standings(&dir, &standings)
        .map_err(|e| format!("cannot write the final's standings: {e}"))?;
    // Served at /final/: every page links back to the site.
    let home = crate::report::Home {
        href: "/",
        label: "the arena",
    };
    crate::report::write_with_home(&dir, &dir.join(crate::report::DIR), Some(home))?;
    Ok(standings)
}

/// The published standings, if the final is published.
pub fn standings(arena_dir: &Path) -> Option<Standings> {
    let bytes = std::fs::read(dir_of(arena_dir).join(output::STANDINGS_JSON)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The final's progress, if one was started.
pub fn progress(arena: &Arena, conn: &Connection) -> Result<Option<Progress>, String> {
    let Some(state) = state(conn)? else {
        return Ok(None);
    };
    let t = tournament(&arena.dir)?;
    let mut p = Progress {
        state,
        tables_scheduled: runner::scheduled_tables(&t).ok(),
        queued: 0,
        running: 0,
        done: 0,
        failed: 0,
        void: 0,
        field: t.bots.iter().map(|b| b.name.clone()).collect(),
    };
    for (_, _, s) in tables(conn)? {
        match s {
            MatchState::Queued => p.queued += 1,
            MatchState::Running => p.running += 1,
            MatchState::Done => p.done += 1,
            MatchState::Failed => p.failed += 1,
            MatchState::Void => p.void += 1,
        }
    }
    Ok(Some(p))
}

/// Marks the final unpublished (a re-judged table): the next [`advance`] publishes it again
/// once its tables are over.
pub fn unpublish(conn: &Connection) -> Result<(), String> {
    if let Some(mut st) = state(conn)? {
        st.published_at = None;
        set_json(conn, KEY, Some(&st))?;
    }
    Ok(())
}
