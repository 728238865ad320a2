//! `rollarena bot NAME`: runs a built-in bot on stdin/stdout. Validates the options against
//! the bot's registry entries (the flags it takes, and its own checks of their values), then
//! hands stdin and a buffered stdout to [`crate::bots::serve`]. Nothing but protocol lines goes
//! to stdout (logging goes to stderr).

use std::io::{self, BufWriter};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::{UsageError, usage};
use crate::bots::{self, Options};
use crate::game::bot::{BotFlag, BotSettings, Build, RANDOM};
use crate::game::registry;

/// Run a built-in bot: a real bot process speaking the protocol on stdin/stdout
///
/// The built-in bots are ordinary bots that live in this binary. Give their command line to
/// `match` or to a tournament file like any other bot's (a command whose first word is
/// `rollarena` runs this very binary):
///
///   rollarena match "rollarena bot random" "rollarena bot random --seed 3"
///
/// They answer `hello` with `ready`, every request with a move, ignore what they do not need,
/// and exit with status 0 on `bye` or when stdin closes. Run one by hand by typing or piping
/// protocol lines into it (see protocol/SPEC.md).
///
/// The bots of each game are listed below (`random` plays every game: a uniformly random move
/// from the request's `legal` list). A bot started in a game it does not play plays like
/// `random` there and says so in a `log` line. The flags beyond --seed and --noise are each
/// taken by the bots named in their help; a bot's own text says what values it accepts.
///
/// Random choices come from ChaCha8 seeded by each round's seed (sent by the arbiter in
/// `start`) together with --seed, so a match replays move for move, and the same bot with
/// another --seed plays differently. --noise makes any bot weaker and more varied, so one bot
/// with a few seeds and noise levels makes a field of distinct players.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct BotArgs {
    /// The bot: random (every game), or one of a game's own bots (listed below).
    #[arg(value_name = "NAME")]
    name: String,
    /// Mixed with each round's seed to seed the bot's random choices (any number from 0 to
    /// 2^64-1). Same seeds, same moves.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Probability, from 0 to 1, of playing a uniformly random legal move instead of the
    /// bot's own choice.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    noise: f64,
    /// Plies or layers to search
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Think at most MS milliseconds a move (the bots also stay within the turn's time_ms, with
    /// a margin)
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// At most N simulations a move (reproducible with a fixed --seed, as long as the turn's
    /// time does not run out first)
    #[arg(long, value_name = "N")]
    playouts: Option<u64>,
    /// How strong a bot plays
    #[arg(long, value_name = "S")]
    strength: Option<u32>,
}

pub fn run(args: BotArgs) -> anyhow::Result<ExitCode> {
    let settings = BotSettings {
        depth: args.depth,
        movetime: args.movetime.map(Duration::from_millis),
        playouts: args.playouts,
        strength: args.strength,
    };
    let options = Options {
        seed: args.seed,
        noise: args.noise,
    };
    if !(0.0..=1.0).contains(&args.noise) {
        return usage(format!(
            "--noise {}: a probability from 0 to 1 (0: never a random move, 1: always)",
            args.noise
        ));
    }
    if args.movetime == Some(0) || args.playouts == Some(0) {
        return usage("--movetime and --playouts: at least 1".to_string());
    }
    let name = check_flags(&args.name, &settings, options)?;
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match bots::serve(name, options, settings, stdin, stdout) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The arbiter closed our stdout: the match is over for us, as with `bye`.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(anyhow::Error::new(e).context("the bot's stdin or stdout failed")),
    }
}

/// Refuses a bot no game has, a flag the bot takes in no game, and settings or options a
/// game's own bot refuses (by building it). The bot's name as the registry spells it.
fn check_flags(
    name: &str,
    settings: &BotSettings,
    options: Options,
) -> Result<&'static str, UsageError> {
    let games = registry::bots_named(name);
    if name != RANDOM && games.is_empty() {
        return Err(UsageError(format!(
            "unknown bot {name:?}: the built-in bots are {}",
            bots::all_names().join(", ")
        )));
    }
    for flag in BotFlag::ALL {
        if !flag.given(settings) || games.iter().any(|(_, b)| b.flags.contains(&flag)) {
            continue;
        }
        return Err(UsageError(format!(
            "{} is for {}, not {name}",
            flag.flag(),
            takers(flag).join(", ")
        )));
    }
    for (entry, b) in &games {
        let built = match b.build {
            Build::Request(build) => build(settings).map(drop),
            Build::Serve(build) => build(settings, options).map(drop),
        };
        built.map_err(|e| UsageError(format!("{name} ({}): {e}", entry.name)))?;
    }
    Ok(games.first().map_or(RANDOM, |(_, b)| b.name))
}

/// `rollarena bot --help`'s list of bots, game by game, from the registry.
pub fn with_bot_list(command: clap::Command) -> clap::Command {
    let mut text = String::from(
        "Bots, by game (random plays every game):\n\n  random      a legal move, uniformly at random: the baseline.\n",
    );
    for entry in registry::GAMES {
        if entry.bots.iter().all(|b| b.name == RANDOM) {
            continue;
        }
        text.push_str(&format!("\n  --game {}:\n", entry.name));
        for b in entry.bots.iter().filter(|b| b.name != RANDOM) {
            text.push_str(&format!("  {:<11} ", b.name));
            let mut col = 14;
            for (i, word) in b.help.split_whitespace().enumerate() {
                if i > 0 && col + 1 + word.len() > 92 {
                    text.push_str("\n              ");
                    col = 14;
                } else if i > 0 {
                    text.push(' ');
                    col += 1;
                }
                text.push_str(word);
                col += word.len();
            }
            text.push('\n');
        }
    }
    let mut command = command.after_long_help(Box::leak(text.into_boxed_str()) as &'static str);
    for flag in BotFlag::ALL {
        let takers = takers(flag);
        command = command.mut_arg(flag.id(), |arg| {
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            let help = format!("{help}: for {}", takers.join(", "));
            arg.help(help)
        });
    }
    command
}

/// The bots taking `flag`, each with its game: `"NAME (GAME)"`.
fn takers(flag: BotFlag) -> Vec<String> {
    registry::GAMES
        .iter()
        .flat_map(|e| {
            e.bots
                .iter()
                .filter(|b| b.flags.contains(&flag))
                .map(|b| format!("{} ({})", b.name, e.name))
        })
        .collect()
}
