//! The `rollarena` binary: parses the command line, sets up tracing (to stderr, so stdout stays
//! clean for tables, JSON and the built-in bots' protocol), runs the subcommand and maps errors
//! to the exit codes of DESIGN.md §8.

use std::process::ExitCode;

use clap::Parser;
use rollarena::cli::{Cli, exit_code};

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ROLLARENA_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(cli.log_filter())),
        )
        .init();
    match cli.run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            exit_code(&err)
        }
    }
}
