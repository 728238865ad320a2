//! The `[options]` of a Rock'n'Roll Robot tournament file, read into the game's rules with the
//! same names and checks as `match --game robots`'s flags.

use serde_json::Value;

use crate::duration::parse_duration;
use crate::game::robots::{Robots, Tiebreak};

/// The options a robots tournament file may give, for the error message.
const KNOWN: &str = "diagonals, black, hourglass, first_declaration, prove_time, cpu_tiebreak";

/// Reads `[options]` for `players` seats. The error is the message for the organiser.
pub fn robots_options(opts: Option<&toml::Table>, players: usize) -> Result<Robots, String> {
    let mut g = Robots::new(players)?;
    for (key, value) in opts.into_iter().flatten() {
        let flag = || {
            value
                .as_bool()
                .ok_or_else(|| format!("options.{key}: {value} is not true or false"))
        };
        let ms = || -> Result<u64, String> {
            let text = value
                .as_str()
                .ok_or_else(|| format!("options.{key}: give a duration such as \"60s\""))?;
            let d = parse_duration(text).map_err(|e| format!("options.{key}: {e}"))?;
            if d.is_zero() {
                return Err(format!("options.{key}: must be longer than 0"));
            }
            Ok(d.as_millis() as u64)
        };
        match key.as_str() {
            "diagonals" => g.diagonals = flag()?,
            "black" => g.black = flag()?,
            "hourglass" => g.hourglass_ms = ms()?,
            "first_declaration" => g.first_declaration_ms = ms()?,
            "prove_time" => g.prove_ms = ms()?,
            "cpu_tiebreak" => {
                if flag()? {
                    g.tiebreak = Tiebreak::Cpu;
                }
            }
            other => {
                return Err(format!(
                    "options: unknown option {other:?} for robots (it has: {KNOWN})"
                ));
            }
        }
    }
    Ok(g)
}

/// The rules a resolved tournament's options name.
pub fn robots_game(options: &Value) -> Result<Robots, String> {
    Robots::from_options(options)
}
