//! The record format: JSON Lines, one round per line (documented field by field in
//! `protocol/RECORD.md`, schema in `protocol/schemas/record.json`).
//!
//! A line is a complete, self-describing [`RoundRecord`]: it names the game, its rules version
//! and options, the match, the seats and their commands, every move with its timing and
//! refused attempts, every fault with its evidence, and the result. Records hold every move, so
//! verifying one never depends on the PRNG. The writer appends each line with one write and
//! syncs it; the reader ignores a torn last line. A round's result ([`outcome`]: points, ranks with
//! ties, the share of the win, the forfeit ranking) is plain data that games produce and the
//! record keeps.

mod decode;
pub mod fault;
pub mod notes;
pub mod outcome;
pub mod reader;
pub mod writer;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::duration::round_ms;
pub use fault::{ExitInfo, Fault, FaultKind, Forfeit, ForfeitKind, Refused};
pub use outcome::{Outcome, RoundResult, rank_by};
pub use reader::{ReadError, read_records};
pub use writer::RecordWriter;

/// Version of the record format (`format`).
pub const FORMAT_VERSION: u32 = 1;

/// One round, as one line of a record file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RoundRecord {
    /// Record format version (1).
    pub format: u32,
    /// The arbiter's version.
    pub arbiter: String,
    /// The game's name.
    pub game: String,
    /// The game's rules version.
    pub rules: u32,
    /// The game's options.
    pub options: Value,
    /// The match this round belongs to.
    #[serde(rename = "match")]
    pub match_id: String,
    /// Index of the table in a tournament, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    /// Round number in the match, from 1.
    pub round: u32,
    /// Rounds in the match.
    pub rounds: u32,
    /// The match seed.
    pub match_seed: u64,
    /// The round's seed (derived from the match seed, table and round).
    pub seed: u64,
    /// Games with hidden information: the seed of the round's deal when an openings file set
    /// it (the round's chance seed, instead of one derived from the match seed). Absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<u64>,
    /// The rules of play the arbiter enforced.
    pub settings: Settings,
    /// Seats in seat order.
    pub seats: Vec<SeatRecord>,
    /// Each seat's colour in this round, in seat order (games with colours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colours: Option<Vec<String>>,
    /// The seat that moved first.
    pub first: usize,
    /// The match's request counter as the round began (`turn_id`s run on across the rounds of
    /// a match, protocol/SPEC.md §3): the round's first request carries this number plus one.
    /// Records written before it was kept lack it: a verifier then counts on from the
    /// match's previous round in the file, or from 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id_from: Option<u64>,
    /// What the round started from when the game carries state from round to round
    /// (where pieces stand, tokens won, what is left to draw): the previous round's
    /// end, so that each line replays on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry: Option<Value>,
    /// The game's rules ended the match with this round, before `rounds` were played (a
    /// player reached the tokens needed). Serialized only when true.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ends_match: bool,
    /// Every move in order.
    #[serde(deserialize_with = "decode::moves")]
    pub moves: Vec<MoveRecord>,
    /// Seats that forfeited this round, with evidence.
    pub forfeits: Vec<Forfeit>,
    /// Faults that did not forfeit (unasked lines, restarts), with evidence.
    pub faults: Vec<Fault>,
    /// `log` messages the bots sent, in order.
    pub logs: Vec<LogRecord>,
    /// The last bytes each seat's bot wrote to stderr by the end of the round, in seat order.
    pub stderr: Vec<String>,
    /// The result.
    pub result: Outcome,
    /// The final state, as a spectator sees it.
    pub board: Value,
    /// When the round started and ended (RFC 3339, UTC).
    pub started: String,
    pub ended: String,
}

/// The rules of play a round was played under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Settings {
    pub move_ms: u64,
    pub startup_ms: u64,
    pub margin_ms: u64,
    /// Refused attempts allowed per move beyond the first.
    pub retries: u32,
    /// Idle bots were frozen between their turns.
    pub freeze: bool,
    /// Legal moves were sent in `turn`.
    pub legal: bool,
    /// Each seat's time control, in seat order, where any seat had more than the per-move cap
    /// `move_ms` (a bank, an increment, a first-move allowance, a cap of its own). Absent: every
    /// seat had `move_ms` a move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<crate::clock::Tc>>,
}

impl Settings {
    /// Each of `seats` seats' time control.
    pub fn tcs(&self, seats: usize) -> Vec<crate::clock::Tc> {
        match &self.clocks {
            Some(c) => c.clone(),
            None => vec![crate::clock::Tc::per_move(self.move_ms); seats],
        }
    }
}

/// A seat and the bot that sat in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatRecord {
    /// The seat's name as the organiser gave it.
    pub name: String,
    /// The command line that started the bot.
    pub command: String,
    /// The bot's own name, from `ready` (absent if it never said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_author: Option<String>,
    /// SHA-256 of the files the command names (its program, and arguments that are files).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, String>,
}

// Read by a hand-written `Deserialize` (`decode.rs`): the derived one buffers every move
// through serde's `flatten`.
/// One action: a move answering `turn`, or a game-specific message the rules accepted
/// (`declare`, `solution`).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MoveRecord {
    /// Action number in the round, from 1.
    pub ply: u32,
    /// The message type that was applied when it is not `move` (`declare`, `solution`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub seat: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// The move in canonical notation; for other kinds, the message's own fields
    /// (`{"moves": 5}`).
    #[serde(rename = "move")]
    pub mv: Value,
    /// The game's own effects of the move (its rules document lists them).
    #[serde(flatten)]
    pub effects: BTreeMap<String, Value>,
    /// Wall time from the request to the accepted answer, in ms (0 for the arbiter's moves;
    /// for simultaneous play, from the round's start, as `at_ms`).
    pub ms: f64,
    /// Round time of the action (ms since `start` was sent), in games whose rules run on a
    /// clock (simultaneous play): what a replay hands back to the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<f64>,
    /// CPU time the bot used for the move (simultaneous play: since the round started), in ms,
    /// where the OS tells: its whole process tree
    /// from its cgroup (exact) where the arbiter can make one, else the bot process from /proc
    /// (in clock ticks, usually 10 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
    /// What was left of the seat's time bank after this move, increment included, in ms to the
    /// µs (a bot's moves, in matches with a bank): the clock a replay re-judges flag falls by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<f64>,
    /// Attempts refused before this move, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refused>,
    /// The arbiter played this move for a forfeited seat, or as part of the round's opening.
    pub by_arbiter: bool,
    /// The arbiter played this move as part of a set opening (tournaments with
    /// `--opening-plies`), before any bot was asked. Serialized only when true.
    #[serde(default, skip_serializing_if = "is_false")]
    pub opening: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A `log` message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LogRecord {
    pub seat: usize,
    /// The number of moves played when the arbiter read it.
    pub ply: u32,
    pub text: String,
}
