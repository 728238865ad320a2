//! The validation steps of a tournament file, in the order [`super::parse`] runs them: each
//! takes the raw file (and what earlier steps decided) and returns resolved values or an error
//! that names the place in the file.

use std::ops::Range;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use toml::Spanned;

use super::raw::{Checker, RawFile, RawLimits};
use super::{BotConfig, ConfigError, Overrides, SandboxConfig, ScheduleSpec, Tournament};
use crate::arbiter::process::paths_from;
use crate::arbiter::settings;
use crate::duration::parse_duration;
use crate::sandbox::{Level, ResourceLimits};

/// The game, its options and the players per table.
pub(super) struct GameChoice {
    pub(super) name: String,
    pub(super) options: Value,
    pub(super) players: usize,
    /// The game as the options make it.
    pub(super) built: std::sync::Arc<dyn crate::game::Game>,
}

/// The rules of play.
pub(super) struct Play {
    pub(super) rounds: u32,
    pub(super) time: Duration,
    pub(super) tc: Option<crate::clock::Bank>,
    pub(super) first_move: Duration,
    pub(super) startup: Duration,
    pub(super) margin: Duration,
    pub(super) retries: u32,
    pub(super) opening_plies: u32,
}

impl Checker<'_> {
    /// A whole number in `min..=max`, where the file gives one.
    fn int(
        &self,
        v: &Option<Spanned<i64>>,
        key: &str,
        min: i64,
        max: i64,
    ) -> Result<Option<i64>, ConfigError> {
        v.as_ref()
            .map(|v| {
                let n = *v.get_ref();
                if n < min || n > max {
                    Err(self.err(
                        Some(v.span()),
                        format!("{key}: {n} is out of range ({min} to {max})"),
                    ))
                } else {
                    Ok(n)
                }
            })
            .transpose()
    }

    /// A duration, or `default` where the file gives none.
    fn duration(
        &self,
        v: &Option<Spanned<String>>,
        key: &str,
        default: Duration,
    ) -> Result<Duration, ConfigError> {
        v.as_ref()
            .map(|v| {
                parse_duration(v.get_ref())
                    .map_err(|e| self.err(Some(v.span()), format!("{key}: {e}")))
            })
            .transpose()
            .map(|d| d.unwrap_or(default))
    }
}

/// The game, the players, and the game's options: the file's `[options]` (and `--size`), read
/// by the game's own parser (the registry's).
pub(super) fn game(
    at: &Checker,
    raw: &RawFile,
    overrides: &Overrides,
) -> Result<GameChoice, ConfigError> {
    let game = raw
        .game
        .as_ref()
        .map(|g| g.get_ref().clone())
        .unwrap_or_else(|| crate::game::registry::default_name().into());
    let entry = crate::game::registry::find(&game).map_err(|_| {
        at.err(
            raw.game.as_ref().map(|g| g.span()),
            format!(
                "game: unknown game {game:?} (this build knows {})",
                crate::game::registry::names().join(", ")
            ),
        )
    })?;
    let players = match overrides.players {
        Some(p) => p,
        None => at.int(&raw.players, "players", 1, 64)?.unwrap_or(2) as usize,
    };
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
    let built = (entry.build)(&given).map_err(|e| {
        // A value from the command line is blamed on its flag when the file's own build.
        let flags: Vec<String> = [
            overrides.players.map(|p| format!("--players {p}")),
            overrides.size.map(|s| format!("--size {s}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        let file_alone = || -> Option<()> {
            let mut own = given.clone();
            own.insert(
                "players".into(),
                at.int(&raw.players, "players", 1, 64)
                    .ok()?
                    .unwrap_or(2)
                    .into(),
            );
            match raw.options.as_ref().and_then(|o| o.get_ref().get("size")) {
                Some(size) => own.insert("size".into(), serde_json::to_value(size).ok()?),
                None => own.remove("size"),
            };
            (entry.build)(&own).ok().map(|_| ())
        };
        if !flags.is_empty() && file_alone().is_some() {
            at.flag_err(&flags.join(" "), e.to_string())
        } else {
            at.err(span, format!("options: {e}"))
        }
    })?;
    Ok(GameChoice {
        name: game,
        options: built.options(),
        players,
        built,
    })
}

/// Rounds per table, the clock, the retries and the opening plies.
pub(super) fn play(
    at: &Checker,
    raw: &RawFile,
    overrides: &Overrides,
    game: &GameChoice,
) -> Result<Play, ConfigError> {
    let players = game.players;
    // A table is one match; a game whose match ends by its rules (a race for tokens) has its
    // own cap.
    let capped = game.built.default_rounds();
    let rounds = match overrides.rounds {
        Some(r) => {
            settings::rounds(r).map_err(|e| at.flag_err(&format!("--rounds {r}"), e.to_string()))?
        }
        None => {
            let given = at.int(&raw.rounds, "rounds", 0, i64::from(u32::MAX))?;
            let span = raw.rounds.as_ref().map(|r| r.span());
            let r = given.unwrap_or(i64::from(capped.unwrap_or(players as u32))) as u32;
            settings::rounds(r).map_err(|e| at.err(span, format!("rounds: {e}")))?
        }
    };
    if capped.is_none() && !rounds.is_multiple_of(players as u32) {
        let message = format!(
            "{rounds} rounds per table is not a multiple of {players} (the players per table), \
             so seats and the first move would not rotate fully; use {}",
            (rounds / players as u32).max(1) * players as u32
        );
        return Err(match overrides.rounds {
            Some(r) => at.flag_err(&format!("--rounds {r}"), message),
            None => at.err(
                raw.rounds.as_ref().map(|r| r.span()),
                format!("rounds: {message}"),
            ),
        });
    }
    let time = match overrides.time {
        Some(t) => settings::per_move(t).map_err(|e| at.flag_err("--time", e.to_string()))?,
        None => {
            let t = at.duration(&raw.time, "time", Duration::from_secs(60))?;
            let span = raw.time.as_ref().map(|t| t.span());
            settings::per_move(t).map_err(|e| at.err(span, format!("time: {e}")))?
        }
    };
    let startup = match overrides.startup {
        Some(t) => settings::startup(t).map_err(|e| at.flag_err("--startup", e.to_string()))?,
        None => {
            let t = at.duration(&raw.startup, "startup", Duration::from_secs(10))?;
            let span = raw.startup.as_ref().map(|t| t.span());
            settings::startup(t).map_err(|e| at.err(span, format!("startup: {e}")))?
        }
    };
    let margin = match overrides.margin {
        Some(t) => t,
        None => at.duration(&raw.margin, "margin", Duration::from_millis(200))?,
    };
    let retries = match overrides.retries {
        Some(r) => r,
        None => at.int(&raw.retries, "retries", 0, 100)?.unwrap_or(2) as u32,
    };
    let opening_plies = match overrides.opening_plies {
        Some(p) => p,
        None => at
            .int(&raw.opening_plies, "opening_plies", 0, 1000)?
            .unwrap_or(0) as u32,
    };
    if opening_plies > 0 {
        let blame = |message: String| match overrides.opening_plies {
            Some(p) => at.flag_err(&format!("--opening-plies {p}"), message),
            None => at.err(
                raw.opening_plies.as_ref().map(|p| p.span()),
                format!("opening_plies: {message}"),
            ),
        };
        let Some(moves) = crate::tournament::openings::round_length(&*game.built) else {
            return Err(blame(format!(
                "{} has no opening moves (its rounds are not played a move at a time from one \
                 start)",
                game.name
            )));
        };
        if opening_plies as usize > moves / 2 {
            return Err(blame(format!(
                "{opening_plies} plies is more than half of a round ({moves} moves); an opening \
                 is a few plies"
            )));
        }
    }
    let (tc, first_move) = clock(at, raw, overrides)?;
    Ok(Play {
        rounds,
        time,
        tc,
        first_move,
        startup,
        margin,
        retries,
        opening_plies,
    })
}

/// The openings file (`openings`, `--openings FILE`) and its order, read and checked against
/// the game's rules.
pub(super) fn book(
    at: &Checker,
    raw: &RawFile,
    overrides: &Overrides,
    game: &GameChoice,
    play: &Play,
    seed: u64,
    base: &Path,
) -> Result<Option<crate::tournament::book::BookConfig>, ConfigError> {
    use crate::tournament::book::{self, BookConfig, Order};
    let (path, blame): (std::path::PathBuf, Box<dyn Fn(String) -> ConfigError>) =
        match (&overrides.openings, &raw.openings) {
            (Some(p), _) => {
                let shown = p.display().to_string();
                (
                    std::env::current_dir().unwrap_or_default().join(p),
                    Box::new(move |m| at.flag_err(&format!("--openings {shown}"), m)),
                )
            }
            (None, Some(p)) => {
                let span = p.span();
                (
                    base.join(p.get_ref()),
                    Box::new(move |m| at.err(Some(span.clone()), format!("openings: {m}"))),
                )
            }
            (None, None) => {
                if let Some(o) = &raw.openings_order {
                    return Err(at.err(
                        Some(o.span()),
                        "openings_order: there is no openings file (openings = \"FILE\")".into(),
                    ));
                }
                return Ok(None);
            }
        };
    if play.opening_plies > 0 {
        return Err(blame(format!(
            "a tournament takes its openings from a file or from {} random plies              (opening_plies), not both",
            play.opening_plies
        )));
    }
    let order = match (overrides.openings_order, &raw.openings_order) {
        (Some(o), _) => o,
        (None, Some(o)) => match o.get_ref().as_str() {
            "sequential" => Order::Sequential,
            "random" => Order::Random,
            other => {
                return Err(at.err(
                    Some(o.span()),
                    format!("openings_order: {other:?} is not \"sequential\" or \"random\""),
                ));
            }
        },
        (None, None) => Order::Sequential,
    };
    let bytes =
        std::fs::read(&path).map_err(|e| blame(format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes.clone())
        .map_err(|_| blame(format!("{} is not UTF-8 text", path.display())))?;
    let openings = book::parse(&text, &*game.built, seed).map_err(|(line, e)| {
        blame(if line == 0 {
            format!("{}: {e}", path.display())
        } else {
            format!("{}: line {line}: {e}", path.display())
        })
    })?;
    Ok(Some(BookConfig {
        file: path,
        order,
        sha256: super::sha256_hex(&bytes),
        count: openings.len(),
    }))
}

/// A knockout's format and seeds: `elimination`, `advance`, `tiebreak`, `seeding` (`list`:
/// the file's order or `seeds`; `rating`: the bots' `rating`s, highest first).
fn knockout(
    at: &Checker,
    raw: &RawFile,
    bots: &[BotConfig],
    players: usize,
    span: Option<Range<usize>>,
) -> Result<ScheduleSpec, ConfigError> {
    use crate::tournament::knockout::{Elimination, Format, Tiebreak, max_tables};
    let word = |v: &Option<Spanned<String>>, key: &str, words: &[&str]| match v {
        None => Ok(None),
        Some(w) if words.contains(&w.get_ref().as_str()) => Ok(Some(w.get_ref().clone())),
        Some(w) => Err(at.err(
            Some(w.span()),
            format!("{key}: {:?} is not {}", w.get_ref(), words.join(" or ")),
        )),
    };
    let elimination = match word(&raw.elimination, "elimination", &["single", "double"])? {
        Some(w) if w == "double" => Elimination::Double,
        _ => Elimination::Single,
    };
    let tiebreak = match word(&raw.tiebreak, "tiebreak", &["points", "seed"])? {
        Some(w) if w == "seed" => Tiebreak::Seed,
        _ => Tiebreak::Points,
    };
    let advance = at.int(&raw.advance, "advance", 1, 100)?.unwrap_or(1) as usize;
    let seeding = word(&raw.seeding, "seeding", &["list", "rating"])?;
    let seeds: Vec<String> = match (seeding.as_deref(), &raw.seeds) {
        (Some("rating"), Some(s)) => {
            return Err(at.err(
                Some(s.span()),
                "seeds: seeding = \"rating\" orders the bots by their rating, not by a list".into(),
            ));
        }
        (Some("rating"), None) => {
            let mut rated = Vec::new();
            for (i, b) in raw.bot.iter().enumerate() {
                let Some(r) = &b.get_ref().rating else {
                    return Err(at.err(
                        Some(b.span()),
                        format!(
                            "bot {:?} has no rating: seeding = \"rating\" needs rating = N in \
                             every [[bot]]",
                            b.get_ref().name.get_ref()
                        ),
                    ));
                };
                rated.push((*r.get_ref(), i));
            }
            // Highest first; equal ratings in file order.
            rated.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            rated
                .into_iter()
                .map(|(_, i)| bots[i].name.clone())
                .collect()
        }
        (_, Some(list)) => {
            let mut out = Vec::new();
            for s in list.get_ref() {
                if !bots.iter().any(|b| &b.name == s.get_ref()) {
                    return Err(at.err(
                        Some(s.span()),
                        format!("seeds: no bot is named {:?}", s.get_ref()),
                    ));
                }
                if out.contains(s.get_ref()) {
                    return Err(at.err(
                        Some(s.span()),
                        format!("seeds: {:?} is listed twice", s.get_ref()),
                    ));
                }
                out.push(s.get_ref().clone());
            }
            if out.len() != bots.len() {
                return Err(at.err(
                    Some(list.span()),
                    format!(
                        "seeds: list every bot once ({} of {} are listed)",
                        out.len(),
                        bots.len()
                    ),
                ));
            }
            out
        }
        (_, None) => bots.iter().map(|b| b.name.clone()).collect(),
    };
    let format = Format {
        elimination,
        players,
        advance,
        tiebreak,
    };
    max_tables(&format, bots.len()).map_err(|e| at.err(span, format!("schedule: {e}")))?;
    Ok(ScheduleSpec::Knockout {
        elimination,
        advance,
        tiebreak,
        seeds,
    })
}

/// The event's bank and increment (`tc`, or `--tc`) and first-move allowance (`first_move`,
/// or `--first-move`).
fn clock(
    at: &Checker,
    raw: &RawFile,
    overrides: &Overrides,
) -> Result<(Option<crate::clock::Bank>, Duration), ConfigError> {
    let tc = match overrides.tc {
        Some(b) => Some(b),
        None => bank(at, &raw.tc, "tc")?,
    };
    let first_move = match overrides.first_move {
        Some(f) => f,
        None => at.duration(&raw.first_move, "first_move", Duration::ZERO)?,
    };
    Ok((tc, first_move))
}

/// A bank and increment as the file writes it (`tc = "2m+100ms"`), checked.
fn bank(
    at: &Checker,
    v: &Option<Spanned<String>>,
    key: &str,
) -> Result<Option<crate::clock::Bank>, ConfigError> {
    v.as_ref()
        .map(|v| {
            crate::clock::parse_bank(v.get_ref())
                .map_err(|e| at.err(Some(v.span()), format!("{key}: {e}")))
        })
        .transpose()
}

/// How many times the schedule is played.
pub(super) fn repeat(
    at: &Checker,
    raw: &RawFile,
    overrides: &Overrides,
) -> Result<u32, ConfigError> {
    match overrides.repeat {
        Some(0) => Err(at.flag_err("--repeat 0", "must be at least 1".into())),
        Some(r) => Ok(r),
        None => Ok(at.int(&raw.repeat, "repeat", 1, 100_000)?.unwrap_or(1) as u32),
    }
}

/// Rounds in a row lost by a crash or at start-up after which a bot is withdrawn from its table
/// (0: never, `recover = true`). Default 3.
pub(super) fn withdraw_after(
    at: &Checker,
    raw: &RawFile,
    overrides: &Overrides,
) -> Result<u32, ConfigError> {
    if let Some(n) = overrides.withdraw_after {
        return Ok(n);
    }
    let given = at.int(&raw.withdraw_after, "withdraw_after", 0, 1_000_000)?;
    match (&raw.recover, given) {
        (Some(r), Some(n)) if *r.get_ref() && n > 0 => Err(at.err(
            Some(r.span()),
            format!(
                "recover = true keeps restarting a crashed bot, but withdraw_after = {n} \
                 withdraws it: choose one"
            ),
        )),
        (Some(r), _) if *r.get_ref() => Ok(0),
        (_, Some(n)) => Ok(n as u32),
        _ => Ok(3),
    }
}

/// Tables at once (`None`: the number of cores).
pub(super) fn jobs(at: &Checker, raw: &RawFile) -> Result<Option<usize>, ConfigError> {
    let span = raw.jobs.as_ref().map(|j| j.span());
    at.int(&raw.jobs, "jobs", 0, 4096)?
        .map(|j| settings::jobs(j as usize).map_err(|e| at.err(span, format!("jobs: {e}"))))
        .transpose()
}

/// The tournament seed: the command line's, the file's, or one drawn from the operating
/// system's random source (kept in the output directory's `tournament.json`, so `--resume`
/// and `--add-bot` play on with it: see `grow::fit`).
pub(super) fn seed(at: &Checker, raw: &RawFile, overrides: &Overrides) -> Result<u64, ConfigError> {
    Ok(match overrides.seed {
        Some(s) if s > crate::seed::SEED_MASK => {
            return Err(at.flag_err(
                &format!("--seed {s}"),
                "out of range (0 to 2^53 - 1)".into(),
            ));
        }
        Some(s) => s,
        None => match &raw.seed {
            Some(s) if *s.get_ref() < 0 || *s.get_ref() as u64 > crate::seed::SEED_MASK => {
                return Err(at.err(
                    Some(s.span()),
                    format!("seed: {} is out of range (0 to 2^53 - 1)", s.get_ref()),
                ));
            }
            Some(s) => *s.get_ref() as u64,
            // No seed anywhere: a fresh one. Not the file's hash, nor anything else that
            // whoever has seen the file could compute: in a game with hidden information the
            // seed decides every deal.
            None => crate::seed::random_seed(),
        },
    })
}

/// The sandbox level, the bot user and the default resource limits.
pub(super) fn sandbox(at: &Checker, raw: &RawFile) -> Result<SandboxConfig, ConfigError> {
    let defaults = ResourceLimits::default();
    let (level, user, uids, limits) = match &raw.sandbox {
        Some(spanned) => {
            let sb = spanned.get_ref();
            let level = match sb.level.as_deref() {
                None | Some("basic") => Level::Basic,
                Some("none") => Level::None,
                Some("strict") => Level::Strict,
                Some(other) => {
                    return Err(at.err(
                        Some(spanned.span()),
                        format!("sandbox.level: {other:?} is not none, basic or strict"),
                    ));
                }
            };
            let limits = limits_from(&sb.limits, defaults, "sandbox.", spanned.span(), at)?;
            let uids = sb
                .uids
                .clone()
                .unwrap_or_else(|| crate::sandbox::identity::DEFAULT_RANGE.into());
            crate::sandbox::identity::UidRange::parse(&uids)
                .map_err(|e| at.err(Some(spanned.span()), format!("sandbox.uids: {e}")))?;
            (level, sb.user.clone(), uids, limits)
        }
        None => (
            Level::Basic,
            None,
            crate::sandbox::identity::DEFAULT_RANGE.to_string(),
            defaults,
        ),
    };
    Ok(SandboxConfig {
        level,
        user,
        uids,
        limits,
    })
}

/// The bots: unique names, commands that split into words, directories that exist, and each
/// bot's own limits over the sandbox's.
pub(super) fn bots(
    at: &Checker,
    raw: &RawFile,
    base: &Path,
    limits: ResourceLimits,
) -> Result<Vec<BotConfig>, ConfigError> {
    if raw.bot.is_empty() {
        return Err(at.err(
            None,
            "no bots: add one [[bot]] table per bot, with a command".into(),
        ));
    }
    let mut bots: Vec<BotConfig> = Vec::new();
    for spanned in &raw.bot {
        let b = spanned.get_ref();
        let command = b.command.get_ref().trim().to_string();
        let argv = shell_words::split(&command).map_err(|e| {
            at.err(
                Some(b.command.span()),
                format!("bot command {command:?} cannot be split into words: {e}"),
            )
        })?;
        if argv.is_empty() {
            return Err(at.err(Some(b.command.span()), "bot command is empty".into()));
        }
        let name = b.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err(at.err(Some(b.name.span()), "bot name is empty".into()));
        }
        if bots.iter().any(|o| o.name == name) {
            return Err(at.err(
                Some(b.name.span()),
                format!("two bots are named {name:?}: give each bot a unique name"),
            ));
        }
        let cwd = b.cwd.as_ref().map(|c| base.join(c.get_ref()));
        if let (Some(dir), Some(c)) = (&cwd, &b.cwd)
            && !dir.is_dir()
        {
            return Err(at.err(
                Some(c.span()),
                format!(
                    "bot {name:?}: cwd {} is not a directory (a relative cwd is taken from the \
                     file's directory)",
                    dir.display()
                ),
            ));
        }
        // Relative paths in the command are the file's directory's, like `output` and `cwd`
        // (with a `cwd`, they are that directory's, where the bot runs).
        let command = match &cwd {
            None if argv[0] != "rollarena" => paths_from(&argv, base)
                .map(shell_words::join)
                .map_err(|missing| {
                    at.err(
                        Some(b.command.span()),
                        format!(
                            "bot {name:?}: {missing} is not in {} (a relative path in a \
                             tournament file is taken from the file's directory; give the path \
                             from there, an absolute one, or a cwd)",
                            base.display()
                        ),
                    )
                })?,
            _ => command,
        };
        let own = limits_from(
            &b.limits,
            limits,
            &format!("bot {name:?}: "),
            spanned.span(),
            at,
        )?;
        let tc = bank(at, &b.tc, &format!("bot {name:?}: tc"))?;
        bots.push(BotConfig {
            name,
            command,
            cwd,
            limits: (own != limits).then_some(own),
            tc,
        });
    }
    Ok(bots)
}

/// The schedule and its own keys, and whether the bots can fill its tables.
pub(super) fn schedule(
    at: &Checker,
    raw: &RawFile,
    bots: &[BotConfig],
    players: usize,
) -> Result<ScheduleSpec, ConfigError> {
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
                return Err(at.err(
                    schedule_span,
                    "schedule = \"gauntlet\" needs challengers = [\"bot name\", ...]".into(),
                ));
            };
            let mut challengers = Vec::new();
            for c in list.get_ref() {
                if !bots.iter().any(|b| &b.name == c.get_ref()) {
                    return Err(at.err(
                        Some(c.span()),
                        format!("challengers: no bot is named {:?}", c.get_ref()),
                    ));
                }
                challengers.push(c.get_ref().clone());
            }
            if challengers.is_empty() || challengers.len() >= bots.len() {
                return Err(at.err(
                    Some(list.span()),
                    "challengers: name at least one bot, and leave at least one in the field"
                        .into(),
                ));
            }
            ScheduleSpec::Gauntlet { challengers }
        }
        "random" => {
            let Some(t) = at.int(&raw.tables_per_bot, "tables_per_bot", 1, 1_000_000)? else {
                return Err(at.err(
                    schedule_span,
                    "schedule = \"random\" needs tables_per_bot = N".into(),
                ));
            };
            if !(bots.len() * t as usize).is_multiple_of(players) {
                return Err(at.err(
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
                return Err(at.err(
                    schedule_span,
                    format!("schedule = \"swiss\" is for 2-player tables, not {players}"),
                ));
            }
            let Some(r) = at.int(&raw.swiss_rounds, "swiss_rounds", 1, 10_000)? else {
                return Err(at.err(
                    schedule_span,
                    "schedule = \"swiss\" needs swiss_rounds = N".into(),
                ));
            };
            ScheduleSpec::Swiss {
                swiss_rounds: r as u32,
            }
        }
        "knockout" => knockout(at, raw, bots, players, schedule_span.clone())?,
        other => {
            return Err(at.err(
                schedule_span,
                format!(
                    "schedule: {other:?} is not round-robin, gauntlet, random, swiss or knockout"
                ),
            ));
        }
    };
    let needed = match &schedule {
        ScheduleSpec::Gauntlet { challengers } => bots.len() - challengers.len() + 1,
        _ => players,
    };
    if bots.len() < needed {
        return Err(at.err(
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
        return Err(at.err(None, "the gauntlet's field is too small".into()));
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
            return Err(at.err(
                schedule_span,
                format!("{key} is set but the schedule is {kind}"),
            ));
        }
    }
    Ok(schedule)
}

/// The SPRT is for an event between two bots at 2-player tables.
pub(super) fn sprt(at: &Checker, tournament: &Tournament) -> Result<(), ConfigError> {
    if tournament.sprt.is_some() && (tournament.bots.len() != 2 || tournament.players != 2) {
        return Err(at.err(
            None,
            format!(
                "--sprt is for an event between two bots at 2-player tables; this one has {} \
                 bots and {} players per table",
                tournament.bots.len(),
                tournament.players
            ),
        ));
    }
    Ok(())
}

/// Resource limits from a table's keys, over `base`.
fn limits_from(
    raw: &RawLimits,
    base: ResourceLimits,
    prefix: &str,
    span: Range<usize>,
    at: &Checker,
) -> Result<ResourceLimits, ConfigError> {
    let mut out = base;
    let size = |v: &String, key: &str| {
        crate::sandbox::parse_size(v)
            .map_err(|e| at.err(Some(span.clone()), format!("{prefix}{key}: {e}")))
    };
    let count = |v: &i64, key: &str| {
        u64::try_from(*v).ok().filter(|&n| n > 0).ok_or_else(|| {
            at.err(
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
    if let Some(v) = &raw.disk {
        out.disk = size(v, "disk")?;
    }
    if let Some(v) = &raw.inodes {
        out.inodes = count(v, "inodes")?;
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
            at.err(
                Some(span.clone()),
                format!("{prefix}cpu_limit: {text:?} is not a duration (e.g. 10m, 1h)"),
            )
        })?;
    }
    Ok(out)
}
