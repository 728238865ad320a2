//! Judging what a bot sent, in two steps: the protocol (is it a message at all, and is it one
//! the seat may send now?), then the rules ([`Round::play`] for a `move`, [`Round::act`] for a
//! game's own messages). A line is accepted, refused (an `illegal` answer on the same clock,
//! up to the retry limit), or unasked (counted, kept as evidence, never answered); logs are
//! kept; too many unasked lines or log bytes forfeit.

use crate::game::{Limit, Seat, Stamp};
use crate::record::fault::{ForfeitKind, Refused};
use crate::record::{Fault, LogRecord, round_ms};
use crate::wire::{FromBot, Illegal, Incoming, ToBot, parse_line, to_line};

use super::{Failure, Referee, Verdict};
use crate::record::fault::{EVIDENCE, LOG_TEXT_MAX, UNASKED_EXAMPLES, evidence};

/// What a refused game message is told when no `move` is asked.
const NO_TURN: &str =
    "no turn is asked now: this game takes its own messages (see the state and protocol/games/)";

impl Referee {
    /// The seat may send an answer or a game message now.
    fn listened(&self, seat: Seat) -> bool {
        self.listens(seat)
    }

    /// A line from a seat's bot at round time `at`.
    pub(super) fn line(&mut self, seat: Seat, line: &[u8], at: f64, cpu_ms: Option<f64>) {
        if self.seats[seat].forfeited || !self.started {
            return;
        }
        let listened = self.listened(seat);
        let mut at = at;
        if listened
            && let Some(d) = self.rules_deadline()
            && at > d
        {
            if at <= d + self.settings.margin_ms {
                at = d; // late by less than the margin: in time, as the clock promises
            } else {
                self.rules_timeout(d);
            }
        }
        // The timeout may have changed who is asked.
        let listened = listened && self.listened(seat);
        let incoming = match parse_line(line) {
            Ok(incoming) => incoming,
            Err((code, reason)) if listened => return self.refuse(seat, code, reason, line, at),
            Err(_) => return self.unasked(seat, line, "sent when nothing was asked"),
        };
        if let Incoming::Message(FromBot::Log(log)) = incoming {
            return self.log(seat, log.text);
        }
        if !listened {
            return self.unasked(seat, line, "sent when nothing was asked");
        }
        let asked = self.seats[seat].asked.as_ref();
        let expected = asked.map(|a| a.turn_id);
        let takes_move = asked.is_some_and(|a| a.request.answer == "move");
        match incoming {
            Incoming::Message(FromBot::Ready(_)) => {
                self.unasked(seat, line, "ready sent mid-match")
            }
            Incoming::Message(FromBot::Move(m)) => {
                if m.turn_id.is_some_and(|t| Some(t) != expected) {
                    self.unasked(seat, line, "answers another turn")
                } else if takes_move {
                    self.play_move(seat, &m.mv, line, at, cpu_ms)
                } else {
                    self.refuse(seat, "no_turn", NO_TURN.to_string(), line, at)
                }
            }
            Incoming::Other { kind, message } => {
                let names = message.get("turn_id").and_then(serde_json::Value::as_u64);
                if let (Some(e), Some(t)) = (expected, names)
                    && t != e
                {
                    return self.unasked(seat, line, "answers another request");
                }
                // A game message may name the round it is for (`round`, as a `move` names its
                // turn): one naming another round was meant for an earlier one, read late.
                if let Some(r) = message.get("round").and_then(serde_json::Value::as_u64)
                    && r != u64::from(self.round_no)
                {
                    return self.unasked(seat, line, "answers another round");
                }
                if takes_move {
                    return self.refuse(
                        seat,
                        "unknown_type",
                        format!("unknown message type {kind:?}"),
                        line,
                        at,
                    );
                }
                let stamp = Stamp { ms: at, cpu_ms };
                match self.round.act(seat, &kind, &message, stamp) {
                    Ok(applied) => {
                        self.verdict = Verdict::Accepted;
                        if self.seats[seat].asked.is_some() {
                            self.seats[seat].asked = None;
                        }
                        self.record_all(applied, at, cpu_ms, false);
                    }
                    Err(r) => self.refuse(seat, r.code, r.reason, line, at),
                }
            }
            Incoming::Message(FromBot::Log(_)) => unreachable!("handled above"),
        }
    }

    /// A `move` answering the seat's open request.
    fn play_move(
        &mut self,
        seat: Seat,
        mv: &serde_json::Value,
        line: &[u8],
        at: f64,
        cpu_ms: Option<f64>,
    ) {
        match self.round.play(seat, mv) {
            Ok(applied) => {
                self.verdict = Verdict::Accepted;
                let asked = self.seats[seat]
                    .asked
                    .take()
                    .expect("a move answers a request");
                // The mover stops before it hears of its own move (sequential play).
                self.settle_freezing();
                let at_ms = (asked.request.clock == Limit::Rules).then_some(at);
                // The answer's time is charged to the seat's clock (and the increment added)
                // before anyone hears of the move.
                let bank_us = match asked.request.clock {
                    Limit::PerMove => self.seats[seat]
                        .clock
                        .spend(crate::clock::us(at - asked.since)),
                    Limit::Rules => None,
                };
                self.record(
                    applied,
                    at - asked.since,
                    at_ms,
                    cpu_ms,
                    asked.refused,
                    false,
                    false,
                );
                if let Some(bank_us) = bank_us
                    && let Some(m) = self.play.moves.last_mut()
                {
                    m.bank_ms = Some(bank_us as f64 / 1000.0);
                }
            }
            Err(r) => self.refuse(seat, r.code, r.reason, line, at),
        }
    }

    /// A refused line: on a per-move request, an attempt kept with the move and answered by
    /// `illegal` on the same clock; otherwise a fault of the round. Past the retry limit, the
    /// seat forfeits.
    pub(super) fn refuse(
        &mut self,
        seat: Seat,
        code: &'static str,
        reason: String,
        line: &[u8],
        at: f64,
    ) {
        let retries = self.settings.retries;
        let proof = evidence(line, EVIDENCE);
        let per_move = self.seats[seat]
            .asked
            .as_ref()
            .is_some_and(|a| a.request.clock == Limit::PerMove);
        let (used, turn_id, time_ms, bank_ms, detail) = if per_move {
            let asked = self.seats[seat].asked.as_mut().expect("per-move request");
            asked.refused.push(Refused {
                line: proof.clone(),
                reason: reason.clone(),
                code: Some(code.to_string()),
                ms: round_ms(at - asked.since),
            });
            let used = asked.refused.len() as u32;
            let left = (asked.since + asked.limit_ms - at).max(0.0) as u64;
            let (turn_id, since) = (asked.turn_id, asked.since);
            let bank = self.seats[seat].clock.bank_ms(crate::clock::us(at - since));
            let detail = format!(
                "{used} attempt{} refused; the last: {reason}",
                if used == 1 { "" } else { "s" }
            );
            (used, turn_id, left, bank, detail)
        } else {
            self.seats[seat].refusals += 1;
            self.play.faults.push(Fault {
                seat,
                kind: "refused".into(),
                detail: reason.clone(),
                line: Some(proof.clone()),
            });
            let used = self.seats[seat].refusals;
            let turn_id = self.seats[seat].asked.as_ref().map_or(0, |a| a.turn_id);
            let left = self
                .round
                .deadline_ms()
                .map_or(0, |d| (d - at).max(0.0) as u64);
            let detail = format!("{used} lines refused this round; the last: {reason}");
            (used, turn_id, left, None, detail)
        };
        self.verdict = Verdict::Refused {
            code,
            reason: reason.clone(),
            forfeited: used > retries,
        };
        if used > retries {
            let failure = Failure {
                kind: ForfeitKind::Retries,
                detail,
                line: Some(proof),
                exit: None,
            };
            return self.forfeit(seat, failure, at);
        }
        let illegal = ToBot::Illegal(Illegal {
            turn_id,
            reason,
            retries_left: retries - used,
            time_ms,
            bank_ms,
        });
        self.send(seat, with_code(to_line(&illegal), code), false);
    }

    /// A line nobody asked for: counted and kept as evidence; too many forfeit.
    pub(super) fn unasked(&mut self, seat: Seat, line: &[u8], why: &'static str) {
        self.verdict = Verdict::Unasked(why);
        let st = &mut self.seats[seat];
        st.unasked += 1;
        if st.unasked_examples.len() < UNASKED_EXAMPLES {
            st.unasked_examples.push((evidence(line, EVIDENCE), why));
        }
        if st.unasked > self.settings.max_unasked {
            let mut failure = Failure::new(
                ForfeitKind::Flood,
                format!(
                    "more than {} unasked lines in one round",
                    self.settings.max_unasked
                ),
            );
            failure.line = Some(evidence(line, EVIDENCE));
            let at = 0.0_f64.max(self.last_at);
            self.forfeit(seat, failure, at);
        }
    }

    /// A `log` message: kept with the number of moves played when it was read; too many bytes
    /// in a round forfeit.
    pub(super) fn log(&mut self, seat: Seat, text: String) {
        self.verdict = Verdict::Logged;
        let st = &mut self.seats[seat];
        st.log_bytes += text.len();
        if st.log_bytes > self.settings.max_log_bytes {
            let failure = Failure::new(
                ForfeitKind::Flood,
                format!(
                    "more than {} bytes of log messages in one round",
                    self.settings.max_log_bytes
                ),
            );
            let at = self.last_at;
            return self.forfeit(seat, failure, at);
        }
        self.play.logs.push(LogRecord {
            seat,
            ply: self.play.moves.len() as u32,
            text: crate::game::cut(&text, LOG_TEXT_MAX),
        });
    }

    /// Moves a seat's unasked lines into the round's faults (at its forfeit, or the end).
    pub(super) fn collect_notes(&mut self, seat: Seat) {
        let st = &mut self.seats[seat];
        let count = std::mem::take(&mut st.unasked);
        let examples = std::mem::take(&mut st.unasked_examples);
        for (i, (line, why)) in examples.into_iter().enumerate() {
            let detail = if i == 0 && count > 1 {
                format!("{why} ({count} unasked lines this round)")
            } else {
                why.to_string()
            };
            self.play.faults.push(Fault {
                seat,
                kind: "unasked".into(),
                detail,
                line: Some(line),
            });
        }
    }
}

/// An encoded `illegal` with its `code` added (SPEC.md §4.4: an addition old bots ignore).
fn with_code(line: Vec<u8>, code: &str) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_slice(&line).expect("an encoded message");
    v["code"] = serde_json::Value::from(code);
    let mut line = serde_json::to_vec(&v).expect("JSON");
    line.push(b'\n');
    line
}
