//! Unit tests of the engine: the board geometry of §3 against the rules' own lists, and every
//! worked example of §12 step by step (with the state example of §11.2).
mod board;
mod collisions;
mod game;
mod race;

use super::square::Square;

/// A square by name, for tests.
pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("not a square: {name}"))
}

/// Square names separated by spaces.
pub fn sqs(names: &str) -> Vec<Square> {
    names.split_whitespace().map(sq).collect()
}
