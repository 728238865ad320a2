//! `rollarena bot NAME`: runs a built-in bot on stdin/stdout. Validates the options, then hands
//! stdin and a buffered stdout to [`crate::bots::serve`]. Nothing but protocol lines goes to
//! stdout (logging goes to stderr).

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::Args;

use super::usage;
use crate::bots::{self, Bot, MAX_DEPTH, Options};
use crate::game::bot::{BotFlag, BotSettings, RANDOM};
use crate::game::registry;

/// Run a built-in bot: a real bot process speaking the protocol on stdin/stdout
///
/// The built-in bots are ordinary bots that live in this binary. Give their command line to
/// `match` or to a tournament file like any other bot's (a command whose first word is
/// `rollarena` runs this very binary):
///
///   rollarena match "rollarena bot greedy" "rollarena bot random --seed 3"
///
/// They answer `hello` with `ready`, every `turn` (and `illegal`) with a `move`, ignore what
/// they do not need, and exit with status 0 on `bye` or when stdin closes. Run one by hand by
/// typing or piping protocol lines into it (see protocol/SPEC.md).
///
/// The bots of each game are listed below (`random` plays every game: a uniformly random move
/// from the request's `legal` list). A bot started in a game it does not play plays like
/// `random` there and says so in a `log` line.
///
/// Random choices come from ChaCha8 seeded by each round's seed (sent by the arbiter in
/// `start`) together with --seed, so a match replays move for move, and the same bot with
/// another --seed plays differently. --noise makes any bot weaker and more varied. A field of
/// six distinct bots:
///
///   rollarena bot random
///   rollarena bot greedy
///   rollarena bot greedy --noise 0.3 --seed 1
///   rollarena bot positional
///   rollarena bot positional --depth 2 --noise 0.1
///   rollarena bot positional --depth 3
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct BotArgs {
    /// The bot: random (every game), or one of a game's own bots (listed below).
    #[arg(value_name = "NAME")]
    name: String,
    /// solver only: 1 to 10, how long a solution it looks for (S + 2 moves below 10)
    /// [default: 10]
    #[arg(long, value_name = "S")]
    strength: Option<u32>,
    /// Mixed with each round's seed to seed the bot's random choices (any number from 0 to
    /// 2^64-1). Same seeds, same moves.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Probability, from 0 to 1, of playing a uniformly random legal move instead of the
    /// bot's own choice.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    noise: f64,
    /// positional only: plies to search, 1 to 6. 1 judges each move by itself, more looks
    /// ahead; even depth 6 answers in milliseconds on 8x8 [default: 1]
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// mcts, brs, ismcts: think at most MS milliseconds a move (they also stay within the
    /// turn's time_ms, with a margin)
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// mcts, ismcts: at most N simulations a move (reproducible with a fixed --seed, as long
    /// as the turn's time does not run out first)
    #[arg(long, value_name = "N")]
    playouts: Option<u64>,
}

pub fn run(args: BotArgs) -> anyhow::Result<ExitCode> {
    if args.name == "solver" {
        return run_solver(&args);
    }
    let settings = BotSettings {
        depth: args.depth,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        playouts: args.playouts,
        strength: args.strength,
    };
    let options = Options {
        seed: args.seed,
        noise: args.noise,
    };
    if let Err(e) = check_flags(&args.name, &settings) {
        return usage(e);
    }
    if !(0.0..=1.0).contains(&args.noise) {
        return usage(format!(
            "--noise {}: a probability from 0 to 1 (0: never a random move, 1: always)",
            args.noise
        ));
    }
    if args.movetime == Some(0) || args.playouts == Some(0) {
        return usage("--movetime and --playouts: at least 1".to_string());
    }
    if args.name == "brs"
        && let Some(d) = args.depth
        && !(1..=bots::brs::MAX_LAYERS).contains(&d)
    {
        return usage(format!(
            "--depth {d}: the brs bot searches 1 to {} layers",
            bots::brs::MAX_LAYERS
        ));
    }
    if args.name == "positional"
        && let Some(d) = args.depth
        && (d == 0 || d > MAX_DEPTH)
    {
        return usage(format!(
            "--depth {d}: the positional bot searches 1 to {MAX_DEPTH} plies"
        ));
    }
    let movetime = settings.movetime;
    if args.name == "mcts" || args.name == "brs" {
        let strategy: Box<dyn bots::Strategy> = if args.name == "mcts" {
            Box::new(bots::Mcts::new(bots::mcts::Config {
                movetime,
                playouts: args.playouts,
                ..bots::mcts::Config::default()
            }))
        } else {
            Box::new(bots::Brs::new(bots::brs::Config {
                depth: args.depth,
                movetime,
                ..bots::brs::Config::default()
            }))
        };
        let mut bot = Bot::new(strategy, options);
        return serve_stdio(&mut bot);
    }
    let mut bot = match Bot::named(&args.name, options, settings) {
        Ok(b) => b,
        Err(e) => return usage(e),
    };
    serve_stdio(&mut bot)
}

/// Refuses a flag the bot takes in no game, and settings a game's own bot refuses.
fn check_flags(name: &str, settings: &BotSettings) -> Result<(), String> {
    let games = registry::bots_named(name);
    if name != RANDOM && games.is_empty() {
        return Err(format!(
            "unknown bot {name:?}: the built-in bots are {}",
            bots::all_names().join(", ")
        ));
    }
    for flag in BotFlag::ALL {
        if !flag.given(settings) || games.iter().any(|(_, b)| b.flags.contains(&flag)) {
            continue;
        }
        let takers: Vec<String> = registry::GAMES
            .iter()
            .flat_map(|e| {
                e.bots
                    .iter()
                    .filter(|b| b.flags.contains(&flag))
                    .map(|b| format!("{} ({})", b.name, e.name))
            })
            .collect();
        return Err(format!(
            "{} is for {}, not {name}",
            flag.flag(),
            takers.join(", ")
        ));
    }
    for (entry, b) in games {
        if let Some(build) = b.build {
            build(settings).map_err(|e| format!("{name} ({}): {e}", entry.name))?;
        }
    }
    Ok(())
}

/// `rollarena bot --help`'s list of bots, game by game, from the registry.
pub fn with_bot_list(command: clap::Command) -> clap::Command {
    let mut text = String::from(
        "Bots, by game (random plays every game):\n\n  random      a legal move, uniformly at random: the baseline.\n",
    );
    for entry in registry::GAMES {
        if entry.bots.is_empty() {
            continue;
        }
        text.push_str(&format!("\n  --game {}:\n", entry.name));
        for b in entry.bots {
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
    command.after_long_help(Box::leak(text.into_boxed_str()) as &'static str)
}

/// Serves a bot on stdin/stdout.
fn serve_stdio(bot: &mut Bot) -> anyhow::Result<ExitCode> {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match bots::serve(bot, stdin, stdout) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The arbiter closed our stdout: the match is over for us, as with `bye`.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(anyhow::Error::new(e).context("the bot's stdin or stdout failed")),
    }
}

/// `rollarena bot solver`: the Rock'n'Roll Robot bot.
fn run_solver(args: &BotArgs) -> anyhow::Result<ExitCode> {
    let strength = args.strength.unwrap_or(bots::solver::MAX_STRENGTH);
    if !(1..=bots::solver::MAX_STRENGTH).contains(&strength) {
        return usage(format!(
            "--strength {strength}: from 1 (solutions of at most 3 moves) to {}",
            bots::solver::MAX_STRENGTH
        ));
    }
    if args.depth.is_some() || args.noise != 0.0 {
        return usage("--depth and --noise are for the Rolit bots, not solver".to_string());
    }
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match bots::solver::serve(strength, stdin, stdout) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(anyhow::Error::new(e).context("the bot's stdin or stdout failed")),
    }
}
