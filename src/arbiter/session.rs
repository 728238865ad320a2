//! One round: start, turns, refusals, forfeits with fallback moves, end.
//!
//! The session drives a game [`Round`] and the seats' [`Bot`]s. For each request it resumes
//! the bot, drains what it sent while nothing was asked, starts the clock, and judges each
//! answer in two steps (parse, then the rules): a refused answer gets an `illegal` message on
//! the same clock, up to the retry limit. Any [`Failure`] forfeits the round for that seat:
//! the bot is killed at once and the arbiter plays the seat's remaining moves with a seeded
//! fallback, so the other bots' round is finished. Games where seats act at once are played
//! by [`super::simultaneous`].

use std::sync::Arc;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::bot::{Bot, Failure, Reply};
use super::clock::Clock;
use super::events::{Event, Observer};
use super::fault::{Forfeit, Refused, evidence};
use super::matches::MatchConfig;
use super::protocol::{End, Illegal, Start, ToBot, Turn, announcement, to_line};
use crate::game::{Applied, Request, Round, Seat, ToAct};
use crate::record::{Fault, LogRecord, MoveRecord, round_ms};
use crate::seed::fallback_rng;
use tokio::time::Instant;

/// Bytes of a refused line kept in the record.
const REFUSED_EVIDENCE: usize = 200;

/// What a round leaves for its record.
pub struct RoundPlay {
    pub moves: Vec<MoveRecord>,
    pub forfeits: Vec<Forfeit>,
    pub faults: Vec<Fault>,
    pub logs: Vec<LogRecord>,
    pub stderr: Vec<String>,
}

/// The state of one round in progress.
pub struct Session<'a> {
    pub config: &'a MatchConfig,
    pub round_no: u32,
    pub round: Box<dyn Round>,
    /// Live bots by seat; `None` for a seat whose bot forfeited or never started.
    pub bots: &'a mut [Option<Bot>],
    pub forfeited: Vec<bool>,
    /// `start` was sent: forfeits from now on happen at a ply, before it at start-up (ply 0).
    pub started: bool,
    pub turn_id: &'a mut u64,
    pub observer: &'a mut dyn Observer,
    pub fallback: Vec<ChaCha8Rng>,
    pub play: RoundPlay,
    /// Idle bots are frozen between their requests (never in simultaneous games).
    pub freeze: bool,
    /// When `start` was sent: round time 0.
    pub t0: Instant,
    /// Each seat's CPU time when the round started (simultaneous play stamps CPU time since).
    pub cpu0: Vec<Option<f64>>,
    /// The seat a `prove` was sent to and not yet answered.
    pub asked: Option<Seat>,
    /// Lines refused per seat this round during simultaneous play.
    pub refusals: Vec<u32>,
    /// Turns the first bot looked at when waiting on several at once.
    pub rotation: usize,
}

impl<'a> Session<'a> {
    pub fn new(
        config: &'a MatchConfig,
        round_no: u32,
        round: Box<dyn Round>,
        round_seed: u64,
        bots: &'a mut [Option<Bot>],
        turn_id: &'a mut u64,
        observer: &'a mut dyn Observer,
    ) -> Session<'a> {
        let seats = bots.len();
        Session {
            config,
            round_no,
            round,
            bots,
            forfeited: vec![false; seats],
            started: false,
            turn_id,
            observer,
            fallback: (0..seats).map(|s| fallback_rng(round_seed, s)).collect(),
            freeze: config.freeze && !config.game.simultaneous(),
            t0: Instant::now(),
            cpu0: vec![None; seats],
            asked: None,
            refusals: vec![0; seats],
            rotation: 0,
            play: RoundPlay {
                moves: Vec::new(),
                forfeits: Vec::new(),
                faults: Vec::new(),
                logs: Vec::new(),
                stderr: vec![String::new(); seats],
            },
        }
    }

    fn ply(&self) -> u32 {
        self.play.moves.len() as u32 + 1
    }

    /// Sends a message to every live bot of the round.
    fn broadcast(&self, make: impl Fn(Seat) -> ToBot) {
        for (seat, bot) in self.bots.iter().enumerate() {
            if let Some(bot) = bot {
                bot.send(Arc::from(to_line(&make(seat))));
            }
        }
    }

    /// Forfeits a seat: kill its bot now, record the evidence.
    pub async fn forfeit(&mut self, seat: Seat, failure: Failure) -> std::io::Result<()> {
        self.forfeit_at(seat, failure, None).await
    }

    /// [`Session::forfeit`] at a given round time (simultaneous play, where the time is part
    /// of what the rules judge and the record must hold the very time they were told).
    pub async fn forfeit_at(
        &mut self,
        seat: Seat,
        failure: Failure,
        at: Option<f64>,
    ) -> std::io::Result<()> {
        let mut stderr_tail = String::new();
        if let Some(mut bot) = self.bots[seat].take() {
            bot.kill().await;
            stderr_tail = bot.stderr_tail();
            self.collect_notes(seat, &mut bot);
        }
        self.forfeited[seat] = true;
        let at = match at {
            Some(at) => at,
            None if self.started => self.round_time(),
            None => 0.0,
        };
        let forfeit = Forfeit {
            seat,
            kind: failure.kind,
            // Any start-up failure (no ready in time, but also a bot that exited or could not
            // be started before its ready) happened before the round's first move.
            ply: if self.started { self.ply() } else { 0 },
            at_ms: (self.started && self.config.game.simultaneous()).then_some(at),
            detail: failure.detail,
            line: failure.line,
            exit: failure.exit,
            stderr_tail: stderr_tail.clone(),
        };
        self.play.stderr[seat] = stderr_tail;
        self.observer.on_event(&Event::Forfeited {
            round: self.round_no,
            forfeit: &forfeit,
        })?;
        self.play.forfeits.push(forfeit);
        if self.asked == Some(seat) {
            self.asked = None;
        }
        // Simultaneous games take the seat out; sequential ones play its turns (fallback).
        let applied = self.round.forfeit(seat, at);
        self.record_all(
            applied,
            crate::game::Stamp {
                ms: at,
                cpu_ms: None,
            },
            true,
        )
    }

    /// Moves a bot's per-round notes (unasked lines, logs) into the record.
    fn collect_notes(&mut self, seat: Seat, bot: &mut Bot) {
        let (count, examples, logs) = bot.take_round_notes();
        let ply = self.play.moves.len() as u32;
        for text in logs {
            self.play.logs.push(LogRecord { seat, ply, text });
        }
        for (i, ex) in examples.into_iter().enumerate() {
            let detail = if i == 0 && count > 1 {
                format!("{} ({count} unasked lines this round)", ex.why)
            } else {
                ex.why.to_string()
            };
            self.play.faults.push(Fault {
                seat,
                kind: "unasked".into(),
                detail,
                line: Some(ex.line),
            });
        }
    }

    /// Moves the `log` texts a bot sent so far into the record, with the ply at which they
    /// were read: the number of moves played now. Called as soon as the arbiter is done
    /// reading from the bot (after start-up, after each of its moves), since a log's ply is
    /// when it was read, not when the round ended.
    fn collect_logs(&mut self, seat: Seat) {
        let ply = self.play.moves.len() as u32;
        if let Some(bot) = self.bots[seat].as_mut() {
            for text in std::mem::take(&mut bot.logs) {
                self.play.logs.push(LogRecord { seat, ply, text });
            }
        }
    }

    /// Sends `start` to every live bot and freezes them.
    pub fn start(&mut self, round_seed: u64) {
        self.started = true;
        for seat in 0..self.bots.len() {
            self.collect_logs(seat);
        }
        let colours = self.round.colours();
        let first = self.round.first();
        let round = &self.round;
        let round_no = self.round_no;
        self.broadcast(|seat| {
            ToBot::Start(Start {
                round: round_no,
                colour: colours.as_ref().map(|c| c[seat].clone()),
                colours: colours.clone(),
                first,
                seed: round_seed,
                state: round.view(seat),
            })
        });
        self.t0 = Instant::now();
        for seat in 0..self.bots.len() {
            self.cpu0[seat] = self.bots[seat].as_mut().and_then(|b| b.cpu_ms());
        }
        if self.freeze {
            for bot in self.bots.iter().flatten() {
                bot.freeze();
            }
        }
    }

    /// Plays the round's set opening: each move for the seat the rules say is to act, through
    /// [`Round::play`], announced and recorded as the arbiter's. An opening the rules refuse
    /// is the arbiter failing (openings are drawn from legal moves), not a bot's fault.
    pub fn play_opening(&mut self, moves: &[Value]) -> std::io::Result<()> {
        for mv in moves {
            let ToAct::Seat(seat, Request::Turn) = self.round.to_act() else {
                return Err(std::io::Error::other(format!(
                    "the opening move {} comes when no seat is to move",
                    crate::game::short_json(mv)
                )));
            };
            let applied = self.round.play(seat, mv).map_err(|e| {
                std::io::Error::other(format!(
                    "the opening move {} is refused by the rules: {e}",
                    crate::game::short_json(mv)
                ))
            })?;
            self.record_move(applied, 0.0, None, None, Vec::new(), true, true)?;
        }
        Ok(())
    }

    /// Plays the round to its end.
    pub async fn run(&mut self) -> std::io::Result<()> {
        loop {
            match self.round.to_act() {
                ToAct::Over => return Ok(()),
                ToAct::Seat(seat, Request::Turn) => {
                    let applied = if self.bots[seat].is_some() {
                        match self.ask(seat).await {
                            Ok(done) => {
                                self.collect_logs(seat);
                                Ok(done)
                            }
                            Err((failure, refused)) => {
                                self.forfeit(seat, failure).await?;
                                Err(refused)
                            }
                        }
                    } else {
                        Err(Vec::new())
                    };
                    // The arbiter's move keeps the attempts the bot had made on that ply.
                    let (applied, ms, cpu, refused, by_arbiter) = match applied {
                        Ok((a, ms, cpu, refused)) => (a, ms, cpu, refused, false),
                        Err(refused) => (self.fallback_move(seat), 0.0, None, refused, true),
                    };
                    self.record_move(applied, ms, None, cpu, refused, by_arbiter, false)?;
                }
                ToAct::Seat(seat, Request::Prove) => self.simultaneous(&[seat], Some(seat)).await?,
                ToAct::Seats(seats) => self.simultaneous(&seats, None).await?,
            }
        }
    }

    /// The arbiter's move for a forfeited seat.
    fn fallback_move(&mut self, seat: Seat) -> Applied {
        let rng = &mut self.fallback[seat];
        let mv = self.round.fallback(seat, &mut |n| rng.random_range(0..n));
        self.round
            .play(seat, &mv)
            .expect("a fallback move is legal by construction")
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_move(
        &mut self,
        applied: Applied,
        ms: f64,
        at_ms: Option<f64>,
        cpu_ms: Option<f64>,
        refused: Vec<Refused>,
        by_arbiter: bool,
        opening: bool,
    ) -> std::io::Result<()> {
        let line: Arc<[u8]> = Arc::from(announcement(&applied, by_arbiter, at_ms));
        for bot in self.bots.iter().flatten() {
            bot.send(line.clone());
        }
        self.asked = None;
        if let Some(detail) = applied.fault {
            self.play.faults.push(Fault {
                seat: applied.seat,
                kind: crate::record::FaultKind::Rule(applied.kind.to_string()),
                detail,
                line: None,
            });
        }
        let mv = MoveRecord {
            ply: self.ply(),
            kind: (applied.kind != "move").then(|| applied.kind.to_string()),
            seat: applied.seat,
            colour: applied.colour,
            mv: applied.notation,
            effects: applied.effects.into_iter().collect(),
            ms: round_ms(ms),
            at_ms,
            cpu_ms: cpu_ms.map(round_ms),
            refused,
            by_arbiter,
            opening,
        };
        self.observer.on_event(&Event::Moved {
            round: self.round_no,
            mv: &mv,
        })?;
        self.play.moves.push(mv);
        Ok(())
    }

    /// Asks a seat's bot for a move, with retries on the same clock. Returns the applied move,
    /// its wall and CPU time, and the refused attempts; or the failure that forfeits the round
    /// with the attempts refused before it (evidence for the arbiter's move).
    async fn ask(
        &mut self,
        seat: Seat,
    ) -> Result<(Applied, f64, Option<f64>, Vec<Refused>), (Failure, Vec<Refused>)> {
        let config = self.config;
        let bot = self.bots[seat].as_mut().expect("asked seats have a bot");
        bot.drain_before_request()
            .await
            .map_err(|f| (f, Vec::new()))?;
        *self.turn_id += 1;
        let turn_id = *self.turn_id;
        let limit = config.time.per_move;
        let turn = ToBot::Turn(Turn {
            turn_id,
            state: self.round.view(seat),
            legal: if config.hide_legal {
                None
            } else {
                self.round.legal_moves(seat)
            },
            time_ms: limit.as_millis() as u64,
        });
        let line = Arc::from(to_line(&turn));
        let cpu_before = bot.cpu_ms();
        // The request goes into the pipe before the bot is resumed, so that it wakes once, to
        // a line to read; the clock starts once both are done. (Without freezing nothing
        // stopped it: no signal.)
        bot.send(line);
        if self.freeze {
            bot.thaw();
        }
        let clock = Clock::start(limit, config.time.margin);
        let mut refused = Vec::new();
        loop {
            let (reason, line) = match bot.reply(turn_id, clock.deadline(), limit).await {
                Reply::Move { mv, line } => match self.round.play(seat, &mv) {
                    Ok(applied) => {
                        let ms = clock.elapsed_ms();
                        let cpu = cpu_before.zip(bot.cpu_ms()).map(|(a, b)| b - a);
                        if self.freeze {
                            bot.freeze();
                        }
                        return Ok((applied, ms, cpu, refused));
                    }
                    Err(r) => (r.reason, line),
                },
                Reply::Bad { reason, line } => (reason, line),
                // Game messages are for simultaneous play (`Round::act`); a turn takes a move.
                Reply::Other { kind, line, .. } => (format!("unknown message type {kind:?}"), line),
                Reply::Fault(f) => return Err((f, refused)),
            };
            refused.push(Refused {
                line: evidence(&line, REFUSED_EVIDENCE),
                reason: reason.clone(),
                ms: round_ms(clock.elapsed_ms()),
            });
            let used = refused.len() as u32;
            if used > config.retries {
                let failure = Failure {
                    kind: super::fault::ForfeitKind::Retries,
                    detail: format!(
                        "{used} attempt{} refused; the last: {reason}",
                        if used == 1 { "" } else { "s" }
                    ),
                    line: Some(evidence(&line, REFUSED_EVIDENCE)),
                    exit: None,
                };
                return Err((failure, refused));
            }
            bot.send(Arc::from(to_line(&ToBot::Illegal(Illegal {
                turn_id,
                reason,
                retries_left: config.retries - used,
                time_ms: clock.left_ms(),
            }))));
        }
    }

    /// Ends the round: bots found dead now forfeit it; the others get `end`. Returns the
    /// forfeit flags for the outcome.
    pub async fn finish(&mut self) -> std::io::Result<()> {
        for seat in 0..self.bots.len() {
            let Some(bot) = self.bots[seat].as_mut() else {
                continue;
            };
            if let Err(failure) = bot.drain().await {
                self.forfeit(seat, failure).await?;
            }
        }
        for seat in 0..self.bots.len() {
            if let Some(mut bot) = self.bots[seat].take() {
                self.collect_notes(seat, &mut bot);
                self.play.stderr[seat] = bot.take_stderr_tail();
                self.bots[seat] = Some(bot);
            }
        }
        Ok(())
    }

    /// Sends `end` with the final outcome to every live bot.
    pub fn announce_end(&self, outcome: &crate::game::Outcome) {
        let forfeits: Vec<Seat> = (0..self.forfeited.len())
            .filter(|&s| self.forfeited[s])
            .collect();
        let end = ToBot::End(End {
            round: self.round_no,
            scores: outcome.scores.clone(),
            points: outcome.points.clone(),
            ranks: outcome.ranks.clone(),
            winners: outcome.winners(),
            forfeits,
        });
        let line: Arc<[u8]> = Arc::from(to_line(&end));
        for bot in self.bots.iter().flatten() {
            bot.send(line.clone());
            // Between rounds nobody thinks on another's time: every bot may read `end` now
            // (a bot that leaves after it is then found dead before the next round starts,
            // and is restarted, rather than forfeiting the next round at its first turn).
            bot.thaw();
        }
    }
}
