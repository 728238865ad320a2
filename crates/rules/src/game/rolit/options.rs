//! Rolit's options (size and players) read into the game: the one parser every source of options
//! goes through (command-line flags as text, a tournament file's `[options]`, a record's
//! canonical options), and the game's line in the catalog of rules.

use std::sync::Arc;

use super::{RULES_VERSION, Rolit};
use crate::Error;
use crate::game::Game;
use crate::game::catalog::{Options, Rules, whole};

/// Rolit in the catalog of rules.
pub const RULES: Rules = Rules {
    name: "rolit",
    rules_version: RULES_VERSION,
    build,
};

/// `size` (8, 6 or 4; default 8) and `players` (2 to 4; default 4).
pub fn build(options: &Options) -> Result<Arc<dyn Game>, Error> {
    let mut size = 8;
    let mut players = 4;
    for (key, value) in options {
        match key.as_str() {
            "size" => size = whole(key, value)?,
            "players" => players = whole(key, value)?,
            other => {
                return Err(Error::Options(format!(
                    "rolit has no option {other:?} (it takes size and players)"
                )));
            }
        }
    }
    let game =
        Rolit::new(size.min(255) as u8, players as usize).map_err(|e| Error::Options(e.0))?;
    Ok(Arc::new(game))
}
