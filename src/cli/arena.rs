//! `rollarena arena ...`: the organiser's commands on an arena directory. `init` creates one
//! (its `arena.toml`, with every setting written out and commented, and its database) and
//! prints the organiser's token; `team` adds a team and prints its token. Tokens go to stdout
//! alone (`TOKEN=$(rollarena arena team DIR NAME)`), what they are to stderr.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::UsageError;
use super::game_flags::GameFlags;
use crate::arena::config::Config;
use crate::arena::{Arena, admin};
use crate::duration::parse_duration;
use crate::game::registry;

/// Create and run an arena: a server that builds, checks and rates the bots teams submit.
///
/// `rollarena arena init DIR --game G` creates the arena, `rollarena arena team DIR NAME`
/// gives a team its token, and `rollarena serve DIR` runs it; `teams` and `status` show it,
/// `disable`, `enable`, `token`, `pause`, `resume` and `pin` do what the organiser's page does,
/// and `freeze`, `final`, `rejudge`, `export` are the last day's. protocol/ARENA.md describes
/// the directory, the settings and the ladder.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub command: ArenaCommand,
}

#[derive(Subcommand, Debug)]
pub enum ArenaCommand {
    Init(InitArgs),
    Team(TeamArgs),
    Pin(super::arena_pin::PinArgs),
    #[command(flatten)]
    Organiser(super::arena_admin::Organiser),
    #[command(flatten)]
    LastDay(super::arena_finals::LastDay),
    Worker(WorkerArgs),
}

/// Create an arena in DIR (new or empty): DIR/arena.toml, with every setting written out and
/// commented, and the database. Prints the organiser's token, once.
#[derive(Args, Debug)]
pub struct InitArgs {
    /// The arena's directory (created; it must be new or empty).
    pub dir: PathBuf,
    /// The game the arena plays.
    #[arg(long, default_value = registry::default_name())]
    pub game: String,
    /// Seats per match (default: the game's smallest table).
    #[arg(long)]
    pub players: Option<usize>,
    /// Rounds per match, a multiple of the players (default: twice the players).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Time per move.
    #[arg(long, value_parser = parse_duration, value_name = "TIME")]
    pub time: Option<Duration>,
    /// A built-in bot of the game that plays in the ladder as an anchor (repeatable), e.g.
    /// --anchor greedy.
    #[arg(long = "anchor", value_name = "BOT")]
    pub anchors: Vec<String>,
    #[arg(skip)]
    pub game_flags: GameFlags,
}

/// Add a team to the arena in DIR and print its token (the team submits with it).
///
/// The token goes to stdout alone (`TOKEN=$(rollarena arena team DIR NAME)`); the team's
/// instructions go to stderr: the server's address and the token in ROLLARENA_TOKEN, which
/// keeps it off the command line (where `ps` and the shell's history show it).
#[derive(Args, Debug)]
pub struct TeamArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The team's name: up to 64 characters, any but control characters.
    pub name: String,
    /// The address teams reach the server at, for their instructions, e.g.
    /// https://arena.example.org [default: http:// and arena.toml's [server] listen].
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

pub fn run(args: ArenaArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        ArenaCommand::Init(a) => init(a),
        ArenaCommand::Team(a) => team(a),
        ArenaCommand::LastDay(c) => super::arena_finals::run(c),
        ArenaCommand::Worker(a) => worker(a),
        ArenaCommand::Pin(a) => super::arena_pin::run(a),
        ArenaCommand::Organiser(c) => super::arena_admin::run(c),
    }
}

fn init(args: InitArgs) -> anyhow::Result<ExitCode> {
    let entry = registry::find(&args.game).map_err(UsageError::of)?;
    let options = args.game_flags.options_for(entry)?;
    let mut config = Config::new(entry.name, options).map_err(UsageError::of)?;
    if let Some(p) = args.players {
        config.players = p;
        config.rounds = 2 * p as u32;
    }
    if let Some(r) = args.rounds {
        config.rounds = r;
    }
    if let Some(t) = args.time {
        config.time = t;
    }
    config.ladder.anchors = args.anchors;
    let token = admin::init_with(&args.dir, &config).map_err(|e| UsageError(e.to_string()))?;
    eprintln!(
        "Created the arena {dir} ({game}, {players} players, {rounds} rounds a match, {time} a \
         move); {dir}/arena.toml holds every setting.\nThe organiser's token follows: it is \
         shown this once, keep it secret.\nNext: `rollarena arena team {dir} NAME` for each \
         team, then `rollarena serve {dir}`.",
        dir = args.dir.display(),
        game = config.game,
        players = config.players,
        rounds = config.rounds,
        time = humantime::format_duration(config.time),
    );
    println!("{token}");
    Ok(ExitCode::SUCCESS)
}

fn team(args: TeamArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&args.dir).map_err(|e| UsageError(e.to_string()))?;
    let server = match &args.server {
        Some(url) => {
            let url = url.trim_end_matches('/');
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(UsageError(format!(
                    "--server {url:?} is not an address: give it with its scheme, like \
                     https://arena.example.org or http://192.0.2.7:8080"
                ))
                .into());
            }
            url.to_string()
        }
        None => format!("http://{}", arena.config.server.listen),
    };
    let token = admin::add_team(&arena, &args.name).map_err(|e| UsageError(e.to_string()))?;
    let guessed = if args.server.is_none() {
        "\n(The address is arena.toml's [server] listen; give --server URL with the one the teams \
         reach, e.g. https://arena.example.org.)"
    } else {
        ""
    };
    eprintln!(
        "Added the team {name:?}. Its token is shown this once (alone on stdout, after this). \
         Give the team these instructions:\n\n    export ROLLARENA_TOKEN={token}\n    rollarena \
         submit --server {server} --wait mybot.py\n\nThe variable keeps the token off the \
         command line, where `ps` and the shell's history would show it. The same token logs \
         in on the site, {server}/login.{guessed}",
        name = args.name,
    );
    println!("{token}");
    Ok(ExitCode::SUCCESS)
}

/// Register a remote worker in the arena in DIR and print its token (`rollarena worker
/// --token TOKEN` plays with it), or revoke one with --revoke.
///
/// A worker's token opens the worker API only (leasing and playing matches); teams' and the
/// organiser's tokens never open it.
#[derive(Args, Debug)]
pub struct WorkerArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The worker's name: up to 64 characters, any but control characters.
    pub name: String,
    /// Revoke the worker's token instead: it is refused from now on.
    #[arg(long)]
    pub revoke: bool,
}

fn worker(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    use crate::arena::remote::registry;
    let arena = Arena::open(&args.dir).map_err(|e| UsageError(e.to_string()))?;
    if args.revoke {
        registry::revoke(&arena, &args.name).map_err(|e| UsageError(e.to_string()))?;
        eprintln!(
            "Revoked the token of worker {:?}: the server refuses it from now on; the matches \
             it holds run again elsewhere once their leases run out.",
            args.name
        );
        return Ok(ExitCode::SUCCESS);
    }
    let token = registry::add(&arena, &args.name).map_err(|e| UsageError(e.to_string()))?;
    eprintln!(
        "Registered the worker {:?}. Its token follows (shown this once): start it with \
         `rollarena worker --server URL --token TOKEN` on the worker's machine.",
        args.name
    );
    println!("{token}");
    Ok(ExitCode::SUCCESS)
}
