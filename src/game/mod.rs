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
//! How the two later games fit without changes to the arbiter:
//!
//! - **Rock'n'Roll Robot** (simultaneous bidding). Every seat thinks at once, so `to_act` returns
//!   [`ToAct::Seats`] with all seats while the hourglass runs, and the arbiter forwards any
//!   action a seat sends (`declare`) to [`Round::act`], which answers with the events to announce
//!   (`declared`). Time is part of the rules there (the hourglass, the no-declaration timeout),
//!   so a round reports its own next deadline through [`Round::deadline_ms`] and the arbiter
//!   calls [`Round::timeout`] when it passes; verification asks one seat at a time
//!   ([`ToAct::Seat`] with a [`Request`] of kind `prove`). Solo play is one seat.
//! - **Rollerball** (hidden hands, chance). [`Round::view`] is per seat, so a seat sees its own
//!   cards and only the count of the others'. Chance (the deal, card draws) comes from the
//!   round's own seed, which the arbiter passes in [`RoundSetup`] and records, so a recorded
//!   round replays exactly without the PRNG being part of the record's verification (the draws
//!   are recorded as effects of each action). Its simultaneous bid is the same `ToAct::Seats`
//!   pattern as the robots' declarations.
//!
//! Shared vocabulary lives here: seats, refusals, applied actions, outcomes with ties and
//! forfeits. Everything is plain data; nothing here does I/O.

pub mod outcome;
pub mod robots;
pub mod rolit;

use serde_json::Value;

pub use outcome::{Outcome, rank_by};

/// A bot's place in a match, numbered from 0 and fixed for the whole match.
pub type Seat = usize;

/// Who must act next in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToAct {
    /// One seat is asked for an action with a request of the given kind.
    Seat(Seat, Request),
    /// Several seats may act at once, each whenever it likes (simultaneous play).
    Seats(Vec<Seat>),
    /// The round is over; [`Round::outcome`] holds the result.
    Over,
}

/// The kind of request the arbiter sends to the seat that must act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// A `turn` message, answered by a `move`.
    Turn,
    /// A `prove` message, answered by a `solution` (Rock'n'Roll Robot).
    Prove,
}

/// An action refused by the rules. The state is unchanged; the reason is written for the bot's
/// author and is sent to the bot in an `illegal` message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
}

impl Refusal {
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// An action the rules accepted, as it is announced to every bot and recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The seat that acted.
    pub seat: Seat,
    /// The seat's colour, for games with colours.
    pub colour: Option<String>,
    /// The action in the game's canonical notation (Rolit: "d3").
    pub notation: Value,
    /// Game-specific effects, flattened into `played` and the record (Rolit: `flipped`).
    pub effects: serde_json::Map<String, Value>,
}

/// What a round needs to start: its index in the match and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundSetup {
    /// 0-based index of the round in its match.
    pub round: u32,
    /// The match seed (used for draws made once per match, such as Rolit's first colour).
    pub match_seed: u64,
    /// The round's own seed (chance inside the round; passed to bots in `start`).
    pub round_seed: u64,
}

/// The rules of one game with the options of one match. A factory of rounds.
pub trait Game: Send + Sync {
    /// The game's name on the command line and in records ("rolit").
    fn name(&self) -> &'static str;
    /// Bumped whenever a rule as implemented changes, so old records can be told apart.
    fn rules_version(&self) -> u32;
    /// The options of this match as JSON (sent in `hello`, kept in records).
    fn options(&self) -> Value;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// A fresh round.
    fn new_round(&self, setup: RoundSetup) -> Box<dyn Round>;
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
    /// The legal actions of the seat in canonical notation, where they can be listed. Never
    /// an empty list: `None` when they cannot be listed or the seat cannot act.
    fn legal_moves(&self, seat: Seat) -> Option<Vec<Value>>;
    /// Applies the action a seat sent (the `move` field of its message). On refusal the state
    /// is unchanged.
    fn play(&mut self, seat: Seat, action: &Value) -> Result<Applied, Refusal>;
    /// Applies a message of a game-specific type (`declare`, `solution`) sent by a seat at any
    /// time. Games without such messages refuse everything, which is the default.
    fn act(&mut self, _seat: Seat, kind: &str, _message: &Value) -> Result<Vec<Applied>, Refusal> {
        Err(Refusal::new(format!("unknown message type {kind:?}")))
    }
    /// Milliseconds from now at which the rules themselves act (an hourglass), if ever.
    fn deadline_ms(&self) -> Option<u64> {
        None
    }
    /// The rules' own deadline passed.
    fn timeout(&mut self) -> Vec<Applied> {
        Vec::new()
    }
    /// The action the arbiter plays for a forfeited seat. `pick` is a seeded random index
    /// source (`pick(n)` returns a value below `n`), so the fallback is reproducible.
    fn fallback(&self, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Value {
        let legal = self
            .legal_moves(seat)
            .expect("a game without listable moves must override Round::fallback");
        legal[pick(legal.len())].clone()
    }
    /// The result, once the round is over (before forfeits are applied; see [`Outcome`]).
    fn outcome(&self) -> Option<Outcome>;
    /// A text rendering for terminals (letters only; callers add colour).
    fn render(&self) -> String;
}

/// The games this build knows, by name.
pub const GAMES: &[&str] = &["rolit"];

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
