//! The contest a game's check plays, for the games whose checks build it the same way (the
//! card games): the game from the check's options for a number of seats (through a build
//! function of the game's own), the seat counts checked when none are given, the `hello` a
//! seat gets, and the options the report shows. Their checks differ in their scenarios, not in
//! this.

use std::sync::Arc;

use serde_json::Value;

use super::CheckConfig;
use super::conversation;
use crate::Error;
use crate::game::{Game, Seat};
use crate::wire::Hello;

/// The game of a check's options with this many seats; the error says which option the rules
/// refuse.
pub type Build = fn(&CheckConfig, usize) -> Result<Arc<dyn Game>, Error>;

/// A game's contest as its check builds it.
pub struct Contest {
    /// The game's name, as `hello` and the report give it.
    pub name: &'static str,
    /// The seat counts checked when the command line gives none.
    pub default_players: &'static [usize],
    /// How the game is built.
    pub build: Build,
}

impl Contest {
    /// Fills in the default seat counts, and checks that every count builds.
    pub fn prepare(&self, config: &mut CheckConfig) -> Result<(), Error> {
        if config.players.is_empty() {
            config.players = self.default_players.to_vec();
        }
        for &p in &config.players {
            (self.build)(config, p)?;
        }
        Ok(())
    }

    /// The game with `players` seats (its options were checked by [`Contest::prepare`]).
    pub fn game(&self, config: &CheckConfig, players: usize) -> Arc<dyn Game> {
        (self.build)(config, players).expect("options checked by prepare")
    }

    /// The `hello` of `seat` of `players`, for a match of `rounds`.
    pub fn hello(&self, config: &CheckConfig, players: usize, seat: Seat, rounds: u32) -> Hello {
        let options = self.game(config, players).options();
        conversation::hello(config, self.name, options, seat, players, rounds)
    }

    /// The check's settings for the report, with the game's canonical options.
    pub fn options(&self, config: &CheckConfig) -> Value {
        let options = (self.build)(config, config.players[0])
            .ok()
            .map(|g| g.options());
        config.report(self.name, options)
    }
}
