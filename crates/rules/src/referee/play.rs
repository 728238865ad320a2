//! The course of a round: asking the seats the rules name (after draining what they sent
//! unasked), freezing the idle ones, the clocks running out, forfeits and the arbiter's
//! fallback moves, announcing and recording every action, and the end.

use rand::Rng;

use crate::game::{Applied, Limit, Outcome, Request, Seat, Shown, ToAct};
use crate::record::fault::{Forfeit, ForfeitKind};
use crate::record::{Fault, MoveRecord, round_ms};
use crate::wire::{End, ToBot, announcement, announcement_into, to_line};

use super::{Asked, Failure, Output, Referee};

/// What asking one seat came to.
enum Step {
    /// An action was played (the arbiter's, for a forfeited seat): the rules may ask anew.
    Played,
    /// The seat is being drained before it is asked.
    Draining,
    /// The seat is asked (now or before) or the rules' clock decides for it: wait.
    Wait,
}

impl Referee {
    /// Plays on from round time `at` until an input is needed.
    pub(super) fn advance(&mut self, at: f64) {
        loop {
            if self.draining.is_some() || self.outcome.is_some() {
                return;
            }
            self.settle_asks();
            let step = match self.round.to_act() {
                ToAct::Over => return self.end(),
                ToAct::Seats(_) => Step::Wait,
                ToAct::Seat(seat, request) => self.ask(seat, request, at),
                ToAct::Each(seats, request) => {
                    let mut step = Step::Wait;
                    for seat in seats {
                        step = self.ask(seat, request, at);
                        if !matches!(step, Step::Wait) {
                            break;
                        }
                    }
                    step
                }
            };
            match step {
                Step::Played => continue,
                Step::Draining => return,
                Step::Wait => return self.settle_freezing(),
            }
        }
    }

    /// Forgets requests the rules no longer make (a rules' deadline moved the round on).
    fn settle_asks(&mut self) {
        let to_act = self.round.to_act();
        for (s, st) in self.seats.iter_mut().enumerate() {
            let Some(asked) = &st.asked else { continue };
            let still = match &to_act {
                ToAct::Seat(x, r) => *x == s && *r == asked.request,
                ToAct::Each(xs, r) => xs.contains(&s) && *r == asked.request,
                _ => false,
            };
            if !still {
                st.asked = None;
            }
        }
    }

    /// Freezes the idle bots and thaws the asked ones, as the current request wants.
    pub(super) fn settle_freezing(&mut self) {
        let freezes = self.settings.freeze
            && match self.round.to_act() {
                ToAct::Seat(_, r) | ToAct::Each(_, r) => r.freeze_others,
                ToAct::Seats(_) | ToAct::Over => false,
            };
        for s in 0..self.seats.len() {
            let st = &mut self.seats[s];
            if st.forfeited {
                continue;
            }
            let want = freezes && st.asked.is_none();
            if want != st.frozen {
                st.frozen = want;
                self.out.push(if want {
                    Output::Freeze(s)
                } else {
                    Output::Thaw(s)
                });
            }
        }
    }

    /// Asks a seat, unless it is asked already; a forfeited seat's move is the arbiter's.
    fn ask(&mut self, seat: Seat, request: Request, at: f64) -> Step {
        let st = &self.seats[seat];
        if st.forfeited {
            if request.clock == Limit::PerMove {
                self.play_fallback(seat);
                return Step::Played;
            }
            return Step::Wait; // the rules' deadline decides
        }
        if st.asked.is_some() {
            return Step::Wait;
        }
        if !st.drained {
            self.settle_freezing();
            self.out.push(Output::Drain(seat));
            self.draining = Some(seat);
            return Step::Draining;
        }
        self.turn_id += 1;
        // The rules' clock tells the time until the answer is refused: the rules' deadline is
        // fixed in round time and the margin after it is the bot's too, since a request that
        // follows the rules' own deadline (the first `prove` after the hourglass) goes out only
        // once that deadline's margin has passed (protocol/SPEC.md §13.3).
        let (time_ms, limit_ms, bank_ms) = match request.clock {
            Limit::PerMove => {
                let clock = &self.seats[seat].clock;
                let limit_us = clock.limit_us();
                (limit_us / 1000, limit_us as f64 / 1000.0, clock.bank_ms(0))
            }
            Limit::Rules => {
                let left = self
                    .round
                    .deadline_ms()
                    .map_or(0, |d| (d + self.settings.margin_ms - at).max(0.0) as u64);
                (left, 0.0, None)
            }
        };
        if !self.quiet {
            let mut line = std::mem::take(&mut self.scratch);
            line.clear();
            request_line(
                self.round.as_ref(),
                seat,
                request.kind,
                self.turn_id,
                !self.settings.hide_legal,
                time_ms,
                bank_ms,
                &mut line,
            );
            self.send_slice(seat, &line, request.clock == Limit::PerMove);
            self.scratch = line;
        }
        let st = &mut self.seats[seat];
        st.drained = false;
        st.asked = Some(Asked {
            turn_id: self.turn_id,
            request,
            since: at,
            limit_ms,
            refused: Vec::new(),
        });
        Step::Wait
    }

    /// The arbiter's move for a forfeited seat: a seeded choice, the attempts the bot had made
    /// on that ply kept with it.
    fn play_fallback(&mut self, seat: Seat) {
        let rng = &mut self.fallback[seat];
        let mv = self.round.fallback(seat, &mut |n| rng.random_range(0..n));
        let applied = self
            .round
            .play(seat, &mv)
            .expect("a fallback move is legal by construction");
        let refused = std::mem::take(&mut self.seats[seat].refused_before_fallback);
        self.record(applied, 0.0, None, None, refused, true, false);
    }

    /// A tick at round time `at`: every per-move clock run out forfeits its seat; the rules'
    /// deadline, once passed with its margin, is the rules' to act on.
    pub(super) fn tick(&mut self, at: f64) {
        for seat in 0..self.seats.len() {
            if self.clock_end(seat).is_some_and(|end| at >= end) {
                let clock = &self.seats[seat].clock;
                let limit = clock.limit_us() / 1000;
                let detail = if clock.bank_limits() {
                    format!("no answer within {limit} ms: its time bank ran out (flag fall)")
                } else {
                    format!("no answer within {limit} ms")
                };
                self.forfeit(seat, Failure::new(ForfeitKind::Timeout, detail), at);
            }
        }
        if let Some(d) = self.rules_deadline()
            && at >= d + self.settings.margin_ms
        {
            self.rules_timeout(d);
        }
    }

    /// Time reached `at` without a margin (a bot's failure): the rules' deadline, if it passed,
    /// passed first.
    pub(super) fn rules_time_passes(&mut self, at: f64) {
        if let Some(d) = self.rules_deadline()
            && at > d
        {
            self.rules_timeout(d);
        }
    }

    /// The rules' deadline `d` passed: what they do is announced as the arbiter's.
    pub(super) fn rules_timeout(&mut self, d: f64) {
        let applied = self.round.timeout(d);
        self.record_all(applied, d, None, true);
    }

    /// The seat forfeits the round: its bot is killed at once, its notes kept, and the rules
    /// take it out (simultaneous play) or the arbiter plays its turns (sequential play).
    pub(super) fn forfeit(&mut self, seat: Seat, failure: Failure, at: f64) {
        if self.seats[seat].forfeited {
            return;
        }
        self.out.push(Output::Kill(seat));
        self.collect_notes(seat);
        let st = &mut self.seats[seat];
        st.forfeited = true;
        st.frozen = false;
        let turn_id = st.asked.as_ref().map(|a| a.turn_id);
        if let Some(asked) = st.asked.take() {
            st.refused_before_fallback = asked.refused;
        }
        if self.draining == Some(seat) {
            self.draining = None;
        }
        let at = if self.started { at } else { 0.0 };
        self.play.forfeits.push(Forfeit {
            seat,
            kind: failure.kind,
            // Any start-up failure happened before the round's first move.
            ply: if self.started {
                self.play.moves.len() as u32 + 1
            } else {
                0
            },
            at_ms: (self.started && self.settings.timed).then_some(at),
            turn_id,
            detail: failure.detail,
            line: failure.line,
            exit: failure.exit,
            stderr_tail: String::new(),
        });
        let applied = self.round.forfeit(seat, at);
        self.record_all(applied, at, None, true);
    }

    /// Announces and records actions the rules applied at round time `at` (game messages, the
    /// rules' deadlines, forfeits).
    pub(super) fn record_all(
        &mut self,
        applied: Vec<Applied>,
        at: f64,
        cpu_ms: Option<f64>,
        by_arbiter: bool,
    ) {
        for a in applied {
            let cpu = if by_arbiter { None } else { cpu_ms };
            self.record(a, at, Some(at), cpu, Vec::new(), by_arbiter, false);
        }
    }

    /// Announces one action (each seat told what it may know) and records it whole.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
        &mut self,
        applied: Applied,
        ms: f64,
        at_ms: Option<f64>,
        cpu_ms: Option<f64>,
        refused: Vec<crate::record::fault::Refused>,
        by_arbiter: bool,
        opening: bool,
    ) {
        if !self.quiet {
            self.announce(&applied, by_arbiter, at_ms);
        }
        if let Some(detail) = applied.fault {
            self.play.faults.push(Fault {
                seat: applied.seat,
                kind: applied.kind.into(),
                detail,
                line: None,
            });
        }
        if let Some(public) = &mut self.public {
            // What a seat other than the actor was told (`announce`), and the state after.
            let (notation, effects) = match &applied.shown {
                Some(s) => (s.notation.clone(), s.effects.clone()),
                None => (applied.notation.clone(), applied.effects.clone()),
            };
            public.push(super::Public {
                notation,
                effects,
                state: self.round.live_view(),
            });
        }
        let mut effects: std::collections::BTreeMap<String, serde_json::Value> =
            applied.effects.into_iter().collect();
        effects.extend(applied.secret);
        self.play.moves.push(MoveRecord {
            ply: self.play.moves.len() as u32 + 1,
            kind: (applied.kind != "move").then(|| applied.kind.to_string()),
            seat: applied.seat,
            colour: applied.colour,
            mv: applied.notation,
            effects,
            ms: round_ms(ms),
            at_ms,
            cpu_ms: cpu_ms.map(round_ms),
            bank_ms: None,
            refused,
            by_arbiter,
            opening,
        });
    }

    /// Tells every live seat of an action: what it may know of it.
    fn announce(&mut self, applied: &Applied, by_arbiter: bool, at_ms: Option<f64>) {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        announcement_into(applied, by_arbiter, at_ms, &mut text);
        let line: std::sync::Arc<[u8]> = std::sync::Arc::from(&text[..]);
        self.scratch = text;
        let shown: Option<std::sync::Arc<[u8]>> = applied.shown.as_ref().map(|s| {
            let Shown { notation, effects } = s.clone();
            let public = Applied {
                notation,
                effects,
                secret: serde_json::Map::new(),
                shown: None,
                fault: None,
                colour: applied.colour.clone(),
                ..*applied
            };
            announcement(&public, by_arbiter, at_ms).into()
        });
        for s in 0..self.seats.len() {
            if self.seats[s].forfeited {
                continue;
            }
            let line = match &shown {
                Some(public) if s != applied.seat => public.clone(),
                _ => line.clone(),
            };
            self.out.push(Output::Send {
                seat: s,
                line,
                mark_cpu: false,
            });
        }
    }

    /// The rules ended the round: every live bot is drained once (a bot found dead now
    /// forfeits), then told `end` with the result, forfeits applied, and resumed.
    fn end(&mut self) {
        while self.end_drain < self.seats.len() {
            let seat = self.end_drain;
            self.end_drain += 1;
            if !self.seats[seat].forfeited {
                self.out.push(Output::Drain(seat));
                self.draining = Some(seat);
                return;
            }
        }
        let result = self
            .round
            .result()
            .expect("a round that is over has a result");
        let forfeited = self.forfeited();
        let outcome = Outcome::of(result, &forfeited);
        let end = ToBot::End(End {
            round: self.round_no,
            scores: outcome.scores.clone(),
            points: outcome.points.clone(),
            ranks: outcome.ranks.clone(),
            winners: outcome.winners(),
            forfeits: (0..forfeited.len()).filter(|&s| forfeited[s]).collect(),
        });
        let line: Option<std::sync::Arc<[u8]>> = (!self.quiet).then(|| to_line(&end).into());
        for seat in 0..self.seats.len() {
            if self.seats[seat].forfeited {
                continue;
            }
            self.collect_notes(seat);
            if let Some(line) = &line {
                self.out.push(Output::Send {
                    seat,
                    line: line.clone(),
                    mark_cpu: false,
                });
            }
            // Between rounds nobody thinks on another's time: every bot may read `end` now.
            self.seats[seat].frozen = false;
            self.out.push(Output::Thaw(seat));
        }
        self.outcome = Some(outcome);
    }
}

/// A request as it goes on the wire, `\n` included: `{"type": kind, "turn_id", "state",
/// "legal"?, "time_ms", "bank_ms"?}` (`turn` and `prove` are this shape), written straight from
/// the round ([`Round::write_view`], [`Round::write_legal`]) rather than built as a JSON value
/// first: every move of a match sends one.
#[allow(clippy::too_many_arguments)]
fn request_line(
    round: &dyn crate::game::Round,
    seat: Seat,
    kind: &str,
    turn_id: u64,
    legal: bool,
    time_ms: u64,
    bank_ms: Option<u64>,
    out: &mut Vec<u8>,
) {
    let mut n = itoa::Buffer::new();
    out.extend_from_slice(b"{\"type\":");
    serde_json::to_writer(&mut *out, kind).expect("a string serialises");
    out.extend_from_slice(b",\"turn_id\":");
    out.extend_from_slice(n.format(turn_id).as_bytes());
    out.extend_from_slice(b",\"state\":");
    round.write_view(seat, out);
    if legal {
        let before = out.len();
        out.extend_from_slice(b",\"legal\":");
        if !round.write_legal(seat, out) {
            out.truncate(before);
        }
    }
    out.extend_from_slice(b",\"time_ms\":");
    out.extend_from_slice(n.format(time_ms).as_bytes());
    if let Some(bank_ms) = bank_ms {
        out.extend_from_slice(b",\"bank_ms\":");
        out.extend_from_slice(n.format(bank_ms).as_bytes());
    }
    out.extend_from_slice(b"}\n");
}
