//! Simultaneous play in a round: every seat the game names may send a game message at any
//! time, the rules run their own clock, and one seat at a time may be asked to prove a claim.
//!
//! This is how Rock'n'Roll Robot's bidding works without a special case for it: while
//! [`ToAct::Seats`] holds, the session waits on all those bots at once (and on the round's own
//! deadline), hands each message to [`Round::act`] stamped with its round time and the bot's
//! CPU time, and announces and records what the rules return. A [`Request::Prove`] sends one
//! `prove` and then waits the same way on that one seat. Missing a rule's deadline is the
//! rules' business ([`Round::timeout`]); only the faults every game shares (a crash, a closed
//! stdout, flooding, too many refused lines) forfeit.
//!
//! Deadlines get the match's latency margin: a line that arrives after a deadline but within
//! the margin is stamped at the deadline itself (rules accept an action at their deadline), so
//! pipe delays never cost a bot, and a replay, which sees only the stamps, decides the same.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

use super::bot::{Bot, Failure, Reply};
use super::fault::{ForfeitKind, evidence};
use super::protocol::{Illegal, Prove, ToBot, to_line};
use super::session::Session;
use crate::game::{Applied, Seat, Stamp};
use crate::record::{Fault, round_ms};

/// Bytes of a refused line kept in the record.
const REFUSED_EVIDENCE: usize = 200;

type Listening<'b> = Pin<Box<dyn Future<Output = (Seat, Option<Reply>)> + Send + 'b>>;

impl Session<'_> {
    /// Round time now, in ms to the microsecond.
    pub(super) fn round_time(&self) -> f64 {
        round_ms(self.t0.elapsed().as_secs_f64() * 1000.0)
    }

    /// Waits for one thing to happen while `seats` may act (a message from one of them, or
    /// the rules' deadline), and plays it. `prove` is the seat asked to prove, if any.
    pub(super) async fn simultaneous(
        &mut self,
        seats: &[Seat],
        prove: Option<Seat>,
    ) -> std::io::Result<()> {
        if let Some(seat) = prove
            && self.asked != Some(seat)
        {
            if let Some(bot) = self.bots[seat].as_mut()
                && let Err(f) = bot.drain_before_request().await
            {
                return self.forfeit(seat, f).await;
            }
            *self.turn_id += 1;
            let deadline = self.round.deadline_ms();
            let time_ms = deadline.map_or(0, |d| (d - self.round_time()).max(0.0) as u64);
            let msg = ToBot::Prove(Prove {
                turn_id: *self.turn_id,
                state: self.round.view(seat),
                time_ms,
            });
            if let Some(bot) = self.bots[seat].as_ref() {
                bot.send(Arc::from(to_line(&msg)));
            }
            self.asked = Some(seat);
        }
        let turn_id = prove.map(|_| *self.turn_id);
        let deadline_ms = self.round.deadline_ms();
        let margin = self.config.time.margin;
        let wait_until =
            deadline_ms.map(|d| self.t0 + Duration::from_secs_f64(d / 1000.0) + margin);
        self.rotation = self.rotation.wrapping_add(1);
        let got = listen_any(self.bots, seats, turn_id, wait_until, self.rotation).await;
        let Some((seat, reply)) = got else {
            let Some(d) = deadline_ms else {
                return Err(std::io::Error::other(format!(
                    "the game {} waits for seats that have no bot and set no deadline",
                    self.config.game.name()
                )));
            };
            return self.rules_timeout(d);
        };
        let mut at = self.round_time();
        if let Reply::Fault(f) = reply {
            // A failure gets no margin: the rules' deadline passed first if it passed at all.
            if let Some(d) = deadline_ms
                && at > d
            {
                self.rules_timeout(d)?;
            }
            return self.forfeit_at(seat, f, Some(at)).await;
        }
        if let Some(d) = deadline_ms
            && at > d
        {
            if at <= d + margin.as_secs_f64() * 1000.0 {
                at = d; // late by less than the margin: in time, as the clock promises
            } else {
                self.rules_timeout(d)?;
            }
        }
        match reply {
            Reply::Fault(_) => unreachable!("handled above"),
            Reply::Other {
                kind,
                message,
                line,
            } => {
                let cpu_ms = self.cpu_since_start(seat);
                let stamp = Stamp { ms: at, cpu_ms };
                match self.round.act(seat, &kind, &message, stamp) {
                    Ok(applied) => self.record_all(applied, stamp, false),
                    Err(r) => self.refuse(seat, r.reason, &line, at).await,
                }
            }
            Reply::Move { line, .. } => {
                let reason = "no turn is asked now: this game takes its own messages \
                              (see the state and protocol/games/)"
                    .to_string();
                self.refuse(seat, reason, &line, at).await
            }
            Reply::Bad { reason, line } => self.refuse(seat, reason, &line, at).await,
        }
    }

    /// The rules' deadline `d` passed: what they do is announced as the arbiter's.
    fn rules_timeout(&mut self, d: f64) -> std::io::Result<()> {
        let applied = self.round.timeout(d);
        self.record_all(
            applied,
            Stamp {
                ms: d,
                cpu_ms: None,
            },
            true,
        )
    }

    /// Announces and records actions applied at `stamp`.
    pub(super) fn record_all(
        &mut self,
        applied: Vec<Applied>,
        stamp: Stamp,
        by_arbiter: bool,
    ) -> std::io::Result<()> {
        for a in applied {
            let cpu = if by_arbiter { None } else { stamp.cpu_ms };
            self.record_move(
                a,
                stamp.ms,
                Some(stamp.ms),
                cpu,
                Vec::new(),
                by_arbiter,
                false,
            )?;
        }
        Ok(())
    }

    /// A line the rules or the protocol refused during simultaneous play: recorded as a
    /// fault and answered with `illegal`; past the retry limit (per seat and round), the seat
    /// forfeits.
    async fn refuse(
        &mut self,
        seat: Seat,
        reason: String,
        line: &[u8],
        at: f64,
    ) -> std::io::Result<()> {
        self.refusals[seat] += 1;
        let used = self.refusals[seat];
        let evidence = evidence(line, REFUSED_EVIDENCE);
        self.play.faults.push(Fault {
            seat,
            kind: "refused".into(),
            detail: reason.clone(),
            line: Some(evidence.clone()),
        });
        if used > self.config.retries {
            let failure = Failure {
                kind: ForfeitKind::Retries,
                detail: format!("{used} lines refused this round; the last: {reason}"),
                line: Some(evidence),
                exit: None,
            };
            return self.forfeit_at(seat, failure, Some(at)).await;
        }
        let time_ms = self
            .round
            .deadline_ms()
            .map_or(0, |d| (d - self.round_time()).max(0.0) as u64);
        if let Some(bot) = self.bots[seat].as_ref() {
            bot.send(Arc::from(to_line(&ToBot::Illegal(Illegal {
                turn_id: if self.asked == Some(seat) {
                    *self.turn_id
                } else {
                    0
                },
                reason,
                retries_left: self.config.retries - used,
                time_ms,
            }))));
        }
        Ok(())
    }

    /// CPU time the seat's bot used since the round started, where the OS tells.
    fn cpu_since_start(&mut self, seat: Seat) -> Option<f64> {
        let now = self.bots[seat].as_mut()?.cpu_ms()?;
        Some(round_ms(now - self.cpu0[seat]?))
    }
}

/// The first of `seats` to send something (or fail), or `None` once `until` passes. Waits on
/// every bot at once; `rotation` changes which bot is looked at first, so no seat is always
/// served first when several lines are there together.
async fn listen_any(
    bots: &mut [Option<Bot>],
    seats: &[Seat],
    turn_id: Option<u64>,
    until: Option<Instant>,
    rotation: usize,
) -> Option<(Seat, Reply)> {
    let mut listening: Vec<Listening<'_>> = Vec::new();
    for (seat, slot) in bots.iter_mut().enumerate() {
        if let Some(bot) = slot.as_mut()
            && seats.contains(&seat)
        {
            listening.push(Box::pin(
                async move { (seat, bot.listen(turn_id, until).await) },
            ));
        }
    }
    if listening.is_empty() {
        if let Some(until) = until {
            tokio::time::sleep_until(until).await;
        }
        return None;
    }
    let n = listening.len();
    let first = rotation % n;
    let (seat, reply) = std::future::poll_fn(|cx| {
        for i in 0..n {
            let f = &mut listening[(first + i) % n];
            if let Poll::Ready(out) = f.as_mut().poll(cx) {
                return Poll::Ready(out);
            }
        }
        Poll::Pending
    })
    .await;
    reply.map(|r| (seat, r))
}
