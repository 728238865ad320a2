//! `rollarena __build DIR ID` (hidden): the server's child process that builds and checks one
//! version, so that nothing the build does can end the server; it reports each step to the
//! server as a line of JSON on stdout (see `arena::submissions::builder`). Not for users.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::EXIT_OK;
use crate::arena::submissions::builder;
use crate::sandbox::tree;

/// How long the child waits for its discarded trees to be removed before it exits.
const REAP_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Build and check one version of an arena, for `rollarena serve` (internal).
#[derive(Args, Debug)]
pub struct BuildChildArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The version to build.
    pub id: i64,
}

pub fn run(args: BuildChildArgs) -> anyhow::Result<ExitCode> {
    let done = builder::child(&args.dir, args.id, &mut std::io::stdout().lock());
    // The trees the build moved aside are removed on a thread that dies with this process:
    // wait for it (a stopping server kills the child sooner; the next start sweeps the rest).
    if !tree::wait_reaped(REAP_LIMIT) {
        tracing::warn!(
            "the build's discarded trees were not all removed within {} s; the next start removes the rest",
            REAP_LIMIT.as_secs()
        );
    }
    done?;
    Ok(ExitCode::from(EXIT_OK))
}
