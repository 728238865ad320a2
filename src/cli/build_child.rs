//! `rollarena __build DIR ID` (hidden): the server's child process that builds and checks one
//! version, so that nothing the build does can end the server; it reports each step to the
//! server as a line of JSON on stdout (see `arena::submissions::builder`). Not for users.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::EXIT_OK;
use crate::arena::submissions::builder;

/// Build and check one version of an arena, for `rollarena serve` (internal).
#[derive(Args, Debug)]
pub struct BuildChildArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The version to build.
    pub id: i64,
}

pub fn run(args: BuildChildArgs) -> anyhow::Result<ExitCode> {
    builder::child(&args.dir, args.id, &mut std::io::stdout().lock())
        .map_err(|e| anyhow::anyhow!(e))?;
    Ok(ExitCode::from(EXIT_OK))
}
