//! Rollerball v4 (rules `rollerball-v4-hr2`) as a pure library: the board and its tracks, the
//! deck, balls, the ball phase, moves in canonical notation, legal-move generation, the round's
//! state machine with its public events and record-only secrets, the per-seat and spectator
//! views, and chance. The rules for bot authors are in `protocol/games/rollerball.md`.
//!
//! Nothing here knows the arbiter: a round is a [`Rollerball`] driven by [`Rollerball::to_act`],
//! [`Rollerball::legal`], [`Move::parse`] and [`Rollerball::apply`], which returns an
//! [`Applied`] carrying the canonical move, its announced form, the public [`Event`]s and the
//! [`Secret`]s only the record keeps.

pub mod arena;
pub mod ball;
pub mod ball_phase;
pub mod board;
pub mod card;
pub mod chance;
pub mod events;
pub mod legal;
pub mod moves;
pub mod options;
pub mod perft;
pub mod square;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use arena::{RollerballGame, RollerballRound};
pub use ball::{Ball, Rubber};
pub use board::Board;
pub use card::{Card, Cards, Placed};
pub use events::{Event, Secret};
pub use moves::{Keep, Move, MoveError};
pub use perft::{Perft, perft};
pub use square::Square;
pub use state::{Applied, COLOURS, Ending, Phase, Rollerball, SetupError, TURN_LIMIT, ToAct};
pub use view::{RULES, View};
