//! A round played through the arbiter's own [`Referee`], the bot in one seat and the check in
//! every other: the referee writes every message (`start`, requests, `illegal`, `played` as
//! each seat may see it, `end`), judges every line of the bot (parse, `turn_id`, the rules,
//! unasked lines, the clock) and freezes and thaws as in a match, except junk (a line that is
//! no protocol message at all), which is noted for the `stdout` item and waited past, as in
//! every game's check, rather than costing a retry; this table carries its
//! outputs out on one [`Talk`], answers the check's own seats at once (or, with
//! [`Table::hold`], only once the bot has answered), and turns what the referee decided
//! against the bot into a [`Problem`]: a refusal (its `illegal`), a forfeit (a timeout is
//! diagnosed like a silent answer: late, no newline, not flushed), a line nobody asked for.
//! Any game played with requests answered by `move` (in turn, or sealed bids to several seats
//! at once) can be checked on it.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::conversation::{self, Seen, Verdict};
use super::talk::{Cause, Problem, Talk, is_junk};
use super::{CheckConfig, hints};
use crate::arbiter::bot::Heard;
use crate::game::{Game, Round, RoundSetup, Seat};
use crate::record::ForfeitKind;
use crate::referee::{Input, Output, Referee, Settings};
use crate::seed::{chance_seed, mix, round_seed, start_seed};
use crate::wire::Hello;

/// How the check chooses for its own seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A seeded uniform choice among the legal moves (the arbiter's own fallback).
    Random,
    /// The legal move of the most words (the longest bid, a card placed or paid), ties drawn:
    /// the check's seats spend their cards as fast as the rules let them.
    Spend,
}

/// One round at the check's table.
pub struct Table {
    referee: Referee,
    bot: Seat,
    t0: Instant,
    rng: ChaCha8Rng,
    /// How the check's seats choose.
    pub choice: Choice,
    /// The check's seats answer only once the bot is not asked (a sealed bid: the bot first);
    /// otherwise at once (the bot's request stays open while they act).
    pub hold: bool,
    held: Vec<Seat>,
    /// Every request the bot received, as sent.
    pub requests: Vec<Value>,
    /// Answers of the bot the rules accepted.
    pub answered: u32,
    /// `played` messages the bot received while its own request was open.
    pub played_while_asked: u32,
    /// `played` messages the bot received in all.
    pub played: u32,
    /// The bot's request is open (sent, not yet accepted).
    open: bool,
    /// `played` messages since the bot's last request.
    played_since_turn: u32,
    moves_seen: usize,
    /// The time allowed per request.
    limit: Duration,
}

/// The referee's settings for the check: a match's, from the check's options.
fn settings(config: &CheckConfig, game: &dyn Game) -> Settings {
    Settings {
        move_ms: config.time.per_move.as_secs_f64() * 1000.0,
        margin_ms: config.time.margin.as_secs_f64() * 1000.0,
        retries: 2,
        freeze: config.freeze && !game.simultaneous(),
        hide_legal: config.hide_legal,
        max_unasked: config.limits.max_unasked,
        max_log_bytes: config.limits.max_log_bytes,
        timed: game.simultaneous(),
    }
}

impl Table {
    /// Round `round` (from 0) of a match seeded from the check's seed and `tag`, the bot in
    /// `bot`; `turn_id` is the match's request counter so far.
    pub fn new(
        config: &CheckConfig,
        game: &dyn Game,
        bot: Seat,
        tag: u64,
        round: u32,
        turn_id: u64,
    ) -> Table {
        let match_seed = mix(config.seed ^ mix(tag)) & crate::seed::SEED_MASK;
        let setup = RoundSetup {
            round,
            match_seed,
            round_seed: round_seed(match_seed, 0, round),
            chance_seed: chance_seed(match_seed, 0, round),
        };
        let referee = Referee::new(
            game.new_round(setup),
            game.seats(),
            settings(config, game),
            round + 1,
            setup.round_seed,
            turn_id,
        );
        Table {
            referee,
            bot,
            t0: Instant::now(),
            rng: ChaCha8Rng::seed_from_u64(mix(setup.round_seed ^ 0xc4ec)),
            choice: Choice::Random,
            hold: false,
            held: Vec::new(),
            requests: Vec::new(),
            answered: 0,
            played_while_asked: 0,
            played: 0,
            open: false,
            played_since_turn: 0,
            moves_seen: 0,
            limit: config.time.per_move,
        }
        .seeded(match_seed, round, game)
    }

    fn seeded(mut self, match_seed: u64, round: u32, game: &dyn Game) -> Table {
        let seed = if game.hidden_information() {
            start_seed(match_seed, 0, round)
        } else {
            round_seed(match_seed, 0, round)
        };
        self.referee.start(seed);
        self
    }

    /// The round, as the rules have it now.
    pub fn round(&self) -> &dyn Round {
        self.referee.round()
    }

    /// The match's request counter after this round's requests (for the next round).
    pub fn turn_id(&self) -> u64 {
        self.referee.turn_id()
    }

    /// The round is over (and `end` was sent).
    pub fn is_over(&self) -> bool {
        self.referee.is_over()
    }

    fn now(&self) -> f64 {
        crate::record::round_ms(self.t0.elapsed().as_secs_f64() * 1000.0)
    }

    /// Plays until the round is over or `stop` says the scenario has seen enough (asked after
    /// each accepted answer of the bot). The first thing the referee holds against the bot is
    /// the problem.
    pub async fn play(
        &mut self,
        talk: &mut Talk,
        stop: &dyn Fn(&Table) -> bool,
    ) -> Result<(), Problem> {
        self.t0 = Instant::now();
        self.referee.input(0.0, Input::Tick);
        loop {
            self.pump(talk).await?;
            if self.referee.is_over() {
                return self.unasked(talk);
            }
            if stop(self) {
                return Ok(());
            }
            let listening = self.referee.listening();
            let until = self
                .referee
                .deadline()
                .map(|d| self.t0 + Duration::from_secs_f64(d / 1000.0));
            if !listening.contains(&self.bot) {
                if !self.held.is_empty() {
                    for seat in std::mem::take(&mut self.held) {
                        self.answer_for(seat);
                    }
                    continue;
                }
                match until {
                    Some(until) => {
                        tokio::time::sleep_until(until).await;
                        let at = self.now();
                        self.referee.input(at, Input::Tick);
                        continue;
                    }
                    None => {
                        return Err(talk.problem(
                            Cause::NoAnswer,
                            "the round waits for nothing the check can give".into(),
                            hints::NO_ANSWER.into(),
                        ));
                    }
                }
            }
            match talk.hear(until).await {
                None => {
                    let at = self.now();
                    self.referee.input(at, Input::Tick);
                }
                Some(Heard::Line(line)) => self.bot_line(talk, &line),
                Some(Heard::Failed(f)) => return Err(talk.fault_problem(f).await),
            }
        }
    }

    /// A line of the bot: junk is noted and waited past (the `stdout` item judges it), any
    /// other line goes to the referee.
    fn bot_line(&mut self, talk: &mut Talk, line: &[u8]) {
        if is_junk(line) {
            talk.junk_found("not a protocol message");
            return;
        }
        let at = self.now();
        self.referee.input(
            at,
            Input::Line {
                seat: self.bot,
                line,
                cpu_ms: None,
            },
        );
    }

    /// Carries out the referee's outputs until it has none, answering the check's seats.
    async fn pump(&mut self, talk: &mut Talk) -> Result<(), Problem> {
        // The check's answers wait until the referee is at rest: a line fed while it drains
        // another seat would be a line nobody asked for.
        let mut due: Vec<Seat> = Vec::new();
        loop {
            let outputs: Vec<Output> = self.referee.take_outputs().collect();
            if outputs.is_empty() {
                if due.is_empty() {
                    break;
                }
                for seat in std::mem::take(&mut due) {
                    self.answer_for(seat);
                }
                continue;
            }
            for output in outputs {
                match output {
                    Output::Send { seat, line, .. } if seat == self.bot => {
                        self.send_bot(talk, &line)?;
                    }
                    Output::Send { seat, line, .. } => {
                        let msg: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
                        if matches!(msg["type"].as_str(), Some("turn" | "illegal")) {
                            if self.hold {
                                self.held.push(seat);
                            } else {
                                due.push(seat);
                            }
                        }
                    }
                    Output::Freeze(seat) if seat == self.bot => talk.freeze(),
                    Output::Thaw(seat) if seat == self.bot => talk.thaw(),
                    Output::Freeze(_) | Output::Thaw(_) => {}
                    Output::Kill(seat) if seat == self.bot => return Err(self.forfeit(talk).await),
                    Output::Kill(_) => {}
                    Output::Drain(seat) => {
                        let at = self.now();
                        if seat == self.bot {
                            let (lines, failure) = talk.drain_heard().await;
                            if let Some(f) = failure {
                                return Err(talk.fault_problem(f).await);
                            }
                            for line in &lines {
                                self.bot_line(talk, line);
                            }
                        }
                        self.referee.input(at, Input::Drained(seat));
                    }
                }
            }
            let moves = &self.referee.play().moves;
            for m in &moves[self.moves_seen..] {
                if m.seat == self.bot && !m.by_arbiter {
                    self.answered += 1;
                    self.open = false;
                }
            }
            self.moves_seen = moves.len();
        }
        Ok(())
    }

    /// A message for the bot: sent and noted; an `illegal` is the scenario's failure.
    fn send_bot(&mut self, talk: &mut Talk, line: &[u8]) -> Result<(), Problem> {
        let msg: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
        let kind = match msg["type"].as_str() {
            Some("start") => "start",
            Some("turn") => "turn",
            Some("illegal") => "illegal",
            Some("played") => "played",
            Some("end") => "end",
            _ => "message",
        };
        talk.send_line(kind, line.to_vec());
        match kind {
            "turn" => {
                talk.asking(msg["turn_id"].as_u64().unwrap_or(0));
                self.open = true;
                self.played_since_turn = 0;
                self.requests.push(msg);
            }
            "played" => {
                self.played += 1;
                self.played_since_turn += 1;
                if self.open {
                    self.played_while_asked += 1;
                }
            }
            "illegal" => {
                let reason = msg["reason"].as_str().unwrap_or("").to_string();
                let asked = self.requests.last().cloned().unwrap_or(Value::Null);
                let phase = asked["state"]["phase"]
                    .as_str()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default();
                let hint = if self.played_since_turn > 0 {
                    format!(
                        "{} played message(s) came while this turn was open: did the bot answer \
                         one with a move? A played message needs no answer. {}",
                        self.played_since_turn,
                        hints::ILLEGAL
                    )
                } else {
                    hints::ILLEGAL.to_string()
                };
                return Err(talk.problem(
                    Cause::Illegal,
                    format!("the answer to the turn{phase} was refused: {reason}"),
                    hint,
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// The check's answer for one of its seats, fed at once.
    fn answer_for(&mut self, seat: Seat) {
        let round = self.referee.round();
        let mv = match (self.choice, round.legal_moves(seat)) {
            (Choice::Spend, Some(legal)) => {
                let words = |m: &Value| m.as_str().map_or(0, |s| s.split_whitespace().count());
                let most = legal.iter().map(words).max().unwrap_or(0);
                let best: Vec<&Value> = legal.iter().filter(|m| words(m) == most).collect();
                best[self.rng.random_range(0..best.len())].clone()
            }
            _ => {
                let rng = &mut self.rng;
                round.fallback(seat, &mut |n| rng.random_range(0..n))
            }
        };
        let line = json!({"type": "move", "move": mv}).to_string();
        let at = self.now();
        self.referee.input(
            at,
            Input::Line {
                seat,
                line: line.as_bytes(),
                cpu_ms: None,
            },
        );
    }

    /// The bot forfeited: why, as a problem (a timeout diagnosed like a silent answer).
    async fn forfeit(&mut self, talk: &mut Talk) -> Problem {
        let forfeit = self
            .referee
            .play()
            .forfeits
            .iter()
            .rev()
            .find(|f| f.seat == self.bot)
            .cloned();
        let Some(f) = forfeit else {
            return talk.problem(
                Cause::Crash,
                "the bot forfeited".into(),
                hints::CRASHED.into(),
            );
        };
        if f.kind == ForfeitKind::Timeout {
            return talk.silent_answer(self.limit, self.answered > 0).await;
        }
        let (cause, hint) = match f.kind {
            ForfeitKind::Flood => (Cause::Flood, hints::FLOOD),
            ForfeitKind::LineTooLong => (Cause::LineTooLong, hints::LINE_TOO_LONG),
            ForfeitKind::ClosedStdout => (Cause::ClosedStdout, hints::CLOSED_STDOUT),
            ForfeitKind::Retries => (Cause::Illegal, hints::ILLEGAL),
            _ => (Cause::Crash, hints::CRASHED),
        };
        talk.note_text(format!("({})", f.detail));
        talk.problem(cause, format!("forfeited: {}", f.detail), hint.into())
    }

    /// Once the round is over: a line of the bot that nobody asked for is the problem.
    fn unasked(&self, talk: &mut Talk) -> Result<(), Problem> {
        let fault = self
            .referee
            .play()
            .faults
            .iter()
            .find(|f| f.seat == self.bot && f.kind == "unasked");
        match fault {
            Some(f) => {
                let line = f.line.clone().unwrap_or_default();
                talk.note_text(format!("(unasked: {line})"));
                Err(talk.problem(
                    Cause::Unasked,
                    format!("a line nobody asked for: {line} ({})", f.detail),
                    hints::UNASKED.into(),
                ))
            }
            None => Ok(()),
        }
    }
}

/// The `bye` scenario of a game played on a [`Table`]: a whole round (seeded by `seed`) with
/// the bot in seat 0, `end`, then `bye` and the bot's exit.
pub async fn round_then_bye(
    config: &CheckConfig,
    game: &dyn Game,
    hello: Hello,
    seed: u64,
    seen: &mut Seen,
) -> Verdict {
    let mut talk = conversation::open(config, hello, config.freeze, seen).await?;
    let mut table = Table::new(config, game, 0, seed, 0, 0);
    if let Err(p) = table.play(&mut talk, &|_| false).await {
        conversation::close(talk, seen).await;
        return Err(p);
    }
    conversation::bye(talk, seen).await
}
