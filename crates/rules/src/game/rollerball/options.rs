//! Rollerball's options (players and the turn limit) read into the game: the one parser every source of options
//! goes through (command-line flags as text, a tournament file's `[options]`, a record's
//! canonical options), and the game's line in the catalog of rules.

use std::sync::Arc;

use super::arena::{RULES_VERSION, RollerballGame};
use crate::Error;
use crate::game::Game;
use crate::game::catalog::{Options, Rules, whole};

/// Rollerball in the catalog of rules.
pub const RULES: Rules = Rules {
    name: "rollerball",
    rules_version: RULES_VERSION,
    build,
};

/// `players` (2 to 6, default 4) and `turn_limit` (default 360).
pub fn build(options: &Options) -> Result<Arc<dyn Game>, Error> {
    let mut players = 4;
    let mut turn_limit = u64::from(RollerballGame::default_turn_limit());
    for (key, value) in options {
        match key.as_str() {
            "players" => players = whole(key, value)?,
            "turn_limit" => turn_limit = whole(key, value)?,
            other => {
                return Err(Error::Options(format!(
                    "rollerball has no option {other:?} (it takes players and turn_limit)"
                )));
            }
        }
    }
    let turn_limit =
        u32::try_from(turn_limit).map_err(|_| Error::Options("turn_limit is too large".into()))?;
    Ok(Arc::new(RollerballGame::new(players as usize, turn_limit)?))
}
