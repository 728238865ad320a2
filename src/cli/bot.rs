//! `rollarena bot NAME`: runs a built-in bot on stdin/stdout. Validates the options, then hands
//! stdin and a buffered stdout to [`crate::bots::serve`]. Nothing but protocol lines goes to
//! stdout (logging goes to stderr).

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::Args;

use super::usage;
use crate::bots::{self, Bot, MAX_DEPTH, NAMES, Options};

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
/// Bots:
///
///   random      a legal move, uniformly at random: the baseline.
///   greedy      the move that turns the most balls; ties broken at random.
///   positional  weighs squares by their tactical level (corners very strong, other edge
///               squares strong, the middle medium, edge squares next to a corner weak,
///               squares diagonally next to a corner very weak) plus the balls turned; with
///               --depth D > 1 it looks D moves ahead, assuming every other player plays
///               against it (paranoid alpha-beta search).
///   mcts        multi-player Monte-Carlo tree search (max^n backups, progressive history,
///               a solver near the end, tree reuse); thinks for about 85% of the turn's
///               time_ms less 50 ms. --movetime MS caps that, --playouts N stops after N
///               simulations (with a fixed --seed: the same moves every time). The
///               strongest with three or four players.
///   brs         Best-Reply Search (BRS+) on an evaluation of corners, stable edges, mobility
///               and balls by phase; iterative deepening against the clock, or --depth D
///               layers (reproducible); --movetime MS caps the time. The strongest with
///               two players.
///   solver      Rock'n'Roll Robot (--game robots): declares a quick solution's length at
///               once, then the shortest it finds (the library's optimal solver), and
///               proves it. --strength S from 1 to 10: below 10 it only looks for
///               solutions of at most S + 2 moves.
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
    /// The bot: random, greedy, positional, mcts or brs (Rolit), solver (Rock'n'Roll Robot).
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
    /// mcts and brs only: think at most MS milliseconds a move (they also stay within the
    /// turn's time_ms, with a margin)
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// mcts only: at most N simulations a move (reproducible with a fixed --seed, as long as
    /// the turn's time does not run out first)
    #[arg(long, value_name = "N")]
    playouts: Option<u64>,
}

pub fn run(args: BotArgs) -> anyhow::Result<ExitCode> {
    if args.name == "solver" {
        return run_solver(&args);
    }
    if args.strength.is_some() {
        return usage(format!(
            "--strength is for the solver bot only, not {}",
            args.name
        ));
    }
    if !NAMES.contains(&args.name.as_str()) {
        return usage(format!(
            "unknown bot {:?}: the built-in bots are {}, solver",
            args.name,
            NAMES.join(", ")
        ));
    }
    if !(0.0..=1.0).contains(&args.noise) {
        return usage(format!(
            "--noise {}: a probability from 0 to 1 (0: never a random move, 1: always)",
            args.noise
        ));
    }
    if args.movetime.is_some() && !["mcts", "brs"].contains(&args.name.as_str()) {
        return usage(format!(
            "--movetime is for the mcts and brs bots only, not {}",
            args.name
        ));
    }
    if args.playouts.is_some() && args.name != "mcts" {
        return usage(format!(
            "--playouts is for the mcts bot only, not {}",
            args.name
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
    let options = Options {
        seed: args.seed,
        noise: args.noise,
    };
    let movetime = args.movetime.map(std::time::Duration::from_millis);
    if args.name == "mcts" || args.name == "brs" {
        let strategy: Box<dyn bots::Strategy> = if args.name == "mcts" {
            if args.depth.is_some() {
                return usage("--depth is for positional and brs, not mcts".to_string());
            }
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
    let depth = match args.depth {
        None => 1,
        Some(_) if args.name != "positional" => {
            return usage(format!(
                "--depth is for the positional bot only, not {}",
                args.name
            ));
        }
        Some(d) if d == 0 || d > MAX_DEPTH => {
            return usage(format!(
                "--depth {d}: the positional bot searches 1 to {MAX_DEPTH} plies"
            ));
        }
        Some(d) => d,
    };
    let mut bot = Bot::by_name(&args.name, options, depth).expect("name checked above");
    serve_stdio(&mut bot)
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
