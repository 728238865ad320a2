//! The referee: the rules of play of one round, as a synchronous, pure state machine.
//!
//! A game's [`Round`] knows its rules; the referee knows how bots play by them, the same for
//! every game: who is asked what and when, `turn_id`s, parse-then-rules judging of every line,
//! retries on one clock, every refusal reason, unasked lines and flooding, each seat's clock
//! (a per-move cap, a bank, an increment, a first-move allowance: [`crate::clock`]) and the
//! rules' own deadlines with the latency margin, forfeits with seeded fallback moves,
//! freezing idle bots, the announcements (what each seat is told) and the round's record.
//!
//! It does no I/O and has no clock of its own. Inputs come in stamped with round time (ms since
//! `start` was sent): a line a bot sent, a bot's failure (crash, closed stdout, an over-long
//! line, a start-up failure), or a tick once the deadline it named has passed. What it wants
//! done comes out as [`Output`]s: lines to send, bots to freeze, thaw, kill or drain. The live
//! arbiter (`arbiter::driver`) is a thin async loop that turns process events into inputs and
//! carries out the outputs; the verifier feeds a record's stamped inputs to the same referee
//! and compares what it produces with what the record says. So no rule of play is written
//! twice, and every rule of play can be tested as data: lines and times in, the record out.
//!
//! The protocol the referee speaks is `protocol/SPEC.md`'s; the record it produces is
//! `protocol/RECORD.md`'s.

mod judge;
mod play;

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use crate::clock::{SeatClock, Tc};
use crate::game::{Outcome, Request, Round, Seat};
use crate::record::fault::ExitInfo;
use crate::record::fault::{Forfeit, ForfeitKind, Refused};
use crate::record::{Fault, LogRecord, MoveRecord};
use crate::seed::fallback_rng;

/// The rules of play a round is refereed under (the match's settings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Time per move, in ms (the per-move clock): every seat's cap, unless
    /// [`Referee::with_clocks`] gives the seats time controls of their own.
    pub move_ms: f64,
    /// Latency margin added to every deadline before it is declared passed, in ms.
    pub margin_ms: f64,
    /// Refused attempts allowed per move (per round, for messages judged on the rules' clock)
    /// beyond the first.
    pub retries: u32,
    /// Idle bots are frozen while a sequential request is open.
    pub freeze: bool,
    /// `legal` is left out of requests.
    pub hide_legal: bool,
    /// Unasked lines per seat and round before the seat forfeits for flooding.
    pub max_unasked: u32,
    /// `log` bytes per seat and round before the seat forfeits for flooding.
    pub max_log_bytes: usize,
    /// The rules run on round time (simultaneous play): actions and forfeits are recorded with
    /// their round time (`at_ms`), which a replay hands back to the rules.
    pub timed: bool,
}

/// Why a seat's bot failed, as the process layer saw it (or as a record says it did).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: ForfeitKind,
    pub detail: String,
    pub line: Option<String>,
    pub exit: Option<ExitInfo>,
}

impl Failure {
    pub fn new(kind: ForfeitKind, detail: impl Into<String>) -> Failure {
        Failure {
            kind,
            detail: detail.into(),
            line: None,
            exit: None,
        }
    }
}

/// Something that happened, stamped with round time by whoever feeds the referee.
#[derive(Debug)]
pub enum Input<'a> {
    /// A line (without its `\n`) a seat's bot sent. `cpu_ms`: the CPU time its bot used since
    /// its clock was marked ([`Output::Send`] with `mark_cpu`, or the round's start), where the
    /// OS tells.
    Line {
        seat: Seat,
        line: &'a [u8],
        cpu_ms: Option<f64>,
    },
    /// The seat's bot failed (it crashed, closed its stdout, sent an over-long line, or did not
    /// start): the seat forfeits.
    Failed { seat: Seat, failure: Failure },
    /// Everything the seat's bot had sent was fed (the answer to [`Output::Drain`]).
    Drained(Seat),
    /// Time passed: the deadline [`Referee::deadline`] named, or later.
    Tick,
}

/// What the referee made of the last line it was fed: read back by whoever fed it (the
/// verifier re-judges a record's refused attempts by it, never by what came out, since a
/// refusal past the retries forfeits and the arbiter's fallback move follows at once).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Verdict {
    /// The round had not started or the seat is out of it: the line was dropped.
    #[default]
    Ignored,
    /// The rules applied it (a move, or a game message they accepted).
    Accepted,
    /// Refused with this code and reason: answered by `illegal`, or, past the retries, a
    /// forfeit.
    Refused {
        code: &'static str,
        reason: String,
        forfeited: bool,
    },
    /// Kept as a line nobody asked for, with why (a `turn_id` of another request, say).
    Unasked(&'static str),
    /// A `log`.
    Logged,
}

/// What the referee wants done, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Write a line to a seat's bot. `mark_cpu`: a request on the per-move clock, whose answer's
    /// CPU time counts from here.
    Send {
        seat: Seat,
        line: Arc<[u8]>,
        mark_cpu: bool,
    },
    /// Stop a seat's bot (SIGSTOP to its group).
    Freeze(Seat),
    /// Resume a seat's bot.
    Thaw(Seat),
    /// The seat forfeited: kill its bot now (its stderr tail goes to [`Referee::stderr_tail`]).
    Kill(Seat),
    /// Feed every line the seat's bot sent so far (and its failure, if it died), then
    /// [`Input::Drained`]: the referee asks nothing more until then.
    Drain(Seat),
}

/// An open request to one seat.
#[derive(Clone, Debug)]
struct Asked {
    turn_id: u64,
    request: Request,
    /// Round time the request was sent.
    since: f64,
    /// The time this answer may take, in ms (the seat's clock when asked; the rules' requests
    /// have their own deadline).
    limit_ms: f64,
    refused: Vec<Refused>,
}

/// Per seat, what the round knows of its bot.
#[derive(Clone, Debug, Default)]
struct SeatState {
    /// The bot is gone for the rest of the round.
    forfeited: bool,
    frozen: bool,
    asked: Option<Asked>,
    /// Attempts refused on the request the seat forfeited during: the evidence kept on the
    /// arbiter's move.
    refused_before_fallback: Vec<Refused>,
    /// Lines refused this round outside requests on the per-move clock.
    refusals: u32,
    unasked: u32,
    unasked_examples: Vec<(String, &'static str)>,
    log_bytes: usize,
    /// The seat's bot has been drained since it was last asked (reset by each request).
    drained: bool,
    /// The seat's clock for requests on the match's clock.
    clock: SeatClock,
}

/// What a finished round leaves for its record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Play {
    pub moves: Vec<MoveRecord>,
    pub forfeits: Vec<Forfeit>,
    pub faults: Vec<Fault>,
    pub logs: Vec<LogRecord>,
    pub stderr: Vec<String>,
}

/// What the audience of a round in play may see of an action ([`Referee::spectated`]): what
/// the seats other than the actor were told of it (a sealed bid stays sealed, a card drawn
/// stays secret), and the state after it as [`Round::live_view`] shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Public {
    pub notation: serde_json::Value,
    pub effects: serde_json::Map<String, serde_json::Value>,
    pub state: serde_json::Value,
}

/// The referee of one round.
pub struct Referee {
    round: Box<dyn Round>,
    settings: Settings,
    round_no: u32,
    seats: Vec<SeatState>,
    turn_id: u64,
    fallback: Vec<ChaCha8Rng>,
    started: bool,
    /// A seat is being drained: nothing is asked until it is done.
    draining: Option<Seat>,
    /// Once the rules say the round is over, the next seat to drain before `end`.
    end_drain: usize,
    /// The round time of the latest input.
    last_at: f64,
    /// The round is over and every live bot was drained and told `end`.
    outcome: Option<Outcome>,
    play: Play,
    out: Vec<Output>,
    /// What became of the last line fed.
    verdict: Verdict,
    /// Nobody listens (verification): requests, announcements, `start` and `end` are not
    /// encoded; `illegal` is, since its reason is what a verifier compares.
    quiet: bool,
    /// Someone watches the round in play: what the audience may see of each action, by move.
    public: Option<Vec<Public>>,
    /// The line being written (a request, an announcement), kept from line to line.
    scratch: Vec<u8>,
}

impl Referee {
    /// A referee for `round`, numbered `round_no` (from 1) in its match. `turn_id` continues
    /// the match's counter; `round_seed` seeds the fallback moves.
    pub fn new(
        round: Box<dyn Round>,
        seats: usize,
        settings: Settings,
        round_no: u32,
        round_seed: u64,
        turn_id: u64,
    ) -> Referee {
        Referee {
            round,
            settings,
            round_no,
            seats: vec![
                SeatState {
                    clock: SeatClock::new(Tc::per_move(settings.move_ms as u64)),
                    ..SeatState::default()
                };
                seats
            ],
            turn_id,
            fallback: (0..seats).map(|s| fallback_rng(round_seed, s)).collect(),
            started: false,
            draining: None,
            end_drain: 0,
            last_at: 0.0,
            outcome: None,
            play: Play {
                stderr: vec![String::new(); seats],
                ..Play::default()
            },
            out: Vec::new(),
            verdict: Verdict::Ignored,
            quiet: false,
            public: None,
            scratch: Vec::new(),
        }
    }

    /// A referee whose messages nobody reads (a verifier's): it decides exactly as a live one
    /// but does not encode what it would send, except `illegal`.
    pub fn quiet(mut self) -> Referee {
        self.quiet = true;
        self
    }

    /// A referee whose round is watched while in play: each action's [`Public`] part is kept
    /// beside its record ([`Referee::public`]), at the cost of a [`Round::live_view`] a move.
    pub fn spectated(mut self) -> Referee {
        self.public = Some(Vec::new());
        self
    }

    /// What the audience may see of each move so far, in move order (empty unless
    /// [`Referee::spectated`]).
    pub fn public(&self) -> &[Public] {
        self.public.as_deref().unwrap_or_default()
    }

    /// Gives each seat its own time control (a bank, an increment, a first-move allowance, a
    /// cap of its own), in seat order; without it every seat has the cap `move_ms`.
    pub fn with_clocks(mut self, tcs: &[Tc]) -> Referee {
        for (st, tc) in self.seats.iter_mut().zip(tcs) {
            st.clock = SeatClock::new(*tc);
        }
        self
    }

    /// The round time at which the seat's open request on its clock runs out, margin included
    /// (the tick that finds it late), if it has one.
    pub fn clock_end(&self, seat: Seat) -> Option<f64> {
        let st = self.seats.get(seat)?;
        st.asked
            .as_ref()
            .filter(|a| a.request.clock == crate::game::Limit::PerMove && !st.forfeited)
            .map(|a| a.since + (a.limit_ms + self.settings.margin_ms))
    }

    /// The round being refereed.
    pub fn round(&self) -> &dyn Round {
        self.round.as_ref()
    }

    /// The match's request counter after this round's requests.
    pub fn turn_id(&self) -> u64 {
        self.turn_id
    }

    /// The outputs produced since the last call, in order.
    pub fn take_outputs(&mut self) -> std::vec::Drain<'_, Output> {
        self.out.drain(..)
    }

    /// What became of the last line fed ([`Input::Line`]).
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// The record so far.
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The seats whose lines are awaited now (asked, or free to act), live ones only.
    pub fn listening(&self) -> Vec<Seat> {
        if self.draining.is_some() || self.outcome.is_some() {
            return Vec::new();
        }
        let open = match self.round.to_act() {
            crate::game::ToAct::Seats(seats) => seats,
            _ => Vec::new(),
        };
        (0..self.seats.len())
            .filter(|&s| {
                let st = &self.seats[s];
                !st.forfeited && (st.asked.is_some() || open.contains(&s))
            })
            .collect()
    }

    /// Whether the seat's lines are awaited now: `listening().contains(&seat)`, without the
    /// list (asked for every line a bot sends).
    pub fn listens(&self, seat: Seat) -> bool {
        if self.draining.is_some() || self.outcome.is_some() {
            return false;
        }
        let Some(st) = self.seats.get(seat) else {
            return false;
        };
        !st.forfeited
            && (st.asked.is_some()
                || matches!(self.round.to_act(), crate::game::ToAct::Seats(open) if open.contains(&seat)))
    }

    /// The round time at which the referee must be ticked if nothing comes before: the first
    /// per-move clock to run out, or the rules' own deadline, each with the latency margin.
    pub fn deadline(&self) -> Option<f64> {
        if self.draining.is_some() || self.outcome.is_some() || !self.started {
            return None;
        }
        // The same sum as the tick's check, to the last bit (see `tick`).
        let clocks = (0..self.seats.len()).filter_map(|s| self.clock_end(s));
        let rules = self.rules_deadline().map(|d| d + self.settings.margin_ms);
        clocks.chain(rules).reduce(f64::min)
    }

    /// The rules' deadline, while it limits anything: an open phase or a request on the rules'
    /// clock.
    fn rules_deadline(&self) -> Option<f64> {
        let d = self.round.deadline_ms()?;
        let applies = match self.round.to_act() {
            crate::game::ToAct::Seats(_) => true,
            crate::game::ToAct::Seat(_, r) | crate::game::ToAct::Each(_, r) => {
                r.clock == crate::game::Limit::Rules
            }
            crate::game::ToAct::Over => false,
        };
        applies.then_some(d)
    }

    /// When the seat's open request was sent (round time), if it has one.
    pub fn asked_since(&self, seat: Seat) -> Option<f64> {
        self.seats.get(seat)?.asked.as_ref().map(|a| a.since)
    }

    /// The round is over and its end was announced.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The result, once the round is over (forfeits applied).
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Which seats forfeited.
    pub fn forfeited(&self) -> Vec<bool> {
        self.seats.iter().map(|s| s.forfeited).collect()
    }

    /// The round and what it leaves for the record, once over.
    pub fn finish(self) -> (Box<dyn Round>, Play) {
        (self.round, self.play)
    }

    /// A fault found outside the round (a bot found dead between rounds and restarted).
    pub fn add_fault(&mut self, fault: Fault) {
        self.play.faults.push(fault);
    }

    /// A `log` the seat's bot sent before the round started (during start-up).
    pub fn add_log(&mut self, seat: Seat, text: &str) {
        self.log(seat, text.to_string());
    }

    /// A log the bot sent after the round's last action, read as the round ends: the round's,
    /// unless it would pass the round's log bytes (a round that is over forfeits nobody), then
    /// dropped.
    pub fn add_log_after_end(&mut self, seat: Seat, text: &str) {
        let st = &self.seats[seat];
        if st.log_bytes + text.len() <= self.settings.max_log_bytes {
            self.log(seat, text.to_string());
        }
    }

    /// An unasked line found outside the round (sent before `ready`).
    pub fn add_unasked(&mut self, seat: Seat, line: &[u8], why: &'static str) {
        self.unasked(seat, line, why);
    }

    /// The stderr tail of the seat's bot, read by whoever killed it or ended the round: kept
    /// with the seat's forfeit (if it has one without) and in the round's record.
    pub fn stderr_tail(&mut self, seat: Seat, tail: String) {
        if let Some(f) = self
            .play
            .forfeits
            .iter_mut()
            .rev()
            .find(|f| f.seat == seat && f.stderr_tail.is_empty())
        {
            f.stderr_tail = tail.clone();
        }
        self.play.stderr[seat] = tail;
    }

    /// Sends `start` to every live seat; the round time is 0 now. `start_seed` is the seed the
    /// bots are given for their own randomness.
    pub fn start(&mut self, start_seed: u64) {
        self.started = true;
        if self.quiet {
            return;
        }
        let colours = self.round.colours();
        let first = self.round.first();
        for seat in 0..self.seats.len() {
            if self.seats[seat].forfeited {
                continue;
            }
            let msg = crate::wire::ToBot::Start(crate::wire::Start {
                round: self.round_no,
                colour: colours.as_ref().map(|c| c[seat].clone()),
                colours: colours.clone(),
                first,
                seed: start_seed,
                state: self.round.view(seat),
            });
            self.send(seat, crate::wire::to_line(&msg), false);
        }
    }

    /// Plays a set opening before any bot is asked: each move for the seat the rules say is
    /// to act, recorded as the arbiter's (`opening`). An error is the arbiter failing
    /// (openings are drawn from legal moves), not a bot's fault.
    pub fn opening(&mut self, moves: &[serde_json::Value]) -> Result<(), crate::Error> {
        for mv in moves {
            let crate::game::ToAct::Seat(seat, _) = self.round.to_act() else {
                return Err(crate::Error::Illegal(format!(
                    "the opening move {} comes when no one seat is to move",
                    crate::game::short_json(mv)
                )));
            };
            let applied = self.round.play(seat, mv).map_err(|e| {
                crate::Error::Illegal(format!(
                    "the opening move {} is refused by the rules: {e}",
                    crate::game::short_json(mv)
                ))
            })?;
            self.record(applied, 0.0, None, None, Vec::new(), true, true);
        }
        Ok(())
    }

    /// Takes one input at round time `at` and plays on until the referee needs another.
    pub fn input(&mut self, at: f64, input: Input<'_>) {
        self.last_at = at;
        match input {
            Input::Line { seat, line, cpu_ms } => {
                self.verdict = Verdict::Ignored;
                self.line(seat, line, at, cpu_ms)
            }
            Input::Failed { seat, failure } => {
                if self.started {
                    self.rules_time_passes(at);
                }
                self.forfeit(seat, failure, at);
            }
            Input::Drained(seat) => {
                if self.draining == Some(seat) {
                    self.draining = None;
                    self.seats[seat].drained = true;
                }
            }
            Input::Tick => self.tick(at),
        }
        if self.started {
            self.advance(at);
        }
    }

    /// Queues a line for a seat's bot, copied once into a line of its own.
    fn send_slice(&mut self, seat: Seat, line: &[u8], mark_cpu: bool) {
        self.out.push(Output::Send {
            seat,
            line: Arc::from(line),
            mark_cpu,
        });
    }

    /// Queues a line for a seat's bot.
    fn send(&mut self, seat: Seat, line: Vec<u8>, mark_cpu: bool) {
        self.out.push(Output::Send {
            seat,
            line: Arc::from(line),
            mark_cpu,
        });
    }
}
