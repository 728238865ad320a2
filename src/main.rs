//! The `rollarena` binary: parses the command line, sets up tracing (to stderr, so stdout stays
//! clean for tables, JSON and the built-in bots' protocol), runs the subcommand and maps errors
//! to the exit codes of DESIGN.md §8.

use std::process::ExitCode;

use clap::Parser;
use rollarena::cli::{Cli, exit_code};

fn main() -> ExitCode {
    // The sandbox's launch wrapper is this binary too: it must run before anything else
    // (no threads, no logging), so it is dispatched by hand rather than by clap.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(rollarena::sandbox::launch::WRAPPER_ARG) {
        rollarena::sandbox::launch::run(&args.next().unwrap_or_default());
    }
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ROLLARENA_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(cli.log_filter())),
        )
        .init();
    let code = match cli.run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            exit_code(&err)
        }
    };
    rollarena::sandbox::cleanup();
    code
}
