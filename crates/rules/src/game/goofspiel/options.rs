//! Goofspiel's options (the cards and players) read into the game: the one parser every source of options
//! goes through (command-line flags as text, a tournament file's `[options]`, a record's
//! canonical options), and the game's line in the catalog of rules.

use std::sync::Arc;

use serde_json::Value;

use super::{Goofspiel, RULES_VERSION};
use crate::Error;
use crate::game::Game;
use crate::game::catalog::{Options, Rules};

/// Goofspiel in the catalog of rules.
pub const RULES: Rules = Rules {
    name: "goofspiel",
    rules_version: RULES_VERSION,
    build,
};

/// The game the options name; the error says which option was wrong and how.
pub fn build(options: &Options) -> Result<Arc<dyn Game>, Error> {
    let mut options = options.clone();
    if let Some(Value::String(s)) = options.get("cards") {
        let n: u64 = s
            .trim()
            .parse()
            .map_err(|_| Error::Options(format!("cards: {s:?} is not a whole number")))?;
        options.insert("cards".into(), n.into());
    }
    Ok(Arc::new(Goofspiel::from_options(&options)?))
}
