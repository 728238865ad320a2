//! The tournament file: TOML parsed into a raw form that keeps every value's place in the
//! file, then validated into a [`Tournament`], the resolved plain value everything else uses.
//!
//! Errors name the file, the line and the column and say what is wrong ("players: 5 is not 2,
//! 3 or 4"), for syntax errors (the `toml` crate's spans) as for values that parse but make no
//! sense (our own checks on `Spanned` values). Unknown keys are errors: a misspelt `rounds`
//! must not silently become the default.
//!
//! Relative paths in the file (`output`, a bot's `cwd`) are relative to the file's directory,
//! so a tournament runs the same from anywhere. The seed, when neither the file nor the
//! command line gives one, is drawn from the operating system's random source (never derived
//! from the file, which others may have seen: in a game with hidden information it decides
//! every deal) and kept in the output directory's private `tournament.json`, so a resumed run
//! plays on with it and the report names it to reproduce the run.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::sandbox::{Level, ResourceLimits};

mod checks;
mod raw;

use raw::{Checker, RawFile};

/// A schedule kind with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ScheduleSpec {
    /// Every combination of `players` bots, one table each.
    RoundRobin,
    /// Each challenger against every combination of `players - 1` bots of the field.
    Gauntlet { challengers: Vec<String> },
    /// Seeded tables in which each bot plays `tables_per_bot` tables and pairs meet about
    /// equally often.
    Random { tables_per_bot: u32 },
    /// 2-player Swiss pairing, round by round from the results so far.
    Swiss { swiss_rounds: u32 },
    /// A knockout bracket, phase by phase from the results ([`crate::tournament::knockout`]).
    Knockout {
        elimination: crate::tournament::knockout::Elimination,
        /// Bots of a table that go through.
        advance: usize,
        tiebreak: crate::tournament::knockout::Tiebreak,
        /// The bots' names in seed order, best first.
        seeds: Vec<String>,
    },
}

impl ScheduleSpec {
    pub fn name(&self) -> &'static str {
        match self {
            ScheduleSpec::RoundRobin => "round-robin",
            ScheduleSpec::Gauntlet { .. } => "gauntlet",
            ScheduleSpec::Random { .. } => "random",
            ScheduleSpec::Swiss { .. } => "swiss",
            ScheduleSpec::Knockout { .. } => "knockout",
        }
    }
}

/// Isolation settings shared by every bot unless a bot says otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SandboxConfig {
    pub level: Level,
    /// The one user every bot runs as (root only); `None`: a uid of `uids` per seat.
    pub user: Option<String>,
    /// The uids seats are given one each when the arbiter is root (`FIRST-LAST`).
    pub uids: String,
    pub limits: ResourceLimits,
}

/// One bot of the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotConfig {
    /// Unique name: the standings' key.
    pub name: String,
    /// The command line (split like a shell would; no shell is started).
    pub command: String,
    /// Working directory (absolute once resolved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    /// Resource limits of this bot, where they differ from the sandbox's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<ResourceLimits>,
    /// This bot's own bank and increment (`tc`), in place of the event's: a handicap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<crate::clock::Bank>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// A resolved tournament: everything that decides its results. Serialised into
/// `tournament.json`; its hash is the tournament's identity (see [`Tournament::id`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    pub name: String,
    pub game: String,
    /// The game's options, as its registry entry reads them.
    pub options: Value,
    /// Bots per table.
    pub players: usize,
    /// Rounds per table: a multiple of `players`, so seats and the first move rotate fully.
    pub rounds: u32,
    pub schedule: ScheduleSpec,
    /// Round robin and gauntlet: the whole schedule this many times (new seeds each time).
    pub repeat: u32,
    pub seed: u64,
    pub time_ms: u64,
    /// Each seat's bank per round and its increment (`tc = "2m+100ms"`); none: `time_ms` a
    /// move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<crate::clock::Bank>,
    /// The allowance of each seat's first answer of a round (`first_move`; 0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_move_ms: u64,
    pub startup_ms: u64,
    pub margin_ms: u64,
    pub retries: u32,
    /// Plies of seeded random opening played by the arbiter at the start of each rotation
    /// cycle of a table (0: none).
    pub opening_plies: u32,
    pub freeze: bool,
    pub hide_legal: bool,
    /// Withdraw a bot from a table after it lost this many rounds of it in a row by a crash or
    /// at start-up (0: keep restarting it, `recover`).
    #[serde(default)]
    pub withdraw_after: u32,
    pub sandbox: SandboxConfig,
    pub bots: Vec<BotConfig>,
    /// A sequential test that stops a two-bot event when it decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<super::sprt::Sprt>,
    /// A round robin whose field grew after it started (`tournament --add-bot`): the size of
    /// the field before each addition, in order (empty: the field is the file's from the
    /// start). Never in the file: the output directory's `tournament.json` keeps it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<usize>,
    /// Openings from a file, one per rotation cycle of a table (instead of `opening_plies`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<crate::tournament::book::BookConfig>,
}

impl Tournament {
    /// The tournament's identity: SHA-256 of its resolved configuration. Shards and resumed
    /// runs must have the same one.
    /// A field that grew (`added`) keeps the identity of the event it grew from, so that the
    /// tables played before keep their match ids and seeds.
    pub fn id(&self) -> String {
        let original;
        let t = match self.added.first() {
            Some(&n) => {
                original = Tournament {
                    bots: self.bots[..n.min(self.bots.len())].to_vec(),
                    added: Vec::new(),
                    ..self.clone()
                };
                &original
            }
            None => self,
        };
        let bytes = serde_json::to_vec(t).expect("a tournament serialises");
        hex(&Sha256::digest(&bytes))
    }

    pub fn bot_index(&self, name: &str) -> Option<usize> {
        self.bots.iter().position(|b| b.name == name)
    }

    pub fn time(&self) -> crate::arbiter::TimeControl {
        crate::arbiter::TimeControl {
            startup: Duration::from_millis(self.startup_ms),
            per_move: Duration::from_millis(self.time_ms),
            margin: Duration::from_millis(self.margin_ms),
            bank: self.tc.map(|b| Duration::from_millis(b.bank_ms)),
            increment: Duration::from_millis(self.tc.map_or(0, |b| b.increment_ms)),
            first_move: Duration::from_millis(self.first_move_ms),
        }
    }

    /// A bot's time control: the event's, with the bot's own bank where it has one.
    pub fn tc_of(&self, bot: &BotConfig) -> Option<crate::clock::Tc> {
        bot.tc.map(|b| self.time().tc().with_bank(Some(b)))
    }

    /// The game with its options.
    pub fn game(&self) -> Result<std::sync::Arc<dyn crate::game::Game>, crate::Error> {
        let entry = crate::game::registry::find(&self.game)?;
        let mut options = self.options.as_object().cloned().unwrap_or_default();
        options.insert("players".into(), self.players.into());
        Ok((entry.build)(&options)?)
    }
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of bytes, as hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Values given on the command line, which win over the file's.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub seed: Option<u64>,
    pub players: Option<usize>,
    pub rounds: Option<u32>,
    pub time: Option<Duration>,
    /// `--tc`, `--time-bank` and `--increment`: the event's bank and increment.
    pub tc: Option<crate::clock::Bank>,
    /// `--first-move`.
    pub first_move: Option<Duration>,
    pub startup: Option<Duration>,
    pub margin: Option<Duration>,
    pub retries: Option<u32>,
    pub opening_plies: Option<u32>,
    pub repeat: Option<u32>,
    pub size: Option<u8>,
    /// `--withdraw-after N` (`--recover`: 0).
    pub withdraw_after: Option<u32>,
    pub sprt: Option<super::sprt::Sprt>,
    /// `--openings FILE` (relative to the current directory).
    pub openings: Option<PathBuf>,
    /// `--openings-order`.
    pub openings_order: Option<crate::tournament::book::Order>,
}

/// Settings of a run that do not change its results.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSettings {
    /// Tables at once (`None`: the number of cores).
    pub jobs: Option<usize>,
    /// The output directory (resolved against the file's directory).
    pub output: Option<PathBuf>,
}

/// A file that failed to parse or validate: where and what.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// The file, or empty for a value given on the command line.
    pub file: String,
    /// Line and column, from 1, where known.
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
            // About a command-line flag, not the file.
            None if self.file.is_empty() => f.write_str(&self.message),
            Some((line, col)) => write!(
                f,
                "{}: line {line}, column {col}: {}",
                self.file, self.message
            ),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// A parsed and validated tournament file.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub tournament: Tournament,
    pub run: RunSettings,
    /// SHA-256 of the file's bytes.
    pub file_sha256: String,
    /// Neither the file nor the command line gave a seed: it was drawn from the operating
    /// system's random source, and a run that goes on in an output directory (`--resume`,
    /// `--add-bot`) takes the one kept there instead.
    pub seed_drawn: bool,
}

/// Reads, parses and validates a tournament file.
pub fn load(path: &Path, overrides: &Overrides) -> Result<Loaded, ConfigError> {
    let name = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| ConfigError {
        file: name.clone(),
        at: None,
        message: format!("cannot read the tournament file: {e}"),
    })?;
    let base = path
        .parent()
        .map(Path::to_path_buf)
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."));
    let base = std::fs::canonicalize(&base).unwrap_or(base);
    parse(&src, &name, &base, overrides)
}

/// Parses and validates the text of a tournament file. `base` resolves relative paths.
///
/// The checks run as steps, in this order, each in `checks.rs`: the game and its options (with
/// the players), the rules of play (rounds, clock, retries, openings), the run's repetition, the
/// seed, the sandbox, the bots, the schedule, and the SPRT.
pub fn parse(
    src: &str,
    file: &str,
    base: &Path,
    overrides: &Overrides,
) -> Result<Loaded, ConfigError> {
    let at = Checker { src, file };
    let raw: RawFile = toml::from_str(src).map_err(|e| {
        let key = e.span().map(|s| key_at(src, s.start)).unwrap_or_default();
        at.err(e.span(), in_user_terms(e.message(), &key))
    })?;
    let file_sha256 = sha256_hex(src.as_bytes());

    let game = checks::game(&at, &raw, overrides)?;
    let play = checks::play(&at, &raw, overrides, &game)?;
    let repeat = checks::repeat(&at, &raw, overrides)?;
    let jobs = checks::jobs(&at, &raw)?;
    let seed = checks::seed(&at, &raw, overrides)?;
    let sandbox = checks::sandbox(&at, &raw)?;
    let bots = checks::bots(&at, &raw, base, sandbox.limits)?;
    let schedule = checks::schedule(&at, &raw, &bots, game.players)?;

    let openings = checks::book(&at, &raw, overrides, &game, &play, seed, base)?;
    let tournament = Tournament {
        name: raw.name.clone().unwrap_or_else(|| "tournament".into()),
        game: game.name,
        options: game.options,
        players: game.players,
        rounds: play.rounds,
        schedule,
        repeat,
        seed,
        time_ms: play.time.as_millis() as u64,
        tc: play.tc,
        first_move_ms: play.first_move.as_millis() as u64,
        startup_ms: play.startup.as_millis() as u64,
        margin_ms: play.margin.as_millis() as u64,
        retries: play.retries,
        opening_plies: play.opening_plies,
        freeze: raw.freeze.unwrap_or(true),
        hide_legal: raw.hide_legal.unwrap_or(false),
        withdraw_after: checks::withdraw_after(&at, &raw, overrides)?,
        sandbox,
        bots,
        sprt: overrides.sprt,
        added: Vec::new(),
        openings,
    };
    checks::sprt(&at, &tournament)?;
    Ok(Loaded {
        seed_drawn: overrides.seed.is_none() && raw.seed.is_none(),
        tournament,
        run: RunSettings {
            jobs,
            output: raw.output.as_ref().map(|o| base.join(o)),
        },
        file_sha256,
    })
}

/// The key on the line of byte `offset` (`time` for `time = 1`), or empty.
fn key_at(src: &str, offset: usize) -> String {
    let start = src[..offset.min(src.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = src[start..].lines().next().unwrap_or("");
    match line.split_once('=') {
        Some((key, _)) => key.trim().trim_matches('"').to_string(),
        None => String::new(),
    }
}

/// A parser's message in the words of the file's reader: what was expected, with an example
/// of the key written right, instead of Rust's type names ("expected i64").
fn in_user_terms(message: &str, key: &str) -> String {
    let Some((found, expected)) = message.split_once(", expected ") else {
        return message.to_string();
    };
    let found = found.trim_start_matches("invalid type: ");
    let key = if key.is_empty() { "key" } else { key };
    let wanted = match expected.trim() {
        "i64" | "u64" | "u32" | "usize" | "i32" => format!("a whole number, e.g. {key} = 4"),
        "a string" if key == "tc" => {
            "a bank and increment in quotes, e.g. tc = \"2m+100ms\"".to_string()
        }
        "a string" if ["time", "startup", "margin", "cpu_limit", "first_move"].contains(&key) => {
            format!("a duration in quotes, e.g. {key} = \"1s\"")
        }
        "a string" if ["memory", "max_file_size", "disk"].contains(&key) => {
            format!("a size in quotes, e.g. {key} = \"2G\"")
        }
        "a string" => format!("text in quotes, e.g. {key} = \"...\""),
        "a boolean" => format!("true or false, e.g. {key} = true"),
        other => return format!("{key}: {found}, expected {other}"),
    };
    format!("{key}: {found} is not {wanted}")
}

#[cfg(test)]
mod tests {
    use super::raw::line_col;
    use super::{in_user_terms, key_at};

    /// Before: "invalid type: string \"4\", expected i64".
    #[test]
    fn type_errors_say_what_was_expected_in_the_files_words() {
        assert_eq!(
            in_user_terms("invalid type: string \"4\", expected i64", "rounds"),
            "rounds: string \"4\" is not a whole number, e.g. rounds = 4"
        );
        assert_eq!(
            in_user_terms("invalid type: integer `1`, expected a string", "time"),
            "time: integer `1` is not a duration in quotes, e.g. time = \"1s\""
        );
        assert_eq!(in_user_terms("expected `=`", "x"), "expected `=`");
        let src = "a = 1\ntime = 1\n";
        assert_eq!(key_at(src, 13), "time");
    }

    #[test]
    fn line_and_column() {
        let src = "a = 1\nbb = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        assert_eq!(line_col(src, 9), (2, 4));
    }
}
