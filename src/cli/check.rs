//! `rollarena check`: runs the conformance checklist of [`crate::check`] on one bot and prints
//! it, a line per item as it is decided (or one JSON object with `--json`). Exit code 1 when an
//! item failed.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::{EXIT_VERDICT, UsageError, usage};
use crate::arbiter::process::{kill_all, resolve_program};
use crate::arbiter::{BotSpec, Limits, TimeControl};
use crate::check::{CheckConfig, Dir, GameCheck, ItemResult, Report, Status, run_check};
use crate::duration::parse_duration;
use crate::game::registry;

/// Check that a bot speaks the protocol and plays by the rules, before a contest does.
///
/// Starts the bot (several times) and walks it through scripted scenarios of its game for the
/// options of your contest (the game's own flags are listed below, a heading per game),
/// playing the other seats itself, on the arbiter's own rules and clock. Every game starts
/// with the handshake and ends with bye, stdout and flush:
///
///   handshake  hello, then ready within the start-up budget
///   bye        bye, then an exit with status 0 within 2 s
///   stdout     no junk on stdout: every line a protocol message (log to stderr)
///   flush      answers flushed, one per line (a silent bot is told whether its answer was
///              stuck in a buffer or lacked its newline)
///
/// Each game's own scenarios are listed at the end of this help (--help).
///
/// Prints one line per item; a failure shows the exchange that shows it (> sent, < received),
/// the bot's stderr tail and a hint of the usual cause. An item that needs a failed one is
/// skipped.
///
///   rollarena check "/usr/bin/python3 examples/python/bot.py"
///   rollarena check "/usr/bin/java -cp /tmp/kit RolitBot" --size 6 --players 4 --time 1s
///   rollarena check "/usr/bin/python3 examples/python/bot.py" --game NAME
///
/// The bot is started as a contest starts it: as the bot user (nobody) when run as root, in a
/// scratch directory, with a cleared environment and the sandbox level of --sandbox.
///
/// Exit codes: 0 every item passed; 1 an item failed or was skipped; 2 bad usage (a command
/// that cannot be found or run by the bot user, options the rules do not allow).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {
    /// The bot's command line (quote it), split into words like a shell would.
    #[arg(value_name = "BOT")]
    bot: String,
    /// The game (its own options are listed below, a heading per game).
    #[arg(long, default_value = registry::GAMES[0].name, value_parser = registry::names())]
    game: String,
    /// Player counts of the contest, comma-separated (default: the counts each game's check
    /// plays among those its rules allow; the report's first line says which).
    #[arg(long, value_delimiter = ',', value_name = "N")]
    players: Vec<usize>,
    /// Time allowed per move in the check, e.g. 2s, 500ms.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    time: Duration,
    /// Time allowed from hello to ready in the check.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    startup: Duration,
    /// Latency margin added before a timeout is declared.
    #[arg(long, default_value = "200ms", value_parser = parse_duration)]
    margin: Duration,
    /// Seed of the check's own moves (the same seed, the same games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Leave the legal moves out of turn messages, as a contest with --hide-legal does.
    #[arg(long)]
    hide_legal: bool,
    /// Do not freeze the bot between its turns, as a contest with --no-freeze does.
    #[arg(long)]
    no_freeze: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    isolation: super::isolation::IsolationArgs,
    /// The game flags given, by game: (game, option, value), as `match` reads them.
    #[arg(skip)]
    pub game_flags: super::game_flags::GameFlags,
}

/// Adds every game's own flags to `check` (as to `match`) and, after the help, every game's
/// scenarios, from the registry.
pub fn with_game_checks(command: clap::Command) -> clap::Command {
    let mut text =
        String::from("Scenarios of each game (besides handshake, bye, stdout, flush):\n");
    for entry in registry::GAMES {
        text.push_str(&format!("\n--game {}:\n", entry.name));
        for scenario in entry.check.scenarios() {
            if matches!(scenario.item.id, "handshake" | "bye") {
                continue;
            }
            text.push_str(&format!("  {:<9}  {}\n", scenario.item.id, scenario.script));
        }
    }
    super::game_flags::add(command, |e| e.flags.to_vec()).after_long_help(text)
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (config, check) = build_config(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    if !args.json {
        out(&format!(
            "rollarena check {}: {}, start-up {} ms, sandbox {}{}\n",
            config.bot.command_line(),
            check.setup(&config),
            config.time.startup.as_millis(),
            config.isolation.level.name(),
            config.isolation.identity_text(),
        ));
    }
    let json = args.json;
    let mut progress = |item: &ItemResult| {
        if !json {
            out(&item_text(item));
        }
    };
    let report = runtime.block_on(async {
        tokio::select! {
            report = run_check(&config, check, &mut progress) => Some(report),
            _ = interrupted() => None,
        }
    });
    let Some(report) = report else {
        kill_all();
        eprintln!("interrupted: the bot was killed");
        return Ok(ExitCode::from(130));
    };
    if json {
        out(&format!("{}\n", serde_json::to_string_pretty(&report)?));
    } else {
        out(&format!("\n{}\n", summary(&report)));
    }
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_VERDICT)
    })
}

/// Writes to stdout; a reader that went away (`| head`) is not an error of the check.
fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

fn build_config(args: &CheckArgs) -> anyhow::Result<(CheckConfig, &'static dyn GameCheck)> {
    let entry = registry::find(&args.game).map_err(UsageError::of)?;
    let options = args.game_flags.options_for(entry)?;
    let isolation = args.isolation.isolation()?;
    let mut bot = BotSpec::parse("", &args.bot).map_err(UsageError::of)?;
    resolve_program(&bot.argv[0])
        .map_err(UsageError::of)
        .and_then(|_| super::isolation::check_reachable(&isolation, &bot.argv))
        .map_err(|e| UsageError(format!("the bot ({}): {e}", args.bot)))?;
    bot.name = crate::arbiter::names::default_name(&bot.argv);
    bot.named = false;
    let mut players = args.players.clone();
    players.dedup();
    let mut config = CheckConfig {
        bot,
        game: entry.name,
        options,
        players,
        time: TimeControl {
            startup: args.startup,
            per_move: args.time,
            margin: args.margin,
            ..TimeControl::default()
        },
        limits: Limits::default(),
        seed: args.seed,
        hide_legal: args.hide_legal,
        isolation,
        freeze: !args.no_freeze,
    };
    if let Err(e) = entry.check.prepare(&mut config) {
        return usage(e.to_string());
    }
    Ok((config, entry.check))
}

/// One checklist line, and for a failure its evidence, indented.
pub fn item_text(item: &ItemResult) -> String {
    let status = match item.status {
        Status::Pass => "PASS",
        Status::Fail => "FAIL",
        Status::Skip => "SKIP",
    };
    let mut out = format!(
        "{status}  {:<9}  {}: {}\n",
        item.item.id(),
        item.title,
        item.detail
    );
    let Some(p) = &item.problem else {
        return out;
    };
    if !p.exchange.is_empty() {
        out.push_str("      exchange (> sent to the bot, < received from it):\n");
        for line in &p.exchange {
            let mark = match line.dir {
                Dir::Sent => ">",
                Dir::Received => "<",
                Dir::Note => " ",
            };
            out.push_str(&format!("        {mark} {}\n", line.text));
        }
    }
    if !p.stderr.is_empty() {
        out.push_str("      stderr of the bot (last lines):\n");
        for line in p
            .stderr
            .lines()
            .rev()
            .take(12)
            .collect::<Vec<_>>()
            .iter()
            .rev()
        {
            out.push_str(&format!("        | {line}\n"));
        }
    }
    out.push_str(&wrap("      hint: ", &p.hint, 100));
    out
}

/// Wraps text after a prefix, continuing lines under it.
fn wrap(prefix: &str, text: &str, width: usize) -> String {
    let indent = " ".repeat(prefix.len());
    let mut out = String::new();
    for (i, para) in text.lines().enumerate() {
        let mut line = if i == 0 {
            prefix.to_string()
        } else {
            indent.clone()
        };
        let mut empty = true;
        for word in para.split_whitespace() {
            if !empty && line.len() + 1 + word.len() > width {
                out.push_str(&line);
                out.push('\n');
                line = indent.clone();
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(word);
            empty = false;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The last line: counts and time.
fn summary(report: &Report) -> String {
    let count = |s: Status| report.items.iter().filter(|i| i.status == s).count();
    let verdict = if report.passed {
        "the bot is ready for a match"
    } else {
        "fix the first failure above and check again"
    };
    format!(
        "{} passed, {} failed, {} skipped in {:.1} s: {verdict}",
        count(Status::Pass),
        count(Status::Fail),
        count(Status::Skip),
        report.ms as f64 / 1000.0
    )
}

/// Resolves when the check is asked to stop (Ctrl-C or SIGTERM).
async fn interrupted() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_hints_under_their_prefix() {
        let text = wrap("  hint: ", "one two three four five", 16);
        assert_eq!(
            text,
            "  hint: one two\n        three\n        four\n        five\n"
        );
        assert_eq!(crate::check::and_list(&[2, 3, 4]), "2, 3 and 4");
        assert_eq!(crate::check::and_list(&[4]), "4");
    }
}
