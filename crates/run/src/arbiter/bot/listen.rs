//! Listening to a bot: `ready`, the answer to a request, what a seat may send at any time,
//! and the lines that arrive while nothing is asked. Logs are kept, unasked lines counted, and
//! a bot that floods, dies or sends an over-long line comes back as a [`Failure`].

use std::time::Duration;

use serde_json::Value;
use tokio::time::{Instant, timeout_at};

use super::diagnose::EXIT_GRACE;
use super::{Bot, Failure, Heard, Reply, Unasked};
use crate::arbiter::io::BotEvent;
use crate::record::fault::{EVIDENCE as LINE_EVIDENCE, LOG_TEXT_MAX, UNASKED_EXAMPLES};
use crate::record::fault::{ForfeitKind, evidence};
use crate::wire::{FromBot, Incoming, parse_line};

impl Bot {
    /// Waits for `ready` (after `hello` was sent) until `deadline`; `budget` is for the message.
    pub async fn await_ready(
        &mut self,
        deadline: Instant,
        budget: Duration,
    ) -> Result<(), Failure> {
        loop {
            let event = match timeout_at(deadline, self.events.recv()).await {
                Err(_) => {
                    return Err(Failure::new(
                        ForfeitKind::Startup,
                        format!("no ready within {} ms of hello", budget.as_millis()),
                    ));
                }
                Ok(event) => event,
            };
            match event {
                Some(BotEvent::Line(line)) => match parse_line(&line) {
                    Ok(Incoming::Message(FromBot::Ready(ready))) => {
                        self.ready = Some(ready);
                        return Ok(());
                    }
                    Ok(Incoming::Message(FromBot::Log(log))) => self.log(log.text)?,
                    _ => self.note_unasked(&line, "sent before ready")?,
                },
                Some(BotEvent::TooLong { head }) => return Err(self.too_long(&head)),
                Some(BotEvent::Eof) | None => return Err(self.died_waiting(deadline).await),
                Some(BotEvent::Exited(info)) => return Err(self.crashed(info)),
            }
        }
    }

    /// Waits for the answer to turn `turn_id` until `deadline`. Logs are kept, lines answering
    /// another turn and lines of types nobody asked for here are ignored and counted.
    pub async fn reply(&mut self, turn_id: u64, deadline: Instant, limit: Duration) -> Reply {
        match self.listen(Some(turn_id), Some(deadline)).await {
            Some(reply) => reply,
            None => Reply::Fault(Failure::new(
                ForfeitKind::Timeout,
                format!("no answer within {} ms", limit.as_millis()),
            )),
        }
    }

    /// Waits for the bot's next message until `deadline` (for ever without one), for a request
    /// `turn_id` or, without one, for whatever the game lets a seat send at any time
    /// (simultaneous play). `None` when the deadline passed first, which only the caller can
    /// judge. Cancel-safe: dropping the future loses no line, so the session can wait on
    /// several bots at once and keep the others' futures' lines for later.
    pub async fn listen(
        &mut self,
        turn_id: Option<u64>,
        deadline: Option<Instant>,
    ) -> Option<Reply> {
        loop {
            if self.eof {
                // Found closed earlier (a wait on several bots was cut short): judge it now.
                let grace = deadline.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
                return Some(Reply::Fault(self.died_waiting(grace).await));
            }
            let event = match deadline {
                Some(d) => match timeout_at(d, self.events.recv()).await {
                    Err(_) => return None,
                    Ok(event) => event,
                },
                None => self.events.recv().await,
            };
            let reply = match event {
                Some(BotEvent::Line(line)) => match parse_line(&line) {
                    Ok(Incoming::Message(FromBot::Move(m))) => {
                        if m.turn_id.is_some_and(|t| Some(t) != turn_id) {
                            if let Err(f) = self.note_unasked(&line, "answers another turn") {
                                return Some(Reply::Fault(f));
                            }
                            continue;
                        }
                        Reply::Move { mv: m.mv, line }
                    }
                    Ok(Incoming::Message(FromBot::Log(log))) => match self.log(log.text) {
                        Ok(()) => continue,
                        Err(f) => Reply::Fault(f),
                    },
                    Ok(Incoming::Message(FromBot::Ready(_))) => {
                        match self.note_unasked(&line, "ready sent mid-match") {
                            Ok(()) => continue,
                            Err(f) => Reply::Fault(f),
                        }
                    }
                    Ok(Incoming::Other { kind, message }) => {
                        if let (Some(asked), Some(t)) =
                            (turn_id, message.get("turn_id").and_then(Value::as_u64))
                            && t != asked
                        {
                            match self.note_unasked(&line, "answers another request") {
                                Ok(()) => continue,
                                Err(f) => return Some(Reply::Fault(f)),
                            }
                        }
                        Reply::Other {
                            kind,
                            message,
                            line,
                        }
                    }
                    Err((_, reason)) => Reply::Bad { reason, line },
                },
                Some(BotEvent::TooLong { head }) => Reply::Fault(self.too_long(&head)),
                Some(BotEvent::Eof) | None => {
                    let grace = deadline.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
                    Reply::Fault(self.died_waiting(grace).await)
                }
                Some(BotEvent::Exited(info)) => Reply::Fault(self.crashed(info)),
            };
            return Some(reply);
        }
    }

    pub async fn drain_before_request(&mut self) -> Result<(), Failure> {
        self.drain_and(true).await
    }

    /// Takes every line that arrived while nothing was asked (without waiting): logs are kept,
    /// anything else is counted as unasked. A bot found dead or flooding fails.
    pub async fn drain(&mut self) -> Result<(), Failure> {
        self.drain_and(false).await
    }

    async fn drain_and(&mut self, resume_to_watch: bool) -> Result<(), Failure> {
        while let Some(event) = self.events.try_recv() {
            match event {
                BotEvent::Line(line) => match parse_line(&line) {
                    Ok(Incoming::Message(FromBot::Log(log))) => self.log(log.text)?,
                    _ => self.note_unasked(&line, "sent when nothing was asked")?,
                },
                BotEvent::TooLong { head } => return Err(self.too_long(&head)),
                BotEvent::Eof => self.eof = true,
                BotEvent::Exited(info) => return Err(self.crashed(info)),
            }
        }
        if self.eof {
            if resume_to_watch {
                self.thaw();
            }
            let deadline = Instant::now() + EXIT_GRACE;
            return Err(self.died_waiting(deadline).await);
        }
        Ok(())
    }

    fn note_unasked(&mut self, line: &[u8], why: &'static str) -> Result<(), Failure> {
        self.unasked += 1;
        if self.unasked_examples.len() < UNASKED_EXAMPLES {
            self.unasked_examples.push(Unasked {
                line: evidence(line, LINE_EVIDENCE),
                why,
            });
        }
        if self.unasked > self.limits.max_unasked {
            let mut f = Failure::new(
                ForfeitKind::Flood,
                format!(
                    "more than {} unasked lines in one round",
                    self.limits.max_unasked
                ),
            );
            f.line = Some(evidence(line, LINE_EVIDENCE));
            return Err(f);
        }
        Ok(())
    }

    fn log(&mut self, text: String) -> Result<(), Failure> {
        self.log_bytes += text.len();
        if self.log_bytes > self.limits.max_log_bytes {
            return Err(Failure::new(
                ForfeitKind::Flood,
                format!(
                    "more than {} bytes of log messages in one round",
                    self.limits.max_log_bytes
                ),
            ));
        }
        self.logs.push(crate::game::cut(&text, LOG_TEXT_MAX));
        Ok(())
    }
}

impl Bot {
    /// The next thing the bot does, raw, for the referee to judge: a line, or a failure (an
    /// over-long line, a crash, a closed stdout); `None` once `until` passes first.
    pub async fn hear(&mut self, until: Option<Instant>) -> Option<Heard> {
        if self.eof {
            // Found closed earlier (a wait on several bots was cut short): judge it now.
            let grace = until.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
            return Some(Heard::Failed(self.died_waiting(grace).await));
        }
        let event = match until {
            Some(d) => timeout_at(d, self.events.recv()).await.ok()?,
            None => self.events.recv().await,
        };
        Some(match event {
            Some(BotEvent::Line(line)) => Heard::Line(line),
            Some(BotEvent::TooLong { head }) => Heard::Failed(self.too_long(&head)),
            Some(BotEvent::Eof) | None => {
                let grace = until.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
                Heard::Failed(self.died_waiting(grace).await)
            }
            Some(BotEvent::Exited(info)) => Heard::Failed(self.crashed(info)),
        })
    }

    /// The `log` messages the bot has sent already (read without waiting), up to the first
    /// event of another kind, which is left with everything after it for the next reader.
    /// A round that ends takes these: a log written after the round's last action is the
    /// round's.
    pub fn logs_waiting(&mut self) -> Vec<String> {
        let mut logs = Vec::new();
        while let Some(event) = self.events.try_recv() {
            if let BotEvent::Line(line) = &event
                && let Ok(Incoming::Message(FromBot::Log(log))) = parse_line(line)
            {
                logs.push(log.text);
                continue;
            }
            self.events.unread(event);
            break;
        }
        logs
    }

    /// Everything the bot sent so far without waiting, and its failure if it is found dead
    /// (a bot whose stdout closed is resumed, so that its exit can be seen).
    pub async fn drain_heard(&mut self) -> (Vec<Vec<u8>>, Option<Failure>) {
        let mut lines = Vec::new();
        while let Some(event) = self.events.try_recv() {
            match event {
                BotEvent::Line(line) => lines.push(line),
                BotEvent::TooLong { head } => return (lines, Some(self.too_long(&head))),
                BotEvent::Eof => self.eof = true,
                BotEvent::Exited(info) => return (lines, Some(self.crashed(info))),
            }
        }
        if self.eof {
            self.thaw();
            let deadline = Instant::now() + EXIT_GRACE;
            return (lines, Some(self.died_waiting(deadline).await));
        }
        (lines, None)
    }
}
