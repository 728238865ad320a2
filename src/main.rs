//! The `rollarena` binary: parses the command line, sets up tracing (to stderr, so stdout stays
//! clean for tables, JSON and the built-in bots' protocol; a user's warning as one plain line,
//! a developer's log lines with `-v`), runs the subcommand and maps errors
//! to the exit codes that `rollarena --help` and the book (`docs/matches.md`) give (0 done, 1 a verdict against
//! the input, 2 bad usage or input, 3 the arbiter failed: [`rollarena::cli::exit_code`]).

use std::io::IsTerminal;
use std::process::ExitCode;

use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::registry::LookupSpan;

use rollarena::cli::{Cli, exit_code};

/// mimalloc instead of glibc's malloc: `replay --verify` (which an arena runs on every record it
/// accepts) builds and frees a small value per move, field and square, and spent about a third
/// of its time in glibc's allocator (`bench/README.md`, "Targets of issue 31").
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // The sandbox's launch wrapper is this binary too: it must run before anything else
    // (no threads, no logging), so it is dispatched by hand rather than by clap.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(rollarena::sandbox::launch::WRAPPER_ARG) {
        rollarena::sandbox::launch::run(&args.next().unwrap_or_default());
    }
    quiet_on_broken_stdout();
    let cli = Cli::from_env();
    let developer = std::env::var_os("ROLLARENA_LOG").is_some() || cli.log_filter() != "warn";
    let filter = tracing_subscriber::EnvFilter::try_from_env("ROLLARENA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(cli.log_filter()));
    if developer {
        // -v, -vv or ROLLARENA_LOG: a developer's log lines, with times and targets.
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal())
            .with_env_filter(filter)
            .init();
    } else {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .event_format(PlainWarning {
                colour: std::io::stderr().is_terminal(),
            })
            .with_env_filter(filter)
            .init();
    }
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

/// A warning or an error for the user: one plain line (`warning: ...`), its label coloured only
/// when stderr is a terminal; no time, level column or module path, which are a developer's
/// (`-v` shows them).
struct PlainWarning {
    colour: bool,
}

impl<S, N> FormatEvent<S, N> for PlainWarning
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let (label, colour) = match *event.metadata().level() {
            tracing::Level::ERROR => ("error", "1;31"),
            tracing::Level::WARN => ("warning", "1;33"),
            _ => ("note", "1"),
        };
        if self.colour {
            write!(writer, "\x1b[{colour}m{label}:\x1b[0m ")?;
        } else {
            write!(writer, "{label}: ")?;
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}
