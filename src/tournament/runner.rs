//! Running a tournament: tables at once on a tokio runtime, results as they come, resume,
//! shards, Ctrl-C.
//!
//! - **Concurrency.** Up to `jobs` tables at once (a `JoinSet` kept at that size). Each table
//!   is one [`run_match`] with its own bot processes, which live for the table, so start-up is
//!   spread over its rounds. Each table's observer hands finished rounds to the one shared
//!   record writer (`results.jsonl`: each line whole, synced) and ticks the progress bar.
//! - **Determinism.** Every table's [`MatchConfig`] gets `table: Some(i)`, the tournament seed
//!   and the match id `t<id8>-<i>`, so round seeds and openings depend on the schedule only.
//!   The file is in completion order; everything computed from it sorts first.
//! - **Resume.** `results.jsonl` is read back (a torn last line is cut), tables with every
//!   round present are kept, and the rounds of incomplete tables are dropped from the file: a
//!   table is one match with one set of bot processes, so it is played again from its first
//!   round. With deterministic bots the results are then identical to an uninterrupted run.
//! - **Shards.** `--shard i/n` plays the tables whose number is i modulo n.
//! - **Swiss.** Played phase by phase; each phase's pairing is computed from the complete
//!   tables of the earlier ones (so a resumed Swiss event pairs exactly as before).
//! - **SPRT.** After each table the test runs over the prefix of the schedule whose tables are
//!   all complete; once it decides, no new table starts.
//! - **Interruption.** Ctrl-C or SIGTERM kills every bot at once and returns
//!   [`Finished::Interrupted`]; finished rounds stay in the file for `--resume`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::task::JoinSet;

use super::aggregate::{Standings, compute, schedule_order};
use super::config::{ScheduleSpec, Tournament};
use super::openings::table_openings;
use super::output::{self, Meta, Shard};
use super::progress::Progress;
use super::schedule::{self, Table};
use crate::arbiter::events::{Event, Observer};
use crate::arbiter::process::kill_all;
use crate::arbiter::{BotSpec, Limits, MatchConfig, run_match};
use crate::game::Game;
use crate::record::{RecordWriter, RoundRecord};
use crate::sandbox::Isolation;

/// How to run (what does not change the results).
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub output: PathBuf,
    pub jobs: usize,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub isolation: Isolation,
    /// Keep each bot's stderr in `logs/`.
    pub bot_logs: bool,
    /// No progress bar and no forfeit lines.
    pub quiet: bool,
    /// The tournament file as given, and its SHA-256.
    pub file: String,
    pub file_sha256: String,
}

/// Why a run could not be done.
#[derive(Debug)]
pub enum RunError {
    /// The user can fix it (bad directory, another tournament's output): exit 2.
    Usage(String),
    /// The arbiter failed (a record that cannot be written): exit 3.
    Failed(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Usage(m) | RunError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// How a run ended.
#[derive(Debug)]
pub enum Finished {
    /// Every table of the schedule (or shard) was played, or the SPRT decided.
    Done(Box<Summary>),
    /// Ctrl-C or SIGTERM: every bot was killed; finished rounds are kept.
    Interrupted,
}

/// What a finished run reports.
#[derive(Debug)]
pub struct Summary {
    pub standings: Standings,
    /// Rounds played by this run (not those kept from before).
    pub rounds_played: u64,
    /// Rounds kept from an earlier run.
    pub rounds_kept: u64,
    pub elapsed: std::time::Duration,
}

/// State shared by the tables of a run.
struct Ctx {
    tournament: Tournament,
    id: String,
    game: Arc<dyn Game>,
    opts: RunOptions,
    writer: Mutex<RecordWriter>,
    /// Every round finished so far (kept and new), in completion order.
    records: Mutex<Vec<RoundRecord>>,
    progress: Progress,
    /// Set when no new table may start (SPRT decided).
    stop: AtomicBool,
}

/// The tables of a fixed schedule that this run (shard) plays.
pub fn shard_tables(t: &Tournament, shard: Option<Shard>) -> Result<Option<Vec<Table>>, String> {
    match schedule::fixed(t) {
        None => Ok(None),
        Some(tables) => Ok(Some(
            tables?
                .into_iter()
                .filter(|tb| schedule::in_shard(tb.index, shard.map(Shard::pair)))
                .collect(),
        )),
    }
}

/// Tables in the whole schedule (Swiss: every phase).
pub fn scheduled_tables(t: &Tournament) -> Result<u32, String> {
    match &t.schedule {
        ScheduleSpec::Swiss { swiss_rounds } => Ok(swiss_rounds * (t.bots.len() / 2) as u32),
        _ => Ok(schedule::fixed(t).expect("fixed schedule")?.len() as u32),
    }
}

/// The match id of a table.
pub fn match_id(id: &str, table: u32) -> String {
    format!("t{}-{table}", &id[..8])
}

/// Runs (or resumes) a tournament into its output directory.
pub fn run(t: &Tournament, opts: RunOptions) -> Result<Finished, RunError> {
    let id = t.id();
    if opts.shard.is_some() && matches!(t.schedule, ScheduleSpec::Swiss { .. }) {
        return Err(RunError::Usage(
            "a Swiss event cannot be sharded: each round's pairing depends on the results of \
             the rounds before it, so it runs on one machine"
                .into(),
        ));
    }
    if opts.shard.is_some() && t.sprt.is_some() {
        return Err(RunError::Usage(
            "an SPRT event cannot be sharded: the test decides on the rounds in schedule order \
             and stops the event, so it runs on one machine"
                .into(),
        ));
    }
    let game = t.game().map_err(RunError::Usage)?;
    if let Some(w) = game.schedule_warning(t.rounds) {
        tracing::warn!("{w}");
    }
    let fixed = shard_tables(t, opts.shard).map_err(RunError::Usage)?;
    let scheduled = scheduled_tables(t).map_err(RunError::Usage)?;
    let meta = Meta {
        layout: output::LAYOUT_VERSION,
        id: id.clone(),
        file: opts.file.clone(),
        file_sha256: opts.file_sha256.clone(),
        shard: opts.shard,
        merged_from: Vec::new(),
        tournament: t.clone(),
    };
    let dir = opts.output.clone();
    let resuming = output::prepare(&dir, &meta, opts.resume).map_err(RunError::Usage)?;
    if opts.resume && !resuming {
        tracing::info!("nothing to resume in {}: starting afresh", dir.display());
    }

    // Rounds kept from before: complete tables only, once each.
    let loaded = output::load_results(&dir).map_err(RunError::Usage)?;
    if let Some(other) = loaded
        .iter()
        .find(|r| r.table.is_none_or(|tb| r.match_id != match_id(&id, tb)))
    {
        return Err(RunError::Usage(format!(
            "{} holds a round of match {:?}, which is not of this tournament",
            dir.join(output::RESULTS).display(),
            other.match_id
        )));
    }
    let before = loaded.len();
    let kept = output::keep_complete(loaded, t.rounds);
    if kept.len() != before {
        output::rewrite_results(&dir, &kept)
            .map_err(|e| RunError::Failed(format!("cannot rewrite the results: {e}")))?;
    }
    let complete = output::complete_tables(&kept, t.rounds);
    let rounds_kept = kept.len() as u64;
    if resuming && !opts.quiet {
        eprintln!(
            "resuming: {} finished tables kept ({rounds_kept} rounds){}",
            complete.len(),
            if kept.len() != before {
                format!(
                    "; {} rounds of unfinished tables dropped (those tables are played again \
                     from their first round)",
                    before - kept.len()
                )
            } else {
                String::new()
            }
        );
    }

    let total_tables = match &fixed {
        Some(tables) => tables.len() as u64,
        None => u64::from(scheduled),
    };
    let progress = Progress::new(total_tables * u64::from(t.rounds), rounds_kept, opts.quiet);
    let writer = RecordWriter::append(&dir.join(output::RESULTS)).map_err(|e| {
        RunError::Failed(format!(
            "cannot open {}: {e}",
            dir.join(output::RESULTS).display()
        ))
    })?;
    if opts.bot_logs {
        std::fs::create_dir_all(dir.join("logs"))
            .map_err(|e| RunError::Failed(format!("cannot create the log directory: {e}")))?;
    }
    let ctx = Arc::new(Ctx {
        tournament: t.clone(),
        id: id.clone(),
        game,
        opts: opts.clone(),
        writer: Mutex::new(writer),
        records: Mutex::new(kept),
        progress,
        stop: AtomicBool::new(false),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| RunError::Failed(format!("cannot start the runtime: {e}")))?;
    let work = {
        let ctx = ctx.clone();
        async move {
            match fixed {
                Some(tables) => {
                    check_sprt(&ctx);
                    let todo: Vec<Table> = tables
                        .into_iter()
                        .filter(|tb| !complete.contains(&tb.index))
                        .collect();
                    play_tables(&ctx, todo).await
                }
                None => play_swiss(&ctx).await,
            }
        }
    };
    let outcome = runtime.block_on(async {
        tokio::select! {
            r = work => Some(r),
            _ = interrupted() => None,
        }
    });
    let Some(result) = outcome else {
        kill_all();
        ctx.progress.finish();
        runtime.shutdown_timeout(std::time::Duration::from_secs(2));
        return Ok(Finished::Interrupted);
    };
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    ctx.progress.finish();
    result.map_err(|e| RunError::Failed(format!("the tournament failed: {e}")))?;

    // Everything computed from the file, in schedule order.
    let mut records = output::load_results(&dir).map_err(RunError::Failed)?;
    schedule_order(&mut records);
    let standings = compute(t, &records, Some(scheduled));
    output::write_standings(&dir, &standings)
        .map_err(|e| RunError::Failed(format!("cannot write the standings: {e}")))?;
    Ok(Finished::Done(Box::new(Summary {
        rounds_played: records.len() as u64 - rounds_kept,
        rounds_kept,
        standings,
        elapsed: ctx.progress.elapsed(),
    })))
}

/// Plays tables, at most `jobs` at once, in schedule order of starting.
async fn play_tables(ctx: &Arc<Ctx>, tables: Vec<Table>) -> std::io::Result<()> {
    let mut set: JoinSet<std::io::Result<()>> = JoinSet::new();
    let mut pending = tables.into_iter();
    loop {
        while set.len() < ctx.opts.jobs.max(1) && !ctx.stop.load(Ordering::SeqCst) {
            let Some(table) = pending.next() else { break };
            let ctx = ctx.clone();
            set.spawn(async move { play_table(&ctx, table).await });
        }
        ctx.progress.running(set.len());
        match set.join_next().await {
            None => return Ok(()),
            Some(Ok(Ok(()))) => check_sprt(ctx),
            Some(Ok(Err(e))) => return Err(e),
            Some(Err(e)) => return Err(std::io::Error::other(format!("a table panicked: {e}"))),
        }
    }
}

/// Plays one table to its end.
async fn play_table(ctx: &Ctx, table: Table) -> std::io::Result<()> {
    let t = &ctx.tournament;
    let bots = table
        .bots
        .iter()
        .enumerate()
        .map(|(seat, &b)| bot_spec(ctx, table.index, seat, b))
        .collect::<Result<Vec<_>, _>>()
        .map_err(std::io::Error::other)?;
    let config = MatchConfig {
        game: ctx.game.clone(),
        bots,
        rounds: t.rounds,
        time: t.time(),
        retries: t.retries,
        freeze: t.freeze,
        hide_legal: t.hide_legal,
        limits: Limits::default(),
        isolation: ctx.opts.isolation.clone(),
        seed: t.seed,
        match_id: match_id(&ctx.id, table.index),
        table: Some(table.index),
        openings: table_openings(&*ctx.game, t.seed, table.index, t.rounds, t.opening_plies),
    };
    let mut observer = TableObserver {
        ctx,
        table: table.index,
        names: config.bots.iter().map(|b| b.name.clone()).collect(),
    };
    run_match(&config, &mut observer).await.map(|_| ())
}

/// The command of a bot at a seat of a table.
fn bot_spec(ctx: &Ctx, table: u32, seat: usize, bot: usize) -> Result<BotSpec, String> {
    let b = &ctx.tournament.bots[bot];
    let mut spec = BotSpec::parse(&b.name, &b.command)?;
    if let Some(cwd) = &b.cwd {
        // A relative program is relative to the bot's own directory.
        if spec.argv[0].contains('/') && Path::new(&spec.argv[0]).is_relative() {
            spec.argv[0] = cwd.join(&spec.argv[0]).display().to_string();
        }
        spec.cwd = Some(cwd.clone());
    }
    spec.resources = b.limits;
    if ctx.opts.bot_logs {
        let safe: String = b
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        spec.log = Some(
            ctx.opts
                .output
                .join("logs")
                .join(format!("table-{table:05}-seat-{seat}-{safe}.log")),
        );
    }
    Ok(spec)
}

/// Forwards a table's events to the writer and the progress display.
struct TableObserver<'a> {
    ctx: &'a Ctx,
    table: u32,
    names: Vec<String>,
}

impl Observer for TableObserver<'_> {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        match event {
            Event::RoundEnded { record } => {
                self.ctx
                    .writer
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .write(record)?;
                self.ctx
                    .records
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((*record).clone());
                self.ctx.progress.round_done();
            }
            Event::Forfeited { round, forfeit } if !self.ctx.opts.quiet => {
                self.ctx.progress.note(&format!(
                    "table {} round {round}: {} forfeited ({} at move {}): {}",
                    self.table,
                    self.names[forfeit.seat],
                    forfeit.kind,
                    forfeit.ply,
                    crate::game::cut(&forfeit.detail, 120)
                ));
            }
            _ => {}
        }
        Ok(())
    }
}

/// Runs the SPRT over the complete prefix of the schedule; stops new tables once it decides.
fn check_sprt(ctx: &Ctx) {
    let Some(test) = &ctx.tournament.sprt else {
        return;
    };
    let mut records = ctx
        .records
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let complete = output::complete_tables(&records, ctx.tournament.rounds);
    // The prefix: tables 1, 2, ... as long as each is complete.
    let prefix = (1..)
        .take_while(|i| complete.contains(i))
        .last()
        .unwrap_or(0);
    records.retain(|r| r.table.is_some_and(|tb| tb <= prefix));
    schedule_order(&mut records);
    if super::aggregate::sprt_cut(&ctx.tournament, test, &records).is_some()
        && !ctx.stop.swap(true, Ordering::SeqCst)
    {
        ctx.progress
            .note("the SPRT decided: no new table starts; tables already playing finish");
    }
}

/// A Swiss event: phase by phase, each paired from the complete tables before it.
async fn play_swiss(ctx: &Arc<Ctx>) -> std::io::Result<()> {
    let ScheduleSpec::Swiss { swiss_rounds } = ctx.tournament.schedule else {
        unreachable!("only Swiss events are played by phases");
    };
    for phase in 1..=swiss_rounds {
        let records = ctx
            .records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let complete = output::complete_tables(&records, ctx.tournament.rounds);
        let tables = swiss_phase(&ctx.tournament, &records, phase);
        let todo: Vec<Table> = tables
            .into_iter()
            .filter(|tb| !complete.contains(&tb.index))
            .collect();
        play_tables(ctx, todo).await?;
    }
    Ok(())
}

/// The tables of Swiss phase `phase` (from 1), replaying the pairings of the phases before
/// it from their records. Table numbers run on from phase to phase (n/2 tables each). A bye
/// counts half the table's rounds as wins for pairing only (not in the standings).
pub fn swiss_phase(t: &Tournament, records: &[RoundRecord], phase: u32) -> Vec<Table> {
    let n = t.bots.len();
    let per_phase = (n / 2) as u32;
    let mut scores = vec![0.0f64; n];
    let mut met = BTreeSet::new();
    let mut byes = vec![0u32; n];
    for p in 1..=phase {
        let (pairs, bye) = schedule::swiss_pairs(&scores, &met, &byes);
        let tables: Vec<Table> = pairs
            .iter()
            .enumerate()
            .map(|(j, &(a, b))| Table {
                index: (p - 1) * per_phase + j as u32 + 1,
                bots: vec![a, b],
            })
            .collect();
        if p == phase {
            return tables;
        }
        if let Some(b) = bye {
            byes[b] += 1;
            scores[b] += f64::from(t.rounds) / 2.0;
        }
        for tb in &tables {
            met.insert((tb.bots[0].min(tb.bots[1]), tb.bots[0].max(tb.bots[1])));
            for r in records.iter().filter(|r| r.table == Some(tb.index)) {
                for (seat, s) in r.seats.iter().enumerate() {
                    if let Some(b) = t.bot_index(&s.name) {
                        scores[b] += r.result.wins[seat];
                    }
                }
            }
        }
    }
    Vec::new()
}

/// Resolves when the arbiter is asked to stop (Ctrl-C or SIGTERM).
async fn interrupted() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}
