//! The state a bot receives in `start` and `prove` (and the record's final `board`), typed so
//! that its JSON Schema (`protocol/schemas/robots-state.json`) comes from the same type the
//! round writes, and so that readers (replays, the checker, bots) read fields, not string keys.
//! Documented in `protocol/games/robots.md`, "The state".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cell::Cell;
use super::robot::Positions;
use super::token::Token;
use super::view::BoardView;
use crate::game::Seat;

/// One token's state as a seat (or, with `winner` and `optimal`, the record) sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StateView {
    /// The assembled board, the same for the whole match.
    pub board: BoardView,
    /// Where each robot stands (the start while declarations are open; after the moves that
    /// won the token in the final state).
    pub robots: Positions,
    /// The token drawn.
    pub token: Token,
    /// The token's target cell (null only for a board without it).
    pub target: Option<Cell>,
    pub phase: Phase,
    /// Each seat's current declaration, in the order made; a forfeited seat's is dropped.
    pub declarations: Vec<Declaration>,
    /// Tokens each seat held when this token was drawn, in seat order.
    pub tokens: Vec<usize>,
    /// Tokens face down when this one was drawn (this one excluded).
    pub pile: usize,
    /// The seats that passed (done declaring), in seat order; absent while nobody has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<Vec<Seat>>,
    /// When the hourglass runs out (round time, ms), while it runs and declarations are open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourglass_ends_ms: Option<f64>,
    /// The declaration being verified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proving: Option<Proving>,
    /// The seat receiving the state (absent in the record's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Seat>,
    /// Only in the record's final state: who won the token, and the solver's answer.
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// Where a token stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Declarations are open.
    Thinking,
    /// Declarations are being demonstrated, shortest first.
    Verifying,
    /// The token is decided.
    Over,
}

/// A seat's current declaration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Declaration {
    pub seat: Seat,
    /// The number of moves declared.
    pub moves: u32,
    /// The round time of the declaration, in ms.
    pub at_ms: f64,
}

/// The declaration under verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Proving {
    pub seat: Seat,
    pub moves: u32,
}

/// The end of a token, in the record's final state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// The seat that won the token, or null.
    pub winner: Option<Seat>,
    /// The arbiter's solver on the token from the start position: `{"moves": n, "solution":
    /// [...]}`, `{"impossible": true}` or `{"gave_up": true, "searched": n, "at_least": n}`.
    pub optimal: Value,
}
