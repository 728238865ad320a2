//! The `rollarena` binary: parses the command line, sets up tracing (to stderr, so stdout stays
//! clean for tables, JSON and the built-in bots' protocol), runs the subcommand and maps errors
//! to the exit codes that `rollarena --help` and the README give (0 done, 1 a verdict against
//! the input, 2 bad usage or input, 3 the arbiter failed: [`rollarena::cli::exit_code`]).

use std::process::ExitCode;

use rollarena::cli::{Cli, exit_code};

fn main() -> ExitCode {
    // The sandbox's launch wrapper is this binary too: it must run before anything else
    // (no threads, no logging), so it is dispatched by hand rather than by clap.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(rollarena::sandbox::launch::WRAPPER_ARG) {
        rollarena::sandbox::launch::run(&args.next().unwrap_or_default());
    }
    quiet_on_broken_stdout();
    let cli = Cli::from_env();
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

/// `rollarena match ... | head` closes stdout early. The arbiter must keep ignoring SIGPIPE (a
/// bot that exits would otherwise kill it through its stdin pipe), so a print to the closed
/// stdout fails and `println!` panics. End as a piped Unix tool would instead: quietly, with
/// every bot killed and the records written so far kept, status 141 (128 + SIGPIPE).
fn quiet_on_broken_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("failed printing to stdout") && text.contains("Broken pipe") {
            rollarena::arbiter::process::kill_all();
            rollarena::sandbox::cleanup();
            std::process::exit(141);
        }
        default(info);
    }));
}
