//! The command line: one file per subcommand. Each subcommand parses its flags, validates them
//! into plain values, and calls the library. Errors are `anyhow` here and only here; a
//! [`UsageError`] in the chain means bad usage or input (exit 2), anything else is the arbiter
//! failing (exit 3). Bot faults are results, never errors.

mod analyse;
mod arena;
mod arena_admin;
mod arena_finals;
mod arena_pin;
mod bot;
mod build_child;
mod check;
mod clock_args;
mod completions;
pub mod game_flags;
mod isolation;
mod man;
mod match_resume;
mod matches;
mod merge;
mod perft;
mod replay;
mod report;
mod serve;
mod solve;
mod submit;
mod tournament;
mod worker;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// This build's version and the commit it was built from (`0.2.0 (1a2b3c4)`, `-dirty` when its
/// sources differed from the commit, `unknown` when built without git): see build.rs.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("ROLLARENA_COMMIT"),
    ")"
);

/// Exit code: the job completed.
pub const EXIT_OK: u8 = 0;
/// Exit code: a verdict went against the input (`check` found a problem, tampering found).
pub const EXIT_VERDICT: u8 = 1;
/// Exit code: bad usage or input file.
pub const EXIT_USAGE: u8 = 2;
/// Exit code: the arbiter itself failed.
pub const EXIT_FAILURE: u8 = 3;

/// Bad usage or bad input: the user can fix it (exit code 2). The command line's one error
/// of its own; everything else reaches the top through anyhow (exit code 3).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl UsageError {
    /// The refusal of a layer below (its error, or its text), as the user's to fix.
    pub fn of(e: impl std::fmt::Display) -> UsageError {
        UsageError(e.to_string())
    }
}

/// Shorthand for returning a usage error.
pub fn usage<T>(msg: impl Into<String>) -> anyhow::Result<T> {
    Err(UsageError(msg.into()).into())
}

/// The exit code for an error that reached the top.
pub fn exit_code(err: &anyhow::Error) -> ExitCode {
    if err.chain().any(|e| e.is::<UsageError>()) {
        ExitCode::from(EXIT_USAGE)
    } else {
        ExitCode::from(EXIT_FAILURE)
    }
}

/// rollarena: an arbiter for bot competitions.
///
/// Starts bots written in any language, speaks to each over stdin/stdout in a line-based JSON
/// protocol (see protocol/SPEC.md), enforces the rules and the clock, records every game.
///
/// Exit codes: 0 the job completed (bot faults are results, not errors); 1 a verdict went
/// against the input; 2 bad usage or input; 3 the arbiter itself failed.
#[derive(Parser, Debug)]
#[command(name = "rollarena", version = VERSION, about, long_about, max_term_width = 100)]
pub struct Cli {
    /// More log output on stderr (-v: debug, -vv: trace). ROLLARENA_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Less log output on stderr: errors only.
    #[arg(short, long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Match(matches::MatchArgs),
    Check(check::CheckArgs),
    Bot(bot::BotArgs),
    Perft(perft::PerftArgs),
    Solve(solve::SolveArgs),
    Analyse(analyse::AnalyseArgs),
    Replay(replay::ReplayArgs),
    Tournament(tournament::TournamentArgs),
    Merge(merge::MergeArgs),
    Report(report::ReportArgs),
    Arena(arena::ArenaArgs),
    Serve(serve::ServeArgs),
    Submit(submit::SubmitArgs),
    Worker(worker::WorkerArgs),
    /// The server's child process that builds one version (internal).
    #[command(name = "__build", hide = true)]
    BuildChild(build_child::BuildChildArgs),
    Completions(completions::CompletionsArgs),
    Man(man::ManArgs),
}

/// The whole command line as clap sees it: the derived definitions with each game's own
/// flags, bots and checks added. `--help`, the completion scripts and the manual pages are
/// all made from it.
pub fn command() -> clap::Command {
    // Named `rollarena` in usage lines whatever the path it was started by: a built-in bot
    // runs as /proc/self/exe, and "Usage: exe bot ..." would name nothing a user can type.
    Cli::command()
        .bin_name("rollarena")
        .mut_subcommand("match", |c| game_flags::add(c, |e| e.flags.to_vec()))
        .mut_subcommand("check", check::with_game_checks)
        .mut_subcommand("replay", replay::with_game_replays)
        .mut_subcommand("perft", |c| game_flags::add(c, perft::flags_of))
        .mut_subcommand("solve", |c| game_flags::add(c, solve::flags_of))
        .mut_subcommand("bot", bot::with_bot_list)
        .mut_subcommand("arena", |c| {
            c.mut_subcommand("init", |c| game_flags::add(c, |e| e.flags.to_vec()))
        })
}

impl Cli {
    /// Parses the process's arguments, each game's own flags included (they come from the
    /// registry of games, grouped under a heading per game in `match --help`); exits with
    /// clap's message on bad usage.
    pub fn from_env() -> Cli {
        let found = command().get_matches();
        let mut cli = Cli::from_arg_matches(&found).unwrap_or_else(|e| e.exit());
        match (&mut cli.command, found.subcommand()) {
            (Command::Match(args), Some(("match", sub))) => {
                args.game_flags = game_flags::read(sub, |e| e.flags.to_vec())
            }
            (Command::Check(args), Some(("check", sub))) => {
                args.game_flags = game_flags::read(sub, |e| e.flags.to_vec())
            }
            (Command::Perft(args), Some(("perft", sub))) => {
                args.game_flags = game_flags::read(sub, perft::flags_of)
            }
            (Command::Solve(args), Some(("solve", sub))) => {
                args.game_flags = game_flags::read(sub, solve::flags_of)
            }
            (Command::Arena(args), Some(("arena", sub))) => {
                if let (arena::ArenaCommand::Init(init), Some(("init", sub))) =
                    (&mut args.command, sub.subcommand())
                {
                    init.game_flags = game_flags::read(sub, |e| e.flags.to_vec())
                }
            }
            _ => {}
        }
        cli
    }

    /// The tracing filter the flags ask for.
    pub fn log_filter(&self) -> &'static str {
        match (self.quiet, self.verbose) {
            (true, _) => "error",
            (_, 0) => "warn",
            (_, 1) => "debug",
            _ => "trace",
        }
    }

    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self.command {
            Command::Match(args) => matches::run(args),
            Command::Check(args) => check::run(args),
            Command::Bot(args) => bot::run(args),
            Command::Perft(args) => perft::run(args),
            Command::Solve(args) => solve::run(args),
            Command::Analyse(args) => analyse::run(args),
            Command::Replay(args) => replay::run(args),
            Command::Tournament(args) => tournament::run(args),
            Command::Merge(args) => merge::run(args),
            Command::Report(args) => report::run(args),
            Command::Arena(args) => arena::run(args),
            Command::Serve(args) => serve::run(args),
            Command::Worker(args) => worker::run(args),
            Command::Submit(args) => submit::run(args),
            Command::BuildChild(args) => build_child::run(args),
            Command::Completions(args) => completions::run(args),
            Command::Man(args) => man::run(args),
        }
    }
}
