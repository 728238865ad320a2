//! The catalog of rules: each game's name, rules version and options parser, all that the
//! rules need to read a record back into its game (the verifier, a resumed match). The
//! registry above (`rollarena_games::game::registry`) adds everything else the other layers
//! know of a game; adding a game is a folder here and one line in [`GAMES`], and its entry
//! there.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Game;
use crate::Error;
use crate::record::RoundRecord;

/// A game's options as JSON, the form every source of options (flags, tournament files,
/// records) is read into.
pub type Options = Map<String, Value>;

/// A game's rules, as the catalog knows them.
#[derive(Clone, Copy)]
pub struct Rules {
    /// The name on the command line, in tournament files and in records (`--game NAME`).
    pub name: &'static str,
    /// Rules version this build plays (records of another version are refused).
    pub rules_version: u32,
    /// The one parser of options: command-line flags as text, a tournament file's
    /// `[options]`, or the options a record (or `hello`) holds, with `players`, into the game.
    /// The error says which option was wrong and how.
    pub build: fn(&Options) -> Result<Arc<dyn Game>, Error>,
}

/// Every game's rules, the default first (the registry lists the games in the same order).
pub static GAMES: &[&Rules] = &[
    &super::rolit::options::RULES,
    &super::robots::options::RULES,
    &super::goofspiel::options::RULES,
    &super::rollerball::options::RULES,
];

/// The games' names, for errors.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|r| r.name).collect()
}

/// The rules of the game named `name`.
pub fn find(name: &str) -> Result<&'static Rules, Error> {
    GAMES
        .iter()
        .copied()
        .find(|r| r.name == name)
        .ok_or_else(|| Error::UnknownGame {
            name: name.to_string(),
            known: names().join(", "),
        })
}

/// The game a record was played, with its options, checked against the rules this build
/// knows.
pub fn of_record(record: &RoundRecord) -> Result<Arc<dyn Game>, Error> {
    let entry = find(&record.game)?;
    if record.rules > entry.rules_version {
        return Err(Error::Unplayable(format!(
            "the record was played under {} rules version {}, newer than this build of \
             rollarena knows (versions 1 to {}; the record's arbiter is {}): it is not \
             tampered with, but only a rollarena that knows version {} can verify or replay it",
            entry.name, record.rules, entry.rules_version, record.arbiter, record.rules
        )));
    }
    let options = record.options.as_object().cloned().unwrap_or_default();
    let game = (entry.build)(&options)?;
    let game = if record.rules == entry.rules_version {
        game
    } else {
        game.under_rules(record.rules).ok_or_else(|| {
            Error::Unplayable(format!(
                "{} rules version {} was never released (this build knows versions 1 to {})",
                entry.name, record.rules, entry.rules_version
            ))
        })?
    };
    if game.options() != record.options {
        return Err(Error::Options(format!(
            "the options {} are not the canonical {}",
            super::short_json(&record.options),
            game.options()
        )));
    }
    Ok(game)
}

/// Reads an option that is a whole number, given as a number or as text (a flag).
pub fn whole(key: &str, value: &Value) -> Result<u64, Error> {
    match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| Error::Options(format!("{key}: {value} is not a whole number")))
}

/// Reads an option that is true or false.
pub fn switch(key: &str, value: &Value) -> Result<bool, Error> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        _ => Err(Error::Options(format!(
            "{key}: {value} is not true or false"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{find, whole};
    use crate::Error;

    /// The catalog's refusals, by kind, with the texts users have always read.
    #[test]
    fn refusals_say_what_is_wrong() {
        let unknown = find("chess").err().expect("no such game");
        assert!(matches!(unknown, Error::UnknownGame { .. }));
        assert!(
            unknown
                .to_string()
                .starts_with("there is no game \"chess\": this build plays "),
            "{unknown}"
        );
        let options = whole("size", &json!("big")).unwrap_err();
        assert!(matches!(options, Error::Options(_)));
        assert_eq!(options.to_string(), "size: \"big\" is not a whole number");
    }
}
