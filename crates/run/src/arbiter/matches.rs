//! A match: one set of bot processes playing several rounds, from `hello` to `bye`.
//!
//! Bots start together (every `hello` is sent before any `ready` is awaited, so start-up
//! budgets run in parallel) and live for the whole match. A bot that forfeits a round is killed
//! and started afresh for the next one; a bot found dead between rounds is restarted too, and
//! that is recorded as a fault. A bot that lost `withdraw_after` rounds in a row by a crash or
//! at start-up is withdrawn: not started again, its remaining rounds forfeited at once. Each
//! finished round becomes one [`RoundRecord`] on the event stream, where the record writer
//! syncs it to disk before the next round starts. A match resumed ([`run_match_from`]) plays
//! on from the round after its kept ones, with the state they hand on ([`Resume`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use super::bot::{Bot, BotSpec, Failure, Limits, Prepared};
use super::clock::TimeControl;
use super::events::{Event, Observer};
use super::fault::ForfeitKind;
use super::lineup::Lineup;
use super::resume::Resume;
use crate::game::{Game, RoundSetup};
use crate::record::{FORMAT_VERSION, Fault, RoundRecord, SeatRecord, Settings};
use crate::seed::round_seed;
use crate::standings::MatchStandings;
use crate::wire::{Bye, Hello, PROTOCOL_VERSION, Standing, ToBot, to_line};

/// How long bots have to exit after `bye` before they are killed.
pub const BYE_GRACE: Duration = Duration::from_secs(2);

/// Everything that defines a match.
#[derive(Clone)]
pub struct MatchConfig {
    pub game: Arc<dyn Game>,
    pub bots: Vec<BotSpec>,
    pub rounds: u32,
    pub time: TimeControl,
    /// Refused attempts allowed per move beyond the first.
    pub retries: u32,
    /// Freeze idle bots between their turns.
    pub freeze: bool,
    /// Leave `legal` out of `turn`.
    pub hide_legal: bool,
    pub limits: Limits,
    /// How bots are isolated (user, resource limits, sandbox level).
    pub isolation: crate::sandbox::Isolation,
    pub seed: u64,
    pub match_id: String,
    /// Index of the table in a tournament, from 1.
    pub table: Option<u32>,
    /// Opening moves per round (index 0 is round 1), in the game's notation. The arbiter
    /// plays them through the rules before any bot is asked for a move, announces them as
    /// `played` with `by_arbiter: true`, and records them with `opening: true`. Tournaments
    /// use them so that deterministic bots do not replay the same rounds forever. A round
    /// past the end of the list has no opening.
    pub openings: Vec<Vec<serde_json::Value>>,
    /// Games with hidden information: the seed of each round's deal (index 0 is round 1), in
    /// place of the chance seed derived from the match seed, so that the rounds of a rotation
    /// cycle are dealt alike (an openings file's deal seeds). Recorded as `deal`. A round past
    /// the end of the list is dealt from the match seed.
    pub deals: Vec<u64>,
    /// Withdraw a seat's bot after it forfeited this many rounds in a row by a crash or at
    /// start-up: it is not started again, and its remaining rounds are forfeits at start-up
    /// whose detail says `withdrawn` (the arbiter plays its moves). `None` keeps restarting it
    /// (fastchess's and cutechess's `-recover`).
    pub withdraw_after: Option<u32>,
}

impl MatchConfig {
    /// Each seat's time control: its bot's own, or the match's.
    pub fn tcs(&self) -> Vec<crate::clock::Tc> {
        let tc = self.time.tc();
        self.bots.iter().map(|b| b.tc.unwrap_or(tc)).collect()
    }

    /// The settings every round of the match records.
    pub fn settings(&self) -> Settings {
        let tcs = self.tcs();
        let move_ms = self.time.per_move.as_millis() as u64;
        let plain = tcs.iter().all(|t| t.is_plain() && t.move_ms == move_ms);
        Settings {
            move_ms: self.time.per_move.as_millis() as u64,
            startup_ms: self.time.startup.as_millis() as u64,
            margin_ms: self.time.margin.as_millis() as u64,
            retries: self.retries,
            freeze: self.freeze && !self.game.simultaneous(),
            legal: !self.hide_legal,
            clocks: (!plain).then_some(tcs),
        }
    }

    fn names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }
}

/// Plays a whole match, reporting every event to `observer`. Returns the final standings.
/// An error is the arbiter failing (a record that cannot be written), never a bot's fault.
pub async fn run_match(
    config: &MatchConfig,
    observer: &mut dyn Observer,
) -> std::io::Result<Vec<Standing>> {
    run_match_from(config, None, observer).await
}

/// Plays a match from the round after `resume`'s kept rounds (from the first without one):
/// the events and records are those of the rounds played now, the standings (returned and sent
/// in `bye`) those of the whole match.
pub async fn run_match_from(
    config: &MatchConfig,
    resume: Option<Resume>,
    observer: &mut dyn Observer,
) -> std::io::Result<Vec<Standing>> {
    run_match_with(config, resume, None, observer).await
}

/// [`run_match_from`], with the bots of its first round started ahead of it (`lineup`, from
/// [`Lineup::start`] with this `config`): they are taken over instead of started, or started
/// as usual if the lineup failed. A resumed match starts its own bots (its seats' names and
/// withdrawals come from the kept rounds), so its lineup is discarded.
pub async fn run_match_with(
    config: &MatchConfig,
    resume: Option<Resume>,
    mut lineup: Option<Lineup>,
    observer: &mut dyn Observer,
) -> std::io::Result<Vec<Standing>> {
    if resume.is_some()
        && let Some(l) = lineup.take()
    {
        l.discard().await;
    }
    let seats = config.bots.len();
    assert_eq!(seats, config.game.seats(), "one bot per seat");
    let mut bots: Vec<Option<Bot>> = (0..seats).map(|_| None).collect();
    let mut m = Carried::new(config);
    let first = match resume {
        Some(resume) => m.resume(config, resume)?,
        None => 0,
    };
    for r in first..config.rounds {
        let round_no = r + 1;
        observer.on_event(&Event::RoundStarted {
            round: round_no,
            rounds: config.rounds,
        })?;
        let started = now();
        let seed = round_seed(config.seed, config.table.unwrap_or(0), r);
        let taken = match lineup.take() {
            Some(l) => l.take_over().await,
            None => None,
        };
        let (startup_failures, restarts) = match taken {
            Some(started) => {
                for (slot, bot) in bots.iter_mut().zip(started) {
                    *slot = Some(bot);
                }
                (Vec::new(), Vec::new())
            }
            None => {
                start_bots(
                    config,
                    &m.specs,
                    &m.names,
                    &mut bots,
                    &m.withdrawn,
                    &m.streak,
                )
                .await
            }
        };
        if r == 0 {
            m.name_after_ready(config, &bots);
        }
        m.note_ready(&bots);
        let setup = RoundSetup {
            round: r,
            match_seed: config.seed,
            round_seed: seed,
            chance_seed: config.deals.get(r as usize).copied().unwrap_or_else(|| {
                crate::seed::chance_seed(config.seed, config.table.unwrap_or(0), r)
            }),
        };
        let round = match &m.carry {
            Some(c) => config.game.next_round(setup, c).map_err(|e| {
                std::io::Error::other(format!("the game refused the state it carried: {e}"))
            })?,
            None => config.game.new_round(setup),
        };
        let carried = m.carry.take().or_else(|| round.carried());
        let turn_id_from = m.turn_id;
        let finished = super::driver::play_round(
            config,
            round,
            super::driver::RoundStart {
                round_no,
                round_seed: seed,
                start_seed: if config.game.hidden_information() {
                    crate::seed::start_seed(config.seed, config.table.unwrap_or(0), r)
                } else {
                    seed
                },
                failures: startup_failures,
                restarts,
                opening: config.openings.get(r as usize).map(Vec::as_slice),
            },
            &mut bots,
            &mut m.turn_id,
            observer,
        )
        .await?;
        m.carry = finished.round.carry();
        let match_over = finished.round.ends_match();
        let record = RoundRecord {
            format: FORMAT_VERSION,
            arbiter: env!("CARGO_PKG_VERSION").to_string(),
            game: config.game.name().to_string(),
            rules: config.game.rules_version(),
            options: config.game.options(),
            match_id: config.match_id.clone(),
            table: config.table,
            round: round_no,
            rounds: config.rounds,
            match_seed: config.seed,
            seed,
            deal: config.deals.get(r as usize).copied(),
            settings: config.settings(),
            seats: m.records.clone(),
            colours: finished.round.colours(),
            first: finished.round.first(),
            turn_id_from: Some(turn_id_from),
            carry: carried,
            ends_match: match_over,
            moves: finished.play.moves,
            forfeits: finished.play.forfeits,
            faults: finished.play.faults,
            logs: finished.play.logs,
            stderr: finished.play.stderr,
            result: finished.outcome,
            board: finished.round.public_view(),
            started,
            ended: now(),
        };
        m.standings.add(&record);
        m.count_losses(config, &record);
        observer.on_event(&Event::RoundEnded { record: &record })?;
        if match_over {
            break;
        }
    }
    let table = m.standings.table();
    say_bye(&mut bots, &table).await;
    observer.on_event(&Event::MatchEnded { standings: &table })?;
    Ok(table)
}

/// What a match carries from one round to the next, beside its live bots.
struct Carried {
    /// The seats as records name them.
    records: Vec<SeatRecord>,
    /// The seats' names: the commands' until the first `ready`s are in (see `names`).
    names: Vec<String>,
    /// How each seat's bot is started: the config's, with its log file renamed after the
    /// seat's name once the first `ready`s are in.
    specs: Vec<BotSpec>,
    standings: MatchStandings,
    turn_id: u64,
    /// What the previous round left to the next (games whose rounds are not independent).
    carry: Option<serde_json::Value>,
    /// Rounds in a row each seat lost by a crash or at start-up, and the seats withdrawn.
    streak: Vec<u32>,
    withdrawn: Vec<bool>,
}

impl Carried {
    fn new(config: &MatchConfig) -> Carried {
        let names = config.names();
        let seats = config.bots.len();
        Carried {
            records: config.bots.iter().map(seat_record).collect(),
            standings: MatchStandings::new(&names),
            names,
            specs: config.bots.clone(),
            turn_id: 0,
            carry: None,
            streak: vec![0; seats],
            withdrawn: vec![false; seats],
        }
    }

    /// Takes up what the kept rounds of a resumed match left; the first round to play.
    fn resume(&mut self, config: &MatchConfig, resume: Resume) -> std::io::Result<u32> {
        let seats = config.bots.len();
        if resume.names.len() != seats {
            return Err(std::io::Error::other(format!(
                "the kept rounds have {} seats, the match {seats}",
                resume.names.len()
            )));
        }
        for (seat, spec) in self.specs.iter_mut().enumerate() {
            if let Some(log) = &spec.log
                && log.file_name().and_then(|n| n.to_str())
                    == Some(super::names::log_file_name(seat, &config.bots[seat].name).as_str())
            {
                spec.log = Some(
                    log.with_file_name(super::names::log_file_name(seat, &resume.names[seat])),
                );
            }
        }
        for (record, name) in self.records.iter_mut().zip(&resume.names) {
            record.name = name.clone();
        }
        self.withdrawn = resume
            .streak
            .iter()
            .map(|&s| config.withdraw_after.is_some_and(|n| n > 0 && s >= n))
            .collect();
        let first = if resume.ended {
            config.rounds
        } else {
            resume.played
        };
        self.names = resume.names;
        self.standings = resume.standings;
        self.turn_id = resume.turn_id;
        self.carry = resume.carry;
        self.streak = resume.streak;
        Ok(first)
    }

    /// After the first round's `ready`s: the seats named as their bots said (numbered when
    /// names repeat), their logs renamed, the standings begun under those names.
    fn name_after_ready(&mut self, config: &MatchConfig, bots: &[Option<Bot>]) {
        let ready: Vec<Option<String>> = bots
            .iter()
            .map(|b| {
                b.as_ref()
                    .and_then(|b| b.ready.as_ref())
                    .map(|r| r.name.clone())
            })
            .collect();
        self.names = super::names::after_ready(&config.bots, &ready);
        for (seat, spec) in self.specs.iter_mut().enumerate() {
            super::names::rename_log(spec, seat, &config.bots[seat].name, &self.names[seat]);
        }
        for (record, name) in self.records.iter_mut().zip(&self.names) {
            record.name = name.clone();
        }
        self.standings = MatchStandings::new(&self.names);
    }

    /// Each live bot's name, version and author as its `ready` gave them.
    fn note_ready(&mut self, bots: &[Option<Bot>]) {
        for (seat, bot) in bots.iter().enumerate() {
            if let Some(ready) = bot.as_ref().and_then(|b| b.ready.as_ref()) {
                let record = &mut self.records[seat];
                record.bot_name = Some(ready.name.clone());
                record.bot_version = Some(ready.version.clone()).filter(|v| !v.is_empty());
                record.bot_author = ready.author.clone();
            }
        }
    }

    /// Counts the rounds each seat lost in a row by a crash or at start-up, withdrawing a seat
    /// that reaches `withdraw_after`.
    fn count_losses(&mut self, config: &MatchConfig, record: &RoundRecord) {
        for seat in 0..self.streak.len() {
            let lost = record.forfeits.iter().any(|f| {
                f.seat == seat && matches!(f.kind, ForfeitKind::Crash | ForfeitKind::Startup)
            });
            self.streak[seat] = if lost { self.streak[seat] + 1 } else { 0 };
            if config
                .withdraw_after
                .is_some_and(|n| n > 0 && self.streak[seat] >= n)
            {
                self.withdrawn[seat] = true;
            }
        }
    }
}

/// Starts every seat that has no live bot (all of them before round 1; forfeited ones after),
/// sends every `hello` first, then awaits each `ready`. Returns the start-up failures and the
/// faults of bots found dead between rounds.
async fn start_bots(
    config: &MatchConfig,
    specs: &[BotSpec],
    names: &[String],
    bots: &mut [Option<Bot>],
    withdrawn: &[bool],
    streak: &[u32],
) -> (Vec<(usize, Failure)>, Vec<Fault>) {
    let mut failures = Vec::new();
    let mut restarts = Vec::new();
    // A withdrawn seat's bot is not started again: the round is its forfeit at once.
    for (seat, slot) in bots.iter_mut().enumerate() {
        if !withdrawn[seat] {
            continue;
        }
        if let Some(mut bot) = slot.take() {
            bot.kill().await;
        }
        failures.push((
            seat,
            Failure::new(
                ForfeitKind::Startup,
                format!(
                    "withdrawn: the bot lost {} rounds in a row by a crash or at start-up, so \
                     it is not started again in this match (the arbiter plays its moves)",
                    streak[seat]
                ),
            ),
        ));
    }
    for (seat, slot) in bots.iter_mut().enumerate() {
        if let Some(bot) = slot.as_mut()
            && let Err(f) = bot.drain().await
        {
            restarts.push(Fault {
                seat,
                kind: "restarted".into(),
                detail: format!(
                    "the bot was found dead between rounds ({}: {}) and was started again",
                    f.kind, f.detail
                ),
                line: f.line,
            });
            if let Some(mut bot) = slot.take() {
                bot.kill().await;
            }
        }
    }
    let empty: Vec<usize> = (0..bots.len())
        .filter(|&seat| bots[seat].is_none() && !withdrawn[seat])
        .collect();
    let mut fresh = Vec::new();
    for (seat, started) in start_seats(config, specs, &empty, names) {
        match started {
            Ok(bot) => {
                bots[seat] = Some(bot);
                fresh.push(seat);
            }
            Err(failure) => failures.push((seat, failure)),
        }
    }
    let deadline = ready_deadline(config);
    for seat in fresh {
        let bot = bots[seat].as_mut().expect("just started");
        if let Err(f) = bot.await_ready(deadline, config.time.startup).await {
            failures.push((seat, f));
        }
    }
    (failures, restarts)
}

/// Prepares the bots of `seats` (scratch directories, cgroups, commands), then starts them
/// back to back and sends each its `hello` (their `ready`s are awaited by the caller): see
/// [`Bot::prepare`] for why in two passes. A bot that cannot be started is a crash at start-up.
pub(super) fn start_seats(
    config: &MatchConfig,
    specs: &[BotSpec],
    seats: &[usize],
    names: &[String],
) -> Vec<(usize, Result<Bot, Failure>)> {
    let crash = |detail: String| Failure {
        kind: ForfeitKind::Crash,
        detail,
        line: None,
        exit: None,
    };
    let prepared: Vec<(usize, Result<Prepared, crate::Error>)> = seats
        .iter()
        .map(|&seat| {
            let spec = &specs[seat];
            (seat, Bot::prepare(spec, config.limits, &config.isolation))
        })
        .collect();
    prepared
        .into_iter()
        .map(|(seat, prepared)| {
            let bot = prepared
                .and_then(Prepared::spawn)
                .map_err(|e| crash(e.to_string()))
                .inspect(|bot| {
                    let spec = &specs[seat];
                    let hello = ToBot::Hello(
                        Hello {
                            protocol: PROTOCOL_VERSION,
                            game: config.game.name().to_string(),
                            options: config.game.options(),
                            seat,
                            seats: names.to_vec(),
                            rounds: config.rounds,
                            startup_ms: config.time.startup.as_millis() as u64,
                            move_ms: config.time.per_move.as_millis() as u64,
                            bank_ms: None,
                            increment_ms: None,
                            first_move_ms: None,
                        }
                        .with_tc(&spec.tc.unwrap_or(config.time.tc())),
                    );
                    bot.send(Arc::from(to_line(&hello)));
                });
            (seat, bot)
        })
        .collect()
}

/// When bots whose `hello`s were sent now must have answered `ready`: their start-up time, and
/// the latency margin, which applies to start-up as to moves (a slow pipe never costs a bot).
pub(super) fn ready_deadline(config: &MatchConfig) -> Instant {
    Instant::now() + config.time.startup + config.time.margin
}

/// Sends `bye` to every live bot, lets them exit, kills what is left.
async fn say_bye(bots: &mut [Option<Bot>], standings: &[Standing]) {
    let line: Arc<[u8]> = Arc::from(to_line(&ToBot::Bye(Bye {
        standings: standings.to_vec(),
    })));
    for bot in bots.iter().flatten() {
        bot.send(line.clone());
        bot.thaw();
    }
    let deadline = Instant::now() + BYE_GRACE;
    for slot in bots.iter_mut() {
        if let Some(bot) = slot.take() {
            bot.finish(deadline).await;
        }
    }
}

/// A seat's record before its bot has said who it is: name, command, file hashes.
fn seat_record(spec: &BotSpec) -> SeatRecord {
    SeatRecord {
        name: spec.name.clone(),
        command: spec.command_line(),
        bot_name: None,
        bot_version: None,
        bot_author: None,
        files: file_hashes(spec),
    }
}

/// SHA-256 of the bot's program and of every argument that names a regular file.
fn file_hashes(spec: &BotSpec) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let program = super::process::resolve_program(&spec.argv[0]).ok();
    let base = spec.cwd.clone().unwrap_or_default();
    let paths = program
        .into_iter()
        .chain(spec.argv[1..].iter().map(|a| base.join(a)));
    for path in paths {
        if let Some(hex) = sha256_file(&path) {
            // This binary runs as /proc/self/exe; name it by the path it was started from.
            let name = match std::env::current_exe() {
                Ok(exe) if path == crate::sandbox::self_exe() => exe,
                _ => path,
            };
            out.insert(name.display().to_string(), hex);
        }
    }
    out
}

/// SHA-256 of a regular file, streamed (bot binaries can be large) and remembered per path
/// and modification time, since every seat of a field often runs the same program.
fn sha256_file(path: &std::path::Path) -> Option<String> {
    use sha2::{Digest, Sha256};
    use std::sync::Mutex;
    type Key = (std::path::PathBuf, SystemTime, u64);
    static CACHE: Mutex<BTreeMap<Key, String>> = Mutex::new(BTreeMap::new());
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let key = (path.to_path_buf(), meta.modified().ok()?, meta.len());
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(hex) = cache.get(&key) {
        return Some(hex.clone());
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        use std::io::Read;
        match file.read(&mut buf).ok()? {
            0 => break,
            n => hasher.update(&buf[..n]),
        }
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    cache.insert(key, hex.clone());
    Some(hex)
}

/// Now, as RFC 3339 in UTC with milliseconds.
fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}
