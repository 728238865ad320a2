//! The game abstraction: the one boundary between the arbiter and the rules of a game.
//!
//! The arbiter knows no game. It holds a [`Game`] (the rules plus the options of a match: board
//! size, player count) and asks it for one [`Round`] per round. A round is a plain state machine
//! that answers four questions: who must act ([`ToAct`]), what each seat may see of the state
//! ([`Round::view`], the JSON a bot receives), whether an action is acceptable ([`Round::play`],
//! which leaves the state unchanged and gives a reason a bot author understands when it is not),
//! and how the round ended ([`Outcome`]). Moves cross this boundary as the JSON values bots send,
//! so the arbiter never needs a game's move type; inside a game, moves are typed (Rolit's are
//! [`rolit::Square`]s) and the fast engines are used directly by perft and the built-in bots.
//!
//! Simultaneous play (Rock'n'Roll Robot's bidding, Rollerball's bids) uses the same trait:
//!
//! - [`ToAct::Seats`] says several seats may send a game-specific message at any time
//!   (`declare`); the arbiter hands each to [`Round::act`] with a [`Stamp`] (ms since the
//!   round started, the bot's CPU time), and announces what it returns. Time is part of such
//!   rules (an hourglass), so a round names its next deadline in the same round time
//!   ([`Round::deadline_ms`]) and the arbiter calls [`Round::timeout`] when it passes. Since
//!   every input carries its time, a recorded round replays exactly, deadlines included.
//! - [`ToAct::Seat`] with a `prove` request asks one seat for a `solution` (the robots'
//!   verification); its limit is the round's own deadline, and missing it is a rule event the
//!   round decides on, not a forfeit.
//! - A match may last a variable number of rounds and carry state from one round to the next
//!   (the robots stay where they ended, the tokens won add up): [`Round::carry`] hands the
//!   next round its start ([`Game::next_round`]) and [`Round::ends_match`] stops the match.
//! - Hidden information (Rollerball's hands) is [`Round::view`] per seat; chance comes from
//!   the round's seed in [`RoundSetup`].
//!
//! Shared vocabulary lives here: seats, refusals, applied actions, outcomes with ties and
//! forfeits. Everything is plain data; nothing here does I/O.

pub mod catalog;
pub mod goofspiel;
pub mod robots;
pub mod rolit;
pub mod rollerball;

use serde_json::Value;

pub use crate::record::outcome::{Outcome, RoundResult, rank_by};

/// A bot's place in a match, numbered from 0 and fixed for the whole match.
pub type Seat = usize;

/// Who must act next in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToAct {
    /// One seat is asked for an action with a request of the given kind.
    Seat(Seat, Request),
    /// Several seats are asked at once, each with its own request of the given kind, answered
    /// independently (a sealed bid: every seat thinks at once, nobody is frozen). The list
    /// shrinks as seats answer; the arbiter asks each seat once.
    Each(Vec<Seat>, Request),
    /// Several seats may act at once, each whenever it likes, with messages the game names
    /// (simultaneous play with no request, such as Rock'n'Roll Robot's declarations); the
    /// rules' own deadline ([`Round::deadline_ms`]) applies.
    Seats(Vec<Seat>),
    /// The round is over; [`Round::outcome`] holds the result.
    Over,
}

/// A request the arbiter sends to a seat that must act: which message asks, which message
/// answers, which clock limits the answer and whether the other seats are frozen meanwhile.
/// Games name their own requests; Rolit's is [`Request::TURN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// The message type that asks (`turn`, `prove`). The message carries `turn_id`, the
    /// seat's `state`, the `legal` answers where the game lists them and `time_ms`.
    pub kind: &'static str,
    /// The message type that answers (`move`, `solution`). A `move` is judged by
    /// [`Round::play`]; any other type by [`Round::act`].
    pub answer: &'static str,
    /// The clock that limits the answer.
    pub clock: Limit,
    /// The other seats' bots are frozen while this request is open (where the match freezes
    /// idle bots at all): sequential play. Requests made to several seats at once never are.
    pub freeze_others: bool,
}

impl Request {
    /// A `turn` answered by a `move` on the match's per-move clock, the other seats frozen:
    /// the request of turn-based games.
    pub const TURN: Request = Request {
        kind: "turn",
        answer: "move",
        clock: Limit::PerMove,
        freeze_others: true,
    };
}

/// Which clock limits an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The match's time per move (`--time`), with retries on the same clock; running out of
    /// it forfeits the round.
    PerMove,
    /// The rules' own deadline ([`Round::deadline_ms`]); what happens when it passes is the
    /// rules' business ([`Round::timeout`]), not a forfeit.
    Rules,
}

/// An action refused by the rules. The state is unchanged; the reason is written for the bot's
/// author and is sent to the bot in an `illegal` message, with the code, a stable machine name
/// of the kind of refusal (`occupied`, `not_in_hand`, ...) that bots may switch on and that a
/// verifier compares (protocol/SPEC.md lists them), so that a reason can be reworded freely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub reason: String,
}

impl Refusal {
    /// A refusal of the general kind: a move the rules do not allow (`illegal_move`).
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal::coded("illegal_move", reason)
    }

    /// A refusal with its own code.
    pub fn coded(code: &'static str, reason: impl Into<String>) -> Self {
        Refusal {
            code,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// An action the rules accepted, as it is recorded and announced.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The kind of message that was applied: `move` (answering `turn`), or a game-specific
    /// type (`declare`, `solution`). Decides the announcement (`played`, `declared`,
    /// `verified`) and how a replay feeds it back.
    pub kind: &'static str,
    /// The message type that announces it to the seats: `played` for a `move`; the game's own
    /// for its own kinds (robots: `declared`, `verified`).
    pub announced_as: &'static str,
    /// The seat that acted.
    pub seat: Seat,
    /// The seat's colour, for games with colours.
    pub colour: Option<String>,
    /// The action in the game's canonical notation (Rolit: "d3"), as the record keeps it and a
    /// replay feeds it back. For game-specific kinds, an object: the message's own fields
    /// without `type` (`{"moves": 5}`), which a replay hands back to [`Round::act`].
    pub notation: Value,
    /// Game-specific public effects, flattened into the announcement and the record (Rolit:
    /// `flipped`; the robots' verification: `ok`, `reason`).
    pub effects: serde_json::Map<String, Value>,
    /// Effects only the record keeps, never announced (cards drawn, a deck's order).
    pub secret: serde_json::Map<String, Value>,
    /// What the seats other than the actor are told instead of `notation` and `effects`
    /// (a sealed bid: `"bid (sealed)"`); `None` tells every seat the same.
    pub shown: Option<Shown>,
    /// The action counts against the seat without forfeiting (a failed demonstration): the
    /// record keeps it as a fault with this text.
    pub fault: Option<String>,
}

/// How an action is announced to the seats that may not see it whole.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub notation: Value,
    pub effects: serde_json::Map<String, Value>,
}

impl Applied {
    /// A move answering `turn` (Rolit's kind of action).
    pub fn moved(seat: Seat, colour: Option<String>, notation: Value) -> Applied {
        Applied {
            kind: "move",
            announced_as: "played",
            seat,
            colour,
            notation,
            effects: serde_json::Map::new(),
            secret: serde_json::Map::new(),
            shown: None,
            fault: None,
        }
    }
}

/// When an input arrived, in round time: what the rules of simultaneous games judge by.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stamp {
    /// Milliseconds since the round started (`start` was sent), to the microsecond.
    pub ms: f64,
    /// CPU time the seat's bot used since the round started, in ms, where the OS tells.
    pub cpu_ms: Option<f64>,
}

/// What a round needs to start: its index in the match and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundSetup {
    /// 0-based index of the round in its match.
    pub round: u32,
    /// The match seed (used for draws made once per match, such as Rolit's first colour).
    pub match_seed: u64,
    /// The round's own seed (recorded; seeds the arbiter's fallback moves; the chance of games
    /// without hidden information; passed to their bots in `start`).
    pub round_seed: u64,
    /// The seed of the round's chance in games with hidden information
    /// ([`Game::hidden_information`]): one-way from the match seed, never told to a bot.
    pub chance_seed: u64,
}

/// The rules of one game with the options of one match. A factory of rounds.
pub trait Game: Send + Sync {
    /// The game's name on the command line and in records ("rolit").
    fn name(&self) -> &'static str;
    /// Bumped whenever what a record of the game says can change (a rule, an effect, the
    /// final state, a recorded reason's wording before records kept refusal codes), so that
    /// a record is verified under the rules it was played by.
    fn rules_version(&self) -> u32;
    /// The same game under an earlier rules version this build released, played as it was
    /// then (a behaviour switch where a rule changed, never a copy of the game); `None` for a
    /// version the game never had. The verifier and the replays use it for older records.
    fn under_rules(&self, version: u32) -> Option<std::sync::Arc<dyn Game>> {
        let _ = version;
        None
    }
    /// The options of this match as JSON (sent in `hello`, kept in records).
    fn options(&self) -> Value;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// A fresh round.
    fn new_round(&self, setup: RoundSetup) -> Box<dyn Round>;
    /// The next round of a match, starting from what the previous one left ([`Round::carry`]).
    /// Games whose rounds are independent never carry anything, hence the default. An error
    /// says why a carried state (read from a record) cannot be the start of a round.
    fn next_round(
        &self,
        setup: RoundSetup,
        _carry: &Value,
    ) -> Result<Box<dyn Round>, crate::Error> {
        Ok(self.new_round(setup))
    }
    /// Seats may not see everything (hands, a deck, sealed bids): chance comes from
    /// [`RoundSetup::chance_seed`], bots get a seed in `start` they cannot relate to it, and a
    /// short match seed earns the organiser a warning.
    fn hidden_information(&self) -> bool {
        false
    }
    /// Every seat thinks at once ([`ToAct::Seats`]): idle bots are never frozen.
    fn simultaneous(&self) -> bool {
        false
    }
    /// The number of rounds a match plays when the organiser does not say: `None` lets the
    /// arbiter choose (one rotation of the seats); a game whose matches end by its own rules
    /// ([`Round::ends_match`]) gives the most rounds it can last.
    fn default_rounds(&self) -> Option<u32> {
        None
    }
    /// A warning for the organiser about the schedule (Rolit: rounds that do not rotate fully).
    fn schedule_warning(&self, _rounds: u32) -> Option<String> {
        None
    }
}

/// One round of a game: a plain state machine driven by the arbiter.
pub trait Round: Send {
    /// Colour of each seat in this round, for games with colours.
    fn colours(&self) -> Option<Vec<String>>;
    /// The seat that acts first.
    fn first(&self) -> Seat;
    /// Who must act now.
    fn to_act(&self) -> ToAct;
    /// The state as the given seat may see it (the `state` of `start` and `turn`).
    fn view(&self, seat: Seat) -> Value;
    /// The state as a spectator sees it (the final `board` of a record, replays).
    fn public_view(&self) -> Value;
    /// The state as the audience of the round sees it while it is in play (the arena's live
    /// matches): nothing any seat may not know of another (hands, a deck's order, sealed
    /// bids). Games with hidden information override it, since their [`Round::public_view`]
    /// shows every hand (for the record and replays of a round that is over).
    fn live_view(&self) -> Value {
        self.public_view()
    }
    /// The legal actions of the seat in canonical notation, where they can be listed. Never
    /// an empty list: `None` when they cannot be listed or the seat cannot act.
    fn legal_moves(&self, seat: Seat) -> Option<Vec<Value>>;
    /// Appends [`Round::view`] as compact JSON text, byte for byte what `serde_json` writes of
    /// it (keys in order): every request carries it. A game may write it from its own types
    /// instead of building the value first.
    fn write_view(&self, seat: Seat, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.view(seat)).expect("a view serialises");
    }
    /// Appends [`Round::legal_moves`] as compact JSON text, byte for byte what `serde_json`
    /// writes of them, and says whether there were any (nothing is written when there are
    /// none).
    fn write_legal(&self, seat: Seat, out: &mut Vec<u8>) -> bool {
        match self.legal_moves(seat) {
            Some(legal) => {
                serde_json::to_writer(out, &legal).expect("moves serialise");
                true
            }
            None => false,
        }
    }
    /// Applies the action a seat sent (the `move` field of its message). On refusal the state
    /// is unchanged.
    fn play(&mut self, seat: Seat, action: &Value) -> Result<Applied, Refusal>;
    /// Applies a message of a game-specific type (`declare`, `solution`) that a seat sent
    /// at `at`, while [`ToAct::Seats`] names the seat or it was asked to prove. Returns what
    /// to announce and record. (While a `move` is asked, the arbiter refuses every other type
    /// as an `unknown message type` without asking the game.)
    fn act(
        &mut self,
        _seat: Seat,
        kind: &str,
        _message: &Value,
        _at: Stamp,
    ) -> Result<Vec<Applied>, Refusal> {
        Err(Refusal::coded(
            "unknown_type",
            format!("unknown message type {kind:?}"),
        ))
    }
    /// The round time (ms since the start) at which the rules themselves act (an hourglass),
    /// if ever.
    fn deadline_ms(&self) -> Option<f64> {
        None
    }
    /// The rules' own deadline, `at` (the value [`Round::deadline_ms`] gave), passed. What it
    /// returns is announced and recorded as the arbiter's (`by_arbiter`).
    fn timeout(&mut self, _at: f64) -> Vec<Applied> {
        Vec::new()
    }
    /// A seat forfeited at `at`; games where a seat can drop out without its turns being
    /// played for it (simultaneous play) take it out here. Sequential games return nothing:
    /// the arbiter plays the seat's turns with [`Round::fallback`].
    fn forfeit(&mut self, _seat: Seat, _at: f64) -> Vec<Applied> {
        Vec::new()
    }
    /// What the next round of the match starts from (robot positions, tokens won), once this
    /// one is over; `None` when rounds are independent.
    fn carry(&self) -> Option<Value> {
        None
    }
    /// The state this round started from, as [`Round::carry`] would have handed it on: what
    /// the record keeps as `carry`, the first round's too, so that every round replays on its
    /// own (`None` when rounds are independent).
    fn carried(&self) -> Option<Value> {
        None
    }
    /// The match ends with this round, however many rounds were scheduled (a player reached
    /// the tokens needed to win).
    fn ends_match(&self) -> bool {
        false
    }
    /// The action the arbiter plays for a forfeited seat. `pick` is a seeded random index
    /// source (`pick(n)` returns a value below `n`), so the fallback is reproducible.
    fn fallback(&self, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Value {
        let legal = self
            .legal_moves(seat)
            .expect("a game without listable moves must override Round::fallback");
        legal[pick(legal.len())].clone()
    }
    /// The result, once the round is over, as plain data; the arbiter applies forfeits
    /// ([`Outcome::of`]).
    fn result(&self) -> Option<RoundResult>;
    /// The outcome with no seat forfeited, once the round is over.
    fn outcome(&self) -> Option<Outcome> {
        self.result().map(|r| {
            let n = r.points.len();
            Outcome::of(r, &vec![false; n])
        })
    }
    /// A text rendering for terminals (letters only; callers add colour).
    fn render(&self) -> String;
}

/// A JSON value as compact text cut to a length fit for a message or a record.
pub fn short_json(v: &Value) -> String {
    cut(&v.to_string(), 80)
}

/// Text cut to at most `max` characters, with "..." and the full length when cut.
pub fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max).collect();
    format!("{head}... ({} bytes in all)", s.len())
}

/// The `board` rows of a state whose board is a list of strings, top row first.
pub fn board_rows(state: &Value) -> Vec<String> {
    state
        .get("board")
        .and_then(Value::as_array)
        .map(|rows| {
            rows.iter()
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
