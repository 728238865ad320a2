//! Rock'n'Roll Robot's own messages on the wire, beside protocol v1's shared ones
//! (`crates/rules/src/wire.rs`): the round announces `declared`, `passed` and `verified` and asks for a
//! demonstration with `prove` (a request of its own kind); bots send `declare`, `pass` and
//! `solution`, which reach the round as the game's actions. The arbiter encodes them from the
//! round's [`crate::game::Applied`]; these types are their documentation and the source of
//! `protocol/schemas/robots-to-bot.json` and `robots-from-bot.json`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::Seat;

/// A message of this game from the arbiter to a bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    Prove(Prove),
    Declared(Declared),
    Passed(Passed),
    Verified(Verified),
}

/// A message of this game from a bot to the arbiter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    Declare(Declare),
    Pass(Pass),
    Solution(Solution),
}

/// The seat must now show its moves; answered by `solution` within `time_ms`. Missing it is
/// judged by the rules (a failed demonstration), not a forfeit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Prove {
    /// Increases with every request of the match (`turn` and `prove` share the counter).
    pub turn_id: u64,
    /// The state as this bot sees it (it says what is to be proved): a
    /// [`StateView`](super::StateView), `robots-state.json`, like every state the game sends.
    pub state: Value,
    /// Time left for the answer, in ms.
    pub time_ms: u64,
}

/// A seat declared a number of moves (to every live bot, the declarer included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Declared {
    pub seat: Seat,
    /// The number of moves declared.
    pub moves: u32,
    /// The round time of the declaration (ms since `start`).
    pub at_ms: f64,
    /// When the hourglass runs out (round time, ms), while declarations stay open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourglass_ends_ms: Option<f64>,
    /// Always false: only bots declare.
    pub by_arbiter: bool,
}

/// A seat is done declaring for this token (to every live bot, the seat included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Passed {
    pub seat: Seat,
    /// The round time of the pass (ms since `start`).
    pub at_ms: f64,
    /// When the hourglass runs out (round time, ms), once it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourglass_ends_ms: Option<f64>,
    /// Always false: only bots pass.
    pub by_arbiter: bool,
}

/// A seat's demonstration was checked (to every live bot).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Verified {
    pub seat: Seat,
    /// The moves shown, as the seat sent them; null when it sent none in time.
    pub moves: Value,
    /// The declaration demonstrated (a number of moves).
    pub declared: u32,
    /// True when the robot reached the target within the declaration: the seat wins the token.
    pub ok: bool,
    /// Why the demonstration failed (absent when it succeeded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// On success: where every robot now stands, robot to cell (`{"red": "a9", ...}`); they stay
    /// there for the next token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robots: Option<BTreeMap<String, String>>,
    /// The round time of the answer, or of the deadline that closed the demonstration.
    pub at_ms: f64,
    /// True when the arbiter closed the demonstration because its time ran out.
    pub by_arbiter: bool,
}

/// A number of moves the bot says it can reach the target in; may be sent at any time while
/// declarations are open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Declare {
    pub moves: u32,
}

/// The bot will not declare (again) for this token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Pass {}

/// Answer to `prove`: the moves that demonstrate the declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Solution {
    /// The moves in order: `{"robot": "red", "dir": "up"}`.
    pub moves: Vec<Value>,
    /// The `turn_id` of the `prove` being answered (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<u64>,
}
