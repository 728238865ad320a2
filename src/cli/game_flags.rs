//! The games' own flags on a subcommand (`match --size`, `perft --first`): added from the
//! registry under a heading per game, read back as options, and refused with the game they
//! belong to when given for another game. Written once for every subcommand that takes them.

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Map, Value};

use super::UsageError;
use crate::game::registry::{Entry, Flag, GAMES, Takes};

/// Which of a game's flags a subcommand takes.
pub type FlagsOf = fn(&Entry) -> Vec<Flag>;

/// The parser's argument for a game's flag.
fn arg(flag: &Flag) -> Arg {
    let arg = Arg::new(flag.id).long(flag.long).help(flag.help);
    match flag.takes {
        Takes::Value(name) => arg.value_name(name),
        Takes::Switch => arg.action(ArgAction::SetTrue),
        Takes::Negation => arg.action(ArgAction::SetFalse),
    }
}

/// The game flags a command line gave: (game, option, value).
#[derive(Clone, Debug, Default)]
pub struct GameFlags(Vec<(&'static str, String, Value)>);

/// Adds every game's flags (as `flags_of` picks them) to `command`, under a heading per game.
pub fn add(mut command: Command, flags_of: FlagsOf) -> Command {
    for entry in GAMES {
        let flags = flags_of(entry);
        if flags.is_empty() {
            continue;
        }
        command = command
            // Once per run, for clap's 'static headings.
            .next_help_heading(&*Box::leak(
                format!("--game {}: {}", entry.name, entry.title).into_boxed_str(),
            ))
            .args(flags.iter().map(arg));
    }
    command
}

/// The game flags `found` holds: a switch as true or false, any other flag as the text typed.
pub fn read(found: &ArgMatches, flags_of: FlagsOf) -> GameFlags {
    let mut given = Vec::new();
    for entry in GAMES {
        for flag in flags_of(entry) {
            let id = flag.id;
            if found.value_source(id) != Some(ValueSource::CommandLine) {
                continue;
            }
            let value = match flag.takes {
                Takes::Value(_) => {
                    Value::String(found.get_one::<String>(id).cloned().unwrap_or_default())
                }
                Takes::Switch | Takes::Negation => Value::Bool(found.get_flag(id)),
            };
            given.push((entry.name, id.to_string(), value));
        }
    }
    GameFlags(given)
}

impl GameFlags {
    /// The options these flags give `entry`'s game; another game's flag is an error naming the
    /// game it belongs to.
    pub fn options_for(&self, entry: &Entry) -> Result<Map<String, Value>, UsageError> {
        let mut options = Map::new();
        for (game, id, value) in &self.0 {
            if *game != entry.name {
                let long = id.replace('_', "-");
                let flag = if value == &Value::Bool(false) {
                    format!("no-{long}")
                } else {
                    long
                };
                return Err(UsageError(format!(
                    "--{flag} is an option of --game {game}, not of {}",
                    entry.name
                )));
            }
            options.insert(id.clone(), value.clone());
        }
        Ok(options)
    }
}

/// The games' player counts, for a `--players` help text: "NAME 2 to 4, ...".
pub fn player_ranges() -> String {
    GAMES
        .iter()
        .map(|e| format!("{} {} to {}", e.name, e.players.start(), e.players.end()))
        .collect::<Vec<_>>()
        .join(", ")
}
