//! Balls (rules §5): an id that is never reused, a square and a state (the six faces of a ball
//! die: energised or not, times rubber-up, rubber-down or not rubber).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::square::Square;

/// The mode of a rubber ball, which holds for a whole ball phase.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Rubber {
    /// In the air: ignores cards, bases and workmen.
    Up,
    /// Behaves like a ball that is not rubber.
    Down,
}

impl Rubber {
    pub fn flip(self) -> Rubber {
        match self {
            Rubber::Up => Rubber::Down,
            Rubber::Down => Rubber::Up,
        }
    }
}

/// A ball in play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Ball {
    pub id: u32,
    pub at: Square,
    pub energised: bool,
    pub rubber: Option<Rubber>,
}

impl Ball {
    /// A normal ball.
    pub fn new(id: u32, at: Square) -> Ball {
        Ball {
            id,
            at,
            energised: false,
            rubber: None,
        }
    }

    /// Rubber-up in the current (or most recent) ball phase.
    pub fn is_up(&self) -> bool {
        self.rubber == Some(Rubber::Up)
    }
}
