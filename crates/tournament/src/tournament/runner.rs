//! Running a tournament: tables at once, results as they come, resume, shards, Ctrl-C.
//!
//! - **Concurrency.** Up to `jobs` tables at once, each on a thread of its own with a
//!   current-thread runtime (no wake-up crosses threads, as in `rollarena match`); with
//!   `--pin` each of those threads, and so the bots it starts, is bound to one CPU. Each table
//!   is one [`run_match_with`] with its own bot processes, which live for the table, so
//!   start-up is spread over its rounds; with `--start-ahead` a slot starts its next table's
//!   bots while its current table plays its last rounds (`Ahead`, [`Lineup`]), so that a
//!   table's start does not hold its slot up. Each table's observer appends finished rounds to the shared
//!   `results.jsonl` (one write per line) and ticks the progress bar; when a table ends, a
//!   thread of its own syncs the file ([`Syncer`]), so no table waits on the disk.
//! - **Memory.** Nothing grows with the rounds played: a table keeps a compact
//!   [`RoundSummary`] per round until it ends, then the summaries are folded into the
//!   standings in schedule order ([`Sequencer`]); the records themselves are only written.
//! - **Determinism.** Every table's [`MatchConfig`] gets `table: Some(i)`, the tournament seed
//!   and the match id `t<id8>-<i>`, so round seeds and openings depend on the schedule only.
//!   The file is in completion order; everything computed from it is folded in schedule order.
//! - **Resume.** `results.jsonl` is read back as a stream (a torn last line is cut), tables
//!   with every round present are kept, and so are the first rounds of an interrupted table:
//!   it is played on from the round after them ([`run_match_from`], with the state its kept
//!   rounds hand on: [`Resume`]), by bots started afresh. Only rounds that cannot be kept (a
//!   round after a gap, a round that does not re-play as recorded) are dropped from the file.
//!   With deterministic bots the results are then identical to an uninterrupted run.
//! - **Shards.** `--shard i/n` plays the tables whose number is i modulo n.
//! - **Swiss.** Played phase by phase; each phase's pairing is computed from the complete
//!   tables of the earlier ones (so a resumed Swiss event pairs exactly as before).
//! - **SPRT.** The test runs in the fold, so over the prefix of the schedule whose tables are
//!   all complete; once it decides, no new table starts.
//! - **Interruption.** Ctrl-C or SIGTERM cancels every table, kills every bot at once and
//!   returns [`Finished::Interrupted`]; finished rounds stay in the file for `--resume`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use super::aggregate::{Fold, RoundSummary, Sequencer, Standings};
use super::config::{ScheduleSpec, Tournament};
use super::knockout::{self, TieResult};
use super::openings::table_openings;
use super::output::{self, Meta, Shard};
use super::progress::Progress;
use super::results::{self, Rewrite, Syncer, Tables, Writer};
use super::schedule::{self, Table};
use crate::arbiter::events::{Event, Observer};
use crate::arbiter::process::kill_all;
use crate::arbiter::{BotSpec, Launcher, Limits, Lineup, MatchConfig, Resume, run_match_with};
use crate::game::Game;
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
    /// Bind each table (its arbiter thread and its bots) to one CPU of those the arbiter may
    /// use, table slot i to the i-th.
    pub pin: bool,
    /// Start a slot's next table's bots while its current table plays its last rounds
    /// ([`Ahead`], `--start-ahead`); off (the default), a table's bots start when it begins,
    /// so that no start-up shares the CPU with bots on the clock.
    pub start_ahead: bool,
    /// No progress bar and no forfeit lines.
    pub quiet: bool,
    /// The tournament file as given, and its SHA-256.
    pub file: String,
    pub file_sha256: String,
    /// Called with the standings as each table ends (`--live DIR` keeps a page current with
    /// it); its error is logged as a warning.
    pub on_standings: Option<OnStandings>,
}

/// See [`RunOptions::on_standings`].
#[derive(Clone)]
pub struct OnStandings(pub Arc<StandingsHook>);

/// A function of the standings that may fail (its error is logged).
pub type StandingsHook = dyn Fn(&Standings) -> Result<(), crate::Error> + Send + Sync;

impl std::fmt::Debug for OnStandings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnStandings(..)")
    }
}

/// Why a run could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The user can fix it (bad directory, another tournament's output): exit 2.
    #[error("{0}")]
    Usage(String),
    /// The arbiter failed (a record that cannot be written): exit 3.
    #[error("{0}")]
    Failed(String),
}

impl RunError {
    /// The user's to fix, from the refusal (of this layer or a lower one).
    pub fn usage(e: impl std::fmt::Display) -> RunError {
        RunError::Usage(e.to_string())
    }
}

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
    /// Knockouts: the bracket drawn as text (also in `bracket.txt`, and as data in
    /// `bracket.json`).
    pub bracket: Option<String>,
    pub elapsed: std::time::Duration,
}

/// State shared by the tables of a run.
struct Ctx {
    tournament: Tournament,
    id: String,
    game: Arc<dyn Game>,
    opts: RunOptions,
    writer: Arc<Writer>,
    syncer: Syncer,
    state: Mutex<State>,
    progress: Progress,
    /// Set when no new table may start (the SPRT decided).
    stop: AtomicBool,
    /// Set to cancel every table at once (Ctrl-C, or a table failed): nothing more is written.
    cancel: watch::Sender<bool>,
    /// Rounds written by this run.
    rounds_played: AtomicU64,
    /// With `--pin`: the CPUs the arbiter may use, one per table slot in turn.
    cpus: Option<Vec<usize>>,
    /// Without `--pin`, with several slots and CPUs: the CPUs the slots' threads are placed
    /// on (their bots only start there).
    places: Option<Vec<usize>>,
    /// Tables this run plays in all (kept ones included), for the live standings.
    tables: u32,
    /// The openings file's openings, when the tournament has one.
    book: Option<Vec<super::book::Opening>>,
}

/// What the tables of a run build up together.
struct State {
    /// The standings, folded in schedule order.
    seq: Sequencer,
    /// Tables with every round in the file.
    complete: BTreeSet<u32>,
    /// Swiss events only: each finished table's (bot, share of the round win), per round and
    /// seat, for the pairings.
    swiss: BTreeMap<u32, Vec<(usize, f64)>>,
    /// Interrupted tables of an earlier run: where each goes on, and its kept rounds' summaries.
    resumed: BTreeMap<u32, (Resume, Vec<RoundSummary>)>,
    /// Knockouts only: each finished tie's bots with their round wins and points.
    ties: BTreeMap<u32, TieResult>,
}

impl Ctx {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn cancelled(&self) -> bool {
        *self.cancel.borrow()
    }

    /// A table whose every round is in the file.
    fn table_done(&self, table: u32, rounds: Vec<RoundSummary>) {
        let cap = u64::from(self.tournament.rounds);
        self.progress
            .never_played(cap.saturating_sub(rounds.len() as u64));
        let decided = self.state().table_done(&self.tournament, table, rounds);
        if let Some(OnStandings(call)) = &self.opts.on_standings {
            let standings = self.state().seq.fold.standings(Some(self.tables));
            if let Err(e) = call(&standings) {
                tracing::warn!("the live standings: {e}");
            }
        }
        if decided {
            self.sprt_decided();
        }
    }

    fn sprt_decided(&self) {
        if !self.stop.swap(true, Ordering::SeqCst) {
            self.progress
                .note("the SPRT decided: no new table starts; tables already playing finish");
        }
    }
}

impl State {
    /// A table whose every round is in the file (played now or kept from before). True when
    /// the SPRT has decided.
    fn table_done(&mut self, t: &Tournament, table: u32, rounds: Vec<RoundSummary>) -> bool {
        self.complete.insert(table);
        if matches!(t.schedule, ScheduleSpec::Swiss { .. }) {
            self.swiss
                .insert(table, rounds.iter().flat_map(|r| r.wins()).collect());
        }
        if matches!(t.schedule, ScheduleSpec::Knockout { .. }) {
            let mut tie: TieResult = Vec::new();
            for (bot, win, points) in rounds.iter().flat_map(|r| r.results()) {
                match tie.iter_mut().find(|row| row.0 == bot) {
                    Some(row) => {
                        row.1 += win;
                        row.2 += u64::from(points);
                    }
                    None => tie.push((bot, win, u64::from(points))),
                }
            }
            self.ties.insert(table, tie);
        }
        self.seq.finished(table, rounds);
        self.seq.fold.decided()
    }
}

/// The tables of a fixed schedule that this run (shard) plays.
pub fn shard_tables(
    t: &Tournament,
    shard: Option<Shard>,
) -> Result<Option<Vec<Table>>, crate::Error> {
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
pub fn scheduled_tables(t: &Tournament) -> Result<u32, crate::Error> {
    match &t.schedule {
        ScheduleSpec::Swiss { swiss_rounds } => Ok(swiss_rounds * (t.bots.len() / 2) as u32),
        ScheduleSpec::Knockout { .. } => {
            let (format, _) = knockout_of(t).expect("a knockout");
            knockout::max_tables(&format, t.bots.len())
        }
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
    refuse_unshardable(t, &opts)?;
    let game = t.game().map_err(RunError::usage)?;
    let book = match &t.openings {
        Some(b) => Some(read_book(b, &*game, t.seed).map_err(RunError::usage)?),
        None => None,
    };
    if let Some(w) = game.schedule_warning(t.rounds) {
        tracing::warn!("{w}");
    }
    let fixed = shard_tables(t, opts.shard).map_err(RunError::usage)?;
    let scheduled = scheduled_tables(t).map_err(RunError::usage)?;
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
    let resuming = output::prepare(&dir, &meta, opts.resume).map_err(RunError::usage)?;
    if opts.resume && !resuming {
        tracing::info!("nothing to resume in {}: starting afresh", dir.display());
    }
    let path = dir.join(output::RESULTS);
    let expected = match &fixed {
        Some(tables) => tables.iter().map(|tb| tb.index).collect::<Vec<_>>(),
        // Swiss phases number their tables on from one phase to the next.
        None => (1..=scheduled).collect(),
    };
    let kept = keep_from_before(t, &id, &path, expected)?;
    if resuming && !opts.quiet {
        kept.say();
    }
    let total_tables = match &fixed {
        Some(tables) => tables.len() as u64,
        None => u64::from(scheduled),
    };
    let decided = kept.state.seq.fold.decided();
    let complete = kept.state.complete.clone();
    let writer = Arc::new(
        Writer::append(&path)
            .map_err(|e| RunError::Failed(format!("cannot open {}: {e}", path.display())))?,
    );
    let ctx = Arc::new(Ctx {
        tournament: t.clone(),
        id: id.clone(),
        game,
        opts: opts.clone(),
        writer: writer.clone(),
        syncer: Syncer::start(writer)
            .map_err(|e| RunError::Failed(format!("cannot start a thread: {e}")))?,
        state: Mutex::new(kept.state),
        progress: Progress::new(
            (total_tables * u64::from(t.rounds)).saturating_sub(kept.short),
            kept.rounds,
            opts.quiet,
        ),
        stop: AtomicBool::new(false),
        cancel: watch::Sender::new(false),
        rounds_played: AtomicU64::new(0),
        cpus: opts.pin.then(allowed_cpus),
        places: (!opts.pin && opts.jobs > 1)
            .then(allowed_cpus)
            .filter(|c| c.len() > 1),
        tables: total_tables as u32,
        book,
    });
    if decided {
        ctx.sprt_decided();
    }
    if opts.bot_logs {
        std::fs::create_dir_all(dir.join("logs"))
            .map_err(|e| RunError::Failed(format!("cannot create the log directory: {e}")))?;
    }
    if !play(&ctx, fixed, complete, &path)? {
        return Ok(Finished::Interrupted);
    }
    finish(&ctx, &dir, scheduled, kept.rounds).map(|s| Finished::Done(Box::new(s)))
}

/// Swiss, knockout and SPRT events decide each round's tables from the rounds before them:
/// they run on one machine, never in shards.
fn refuse_unshardable(t: &Tournament, opts: &RunOptions) -> Result<(), RunError> {
    if opts.shard.is_some()
        && matches!(
            t.schedule,
            ScheduleSpec::Swiss { .. } | ScheduleSpec::Knockout { .. }
        )
    {
        return Err(RunError::Usage(format!(
            "a {} event cannot be sharded: each round's tables depend on the results of the \
             rounds before it, so it runs on one machine",
            t.schedule.name()
        )));
    }
    if opts.shard.is_some() && t.sprt.is_some() {
        return Err(RunError::Usage(
            "an SPRT event cannot be sharded: the test decides on the rounds in schedule order \
             and stops the event, so it runs on one machine"
                .into(),
        ));
    }
    Ok(())
}

/// What an earlier run left in the results file and this one keeps.
struct Kept {
    state: State,
    /// Rounds kept, of complete tables and of unfinished ones.
    rounds: u64,
    /// Rounds of kept tables that the rules ended before the cap: never played.
    short: u64,
    /// Rounds of complete tables kept.
    complete_rounds: u64,
    /// Rounds of unfinished tables kept.
    partial_rounds: u64,
    /// Rounds read and dropped (to be played again).
    dropped: u64,
}

/// Reads the rounds kept from before: complete tables only, once each, folded as they are read,
/// and the first rounds of unfinished ones; `expected` are the tables this run plays.
fn keep_from_before(
    t: &Tournament,
    id: &str,
    path: &Path,
    expected: Vec<u32>,
) -> Result<Kept, RunError> {
    let scan = results::scan(path, t.rounds, |k| match k.table {
        Some(tb) if k.match_id == match_id(id, tb) => Ok(()),
        _ => Err(crate::Error::Results(format!(
            "{} holds a round of match {:?}, which is not of this tournament",
            path.display(),
            k.match_id
        ))),
    })
    .map_err(RunError::usage)?;
    let mut seq = Sequencer::new(Fold::new(t));
    seq.expect(expected);
    let mut state = State {
        seq,
        complete: BTreeSet::new(),
        swiss: BTreeMap::new(),
        resumed: BTreeMap::new(),
        ties: BTreeMap::new(),
    };
    let short: u64 = scan
        .complete
        .values()
        .map(|&n| u64::from(t.rounds.saturating_sub(n)))
        .sum();
    let lines = scan.lines;
    // Rewritten (in schedule order, kept rounds only) when a round is dropped or may be.
    let rewrite = scan.lines > scan.kept || !scan.partial.is_empty();
    if scan.lines > 0 {
        keep_tables(t, &mut state, path, scan.complete, scan.partial, rewrite)?;
    }
    let partial_rounds: u64 = state
        .resumed
        .values()
        .map(|(r, _)| u64::from(r.played))
        .sum();
    let rounds = scan.kept + partial_rounds;
    Ok(Kept {
        state,
        rounds,
        short,
        complete_rounds: scan.kept,
        partial_rounds,
        dropped: lines - rounds,
    })
}

impl Kept {
    /// The line a resumed run starts with: what it kept and what it plays again.
    fn say(&self) {
        eprintln!(
            "resuming: {} finished tables kept ({} rounds){}{}",
            self.state.complete.len(),
            self.complete_rounds,
            if self.state.resumed.is_empty() {
                String::new()
            } else {
                format!(
                    "; unfinished tables going on from their last finished round: {} \
                     ({} rounds kept)",
                    self.state.resumed.len(),
                    self.partial_rounds
                )
            },
            if self.dropped > 0 {
                format!(
                    "; {} rounds dropped (repeated, after a gap, or of a table whose \
                     rounds do not re-play as recorded): those are played again",
                    self.dropped
                )
            } else {
                String::new()
            }
        );
    }
}

/// Plays the tables on threads of their own while this one waits for them or for a signal:
/// whether they all ended (`false`: interrupted, every bot killed, what was finished synced).
fn play(
    ctx: &Arc<Ctx>,
    fixed: Option<Vec<Table>>,
    complete: BTreeSet<u32>,
    path: &Path,
) -> Result<bool, RunError> {
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
    let tables = {
        let ctx = ctx.clone();
        std::thread::Builder::new()
            .name("tables".into())
            .spawn(move || {
                let result = match fixed {
                    Some(tables) => {
                        let todo: Vec<Table> = tables
                            .into_iter()
                            .filter(|tb| !complete.contains(&tb.index))
                            .collect();
                        play_tables(&ctx, todo)
                    }
                    None if matches!(ctx.tournament.schedule, ScheduleSpec::Knockout { .. }) => {
                        play_knockout(&ctx)
                    }
                    None => play_swiss(&ctx),
                };
                let _ = done_tx.send(());
                result
            })
            .map_err(|e| RunError::Failed(format!("cannot start a thread: {e}")))?
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| RunError::Failed(format!("cannot start the runtime: {e}")))?;
    let stopped = runtime.block_on(async {
        tokio::select! {
            _ = done_rx => false,
            _ = interrupted() => true,
        }
    });
    if stopped {
        // Cancel first (so that no table writes a round its bots' deaths cut short), then
        // kill every bot; the tables' threads end at their next wake-up.
        ctx.cancel.send_replace(true);
        kill_all();
        let _ = tables.join();
        ctx.progress.finish();
        if let Err(e) = ctx.syncer.finish() {
            tracing::warn!("cannot sync {}: {e}", path.display());
        }
        return Ok(false);
    }
    let result = tables
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("a table panicked")));
    ctx.progress.finish();
    let synced = ctx.syncer.finish();
    result.map_err(|e| RunError::Failed(format!("the tournament failed: {e}")))?;
    synced.map_err(|e| RunError::Failed(format!("cannot sync {}: {e}", path.display())))?;
    Ok(true)
}

/// After the last table: the bracket and the standings written, and the run's summary.
fn finish(ctx: &Ctx, dir: &Path, scheduled: u32, rounds_kept: u64) -> Result<Summary, RunError> {
    let t = &ctx.tournament;
    // The tables the SPRT stopped from starting leave gaps: fold what waits after them.
    let (fold, bracket) = {
        let mut st = ctx.state();
        let bracket = knockout_bracket(t, &st.ties);
        let fold = std::mem::replace(&mut st.seq, Sequencer::new(Fold::new(t))).finish();
        (fold, bracket)
    };
    let bracket = match bracket {
        Some(b) => Some(
            output::write_bracket(dir, t, &b)
                .map_err(|e| RunError::Failed(format!("cannot write the bracket: {e}")))?,
        ),
        None => None,
    };
    let standings = fold.standings(Some(scheduled));
    output::write_standings(dir, &standings)
        .map_err(|e| RunError::Failed(format!("cannot write the standings: {e}")))?;
    Ok(Summary {
        rounds_played: ctx.rounds_played.load(Ordering::SeqCst),
        rounds_kept,
        standings,
        bracket,
        elapsed: ctx.progress.elapsed(),
    })
}

/// Reads back the complete tables of an earlier run, in schedule order, into the standings,
/// and the first rounds of its interrupted tables (`partial`) into where each goes on
/// ([`State::resumed`]); with `rewrite`, the file is rewritten with those rounds only (in
/// schedule order), dropping the rest. An interrupted table whose rounds do not re-play as
/// recorded is dropped whole (a warning says why) and played again from its first round.
fn keep_tables(
    t: &Tournament,
    state: &mut State,
    path: &Path,
    complete: BTreeMap<u32, u32>,
    partial: BTreeMap<u32, u32>,
    rewrite: bool,
) -> Result<(), RunError> {
    let failed = |e: std::io::Error| RunError::Failed(format!("cannot rewrite the results: {e}"));
    let mut wanted = complete.clone();
    wanted.extend(&partial);
    let mut tables = Tables::open(path, wanted).map_err(RunError::usage)?;
    let mut out = if rewrite {
        Some(Rewrite::create(path).map_err(failed)?)
    } else {
        None
    };
    while let Some((table, lines)) = tables.next_table().map_err(RunError::usage)? {
        let mut rounds = Vec::with_capacity(lines.len());
        let mut resume: Result<Option<Resume>, crate::Error> = Ok(None);
        let mut kept = Vec::new();
        for line in &lines {
            let bytes = tables.read(line).map_err(RunError::usage)?;
            let record = tables.record(line, &bytes).map_err(RunError::usage)?;
            rounds.push(RoundSummary::of(t, &record));
            if complete.contains_key(&table) {
                if let Some(out) = &mut out {
                    out.line(&bytes).map_err(failed)?;
                }
            } else {
                resume = resume.and_then(|r| {
                    Resume::add(r, &record)
                        .map(Some)
                        .map_err(crate::Error::lower)
                });
                kept.push(bytes);
            }
        }
        if complete.contains_key(&table) {
            state.table_done(t, table, rounds);
            continue;
        }
        match resume {
            Ok(Some(resume)) => {
                if let Some(out) = &mut out {
                    for bytes in &kept {
                        out.line(bytes).map_err(failed)?;
                    }
                }
                state.resumed.insert(table, (resume, rounds));
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(
                "table {table} is played again from its first round: its {} finished rounds \
                 cannot be kept: {e}",
                lines.len()
            ),
        }
    }
    if let Some(out) = out {
        out.finish().map_err(failed)?;
    }
    Ok(())
}

/// The openings file of a tournament, read again as the run starts; refused if it changed
/// since the tournament was set up (another file is another tournament).
fn read_book(
    b: &super::book::BookConfig,
    game: &dyn Game,
    seed: u64,
) -> Result<Vec<super::book::Opening>, crate::Error> {
    let bytes = std::fs::read(&b.file).map_err(|e| {
        crate::Error::io(
            format!("cannot read the openings file {}", b.file.display()),
            e,
        )
    })?;
    if super::config::sha256_hex(&bytes) != b.sha256 {
        return Err(crate::Error::Invalid(format!(
            "the openings file {} changed since this tournament was set up: restore it, or run \
             the new file as another tournament (another --output)",
            b.file.display()
        )));
    }
    super::book::read(&b.file, game, seed)
}

/// The CPUs this process may run on (all it can see if it cannot tell).
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: sched_getaffinity fills the set we pass, of the size we give.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) } == 0;
    let cpus: Vec<usize> = if ok {
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect()
    } else {
        Vec::new()
    };
    if cpus.is_empty() {
        (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
    } else {
        cpus
    }
}

/// Binds the calling thread (and so every process it starts from now on) to one CPU.
fn pin_thread(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is empty; CPU_SET stays within it (cpu < CPU_SETSIZE, as
    // sched_getaffinity listed it); sched_setaffinity(0) reads it for this thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set) != 0 {
            tracing::warn!(
                "cannot bind a table to CPU {cpu}: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// Plays tables, at most `jobs` at once, in schedule order of starting: `jobs` threads, each
/// taking the next table when its last one ends. Returns when every table ended, the SPRT
/// decided (tables playing finish) or the run was cancelled.
fn play_tables(ctx: &Arc<Ctx>, tables: Vec<Table>) -> std::io::Result<()> {
    let jobs = ctx.opts.jobs.max(1).min(tables.len());
    let queue = Mutex::new(tables.into_iter());
    let running = AtomicUsize::new(0);
    let failure: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for slot in 0..jobs {
            let (queue, running, failure) = (&queue, &running, &failure);
            let spawned = std::thread::Builder::new()
                .name(format!("table-{slot}"))
                .spawn_scoped(scope, move || {
                    if let Err(e) = table_slot(ctx, slot, jobs, queue, running) {
                        failure
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .get_or_insert(e);
                        // The others stop too, at once.
                        ctx.cancel.send_replace(true);
                    }
                });
            if let Err(e) = spawned {
                failure
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e);
                ctx.cancel.send_replace(true);
                break;
            }
        }
    });
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One table slot: plays tables one after another on this thread, each table's bots started
/// while the table before it ends ([`Ahead`]).
fn table_slot(
    ctx: &Ctx,
    slot: usize,
    slots: usize,
    queue: &Mutex<std::vec::IntoIter<Table>>,
    running: &AtomicUsize,
) -> std::io::Result<()> {
    if let Some(cpus) = &ctx.cpus {
        // Before the runtime, so that its threads (and every bot) inherit the binding.
        pin_thread(cpus[slot % cpus.len()]);
    } else if let Some(cpus) = &ctx.places
        && slots > 1
    {
        // Unpinned, the scheduler tends to keep the slots' threads, and so their bots (woken
        // where they are woken from), together on one CPU, the others idle. Each slot's own
        // threads go to a CPU of their own; its bots start there and are free to move.
        crate::sandbox::launch::PLACE_ONLY.store(true, Ordering::Relaxed);
        pin_thread(cpus[slot % cpus.len()]);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // After the binding, which its thread (and so every bot it launches) inherits.
    let launcher = Launcher::new(format!("launch-{slot}"))?;
    let mut ahead = Ahead::new(queue, slots, &launcher);
    let result = loop {
        if ctx.stop.load(Ordering::SeqCst) || ctx.cancelled() {
            break Ok(());
        }
        let Some((table, lineup)) = ahead.next() else {
            break Ok(());
        };
        ctx.progress
            .running(running.fetch_add(1, Ordering::SeqCst) + 1);
        let mut cancel = ctx.cancel.subscribe();
        let played = runtime.block_on(async {
            tokio::select! {
                biased;
                _ = cancel.wait_for(|&c| c) => None,
                r = play_table(ctx, table, lineup, &mut ahead) => Some(r),
            }
        });
        ctx.progress
            .running(running.fetch_sub(1, Ordering::SeqCst) - 1);
        match played {
            None => break Ok(()),
            Some(Ok((index, rounds))) => ctx.table_done(index, rounds),
            Some(Err(_)) if ctx.cancelled() => break Ok(()),
            Some(Err(e)) => break Err(e),
        }
    };
    // A lineup whose table will not be played (the SPRT decided, the run was cancelled).
    if let Some(lineup) = ahead.lineup.take() {
        runtime.block_on(lineup.discard());
    }
    // The runtime (and any bot task left in it) goes before the launcher, which must outlive
    // the bots it launched.
    drop(runtime);
    drop(launcher);
    result
}

/// The next table of a slot, and its bots started ahead of it: when the table playing is
/// within [`Ahead::lead`] rounds of its end, the slot takes its next table from the queue and
/// starts that table's bots ([`Lineup`]), so that their launches and handshakes overlap the
/// last rounds (and the end) of the table before. The lead is the rounds that one table start
/// took (its wall time over a round's, measured as the slot goes), plus one: a round of real
/// bots takes longer than a start, so it is the last round; minimal bots get a few more.
struct Ahead<'q> {
    queue: &'q Mutex<std::vec::IntoIter<Table>>,
    /// The slots taking tables from the queue.
    slots: usize,
    launcher: &'q Launcher,
    /// The next table, taken from the queue early (with its lineup, unless it goes on from
    /// kept rounds, whose bots start as usual).
    table: Option<Table>,
    lineup: Option<Lineup>,
    /// The latest measured wall time of a table's start (launches to every `ready`), seconds;
    /// 0 until measured.
    start_secs: f64,
    /// The lineup's start was measured.
    measured: bool,
}

/// The most rounds before a table's end at which the next table's bots start.
const MAX_LEAD: u32 = 32;

impl<'q> Ahead<'q> {
    fn new(
        queue: &'q Mutex<std::vec::IntoIter<Table>>,
        slots: usize,
        launcher: &'q Launcher,
    ) -> Self {
        Ahead {
            queue,
            slots,
            launcher,
            table: None,
            lineup: None,
            start_secs: 0.0,
            measured: false,
        }
    }

    /// The table to play next (taken early, or from the queue now) and its lineup.
    fn next(&mut self) -> Option<(Table, Option<Lineup>)> {
        let table = self
            .table
            .take()
            .or_else(|| self.queue.lock().unwrap_or_else(|p| p.into_inner()).next())?;
        Some((table, self.lineup.take()))
    }

    /// Rounds before the end of a table at which the next one's bots start, given a round's
    /// wall time (seconds) so far.
    fn lead(&self, round_secs: f64) -> u32 {
        if round_secs <= 0.0 {
            return 1;
        }
        ((self.start_secs / round_secs).ceil() as u32)
            .saturating_add(1)
            .min(MAX_LEAD)
    }

    /// Takes the next table from the queue and starts its bots, unless that was done or no
    /// table may start.
    fn start_next(&mut self, ctx: &Ctx) {
        if self.table.is_some()
            || !ctx.opts.start_ahead
            || ctx.stop.load(Ordering::SeqCst)
            || ctx.cancelled()
        {
            return;
        }
        let table = {
            let mut queue = self.queue.lock().unwrap_or_else(|p| p.into_inner());
            // Taken early, a table must leave one for every other slot: the last tables go to
            // the slots that are free first, as before (a slot whose table ends later must not
            // hold one that another, idle, could play).
            if queue.len() < self.slots {
                return;
            }
            queue.next()
        };
        let Some(table) = table else {
            return;
        };
        if !ctx.state().resumed.contains_key(&table.index)
            && let Ok(config) = table_config(ctx, &table)
        {
            self.lineup = Some(Lineup::start(&config, self.launcher));
            self.measured = false;
        }
        self.table = Some(table);
    }

    /// Notes how long the lineup took once every bot is in (checked at each round's end).
    fn observe(&mut self) {
        if let Some(l) = &self.lineup
            && !self.measured
            && l.settled()
        {
            self.start_secs = l.age().as_secs_f64();
            self.measured = true;
        }
    }
}

/// Plays one table to its end (its bots taken over from `lineup` when it has one, the next
/// table's started through `ahead` as it nears its end); returns its number and its rounds'
/// summaries.
async fn play_table(
    ctx: &Ctx,
    table: Table,
    lineup: Option<Lineup>,
    ahead: &mut Ahead<'_>,
) -> std::io::Result<(u32, Vec<RoundSummary>)> {
    let config = table_config(ctx, &table).map_err(std::io::Error::other)?;
    // An interrupted table of an earlier run goes on from its last finished round.
    let (resume, rounds) = match ctx.state().resumed.remove(&table.index) {
        Some((resume, kept)) => (Some(resume), kept),
        None => (None, Vec::with_capacity(ctx.tournament.rounds as usize)),
    };
    // The start is measured afresh at every table without a lineup (round 1's extra time).
    if lineup.is_none() {
        ahead.start_secs = 0.0;
    }
    let mut observer = TableObserver {
        ctx,
        table: table.index,
        names: config.bots.iter().map(|b| b.name.clone()).collect(),
        line: Vec::new(),
        rounds,
        ahead,
        clock: RoundClock::default(),
    };
    run_match_with(&config, resume, lineup, &mut observer).await?;
    // One sync per table, in the background: the rounds of a table that is not on disk are
    // played again on resume anyway.
    ctx.syncer.ask();
    Ok((table.index, observer.rounds))
}

/// The match a table plays: its seats' bots, openings and the tournament's settings.
fn table_config(ctx: &Ctx, table: &Table) -> Result<MatchConfig, crate::Error> {
    let t = &ctx.tournament;
    let bots = table
        .bots
        .iter()
        .enumerate()
        .map(|(seat, &b)| bot_spec(ctx, table.index, seat, b))
        .collect::<Result<Vec<_>, _>>()?;
    let (openings, deals) = match (&ctx.book, &t.openings) {
        (Some(book), Some(config)) => {
            let players = t.players as u32;
            let b = super::book::table_book(book, config, t.seed, table.index, t.rounds, players);
            (b.moves, b.deals)
        }
        _ => (
            table_openings(&*ctx.game, t.seed, table.index, t.rounds, t.opening_plies),
            Vec::new(),
        ),
    };
    Ok(MatchConfig {
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
        openings,
        deals,
        withdraw_after: Some(t.withdraw_after).filter(|&n| n > 0),
    })
}

/// How a bot of the field is started (its command, directory and limits), as every table and
/// the pre-flight start it.
pub fn spec_of(b: &crate::tournament::config::BotConfig) -> Result<BotSpec, crate::Error> {
    let mut spec = BotSpec::parse(&b.name, &b.command).map_err(crate::Error::lower)?;
    if let Some(cwd) = &b.cwd {
        // A relative program is relative to the bot's own directory.
        if spec.argv[0].contains('/') && Path::new(&spec.argv[0]).is_relative() {
            spec.argv[0] = cwd.join(&spec.argv[0]).display().to_string();
        }
        spec.cwd = Some(cwd.clone());
    }
    spec.resources = b.limits;
    Ok(spec)
}

/// The command of a bot at a seat of a table.
fn bot_spec(ctx: &Ctx, table: u32, seat: usize, bot: usize) -> Result<BotSpec, crate::Error> {
    let b = &ctx.tournament.bots[bot];
    let mut spec = spec_of(b)?;
    spec.tc = ctx.tournament.tc_of(b);
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

/// Forwards a table's events to the results file and the progress display, keeps the
/// summary of each round, and starts the next table's bots as the table nears its end.
struct TableObserver<'a, 'q> {
    ctx: &'a Ctx,
    table: u32,
    names: Vec<String>,
    /// The line being written (its buffer is reused from round to round).
    line: Vec<u8>,
    rounds: Vec<RoundSummary>,
    ahead: &'a mut Ahead<'q>,
    clock: RoundClock,
}

/// The wall times of a table's rounds, for [`Ahead::lead`]: the first round played also
/// holds the start of the bots when they were not started ahead.
#[derive(Default)]
struct RoundClock {
    began: Option<std::time::Instant>,
    first: Option<f64>,
    sum: f64,
    n: u32,
}

impl RoundClock {
    fn ended(&mut self) {
        let Some(began) = self.began.take() else {
            return;
        };
        let secs = began.elapsed().as_secs_f64();
        if self.first.is_none() {
            self.first = Some(secs);
        } else {
            self.sum += secs;
            self.n += 1;
        }
    }

    /// A round's mean wall time after the first (0 until there is one).
    fn round_secs(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / f64::from(self.n)
        }
    }
}

impl Observer for TableObserver<'_, '_> {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::RoundStarted { .. } = event {
            self.clock.began = Some(std::time::Instant::now());
        }
        if let Event::RoundEnded { record } = event {
            if self.ctx.cancelled() {
                return Err(std::io::Error::other("the tournament was cancelled"));
            }
            self.line.clear();
            serde_json::to_writer(&mut self.line, record).map_err(std::io::Error::other)?;
            self.line.push(b'\n');
            self.ctx.writer.write_line(&self.line)?;
            self.rounds
                .push(RoundSummary::of(&self.ctx.tournament, record));
            self.ctx.rounds_played.fetch_add(1, Ordering::SeqCst);
            self.ctx.progress.round_done();
            if !self.ctx.opts.quiet {
                // At the round's end, where the record holds the cause (exit, stderr
                // tail, the lines ignored before a timeout), in `match`'s words.
                for f in &record.forfeits {
                    let name = self.names.get(f.seat).map_or("?", String::as_str);
                    self.ctx.progress.note(&format!(
                        "table {} round {}: {}",
                        self.table,
                        record.round,
                        crate::record::notes::forfeit_cause(name, f, &record.faults)
                    ));
                }
            }
            self.clock.ended();
            if self.clock.n == 1
                && self.ahead.start_secs == 0.0
                && let Some(first) = self.clock.first
            {
                // This table started its own bots: its first round's extra time is the start.
                self.ahead.start_secs = (first - self.clock.round_secs()).max(0.0);
            }
            self.ahead.observe();
            let left = self.ctx.tournament.rounds.saturating_sub(record.round);
            if record.ends_match || left <= self.ahead.lead(self.clock.round_secs()) {
                self.ahead.start_next(self.ctx);
            }
        }
        Ok(())
    }
}

/// A knockout's format and its seeds as bot indices.
pub fn knockout_of(t: &Tournament) -> Option<(knockout::Format, Vec<usize>)> {
    let ScheduleSpec::Knockout {
        elimination,
        advance,
        tiebreak,
        seeds,
    } = &t.schedule
    else {
        return None;
    };
    let format = knockout::Format {
        elimination: *elimination,
        players: t.players,
        advance: *advance,
        tiebreak: *tiebreak,
    };
    Some((
        format,
        seeds.iter().filter_map(|s| t.bot_index(s)).collect(),
    ))
}

/// The bracket of a knockout as far as its finished ties (`ties`) decide it.
pub fn knockout_bracket(
    t: &Tournament,
    ties: &BTreeMap<u32, TieResult>,
) -> Option<knockout::Bracket> {
    let (format, seeds) = knockout_of(t)?;
    Some(knockout::bracket(&format, &seeds, ties))
}

/// A knockout: phase by phase, each drawn from the finished ties before it, until a champion.
fn play_knockout(ctx: &Arc<Ctx>) -> std::io::Result<()> {
    loop {
        if ctx.cancelled() || ctx.stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        let todo: Vec<Table> = {
            let st = ctx.state();
            let bracket = knockout_bracket(&ctx.tournament, &st.ties).expect("a knockout");
            bracket
                .phases
                .iter()
                .flat_map(|p| &p.ties)
                .filter(|tie| !st.complete.contains(&tie.table))
                .map(|tie| Table {
                    index: tie.table,
                    bots: tie.bots.clone(),
                })
                .collect()
        };
        if todo.is_empty() {
            return Ok(());
        }
        let before = ctx.state().complete.len();
        play_tables(ctx, todo)?;
        if ctx.state().complete.len() == before {
            // Nothing finished (cancelled): stop rather than draw the same phase again.
            return Ok(());
        }
    }
}

/// A Swiss event: phase by phase, each paired from the complete tables before it.
fn play_swiss(ctx: &Arc<Ctx>) -> std::io::Result<()> {
    let ScheduleSpec::Swiss { swiss_rounds } = ctx.tournament.schedule else {
        unreachable!("only Swiss events are played by phases");
    };
    for phase in 1..=swiss_rounds {
        if ctx.cancelled() {
            return Ok(());
        }
        let todo: Vec<Table> = {
            let st = ctx.state();
            swiss_phase(&ctx.tournament, &st.swiss, phase)
                .into_iter()
                .filter(|tb| !st.complete.contains(&tb.index))
                .collect()
        };
        play_tables(ctx, todo)?;
    }
    Ok(())
}

/// The tables of Swiss phase `phase` (from 1), replaying the pairings of the phases before
/// it from the results of their tables (`wins`: per table, each round's (bot, share of the
/// round win) by seat). Table numbers run on from phase to phase (n/2 tables each). A bye
/// counts half the table's rounds as wins for pairing only (not in the standings).
pub fn swiss_phase(
    t: &Tournament,
    wins: &BTreeMap<u32, Vec<(usize, f64)>>,
    phase: u32,
) -> Vec<Table> {
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
            for &(b, win) in wins.get(&tb.index).into_iter().flatten() {
                scores[b] += win;
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
