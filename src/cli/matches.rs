//! `rollarena match`: plays one multi-round match.
use std::process::ExitCode;

use clap::Args;

/// Play a match of several rounds between bots.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Bot command lines.
    bots: Vec<String>,
}

pub fn run(_args: MatchArgs) -> anyhow::Result<ExitCode> {
    super::usage("not yet")
}
