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
//! command line gives one, is derived from the file's SHA-256: the schedule, the openings and
//! every round seed are then a pure function of the file.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use toml::Spanned;

use crate::duration::parse_duration;
use crate::sandbox::{Level, ResourceLimits};

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
}

impl ScheduleSpec {
    pub fn name(&self) -> &'static str {
        match self {
            ScheduleSpec::RoundRobin => "round-robin",
            ScheduleSpec::Gauntlet { .. } => "gauntlet",
            ScheduleSpec::Random { .. } => "random",
            ScheduleSpec::Swiss { .. } => "swiss",
        }
    }
}

/// Isolation settings shared by every bot unless a bot says otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SandboxConfig {
    pub level: Level,
    pub user: String,
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
}

/// A resolved tournament: everything that decides its results. Serialised into
/// `tournament.json`; its hash is the tournament's identity (see [`Tournament::id`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    pub name: String,
    pub game: String,
    /// The game's options (Rolit: `size`).
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
    pub startup_ms: u64,
    pub margin_ms: u64,
    pub retries: u32,
    /// Plies of seeded random opening played by the arbiter at the start of each rotation
    /// cycle of a table (0: none).
    pub opening_plies: u32,
    pub freeze: bool,
    pub hide_legal: bool,
    pub sandbox: SandboxConfig,
    pub bots: Vec<BotConfig>,
    /// A sequential test that stops a two-bot event when it decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<super::sprt::Sprt>,
}

impl Tournament {
    /// The tournament's identity: SHA-256 of its resolved configuration. Shards and resumed
    /// runs must have the same one.
    pub fn id(&self) -> String {
        let bytes = serde_json::to_vec(self).expect("a tournament serialises");
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
        }
    }

    /// The game with its options.
    pub fn game(&self) -> Result<std::sync::Arc<dyn crate::game::Game>, String> {
        let entry = crate::game::registry::find(&self.game)?;
        let mut options = self.options.as_object().cloned().unwrap_or_default();
        options.insert("players".into(), self.players.into());
        (entry.build)(&options)
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
    pub startup: Option<Duration>,
    pub margin: Option<Duration>,
    pub retries: Option<u32>,
    pub opening_plies: Option<u32>,
    pub repeat: Option<u32>,
    pub size: Option<u8>,
    pub sprt: Option<super::sprt::Sprt>,
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
    pub file: String,
    /// Line and column, from 1, where known.
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
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

/// Line and column (from 1) of a byte offset.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Option<String>,
    game: Option<Spanned<String>>,
    options: Option<Spanned<toml::Table>>,
    players: Option<Spanned<i64>>,
    rounds: Option<Spanned<i64>>,
    schedule: Option<Spanned<String>>,
    challengers: Option<Spanned<Vec<Spanned<String>>>>,
    tables_per_bot: Option<Spanned<i64>>,
    swiss_rounds: Option<Spanned<i64>>,
    repeat: Option<Spanned<i64>>,
    seed: Option<Spanned<i64>>,
    time: Option<Spanned<String>>,
    startup: Option<Spanned<String>>,
    margin: Option<Spanned<String>>,
    retries: Option<Spanned<i64>>,
    opening_plies: Option<Spanned<i64>>,
    jobs: Option<Spanned<i64>>,
    output: Option<String>,
    freeze: Option<bool>,
    hide_legal: Option<bool>,
    sandbox: Option<Spanned<RawSandbox>>,
    #[serde(default)]
    bot: Vec<Spanned<RawBot>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    // Plain values: `flatten` loses spans, so errors point at the enclosing table.
    memory: Option<String>,
    cpu_limit: Option<String>,
    max_processes: Option<i64>,
    max_open_files: Option<i64>,
    max_file_size: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSandbox {
    level: Option<String>,
    user: Option<String>,
    #[serde(flatten)]
    limits: RawLimits,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: Spanned<String>,
    command: Spanned<String>,
    cwd: Option<Spanned<String>>,
    #[serde(flatten)]
    limits: RawLimits,
}

/// A parsed and validated tournament file.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub tournament: Tournament,
    pub run: RunSettings,
    /// SHA-256 of the file's bytes.
    pub file_sha256: String,
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
pub fn parse(
    src: &str,
    file: &str,
    base: &Path,
    overrides: &Overrides,
) -> Result<Loaded, ConfigError> {
    let err = |span: Option<Range<usize>>, message: String| ConfigError {
        file: file.to_string(),
        at: span.map(|s| line_col(src, s.start)),
        message,
    };
    let raw: RawFile = toml::from_str(src).map_err(|e| err(e.span(), e.message().to_string()))?;
    let file_sha256 = sha256_hex(src.as_bytes());

    let game = raw
        .game
        .as_ref()
        .map(|g| g.get_ref().clone())
        .unwrap_or_else(|| "rolit".into());
    if !crate::game::registry::names().contains(&game.as_str()) {
        return Err(err(
            raw.game.as_ref().map(|g| g.span()),
            format!(
                "game: unknown game {game:?} (this build knows {})",
                crate::game::registry::names().join(", ")
            ),
        ));
    }
    let int = |v: &Option<Spanned<i64>>, key: &str, min: i64, max: i64| {
        v.as_ref()
            .map(|v| {
                let n = *v.get_ref();
                if n < min || n > max {
                    Err(err(
                        Some(v.span()),
                        format!("{key}: {n} is out of range ({min} to {max})"),
                    ))
                } else {
                    Ok(n)
                }
            })
            .transpose()
    };
    let players = match overrides.players {
        Some(p) => p,
        None => int(&raw.players, "players", 1, 64)?.unwrap_or(2) as usize,
    };
    // The game's options: the file's `[options]` (and --size), read by the game's own parser.
    let entry = crate::game::registry::find(&game).map_err(|e| err(None, e))?;
    let mut given: serde_json::Map<String, Value> = match raw.options.as_ref() {
        Some(o) => serde_json::to_value(o.get_ref())
            .ok()
            .and_then(|v| v.as_object().cloned())
            .unwrap_or_default(),
        None => serde_json::Map::new(),
    };
    if let Some(s) = overrides.size {
        given.insert("size".into(), s.into());
    }
    given.insert("players".into(), players.into());
    let span = raw
        .options
        .as_ref()
        .map(|o| o.span())
        .or(raw.players.as_ref().map(|p| p.span()));
    let built = (entry.build)(&given).map_err(|e| err(span.clone(), format!("options: {e}")))?;
    let options = built.options();
    // A table is one match; a game whose match ends by its rules has its own cap.
    let capped = built.default_rounds();
    let rounds = match overrides.rounds {
        Some(r) => r,
        // A match that ends by the rules (robots): `rounds` caps it.
        None if capped.is_some() => {
            int(&raw.rounds, "rounds", 1, 1_000_000)?.unwrap_or(capped.unwrap_or(1) as i64) as u32
        }
        None => int(&raw.rounds, "rounds", 1, 1_000_000)?.unwrap_or(players as i64) as u32,
    };
    if capped.is_none() && (rounds == 0 || !rounds.is_multiple_of(players as u32)) {
        return Err(err(
            raw.rounds.as_ref().map(|r| r.span()),
            format!(
                "rounds: {rounds} rounds per table is not a multiple of {players} (the players \
                 per table), so seats and the first move would not rotate fully; use {}",
                (rounds / players as u32).max(1) * players as u32
            ),
        ));
    }
    let duration = |v: &Option<Spanned<String>>, key: &str, default: Duration| {
        v.as_ref()
            .map(|v| {
                parse_duration(v.get_ref()).map_err(|e| err(Some(v.span()), format!("{key}: {e}")))
            })
            .transpose()
            .map(|d| d.unwrap_or(default))
    };
    let time = match overrides.time {
        Some(t) => t,
        None => duration(&raw.time, "time", Duration::from_secs(60))?,
    };
    let startup = match overrides.startup {
        Some(t) => t,
        None => duration(&raw.startup, "startup", Duration::from_secs(10))?,
    };
    let margin = match overrides.margin {
        Some(t) => t,
        None => duration(&raw.margin, "margin", Duration::from_millis(200))?,
    };
    if time.is_zero() {
        return Err(err(
            raw.time.as_ref().map(|t| t.span()),
            "time: the time per move must be more than 0".into(),
        ));
    }
    let retries = match overrides.retries {
        Some(r) => r,
        None => int(&raw.retries, "retries", 0, 100)?.unwrap_or(2) as u32,
    };
    let opening_plies = match overrides.opening_plies {
        Some(p) => p,
        None => int(&raw.opening_plies, "opening_plies", 0, 1000)?.unwrap_or(0) as u32,
    };
    if opening_plies > 0 {
        let span = raw.opening_plies.as_ref().map(|p| p.span());
        let Some(moves) = super::openings::round_length(&*built) else {
            return Err(err(
                span,
                format!(
                    "opening_plies: {game} has no opening moves (its rounds are not played a \
                     move at a time from one start)"
                ),
            ));
        };
        if opening_plies as usize > moves / 2 {
            return Err(err(
                span,
                format!(
                    "opening_plies: {opening_plies} plies is more than half of a round ({moves} \
                     moves); an opening is a few plies"
                ),
            ));
        }
    }
    let repeat = match overrides.repeat {
        Some(r) => r,
        None => int(&raw.repeat, "repeat", 1, 100_000)?.unwrap_or(1) as u32,
    };
    if repeat == 0 {
        return Err(err(None, "repeat: must be at least 1".into()));
    }
    let jobs = int(&raw.jobs, "jobs", 0, 4096)?
        .filter(|&j| j > 0)
        .map(|j| j as usize);
    let seed = match overrides.seed {
        Some(s) => s,
        None => match &raw.seed {
            Some(s) if *s.get_ref() < 0 || *s.get_ref() as u64 > crate::seed::SEED_MASK => {
                return Err(err(
                    Some(s.span()),
                    format!("seed: {} is out of range (0 to 2^53 - 1)", s.get_ref()),
                ));
            }
            Some(s) => *s.get_ref() as u64,
            // No seed anywhere: derive it from the file, so the run is still reproducible and
            // every shard agrees on it.
            None => {
                u64::from_str_radix(&file_sha256[..16], 16).expect("hex") & crate::seed::SEED_MASK
            }
        },
    };

    // Sandbox defaults, then each bot's own limits.
    let defaults = ResourceLimits::default();
    let (level, user, limits) = match &raw.sandbox {
        Some(spanned) => {
            let sb = spanned.get_ref();
            let level = match sb.level.as_deref() {
                None | Some("basic") => Level::Basic,
                Some("none") => Level::None,
                Some("strict") => Level::Strict,
                Some(other) => {
                    return Err(err(
                        Some(spanned.span()),
                        format!("sandbox.level: {other:?} is not none, basic or strict"),
                    ));
                }
            };
            let limits = limits_from(&sb.limits, defaults, "sandbox.", spanned.span(), &err)?;
            (
                level,
                sb.user.clone().unwrap_or_else(|| "nobody".into()),
                limits,
            )
        }
        None => (Level::Basic, "nobody".to_string(), defaults),
    };

    if raw.bot.is_empty() {
        return Err(err(
            None,
            "no bots: add one [[bot]] table per bot, with a command".into(),
        ));
    }
    let mut bots: Vec<BotConfig> = Vec::new();
    for spanned in &raw.bot {
        let b = spanned.get_ref();
        let command = b.command.get_ref().trim().to_string();
        let argv = shell_words::split(&command).map_err(|e| {
            err(
                Some(b.command.span()),
                format!("bot command {command:?} cannot be split into words: {e}"),
            )
        })?;
        if argv.is_empty() {
            return Err(err(Some(b.command.span()), "bot command is empty".into()));
        }
        let name = b.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err(err(Some(b.name.span()), "bot name is empty".into()));
        }
        if bots.iter().any(|o| o.name == name) {
            return Err(err(
                Some(b.name.span()),
                format!("two bots are named {name:?}: give each bot a unique name"),
            ));
        }
        let cwd = b.cwd.as_ref().map(|c| base.join(c.get_ref()));
        if let (Some(dir), Some(c)) = (&cwd, &b.cwd)
            && !dir.is_dir()
        {
            return Err(err(
                Some(c.span()),
                format!("bot {name:?}: cwd {} is not a directory", dir.display()),
            ));
        }
        let own = limits_from(
            &b.limits,
            limits,
            &format!("bot {name:?}: "),
            spanned.span(),
            &err,
        )?;
        bots.push(BotConfig {
            name,
            command,
            cwd,
            limits: (own != limits).then_some(own),
        });
    }

    let kind = raw
        .schedule
        .as_ref()
        .map(|s| s.get_ref().as_str())
        .unwrap_or("round-robin");
    let schedule_span = raw.schedule.as_ref().map(|s| s.span());
    let schedule = match kind {
        "round-robin" => ScheduleSpec::RoundRobin,
        "gauntlet" => {
            let Some(list) = &raw.challengers else {
                return Err(err(
                    schedule_span,
                    "schedule = \"gauntlet\" needs challengers = [\"bot name\", ...]".into(),
                ));
            };
            let mut challengers = Vec::new();
            for c in list.get_ref() {
                if !bots.iter().any(|b| &b.name == c.get_ref()) {
                    return Err(err(
                        Some(c.span()),
                        format!("challengers: no bot is named {:?}", c.get_ref()),
                    ));
                }
                challengers.push(c.get_ref().clone());
            }
            if challengers.is_empty() || challengers.len() >= bots.len() {
                return Err(err(
                    Some(list.span()),
                    "challengers: name at least one bot, and leave at least one in the field"
                        .into(),
                ));
            }
            ScheduleSpec::Gauntlet { challengers }
        }
        "random" => {
            let Some(t) = int(&raw.tables_per_bot, "tables_per_bot", 1, 1_000_000)? else {
                return Err(err(
                    schedule_span,
                    "schedule = \"random\" needs tables_per_bot = N".into(),
                ));
            };
            if !(bots.len() * t as usize).is_multiple_of(players) {
                return Err(err(
                    raw.tables_per_bot.as_ref().map(|t| t.span()),
                    format!(
                        "tables_per_bot: {} bots x {t} tables is not a multiple of {players} \
                         seats per table, so bots cannot all play the same number of tables",
                        bots.len()
                    ),
                ));
            }
            ScheduleSpec::Random {
                tables_per_bot: t as u32,
            }
        }
        "swiss" => {
            if players != 2 {
                return Err(err(
                    schedule_span,
                    format!("schedule = \"swiss\" is for 2-player tables, not {players}"),
                ));
            }
            let Some(r) = int(&raw.swiss_rounds, "swiss_rounds", 1, 10_000)? else {
                return Err(err(
                    schedule_span,
                    "schedule = \"swiss\" needs swiss_rounds = N".into(),
                ));
            };
            ScheduleSpec::Swiss {
                swiss_rounds: r as u32,
            }
        }
        other => {
            return Err(err(
                schedule_span,
                format!("schedule: {other:?} is not round-robin, gauntlet, random or swiss"),
            ));
        }
    };
    let needed = match &schedule {
        ScheduleSpec::Gauntlet { challengers } => bots.len() - challengers.len() + 1,
        _ => players,
    };
    if bots.len() < needed {
        return Err(err(
            raw.players.as_ref().map(|p| p.span()),
            format!(
                "{} bots cannot fill a table of {players} ({} schedule)",
                bots.len(),
                schedule.name()
            ),
        ));
    }
    if let ScheduleSpec::Gauntlet { .. } = &schedule
        && bots.len() - 1 < players
    {
        return Err(err(None, "the gauntlet's field is too small".into()));
    }
    for (key, present) in [
        (
            "challengers",
            raw.challengers.is_some() && kind != "gauntlet",
        ),
        (
            "tables_per_bot",
            raw.tables_per_bot.is_some() && kind != "random",
        ),
        (
            "swiss_rounds",
            raw.swiss_rounds.is_some() && kind != "swiss",
        ),
    ] {
        if present {
            return Err(err(
                schedule_span,
                format!("{key} is set but the schedule is {kind}"),
            ));
        }
    }

    let tournament = Tournament {
        name: raw.name.clone().unwrap_or_else(|| "tournament".into()),
        game,
        options,
        players,
        rounds,
        schedule,
        repeat,
        seed,
        time_ms: time.as_millis() as u64,
        startup_ms: startup.as_millis() as u64,
        margin_ms: margin.as_millis() as u64,
        retries,
        opening_plies,
        freeze: raw.freeze.unwrap_or(true),
        hide_legal: raw.hide_legal.unwrap_or(false),
        sandbox: SandboxConfig {
            level,
            user,
            limits,
        },
        bots,
        sprt: overrides.sprt,
    };
    if let Some(test) = &tournament.sprt {
        if tournament.bots.len() != 2 || players != 2 {
            return Err(err(
                None,
                format!(
                    "--sprt is for an event between two bots at 2-player tables; this one has \
                     {} bots and {players} players per table",
                    tournament.bots.len()
                ),
            ));
        }
        let _ = test;
    }
    Ok(Loaded {
        tournament,
        run: RunSettings {
            jobs,
            output: raw.output.as_ref().map(|o| base.join(o)),
        },
        file_sha256,
    })
}

/// Resource limits from a table's keys, over `base`.
fn limits_from(
    raw: &RawLimits,
    base: ResourceLimits,
    prefix: &str,
    span: Range<usize>,
    err: &dyn Fn(Option<Range<usize>>, String) -> ConfigError,
) -> Result<ResourceLimits, ConfigError> {
    let mut out = base;
    let size = |v: &String, key: &str| {
        crate::sandbox::parse_size(v)
            .map_err(|e| err(Some(span.clone()), format!("{prefix}{key}: {e}")))
    };
    let count = |v: &i64, key: &str| {
        u64::try_from(*v).ok().filter(|&n| n > 0).ok_or_else(|| {
            err(
                Some(span.clone()),
                format!("{prefix}{key}: {v} must be a positive number"),
            )
        })
    };
    if let Some(v) = &raw.memory {
        out.memory = size(v, "memory")?;
    }
    if let Some(v) = &raw.max_file_size {
        out.file_size = size(v, "max_file_size")?;
    }
    if let Some(v) = &raw.max_processes {
        out.processes = count(v, "max_processes")?;
    }
    if let Some(v) = &raw.max_open_files {
        out.open_files = count(v, "max_open_files")?;
    }
    if let Some(v) = &raw.cpu_limit {
        let text = v.trim();
        let secs = match text.strip_suffix('h') {
            Some(h) => h.parse::<u64>().ok().map(|h| h * 3600),
            None => parse_duration(text).ok().map(|d| d.as_secs()),
        };
        out.cpu_secs = secs.filter(|&s| s > 0).ok_or_else(|| {
            err(
                Some(span.clone()),
                format!("{prefix}cpu_limit: {text:?} is not a duration (e.g. 10m, 1h)"),
            )
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column() {
        let src = "a = 1\nbb = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        assert_eq!(line_col(src, 9), (2, 4));
    }
}
