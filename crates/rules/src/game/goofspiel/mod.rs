//! Goofspiel, the game of sealed bids for a shuffled prize deck (protocol/games/goofspiel.md):
//! the worked example of a game added behind the boundary. Everything it needs is here and in
//! its registry entry: the rules with their options ([`Goofspiel`]), one round as a state
//! machine ([`GoofspielRound`]), its state as each seat sees it ([`view`]), and its text view.
//!
//! Every player holds the cards 1 to N; the prize deck holds 1 to N too, shuffled from the
//! round's chance seed (one-way from the match seed: no bot can compute it). Each turn the top
//! prize is shown and every seat bids a card at once ([`crate::game::ToAct::Each`]): a bid is
//! announced to the others as `"sealed"` until the last one is in, then all are revealed. The
//! highest bid takes the prize; a tie for highest discards it. The score is the prizes' sum.

pub mod options;
mod round;
pub mod view;

use serde_json::{Map, Value, json};

use crate::Error;
use crate::game::{Game, Round, RoundSetup};

pub use round::GoofspielRound;

/// Bumped whenever a rule as implemented changes.
pub const RULES_VERSION: u32 = 1;

/// The rules of a Goofspiel match: its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goofspiel {
    /// Seats, 2 to 4.
    pub players: usize,
    /// Cards per hand and in the prize deck (1 to N), 1 to 13.
    pub cards: u8,
}

impl Goofspiel {
    /// Checks the options.
    pub fn new(players: usize, cards: u8) -> Result<Goofspiel, Error> {
        if !(2..=4).contains(&players) {
            return Err(Error::Options(format!(
                "Goofspiel is for 2 to 4 players, not {players}"
            )));
        }
        if !(1..=13).contains(&cards) {
            return Err(Error::Options(format!(
                "Goofspiel is played with 1 to 13 cards per suit, not {cards}"
            )));
        }
        Ok(Goofspiel { players, cards })
    }

    /// The one parser of options, whether they come from the command line, a tournament file
    /// or a record: `players` (2 to 4) and `cards` (1 to 13, default 13); any other key is an
    /// error naming it.
    pub fn from_options(options: &Map<String, Value>) -> Result<Goofspiel, Error> {
        let mut players = None;
        let mut cards = 13u8;
        for (key, value) in options {
            let n = value.as_u64().ok_or_else(|| {
                Error::Options(format!(
                    "the Goofspiel option {key} must be a whole number, not {value}"
                ))
            })?;
            match key.as_str() {
                "players" => players = Some(n as usize),
                "cards" => cards = n.min(255) as u8,
                other => {
                    return Err(Error::Options(format!(
                        "Goofspiel has no option {other:?} (it takes players and cards)"
                    )));
                }
            }
        }
        Goofspiel::new(players.unwrap_or(2), cards)
    }
}

impl Game for Goofspiel {
    fn name(&self) -> &'static str {
        "goofspiel"
    }
    fn rules_version(&self) -> u32 {
        RULES_VERSION
    }
    fn options(&self) -> Value {
        json!({"players": self.players, "cards": self.cards})
    }
    fn seats(&self) -> usize {
        self.players
    }
    fn hidden_information(&self) -> bool {
        true
    }
    fn new_round(&self, setup: RoundSetup) -> Box<dyn Round> {
        Box::new(GoofspielRound::deal(*self, setup.chance_seed))
    }
}
