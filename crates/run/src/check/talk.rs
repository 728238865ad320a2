//! One conversation between the check and a bot process, on the arbiter's own machinery: the
//! process, pipes and protocol operations of [`Bot`], the wire types, the [`Clock`].
//!
//! What the check adds is evidence and diagnosis. Every line sent and received is kept in a
//! short transcript, so a [`Problem`] carries the exchange that shows it. Where the arbiter
//! would simply forfeit a silent bot, the check finds out why it was silent:
//!
//! - it waits a grace period longer: an answer that arrives then was *late*;
//! - if still nothing came, it kills the process group. A line the bot wrote without its
//!   newline is still in the arbiter's line reader, which hands it over when the pipe closes:
//!   if such a line turns up, the bot forgot the *newline*. If nothing turns up, the answer
//!   never left the bot's own output buffer (SIGKILL discards it): it did not *flush*.
//!
//! Junk on stdout (a line that is not a protocol message) is noted and the wait goes on, so one
//! debug print fails the "no junk" item without spoiling the item being checked.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::time::Instant;

use super::hints;
use crate::arbiter::bot::{Bot, BotSpec, Failure, Heard, Limits, Reply};
use crate::arbiter::clock::{Clock, TimeControl};
use crate::clock::SeatClock;
use crate::record::ForfeitKind;
use crate::sandbox::Isolation;
use crate::wire::{
    Bye, FromBot, Hello, Illegal, Incoming, Log, Ready, ToBot, Turn, parse_line, to_line,
};

/// Lines of the transcript a problem shows.
const TRANSCRIPT: usize = 8;
/// Characters of one transcript line kept.
const LINE_MAX: usize = 320;
/// Characters of the stderr tail a problem shows.
const STDERR_MAX: usize = 1200;
/// How long the check lets a bot digest messages that need no answer before it looks for
/// crashes and unasked answers.
pub const SETTLE: Duration = Duration::from_millis(100);
/// After the process group is killed: how long to wait for what is left in the pipe.
const SALVAGE: Duration = Duration::from_millis(700);
/// How long to let stderr catch up after the bot died, before its tail is read.
const STDERR_CATCH_UP: Duration = Duration::from_millis(80);

/// Which way a transcript line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    /// From the check to the bot.
    Sent,
    /// From the bot.
    Received,
    /// A remark of the check (a timeout, a kill).
    Note,
}

/// One line of an exchange.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub dir: Dir,
    pub text: String,
}

/// What kind of mistake a problem shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Nothing arrived, even after a grace period, and no answer of the kind had arrived
    /// before in the conversation: not flushed (or stuck).
    Silent,
    /// Nothing arrived, even after a grace period, though earlier answers did: stuck, or
    /// ignoring the request.
    NoAnswer,
    /// Lines arrived after the request, but none was the answer (nor, as the arbiter judges
    /// it, an attempt at one).
    NotTheAnswer,
    /// A line arrived without its newline.
    NoNewline,
    /// The answer arrived after the limit.
    Late,
    /// A line on stdout that is not a protocol message.
    Junk,
    /// A `ready` or `move` message the protocol refuses.
    BadMessage,
    /// A move the rules refuse.
    Illegal,
    /// A move naming another turn.
    WrongTurnId,
    /// A protocol message nobody asked for.
    Unasked,
    /// The process died.
    Crash,
    /// stdout closed, the process kept running.
    ClosedStdout,
    /// A line over the limit.
    LineTooLong,
    /// Too many unasked lines or log bytes.
    Flood,
    /// The process could not be started.
    CannotStart,
    /// Still running after `bye`.
    NoExit,
    /// Exited after `bye` with a failure status or a signal.
    BadExit,
}

/// A failed expectation: what went wrong, the exchange that shows it, the bot's stderr tail
/// and a hint of the usual cause.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Problem {
    pub cause: Cause,
    pub what: String,
    pub exchange: Vec<Line>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    pub hint: String,
}

impl Problem {
    /// Puts scenario context in front of the hint.
    pub fn context(mut self, text: &str) -> Problem {
        self.hint = format!("{text}\n{}", self.hint);
        self
    }
}

/// Junk lines seen: the first few as problems (with their exchange), and how many in all.
#[derive(Clone, Debug, Default)]
pub struct Junk {
    pub first: Vec<Problem>,
    pub lines: u32,
}

impl Junk {
    /// Problems kept as evidence; the rest are only counted.
    const KEEP: usize = 3;

    fn push(&mut self, problem: impl FnOnce() -> Problem) {
        self.lines += 1;
        if self.first.len() < Junk::KEEP {
            self.first.push(problem());
        }
    }

    /// Adds another conversation's junk.
    pub fn merge(&mut self, other: Junk) {
        self.lines += other.lines;
        let room = Junk::KEEP.saturating_sub(self.first.len());
        self.first.extend(other.first.into_iter().take(room));
    }
}

/// An accepted answer to a request.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The `move` field as sent.
    pub mv: Value,
    /// The request's clock (an `illegal` continues it).
    pub clock: Clock,
}

/// A live conversation with one bot process.
pub struct Talk {
    bot: Bot,
    time: TimeControl,
    transcript: VecDeque<Line>,
    turn_id: u64,
    /// Junk lines seen so far.
    pub junk: Junk,
    /// Lines received from the bot so far.
    pub received: u32,
    /// Lines received when the last request (`hello`, `turn`, `illegal`) went out: a silence
    /// after lines that did arrive is not a flushing problem.
    received_at_request: u32,
    /// Moves received so far.
    moves: u32,
    /// The type of the last message sent.
    last_sent: &'static str,
    /// Freeze the bot while nothing is asked of it, as a match does.
    freeze: bool,
    /// The bot's clock: its bank, where the check gives one, spent by every answer.
    clock: SeatClock,
    /// The time the open request allows.
    limit: Duration,
}

impl Talk {
    /// Starts the bot, sends `hello` and waits for `ready` within the start-up budget.
    pub async fn open(
        spec: &BotSpec,
        limits: Limits,
        isolation: &Isolation,
        time: TimeControl,
        freeze: bool,
        hello: Hello,
    ) -> Result<(Talk, Ready, f64), (Problem, Junk)> {
        let bot = Bot::spawn_isolated(spec, limits, isolation).map_err(|e| {
            let problem = Problem {
                cause: Cause::CannotStart,
                what: format!("cannot start the bot: {e}"),
                exchange: vec![],
                stderr: String::new(),
                hint: hints::CANNOT_START.into(),
            };
            (problem, Junk::default())
        })?;
        let mut talk = Talk {
            bot,
            time,
            transcript: VecDeque::new(),
            turn_id: 0,
            junk: Junk::default(),
            received: 0,
            received_at_request: 0,
            moves: 0,
            last_sent: "nothing",
            freeze,
            clock: SeatClock::new(time.tc()),
            limit: time.per_move,
        };
        talk.send(&ToBot::Hello(hello));
        // As in a match, start-up has the latency margin too.
        let clock = Clock::start(time.startup, time.margin);
        match talk.bot.await_ready(clock.deadline(), time.startup).await {
            Ok(()) => {}
            Err(f) => {
                let problem = talk.startup_failure(f, &clock).await;
                talk.bot.kill().await;
                return Err((problem, std::mem::take(&mut talk.junk)));
            }
        }
        let ms = clock.elapsed_ms();
        let ready = talk.bot.ready.clone().expect("await_ready succeeded");
        // Lines sent before `ready` (junk, a refused `ready`) come first in the exchange.
        if let Err(p) = talk.notes() {
            talk.bot.kill().await;
            return Err((p, std::mem::take(&mut talk.junk)));
        }
        talk.record_message(&FromBot::Ready(ready.clone()));
        if ready.name.trim().is_empty() {
            let p = talk.problem(
                Cause::BadMessage,
                "the ready message has an empty name".into(),
                hints::BAD_READY.into(),
            );
            talk.bot.kill().await;
            return Err((p, std::mem::take(&mut talk.junk)));
        }
        Ok((talk, ready, ms))
    }

    /// Queues a message for the bot and notes it in the transcript.
    pub fn send(&mut self, msg: &ToBot) {
        self.last_sent = match msg {
            ToBot::Hello(_) => "hello",
            ToBot::Start(_) => "start",
            ToBot::Turn(_) => "turn",
            ToBot::Illegal(_) => "illegal",
            ToBot::Played(_) => "played",
            ToBot::End(_) => "end",
            ToBot::Bye(_) => "bye",
        };
        if matches!(msg, ToBot::Hello(_) | ToBot::Turn(_) | ToBot::Illegal(_)) {
            self.received_at_request = self.received;
        }
        let line = to_line(msg);
        self.note(Dir::Sent, &line[..line.len() - 1]);
        self.bot.send(Arc::from(line));
        // A match freezes every bot after `start` and thaws the one it asks for a move; it
        // thaws every bot after `end`, so each reads the result between rounds.
        match msg {
            ToBot::Start(_) => self.pause(),
            ToBot::End(_) => self.bot.thaw(),
            _ => {}
        }
    }

    /// Freezes the bot (SIGSTOP to its group) if the check freezes idle bots.
    fn pause(&self) {
        if self.freeze {
            self.bot.freeze();
        }
    }

    /// Asks for a move: sends `turn` and waits for the answer within the move limit.
    pub async fn turn(
        &mut self,
        state: Value,
        legal: Option<Vec<Value>>,
    ) -> Result<Answer, Problem> {
        self.bot.thaw();
        self.drain().await?;
        self.turn_id += 1;
        let limit_us = self.clock.limit_us();
        let limit = Duration::from_micros(limit_us);
        self.limit = limit;
        self.send(&ToBot::Turn(Turn {
            turn_id: self.turn_id,
            state,
            legal,
            time_ms: limit_us / 1000,
            bank_ms: self.clock.bank_ms(0),
        }));
        let clock = Clock::start(limit, self.time.margin);
        let mv = self.wait_move(&clock).await?;
        // Paid as the arbiter pays an accepted answer (a scenario on a bank refuses nothing).
        self.clock.spend(crate::clock::us(clock.elapsed_ms()));
        Ok(Answer { mv, clock })
    }

    /// What is left of the bot's bank, in ms (`None` without one).
    pub fn bank_ms(&self) -> Option<u64> {
        self.clock.bank_ms(0)
    }

    /// Refuses the last answer with `reason` (on purpose) and waits for another, on the same
    /// clock, as the arbiter does.
    pub async fn refuse(&mut self, reason: String, clock: &Clock) -> Result<Answer, Problem> {
        self.bot.thaw();
        self.send(&ToBot::Illegal(Illegal {
            turn_id: self.turn_id,
            reason,
            retries_left: 1,
            time_ms: clock.left_ms(),
            bank_ms: self.clock.bank_ms(0),
        }));
        let mv = self.wait_move(clock).await?;
        Ok(Answer { mv, clock: *clock })
    }

    /// Queues a line built elsewhere (a game's announcement, as
    /// [`crate::wire::announcement`] writes it) and notes it in the transcript.
    pub fn send_line(&mut self, kind: &'static str, line: Vec<u8>) {
        self.last_sent = kind;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        self.note(Dir::Sent, text);
        self.bot.send(Arc::from(line));
    }

    /// The next thing the bot does, raw, for a referee to judge, noted in the transcript (a
    /// line) or as it is (a failure); `None` once `until` passes first. The bot is thawed.
    pub async fn hear(&mut self, until: Option<Instant>) -> Option<Heard> {
        self.bot.thaw();
        let heard = self.bot.hear(until).await;
        if let Some(Heard::Line(line)) = &heard {
            self.note(Dir::Received, line);
        }
        heard
    }

    /// Every line the bot sent so far, without waiting, each noted in the transcript, and its
    /// failure if it is found dead.
    pub async fn drain_heard(&mut self) -> (Vec<Vec<u8>>, Option<Failure>) {
        let (lines, failure) = self.bot.drain_heard().await;
        for line in &lines {
            self.note(Dir::Received, line);
        }
        (lines, failure)
    }

    /// Freezes the bot, if the check freezes idle bots.
    pub fn freeze(&self) {
        self.pause();
    }

    /// Resumes the bot.
    pub fn thaw(&self) {
        self.bot.thaw();
    }

    /// The request being asked is `turn_id` (a referee numbered it): a late answer or a move
    /// naming another request is judged against it.
    pub fn asking(&mut self, turn_id: u64) {
        self.turn_id = turn_id;
    }

    /// The next request number (`turn` and `prove` share the counter).
    pub fn next_turn_id(&mut self) -> u64 {
        self.turn_id += 1;
        self.turn_id
    }

    /// Simultaneous play: waits until `deadline` for the bot's next game message (`declare`,
    /// `pass`, `solution`, ...), returned as its type and the whole message; `Ok(None)` once
    /// the deadline passed. Logs and junk are noted and waited past; a `move`, a line the
    /// protocol refuses, a crash are problems.
    /// `hint`: what the game's messages are, for a `move` or a refused line.
    pub async fn listen(
        &mut self,
        deadline: Instant,
        hint: &str,
    ) -> Result<Option<(String, Value)>, Problem> {
        self.bot.thaw();
        loop {
            let reply = self.bot.listen(None, Some(deadline)).await;
            self.notes()?;
            match reply {
                None => return Ok(None),
                Some(Reply::Other {
                    kind,
                    message,
                    line,
                }) => {
                    self.note(Dir::Received, &line);
                    return Ok(Some((kind, message)));
                }
                Some(Reply::Move { line, .. }) => {
                    self.note(Dir::Received, &line);
                    return Err(self.problem(
                        Cause::BadMessage,
                        "a move, but this game asks for none: it has no turns".into(),
                        hint.into(),
                    ));
                }
                Some(Reply::Bad { reason, line }) => {
                    self.note(Dir::Received, &line);
                    if is_junk(&line) {
                        self.junk_found(&reason);
                        continue;
                    }
                    return Err(self.problem(
                        Cause::BadMessage,
                        format!("a message the protocol refuses: {reason}"),
                        hint.into(),
                    ));
                }
                Some(Reply::Fault(f)) => return Err(self.fault_problem(f).await),
            }
        }
    }

    /// Simultaneous play: nothing of what was `asked` arrived within `limit` (`moves`: whether
    /// earlier answers of the kind arrived). Waits a grace period for a late line, then kills
    /// the group and looks for an unterminated one, as for a silent `turn`.
    pub async fn silent_about(&mut self, asked: &str, limit: Duration, earlier: bool) -> Problem {
        let late = late_window(limit);
        match self.bot.listen(None, Some(Instant::now() + late)).await {
            Some(Reply::Other { line, .. })
            | Some(Reply::Move { line, .. })
            | Some(Reply::Bad { line, .. }) => {
                let _ = self.notes();
                self.note(Dir::Received, &line);
                return self.problem(
                    Cause::Late,
                    format!(
                        "the {asked} arrived after the limit of {} ms",
                        limit.as_millis()
                    ),
                    hints::late(limit.as_millis() as f64 + 1.0, limit.as_millis()),
                );
            }
            Some(Reply::Fault(f)) => return self.fault_problem(f).await,
            None => {}
        }
        if let Err(p) = self.notes() {
            return p;
        }
        if self.salvage(Some(0)).await.is_some() {
            self.note_text(
                "(that line came without its newline: it was only seen when the bot was killed)"
                    .into(),
            );
            return self.problem(
                Cause::NoNewline,
                format!(
                    "the {asked} was written without a newline at its end, so it never \
                     arrived as a message"
                ),
                hints::NO_NEWLINE.into(),
            );
        }
        self.note_text(format!(
            "(nothing within {} ms, nor in {} ms more: killed)",
            limit.as_millis(),
            late.as_millis()
        ));
        self.problem(
            if earlier {
                Cause::NoAnswer
            } else {
                Cause::Silent
            },
            format!(
                "no {asked} within {} ms, nor in {} ms more",
                limit.as_millis(),
                late.as_millis()
            ),
            if earlier {
                hints::NO_ANSWER
            } else {
                hints::SILENT
            }
            .into(),
        )
    }

    /// A referee found no answer to the request being asked (see [`Talk::asking`]) within
    /// `limit` and its margin (`earlier`: earlier answers of the bot arrived). Waits a grace
    /// period for a late answer, then kills the group and looks for an unterminated line, as
    /// for a silent `turn`.
    pub async fn silent_answer(&mut self, limit: Duration, earlier: bool) -> Problem {
        let late = late_window(limit);
        match self.bot.hear(Some(Instant::now() + late)).await {
            Some(Heard::Line(line)) => {
                self.note(Dir::Received, &line);
                return self.problem(
                    Cause::Late,
                    format!(
                        "the move arrived after the limit of {} ms",
                        limit.as_millis()
                    ),
                    hints::late(limit.as_millis() as f64 + 1.0, limit.as_millis()),
                );
            }
            Some(Heard::Failed(f)) => return self.fault_problem(f).await,
            None => {}
        }
        let id = self.turn_id;
        if self.salvage(Some(id)).await.is_some() {
            self.note_text(
                "(that line came without its newline: it was only seen when the bot was killed)"
                    .into(),
            );
            return self.problem(
                Cause::NoNewline,
                "the move was written without a newline at its end, so it never arrived as a \
                 message"
                    .into(),
                hints::NO_NEWLINE.into(),
            );
        }
        self.note_text(format!(
            "(nothing within {} ms, nor in {} ms more: killed)",
            limit.as_millis(),
            late.as_millis()
        ));
        let (cause, hint) = if earlier {
            (Cause::NoAnswer, hints::NO_ANSWER)
        } else {
            (Cause::Silent, hints::SILENT)
        };
        self.problem(
            cause,
            format!(
                "no move within {} ms, nor in {} ms more",
                limit.as_millis(),
                late.as_millis()
            ),
            hint.into(),
        )
    }

    /// Gives the bot a moment to digest messages that need no answer, then looks for what it
    /// did meanwhile: died, or sent something nobody asked for.
    pub async fn settle(&mut self) -> Result<(), Problem> {
        self.bot.thaw();
        tokio::time::sleep(SETTLE).await;
        let result = self.drain().await;
        self.pause();
        result
    }

    /// Sends `bye` and waits up to `grace` for the process to exit by itself. Returns its exit
    /// status description and the time it took, or the problem.
    pub async fn bye(mut self, grace: Duration) -> Result<(String, f64), Problem> {
        if let Err(p) = self.drain().await {
            self.bot.kill().await;
            return Err(p);
        }
        self.send(&ToBot::Bye(Bye { standings: vec![] }));
        self.bot.thaw();
        let clock = Clock::start(grace, Duration::ZERO);
        let result = loop {
            match self.bot.reply(u64::MAX, clock.deadline(), grace).await {
                Reply::Fault(f) if f.kind == ForfeitKind::Crash => {
                    let Some(exit) = f.exit else {
                        break Err(self.fault_problem(f).await);
                    };
                    if exit.code == Some(0) {
                        break Ok((exit.to_string(), clock.elapsed_ms()));
                    }
                    tokio::time::sleep(STDERR_CATCH_UP).await;
                    self.note_text(format!("(the bot {exit} after bye)"));
                    break Err(self.problem(
                        Cause::BadExit,
                        format!("the bot {exit} after bye"),
                        hints::BAD_EXIT.into(),
                    ));
                }
                Reply::Fault(f) if f.kind == ForfeitKind::Timeout => {
                    self.note_text(format!(
                        "(still running {} ms after bye: killed)",
                        grace.as_millis()
                    ));
                    break Err(self.problem(
                        Cause::NoExit,
                        format!(
                            "the bot was still running {} ms after bye",
                            grace.as_millis()
                        ),
                        hints::no_exit(grace.as_millis()),
                    ));
                }
                // stdout closed but the process is still there: give it the rest of the grace.
                Reply::Fault(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                Reply::Move { line, .. } | Reply::Bad { line, .. } | Reply::Other { line, .. } => {
                    self.note(Dir::Received, &line);
                }
            }
        };
        self.bot.kill().await;
        result
    }

    /// Ends the conversation: kills the process group.
    pub async fn close(mut self) -> Junk {
        self.bot.kill().await;
        std::mem::take(&mut self.junk)
    }

    /// A problem about the current exchange.
    pub fn problem(&self, cause: Cause, what: String, hint: String) -> Problem {
        let skip = self.transcript.len().saturating_sub(TRANSCRIPT);
        let tail = self.bot.stderr_tail();
        let stderr = if tail.chars().count() > STDERR_MAX {
            let skip = tail.chars().count() - STDERR_MAX;
            format!("...{}", tail.chars().skip(skip).collect::<String>())
        } else {
            tail
        };
        Problem {
            cause,
            what,
            exchange: self.transcript.iter().skip(skip).cloned().collect(),
            stderr: stderr.trim_end().to_string(),
            hint,
        }
    }

    /// Notes a remark of the check in the transcript.
    pub fn note_text(&mut self, text: String) {
        self.push(Dir::Note, text);
    }

    fn note(&mut self, dir: Dir, line: &[u8]) {
        if dir == Dir::Received {
            self.received += 1;
        }
        let text = String::from_utf8_lossy(line);
        self.push(dir, crate::game::cut(&text, LINE_MAX));
    }

    fn push(&mut self, dir: Dir, text: String) {
        if self.transcript.len() == 2 * TRANSCRIPT {
            self.transcript.pop_front();
        }
        self.transcript.push_back(Line { dir, text });
    }

    fn record_message(&mut self, msg: &FromBot) {
        let line = serde_json::to_vec(msg).expect("messages serialise");
        self.note(Dir::Received, &line);
    }

    /// Waits for the `move` answering the current turn; junk is noted and waited past.
    async fn wait_move(&mut self, clock: &Clock) -> Result<Value, Problem> {
        let id = self.turn_id;
        let limit = self.limit;
        loop {
            match self.bot.reply(id, clock.deadline(), limit).await {
                Reply::Move { mv, line } => {
                    // Frozen as soon as it answered, as in a match (an `illegal` thaws it).
                    self.pause();
                    self.notes()?;
                    self.note(Dir::Received, &line);
                    self.moves += 1;
                    return Ok(mv);
                }
                Reply::Bad { reason, line } => {
                    self.notes()?;
                    self.note(Dir::Received, &line);
                    if is_junk(&line) {
                        self.junk_found(&reason);
                        continue;
                    }
                    return Err(self.problem(
                        Cause::BadMessage,
                        format!("the answer is not a valid move message: {reason}"),
                        hints::BAD_MOVE.into(),
                    ));
                }
                Reply::Other { kind, line, .. } => {
                    self.note(Dir::Received, &line);
                    self.junk_found(&format!("unknown message type {kind:?}"));
                }
                Reply::Fault(f) if f.kind == ForfeitKind::Timeout => {
                    return Err(self.silence(Some(id), clock).await);
                }
                Reply::Fault(f) => return Err(self.fault_problem(f).await),
            }
        }
    }

    /// The start-up wait failed: find out why.
    async fn startup_failure(&mut self, f: Failure, clock: &Clock) -> Problem {
        if let Err(p) = self.notes() {
            return p;
        }
        if f.kind == ForfeitKind::Startup {
            self.silence(None, clock).await
        } else {
            self.fault_problem(f).await
        }
    }

    /// Nothing answered the request in time (`turn_id` `None`: the handshake). Waits a grace
    /// period for a late answer, then kills the group and looks for an unterminated line.
    async fn silence(&mut self, turn_id: Option<u64>, clock: &Clock) -> Problem {
        let limit = match turn_id {
            Some(_) => self.limit,
            None => self.time.startup,
        };
        let asked = if turn_id.is_some() { "move" } else { "ready" };
        // Lines that came but did not answer (a move naming another turn) explain it best.
        if let Err(p) = self.notes() {
            return p;
        }
        let late = late_window(limit);
        let deadline = Instant::now() + late;
        let answer = match turn_id {
            None => match self.bot.await_ready(deadline, limit).await {
                Ok(()) => {
                    let ready = self.bot.ready.clone().expect("ready");
                    self.record_message(&FromBot::Ready(ready));
                    Ok(())
                }
                Err(f) => Err(f),
            },
            Some(id) => match self.bot.reply(id, deadline, limit).await {
                Reply::Move { line, .. } | Reply::Bad { line, .. } | Reply::Other { line, .. } => {
                    self.note(Dir::Received, &line);
                    Ok(())
                }
                Reply::Fault(f) => Err(f),
            },
        };
        if let Err(p) = self.notes() {
            return p;
        }
        match answer {
            Ok(()) => {
                let ms = clock.elapsed_ms();
                self.problem(
                    Cause::Late,
                    format!(
                        "the {asked} arrived after {ms:.0} ms; the limit is {} ms",
                        limit.as_millis()
                    ),
                    hints::late(ms, limit.as_millis()),
                )
            }
            Err(f) if matches!(f.kind, ForfeitKind::Timeout | ForfeitKind::Startup) => {
                let waited = clock.elapsed_ms();
                match self.salvage(turn_id).await {
                    Some(()) => {
                        self.note_text("(that line came without its newline: it was only seen when the bot was killed)".into());
                        self.problem(
                            Cause::NoNewline,
                            format!(
                                "the {asked} was written without a newline at its end, so it \
                                 never arrived as a message"
                            ),
                            hints::NO_NEWLINE.into(),
                        )
                    }
                    None if turn_id.is_some() && self.moves > 0 => {
                        self.note_text(format!(
                            "(nothing within {waited:.0} ms; limit {} ms: killed)",
                            limit.as_millis()
                        ));
                        self.problem(
                            Cause::NoAnswer,
                            format!(
                                "no move within {} ms, nor in {} ms more, though earlier \
                                 moves arrived",
                                limit.as_millis(),
                                late.as_millis()
                            ),
                            hints::NO_ANSWER.into(),
                        )
                    }
                    None if self.received > self.received_at_request => {
                        // Lines did arrive (the exchange shows them): the output is flushed,
                        // but none of them was the answer.
                        self.note_text(format!(
                            "(no {asked} within {waited:.0} ms; limit {} ms: killed)",
                            limit.as_millis()
                        ));
                        self.problem(
                            Cause::NotTheAnswer,
                            format!(
                                "no {asked} within {} ms: {} arrived, but none was the {asked}",
                                limit.as_millis(),
                                if self.received - self.received_at_request == 1 {
                                    "a line".to_string()
                                } else {
                                    format!("{} lines", self.received - self.received_at_request)
                                }
                            ),
                            hints::not_the_answer(asked),
                        )
                    }
                    None => {
                        self.note_text(format!(
                            "(nothing within {waited:.0} ms; limit {} ms: killed)",
                            limit.as_millis()
                        ));
                        self.problem(
                            Cause::Silent,
                            format!(
                                "no {asked} within {} ms, nor in {} ms more: nothing arrived",
                                limit.as_millis(),
                                late.as_millis()
                            ),
                            hints::SILENT.into(),
                        )
                    }
                }
            }
            Err(f) => self.fault_problem(f).await,
        }
    }

    /// Kills the process group, so that a line written without its newline is handed over
    /// by the line reader when the pipe closes. Returns whether such a line turned up (it is
    /// noted in the transcript).
    async fn salvage(&mut self, turn_id: Option<u64>) -> Option<()> {
        // The group must die while the reader still runs: `Bot::kill` would stop the reader
        // and lose the line, so the group is signalled here and the bot killed afterwards.
        // SAFETY: killpg has no memory-safety preconditions; a stale group yields ESRCH.
        unsafe {
            libc::killpg(self.bot.pid(), libc::SIGKILL);
        }
        let deadline = Instant::now() + SALVAGE;
        let limit = SALVAGE;
        // The reader hands over the line before it reports the end of the pipe; the process
        // exit comes on the same channel in any order, so a crash report may come first.
        for _ in 0..4 {
            match turn_id {
                None => match self.bot.await_ready(deadline, limit).await {
                    Ok(()) => {
                        let ready = self.bot.ready.clone().expect("ready");
                        self.record_message(&FromBot::Ready(ready));
                        return Some(());
                    }
                    Err(f) if f.kind == ForfeitKind::Crash => continue,
                    Err(_) => break,
                },
                Some(id) => match self.bot.reply(id, deadline, limit).await {
                    Reply::Move { line, .. }
                    | Reply::Bad { line, .. }
                    | Reply::Other { line, .. } => {
                        self.note(Dir::Received, &line);
                        return Some(());
                    }
                    Reply::Fault(f) if f.kind == ForfeitKind::Crash => continue,
                    Reply::Fault(_) => break,
                },
            }
        }
        // A partial line that is not the answer (a ready mid-match, junk) is kept as unasked.
        let (_, examples, _) = self.bot.take_round_notes();
        let last = examples.last()?;
        let text = last.line.clone();
        self.note(Dir::Received, text.as_bytes());
        Some(())
    }

    /// The problem for a fault the arbiter's bot layer reported.
    pub async fn fault_problem(&mut self, f: Failure) -> Problem {
        let (cause, hint) = match f.kind {
            ForfeitKind::Crash => {
                tokio::time::sleep(STDERR_CATCH_UP).await;
                if f.exit.as_ref().is_some_and(|e| e.code == Some(0)) {
                    (Cause::Crash, hints::EXITED_EARLY)
                } else if f.exit.is_none() {
                    (Cause::CannotStart, hints::CANNOT_START)
                } else {
                    (Cause::Crash, hints::CRASHED)
                }
            }
            ForfeitKind::ClosedStdout => (Cause::ClosedStdout, hints::CLOSED_STDOUT),
            ForfeitKind::LineTooLong => (Cause::LineTooLong, hints::LINE_TOO_LONG),
            ForfeitKind::Flood => (Cause::Flood, hints::FLOOD),
            ForfeitKind::Timeout | ForfeitKind::Startup | ForfeitKind::Retries => {
                (Cause::Silent, hints::SILENT)
            }
        };
        if let Some(line) = &f.line {
            self.note(Dir::Received, line.as_bytes());
        }
        self.note_text(format!("({})", f.detail));
        self.problem(cause, f.detail.clone(), hint.into())
    }

    /// Takes what arrived while nothing was asked, or found the bot dead.
    async fn drain(&mut self) -> Result<(), Problem> {
        if let Err(f) = self.bot.drain().await {
            self.notes()?;
            return Err(self.fault_problem(f).await);
        }
        self.notes()
    }

    /// Moves the bot layer's notes (logs, unasked lines) into the transcript and judges the
    /// unasked lines: junk is noted, a protocol message nobody asked for is a problem.
    fn notes(&mut self) -> Result<(), Problem> {
        let after = self.last_sent;
        let (_, examples, logs) = self.bot.take_round_notes();
        for text in logs {
            self.record_message(&FromBot::Log(Log { text }));
        }
        let mut found = None;
        for ex in examples {
            self.note(Dir::Received, ex.line.as_bytes());
            match parse_line(ex.line.as_bytes()) {
                Err((_, reason)) if !is_junk(ex.line.as_bytes()) => {
                    if found.is_none() {
                        let ready = ex.line.contains("\"ready\"");
                        found = Some(
                            self.problem(
                                Cause::BadMessage,
                                format!("a message the protocol refuses ({reason})"),
                                if ready {
                                    hints::BAD_READY
                                } else {
                                    hints::BAD_MOVE
                                }
                                .into(),
                            ),
                        );
                    }
                }
                Err((_, reason)) => self.junk_found(&reason),
                Ok(Incoming::Other { kind, .. }) => {
                    self.junk_found(&format!("unknown message type {kind:?}"))
                }
                Ok(Incoming::Message(FromBot::Move(m))) if found.is_none() => {
                    found = Some(match m.turn_id {
                        Some(t) if t > self.turn_id || t == 0 => self.problem(
                            Cause::WrongTurnId,
                            format!(
                                "a move named turn_id {t}, but the turn asked was {}",
                                self.turn_id
                            ),
                            hints::wrong_turn_id(t, self.turn_id),
                        ),
                        _ => self.problem(
                            Cause::Unasked,
                            format!("a move nobody asked for ({}), after {after}", ex.why),
                            hints::UNASKED.into(),
                        ),
                    });
                }
                Ok(Incoming::Message(FromBot::Ready(_))) if found.is_none() => {
                    found = Some(self.problem(
                        Cause::Unasked,
                        format!("a ready nobody asked for ({}), after {after}", ex.why),
                        hints::UNASKED.into(),
                    ));
                }
                Ok(_) => {}
            }
        }
        match found {
            Some(p) => Err(p),
            None => Ok(()),
        }
    }

    /// Notes a line on stdout that is not a protocol message, as evidence for the `stdout` item.
    pub fn junk_found(&mut self, reason: &str) {
        let mut junk = std::mem::take(&mut self.junk);
        junk.push(|| {
            self.problem(
                Cause::Junk,
                format!("a line on stdout that is not a protocol message ({reason})"),
                hints::JUNK.into(),
            )
        });
        self.junk = junk;
    }
}

/// How much longer than the limit the check waits to tell a late answer from none at all.
pub fn late_window(limit: Duration) -> Duration {
    limit.clamp(Duration::from_secs(2), Duration::from_secs(3))
}

/// Whether a line the protocol refused is junk (anything but a malformed `ready`, `move` or
/// `log`, which are protocol mistakes of their own).
pub fn is_junk(line: &[u8]) -> bool {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(line) else {
        return true;
    };
    // A move without its "type" is a malformed move, as the arbiter judges it (the object has
    // no "type" field), not a debug print.
    if map.get("type").is_none() && map.contains_key("move") {
        return false;
    }
    !matches!(
        map.get("type").and_then(Value::as_str),
        Some("ready" | "move" | "log")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junk_is_what_is_not_a_protocol_message() {
        assert!(is_junk(b"thinking about d3..."));
        assert!(is_junk(b"[1,2]"));
        assert!(is_junk(br#"{"type":"debug"}"#));
        assert!(is_junk(b""));
        assert!(!is_junk(br#"{"type":"move","square":"d3"}"#));
        assert!(!is_junk(br#"{"type":"ready"}"#));
        // Before: a move without its type was junk, waited past, and the turn ended with
        // "nothing arrived. Did you flush?".
        assert!(!is_junk(br#"{"move":"d3","turn_id":1}"#));
    }

    #[test]
    fn the_late_window_is_bounded() {
        assert_eq!(
            late_window(Duration::from_millis(100)),
            Duration::from_secs(2)
        );
        assert_eq!(late_window(Duration::from_secs(60)), Duration::from_secs(3));
    }
}
