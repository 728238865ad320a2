//! Rock'n'Roll Robot's options (players, diagonals, black, the hourglass and proving times,
//! the CPU tie-break) read into the game: the one parser every source of options goes through (command-line flags as text, a tournament file's `[options]`, a record's
//! canonical options), and the game's line in the catalog of rules.

use std::sync::Arc;

use serde_json::Value;

use super::{RULES_VERSION, Robots, Tiebreak};
use crate::Error;
use crate::game::Game;
use crate::game::catalog::{Options, Rules, switch, whole};

/// Rock'n'Roll Robot in the catalog of rules.
pub const RULES: Rules = Rules {
    name: "robots",
    rules_version: RULES_VERSION,
    build,
};

/// The options as a user gives them (`diagonals`, `black`, `hourglass`, `first_declaration`,
/// `prove_time` as durations such as "60s", `cpu_tiebreak`), or the canonical ones of a record
/// (`hourglass_ms`, ..., `tiebreak`, `solver_nodes`), with `players`.
pub fn build(options: &Options) -> Result<Arc<dyn Game>, Error> {
    if options.contains_key("hourglass_ms") {
        return Ok(Arc::new(Robots::from_options(&Value::Object(
            options.clone(),
        ))?));
    }
    let players = match options.get("players") {
        Some(v) => whole("players", v)? as usize,
        None => 2,
    };
    let mut g = Robots::new(players)?;
    for (key, value) in options {
        let ms = || -> Result<u64, Error> {
            let refused = |text: String| Error::Options(text);
            let text = value
                .as_str()
                .ok_or_else(|| refused(format!("{key}: give a duration such as \"60s\"")))?;
            let d = crate::duration::parse_duration(text)
                .map_err(|e| refused(format!("{key}: {e}")))?;
            if d.is_zero() {
                return Err(refused(format!("{key} must be longer than 0")));
            }
            Ok(d.as_millis() as u64)
        };
        match key.as_str() {
            "players" => {}
            "diagonals" => g.diagonals = switch(key, value)?,
            "black" => g.black = switch(key, value)?,
            "hourglass" => g.hourglass_ms = ms()?,
            "first_declaration" => g.first_declaration_ms = ms()?,
            "prove_time" => g.prove_ms = ms()?,
            "cpu_tiebreak" => {
                if switch(key, value)? {
                    g.tiebreak = Tiebreak::Cpu;
                }
            }
            other => {
                return Err(Error::Options(format!(
                    "robots has no option {other:?} (it takes players, diagonals, black, \
                     hourglass, first_declaration, prove_time and cpu_tiebreak)"
                )));
            }
        }
    }
    Ok(Arc::new(g))
}
