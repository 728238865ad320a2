//! The games this build knows, one [`Entry`] each: everything the command line, tournament
//! files, verification and replays need from a game, so that none of them names one. Adding a
//! game is its rules' folder under `crates/rules/src/game/` (with a line in the catalog of rules), its folder here under `crates/games/src/game/` and one line in [`GAMES`].

use std::ops::RangeInclusive;
use std::sync::Arc;

use super::Game;
pub use crate::game::catalog::{Options, of_record, switch, whole};
use crate::record::RoundRecord;

/// What the rest of rollarena knows of a game.
pub struct Entry {
    /// The name on the command line, in tournament files and in records (`--game NAME`).
    pub name: &'static str,
    /// The game in a few words, for `--help`.
    pub title: &'static str,
    /// Rules version this build plays (records of another version are refused).
    pub rules_version: u32,
    /// The game's own flags on `match` and `check`. Each flag's id is the option it sets; a
    /// switch sets `true` (or `false` for a negation), any other flag its text as typed
    /// (`"10s"`, `"6"`).
    pub flags: &'static [Flag],
    /// The one parser of options: flags as above, a tournament file's `[options]`, or the
    /// options a record (or `hello`) holds, with `players`, into the game. The error says
    /// which option was wrong and how.
    pub build: fn(&Options) -> Result<Arc<dyn Game>, crate::Error>,
    /// The bot commands of the demo match for the given options (`players` absent when the
    /// user gave none), strongest first, and how many of them the demo seats by default
    /// (`--players N` takes the first N).
    pub demo: fn(&Options) -> (Demo, usize),
    /// A finished round in one line, the seats named by `names` (`match` prints one a round).
    pub summary: fn(&RoundRecord, &[String]) -> String,
    /// How many seats the game takes, for help texts.
    pub players: RangeInclusive<usize>,
    /// The game's own JSON Schemas, as (file name, schema), for `protocol/schemas/`: its
    /// state, and its messages and recorded values where it has its own. File names start
    /// with the game's name.
    pub schemas: fn() -> Vec<(&'static str, schemars::Schema)>,
    /// `rollarena perft --game NAME`, for a game that counts its move sequences.
    pub perft: Option<Perft>,
    /// How a recorded round is shown: the terminal replay and the game's part of the HTML
    /// viewer (its drawing script and the data it draws), each `None` for the generic one.
    pub show: crate::show::renderer::Renderer,
    /// The scenarios of `rollarena check --game NAME` (`crates/games/src/game/<game>/check*.rs`): what a
    /// bot of this game must get right before a contest, on the game's own rules.
    pub check: &'static dyn crate::check::GameCheck,
    /// The game's own built-in bots (`rollarena bot NAME`), strongest last; `random` (a
    /// uniform choice from `legal`) plays every game and is not listed, unless the game has
    /// its own (see [`super::bot::RANDOM`]).
    pub bots: &'static [super::bot::BuiltinBot],
    /// `rollarena solve` and `rollarena analyse`, for a game that can solve its positions and
    /// grade the moves of a record.
    pub analysis: Option<Analysis>,
}

/// Solving positions and grading recorded moves against the best play found.
pub struct Analysis {
    /// Flags of `solve` beyond the game's own (which position to solve), read like those.
    pub flags: &'static [Flag],
    /// Solves the position the game's options (with `players` when given) and the solve
    /// flags name, within the budget; the error says which option was wrong and how. `None`
    /// for a game that grades records but has no `solve`.
    pub solve: Option<Solve>,
    /// Grades every move of a recorded round, each position within the budget (exactly where
    /// the search finishes, an estimate elsewhere).
    pub grade:
        fn(&RoundRecord, &super::grade::Budget) -> Result<Vec<super::grade::Graded>, crate::Error>,
    /// How its grades read and count (units, accuracy).
    pub terms: super::grade::Terms,
    /// The arena grades its counted matches in the background for their match pages, whose
    /// words are a ball game's ("balls lost", "within one ball").
    pub arena: bool,
}

/// Solving a position within a budget ([`Analysis::solve`]).
pub type Solve = fn(&Options, &super::grade::Budget) -> Result<super::grade::Solved, crate::Error>;

/// One of a game's own command-line flags, as plain data (the command line makes its parser's
/// arguments from these, so the rules need no command-line crate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The option it sets.
    pub id: &'static str,
    /// Its long name, without the dashes.
    pub long: &'static str,
    /// What it takes.
    pub takes: Takes,
    /// Its help, one sentence or two, with its default in brackets.
    pub help: &'static str,
}

/// What a [`Flag`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// A value, shown in the help under this name (`N`, `DURATION`): the option is its text.
    Value(&'static str),
    /// Nothing: given, the option is `true`.
    Switch,
    /// Nothing: given, the option is `false` (a `--no-...` flag).
    Negation,
}

impl Flag {
    /// A flag that takes a value, shown as `value_name`.
    pub const fn value(
        id: &'static str,
        long: &'static str,
        value_name: &'static str,
        help: &'static str,
    ) -> Flag {
        Flag {
            id,
            long,
            takes: Takes::Value(value_name),
            help,
        }
    }
}

/// Counting a game's move sequences (perft) to check and time its move generator.
pub struct Perft {
    /// Flags of `perft` beyond the game's own (where to start from), read like those.
    pub flags: &'static [Flag],
    /// The position to count from, given the game's options (with `players` when given) and
    /// the perft flags; the error says which option was wrong and how.
    pub start: fn(&Options) -> Result<Box<dyn PerftFrom>, crate::Error>,
}

/// A position to count move sequences from.
pub trait PerftFrom {
    /// The number of move sequences of `depth` decisions.
    fn count(&self, depth: u32) -> u64;
}

/// Bot commands, strongest first.
pub type Demo = &'static [&'static str];

/// Every game, the default first.
pub static GAMES: &[&Entry] = &[
    &super::rolit::entry::ENTRY,
    &super::robots::entry::ENTRY,
    &super::goofspiel::entry::ENTRY,
    &super::rollerball::entry::ENTRY,
];

/// The default game's name (the first of [`GAMES`]).
pub fn default_name() -> &'static str {
    GAMES[0].name
}

/// The games' names, for help texts and errors (the catalog's, in the same order).
pub fn names() -> Vec<&'static str> {
    crate::game::catalog::names()
}

/// The games whose built-in bots include `name`, each with that bot.
pub fn bots_named(name: &str) -> Vec<(&'static Entry, &'static super::bot::BuiltinBot)> {
    GAMES
        .iter()
        .filter_map(|e| e.bots.iter().find(|b| b.name == name).map(|b| (*e, b)))
        .collect()
}

/// The entry of the game named `name` (the catalog's refusal when there is none).
pub fn find(name: &str) -> Result<&'static Entry, crate::Error> {
    let rules =
        crate::game::catalog::find(name).map_err(|e| crate::Error::UnknownGame(e.to_string()))?;
    Ok(GAMES
        .iter()
        .copied()
        .find(|e| e.name == rules.name)
        .expect("the registry lists every game of the catalog"))
}

/// A round in one line, for games with nothing better to say: each seat's points, best first,
/// with its colour where it has one.
pub fn points_line(record: &RoundRecord, names: &[String]) -> String {
    let result = &record.result;
    let mut seats: Vec<usize> = (0..names.len()).collect();
    seats.sort_by_key(|&s| (result.ranks[s], s));
    let parts: Vec<String> = seats
        .iter()
        .map(|&s| {
            let colour = record
                .colours
                .as_ref()
                .map(|c| format!(" ({})", c[s]))
                .unwrap_or_default();
            format!("{}{colour} {}", names[s], result.points[s])
        })
        .collect();
    format!(
        "round {}/{}: {}",
        record.round,
        record.rounds,
        parts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;

    #[test]
    fn the_registry_lists_the_catalog_of_rules_in_its_order() {
        let catalog: Vec<(&str, u32)> = crate::game::catalog::GAMES
            .iter()
            .map(|r| (r.name, r.rules_version))
            .collect();
        let registry: Vec<(&str, u32)> = GAMES.iter().map(|e| (e.name, e.rules_version)).collect();
        assert_eq!(registry, catalog);
    }

    #[test]
    fn names_and_flags_are_unique() {
        let mut names = names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len());
        let mut flags: Vec<String> = GAMES
            .iter()
            .flat_map(|e| e.flags.iter().chain(e.perft.iter().flat_map(|p| p.flags)))
            .map(|f| f.id.to_string())
            .collect();
        let n = flags.len();
        flags.sort();
        flags.dedup();
        assert_eq!(flags.len(), n, "two games share a flag id");
    }

    #[test]
    fn every_game_builds_from_its_demo_and_reads_back_its_options() {
        for entry in GAMES {
            let (demo, seats) = (entry.demo)(&Map::new());
            assert!(seats <= demo.len());
            let mut options = Map::new();
            options.insert("players".into(), seats.into());
            let game = (entry.build)(&options).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
            assert_eq!(game.name(), entry.name);
            assert_eq!(game.rules_version(), entry.rules_version);
            let canonical = game.options().as_object().cloned().unwrap();
            let again = (entry.build)(&canonical).unwrap();
            assert_eq!(again.options(), game.options(), "{}", entry.name);
        }
    }
}
