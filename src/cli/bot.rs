//! `rollarena bot NAME`: runs a built-in bot on stdin/stdout.
use std::process::ExitCode;

use clap::Args;

/// Run a built-in bot over the protocol on stdin/stdout.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The bot: random, greedy or positional.
    name: String,
}

pub fn run(args: BotArgs) -> anyhow::Result<ExitCode> {
    super::usage(format!("unknown bot {:?}", args.name))
}
