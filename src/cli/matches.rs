//! `rollarena match`: plays one multi-round match and prints a line per round and the final
//! standings (or JSON with `--json`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;

use super::{UsageError, usage};
use crate::arbiter::events::{Event, Observer};
use crate::arbiter::process::{kill_all, resolve_program};
use crate::arbiter::protocol::Standing;
use crate::arbiter::{BotSpec, Limits, MatchConfig, TimeControl, run_match};
use crate::duration::parse_duration;
use crate::game::Game;
use crate::game::rolit::Rolit;
use crate::record::RecordWriter;
use crate::seed::random_seed;

/// The bots of the demo match, strongest first; `--players N` takes the first N.
const DEMO: &[&str] = &[
    "rollarena bot positional --depth 3",
    "rollarena bot greedy",
    "rollarena bot positional",
    "rollarena bot random",
];

/// The demo of Rock'n'Roll Robot: solvers of different strengths.
const DEMO_ROBOTS: &[&str] = &[
    "rollarena bot solver",
    "rollarena bot solver --strength 6",
    "rollarena bot solver --strength 4",
    "rollarena bot solver --strength 2",
];

/// Play a match of several rounds between bots.
///
/// Each BOT is a command line, split into words like a shell would (no shell is started: use
/// sh -c '...' for one). A first word `rollarena` runs this very binary, so
/// "rollarena bot greedy" is a built-in bot. With no BOT, plays a demo among built-in bots.
///
/// Each bot process lives for the whole match; a bot that forfeits a round (timeout, crash,
/// illegal moves beyond the retries, ...) is killed, the arbiter plays its remaining moves, and
/// it is started afresh for the next round. Seats rotate colours so that over k rounds every
/// seat plays every colour and moves first once.
///
/// Exit codes: 0 the match was played (bot faults are results, not errors); 2 bad usage;
/// 3 the arbiter failed (a record that cannot be written); 130 interrupted.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Bot command lines, one per seat (quote each). None: a demo among built-in bots.
    #[arg(value_name = "BOT")]
    bots: Vec<String>,
    /// The game: rolit, or robots (Rock'n'Roll Robot; see protocol/games/robots.md).
    #[arg(long, default_value = "rolit", value_parser = ["rolit", "robots"])]
    game: String,
    #[command(flatten)]
    robots: super::robots::RobotsArgs,
    /// rolit: board size: 8, 6 or 4 (4x4 is for 2 players) [default: 8]
    #[arg(long)]
    size: Option<u8>,
    /// Number of players: rolit 2, 3 or 4; robots 1 (solo) to 8. Defaults to the number of
    /// BOTs (for the demo: 4, or 2 on a 4x4 board).
    #[arg(long)]
    players: Option<usize>,
    /// Rounds to play. rolit: defaults to the number of players, one full rotation of colours.
    /// robots: a round is one token and the match ends by the rules (a player reaches the
    /// tokens needed, or they run out); this caps it.
    #[arg(long)]
    rounds: Option<u32>,
    /// Time per move (all attempts included), e.g. 60s, 500ms, 2m.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    time: Duration,
    /// Time from hello to ready.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    startup: Duration,
    /// Latency margin the arbiter adds before declaring a timeout.
    #[arg(long, default_value = "200ms", value_parser = parse_duration)]
    margin: Duration,
    /// Refused attempts allowed per move beyond the first (2 means 3 attempts in all).
    #[arg(long, default_value_t = 2)]
    retries: u32,
    /// Match seed (rounds' seeds, the first colour and fallback moves derive from it).
    /// Random when not given; the record keeps it.
    #[arg(long)]
    seed: Option<u64>,
    /// Append every finished round to this JSON Lines record file.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Do not freeze idle bots between their turns (they may then think on others' time).
    #[arg(long)]
    no_freeze: bool,
    /// Leave the list of legal moves out of `turn` messages.
    #[arg(long)]
    hide_legal: bool,
    /// Write each seat's stderr to DIR/seat-<SEAT>-<name>.log (seats from 0).
    #[arg(long, value_name = "DIR")]
    bot_logs: Option<PathBuf>,
    /// Seat names in seat order, comma-separated (default: from the commands).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    names: Vec<String>,
    /// Longest line accepted from a bot, in bytes.
    #[arg(long, default_value_t = 1 << 20, value_name = "BYTES")]
    max_line: usize,
    /// Unasked lines allowed per round before a bot forfeits for flooding.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    max_unasked: u32,
    /// Print the result as one JSON object instead of tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    isolation: super::isolation::IsolationArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let config = build_config(&args)?;
    if let Some(w) = config.game.schedule_warning(config.rounds) {
        tracing::warn!("{w}");
    }
    let mut observers: Vec<Box<dyn Observer>> = Vec::new();
    if let Some(path) = &args.record {
        let writer = RecordWriter::append(path).map_err(|e| {
            UsageError(format!(
                "cannot open the record file {}: {e}",
                path.display()
            ))
        })?;
        observers.push(Box::new(writer));
    }
    if !args.json {
        observers.push(Box::new(RoundLines {
            names: config.bots.iter().map(|b| b.name.clone()).collect(),
        }));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let outcome = runtime.block_on(async {
        tokio::select! {
            result = run_match(&config, &mut observers) => Some(result),
            _ = interrupted() => None,
        }
    });
    let Some(result) = outcome else {
        kill_all();
        eprintln!(
            "interrupted: every bot was killed; the finished rounds are in the record{}",
            args.record
                .as_ref()
                .map(|p| format!(" {}", p.display()))
                .unwrap_or_default()
        );
        return Ok(ExitCode::from(130));
    };
    let standings = result.map_err(|e| anyhow::anyhow!("the match failed: {e}"))?;
    if args.json {
        let out = serde_json::json!({
            "match": config.match_id,
            "game": config.game.name(),
            "options": config.game.options(),
            "seed": config.seed,
            "rounds": config.rounds,
            "record": args.record,
            "standings": standings,
            "arbiter_peak_rss_kib": crate::arbiter::process::peak_rss_kib(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("\n{}", standings_table(&standings));
    }
    Ok(ExitCode::SUCCESS)
}

/// Resolves when the arbiter is asked to stop (Ctrl-C or SIGTERM).
async fn interrupted() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

fn build_config(args: &MatchArgs) -> anyhow::Result<MatchConfig> {
    let demo = args.bots.is_empty();
    let players = match (args.players, demo) {
        (Some(p), false) if p != args.bots.len() => {
            return usage(format!(
                "--players {p} needs {p} bots, but {} were given",
                args.bots.len()
            ));
        }
        (Some(p), _) => p,
        (None, false) => args.bots.len(),
        // 4x4 is for 2 players only.
        (None, true) if args.size == Some(4) => 2,
        (None, true) if args.game == "robots" => 2,
        (None, true) => DEMO.len(),
    };
    let game: Arc<dyn Game> = if args.game == "robots" {
        if args.size.is_some() {
            return usage(
                "--size is an option of rolit; a robots board is always 16x16".to_string(),
            );
        }
        Arc::new(args.robots.game(players).map_err(UsageError)?)
    } else {
        args.robots.refuse_for(&args.game).map_err(UsageError)?;
        let size = args.size.unwrap_or(8);
        Arc::new(Rolit::new(size, players).map_err(|e| UsageError(e.to_string()))?)
    };
    let demo_bots = if args.game == "robots" {
        DEMO_ROBOTS
    } else {
        DEMO
    };
    let commands: Vec<String> = if demo {
        demo_bots
            .iter()
            .take(players)
            .map(|s| s.to_string())
            .collect()
    } else {
        args.bots.clone()
    };
    if !args.names.is_empty() && args.names.len() != players {
        return usage(format!(
            "--names lists {} names for {players} seats",
            args.names.len()
        ));
    }
    let isolation = args.isolation.isolation()?;
    let mut bots = Vec::new();
    for (seat, command) in commands.iter().enumerate() {
        let mut spec = BotSpec::parse("", command).map_err(UsageError)?;
        resolve_program(&spec.argv[0])
            .and_then(|_| super::isolation::check_reachable(&isolation, &spec.argv))
            .map_err(|e| UsageError(format!("bot at seat {seat} ({command}): {e}")))?;
        spec.name = args
            .names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| default_name(&spec.argv));
        bots.push(spec);
    }
    dedupe_names(&mut bots);
    if let Some(dir) = &args.bot_logs {
        std::fs::create_dir_all(dir).map_err(|e| {
            UsageError(format!(
                "cannot create the log directory {}: {e}",
                dir.display()
            ))
        })?;
        for (seat, spec) in bots.iter_mut().enumerate() {
            let safe: String = spec
                .name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            spec.log = Some(dir.join(format!("seat-{seat}-{safe}.log")));
        }
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    if seed > crate::seed::SEED_MASK {
        return usage(format!(
            "--seed {seed} is too large: seeds are below 2^53 ({}) so that every JSON reader, \
             JavaScript's included, reads them exactly",
            crate::seed::SEED_MASK + 1
        ));
    }
    let rounds = args
        .rounds
        .or(game.default_rounds())
        .unwrap_or(players as u32)
        .max(1);
    Ok(MatchConfig {
        rounds,
        game,
        bots,
        time: TimeControl {
            startup: args.startup,
            per_move: args.time,
            margin: args.margin,
        },
        retries: args.retries,
        freeze: !args.no_freeze,
        hide_legal: args.hide_legal,
        limits: Limits {
            max_line: args.max_line,
            max_unasked: args.max_unasked,
            ..Limits::default()
        },
        isolation,
        seed,
        match_id: new_match_id(seed),
        table: None,
        openings: Vec::new(),
    })
}

/// A seat's default name: a built-in bot's name and options, else the program or script name.
pub fn default_name(argv: &[String]) -> String {
    if argv.len() >= 3 && argv[0] == "rollarena" && argv[1] == "bot" {
        return argv[2..].join(" ").replace("--", "");
    }
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    let interpreters = [
        "python3", "python", "node", "java", "sh", "bash", "ruby", "perl",
    ];
    let program = base(&argv[0]);
    match argv.get(1) {
        Some(arg) if interpreters.contains(&program.as_str()) && !arg.starts_with('-') => base(arg),
        _ => program,
    }
}

/// Makes seat names unique by numbering repeats ("greedy", "greedy#2").
fn dedupe_names(bots: &mut [BotSpec]) {
    for i in 1..bots.len() {
        let count = bots[..i].iter().filter(|b| b.name == bots[i].name).count();
        if count > 0 {
            bots[i].name = format!("{}#{}", bots[i].name, count + 1);
        }
    }
}

/// Prints one line per finished round.
struct RoundLines {
    names: Vec<String>,
}

impl Observer for RoundLines {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::RoundEnded { record } = event {
            let result = &record.result;
            let mut seats: Vec<usize> = (0..self.names.len()).collect();
            seats.sort_by_key(|&s| (result.ranks[s], s));
            let parts: Vec<String> = seats
                .iter()
                .map(|&s| {
                    let colour = record
                        .colours
                        .as_ref()
                        .map(|c| format!(" ({})", c[s]))
                        .unwrap_or_default();
                    format!("{}{colour} {}", self.names[s], result.points[s])
                })
                .collect();
            let mut line = match token_line(record, &self.names) {
                Some(l) => l,
                None => format!(
                    "round {}/{}: {}",
                    record.round,
                    record.rounds,
                    parts.join(", ")
                ),
            };
            for f in &record.forfeits {
                line.push_str(&format!(
                    "  [{} forfeited: {} at move {}]",
                    self.names[f.seat], f.kind, f.ply
                ));
            }
            println!("{line}");
        }
        Ok(())
    }
}

/// A round of Rock'n'Roll Robot in words: the token, who won it with how many moves, the
/// solver's optimal length, the tokens so far. `None` for other games.
fn token_line(record: &crate::record::RoundRecord, names: &[String]) -> Option<String> {
    if record.game != "robots" {
        return None;
    }
    let b = &record.board;
    let token = b.get("token")?.as_str()?;
    let optimal = match b.get("optimal") {
        Some(o) if o.get("moves").is_some() => format!("optimal {}", o["moves"]),
        Some(o) if o.get("gave_up").is_some() => {
            format!("the solver gave up (at least {})", o["at_least"])
        }
        Some(o) if o.get("impossible").is_some() => "impossible".to_string(),
        _ => "optimal unknown".to_string(),
    };
    let won = b.get("winner").and_then(serde_json::Value::as_u64);
    let how = match won {
        Some(w) => {
            let moves = record
                .moves
                .iter()
                .rev()
                .find(|m| m.seat == w as usize && m.effects.get("ok") == Some(&true.into()))
                .and_then(|m| m.effects.get("declared").cloned())
                .unwrap_or_default();
            format!("{} won it with {moves} moves", names[w as usize])
        }
        None => "nobody won it".to_string(),
    };
    if names.len() == 1 {
        let up = record.result.scores.get("0").copied().unwrap_or(0);
        let down = record.round - up;
        return Some(format!(
            "token {} ({token}): {} ({optimal}); face up {up}, face down {down}",
            record.round,
            if won.is_some() {
                "won face up"
            } else {
                "face down"
            },
        ));
    }
    let tokens: Vec<String> = (0..names.len())
        .map(|s| {
            let n = record
                .result
                .scores
                .get(&s.to_string())
                .copied()
                .unwrap_or(0);
            format!("{} {n}", names[s])
        })
        .collect();
    Some(format!(
        "token {} ({token}): {how} ({optimal}); tokens: {}",
        record.round,
        tokens.join(", ")
    ))
}

/// The standings as a table for people.
pub fn standings_table(standings: &[Standing]) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "rank", "seat", "bot", "wins", "points", "outright", "rounds", "forfeits",
    ]);
    for s in standings {
        let forfeits = if s.forfeits.is_empty() {
            "-".to_string()
        } else {
            s.forfeits
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        table.add_row(vec![
            s.rank.to_string(),
            s.seat.to_string(),
            s.name.clone(),
            format_wins(s.wins),
            s.points.to_string(),
            s.outright.to_string(),
            s.rounds.to_string(),
            forfeits,
        ]);
    }
    table
}

/// Round wins with shared wins shown as fractions rounded to two decimals.
fn format_wins(w: f64) -> String {
    if w.fract() == 0.0 {
        format!("{w:.0}")
    } else {
        format!("{w:.2}")
    }
}

/// A fresh match id: the seed in hexadecimal, the Unix time in seconds, and a random part, so
/// that matches set up in the same second (with the same seed, too) never share one.
pub fn new_match_id(seed: u64) -> String {
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!("{seed:x}-{started}-{:08x}", rand::random::<u32>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shell_words::split(s).unwrap()
    }

    #[test]
    fn match_ids_made_in_the_same_second_differ() {
        let ids: Vec<String> = (0..64).map(|_| new_match_id(0x2a)).collect();
        for id in &ids {
            let parts: Vec<&str> = id.split('-').collect();
            assert_eq!(parts.len(), 3, "{id}");
            assert_eq!(parts[0], "2a", "{id}");
            assert!(parts[1].parse::<u64>().is_ok(), "{id}");
            assert_eq!(parts[2].len(), 8, "{id}");
        }
        let distinct: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
    }

    #[test]
    fn default_names() {
        assert_eq!(default_name(&words("rollarena bot greedy")), "greedy");
        assert_eq!(
            default_name(&words("rollarena bot random --seed 3")),
            "random seed 3"
        );
        assert_eq!(default_name(&words("python3 bots/mine.py")), "mine.py");
        assert_eq!(default_name(&words("./target/release/bot -v")), "bot");
    }
}
