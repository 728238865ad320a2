//! `rollarena replay`: verifies a record (`--verify`), replays its rounds in the terminal, or
//! writes a self-contained HTML viewer (`--html`).

use std::io::{BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::matches::standings_table;
use super::{EXIT_VERDICT, UsageError, usage};
use crate::duration::parse_duration;
use crate::record::RoundRecord;
use crate::record::reader::{ReadError, RecordFile, read_record_file};
use crate::replay::{Discrepancy, Report, select, verify, verify_game};
use crate::show::html::Verdict;
use crate::show::text::{Pace, Style};
use crate::show::{Screen, html, text};
use crate::verify::{Verifier, verify_stream};

/// Replay recorded rounds: verify them, show them in the terminal, or write an HTML viewer.
///
/// FILE is a record written by `match --record` or a tournament's `results.jsonl` (JSON Lines,
/// one round per line). A torn last line (a round being written when the arbiter stopped) is
/// ignored with a note; any other unreadable line is damage: an error naming the line (exit
/// code 1). Rounds are counted in the file from 1 (`--round N`), or picked by a tournament's
/// schedule (`--table T --round R`); moves count from 1 (`--to`).
///
/// Without --verify or --html, shows the board after each move or decision (in colour on a
/// terminal unless NO_COLOR is set) as the round's game draws it, for every round of the file or
/// the one --round picks; what each game shows is listed at the end of this help (--help). In a
/// game with hidden information every hand and sealed bid is shown, as the record keeps them;
/// --seat N shows only what seat N saw.
///
/// --verify re-plays every move of every round through the rules and checks every recorded
/// effect (flips, refused attempts, forfeits, the arbiter's fallback moves, the final board,
/// scores, points, ranks) and the standings of every match the file holds whole, and says how
/// many rounds it checked of how many lines. A record that was edited is rejected with the
/// round, the move and the reason (exit code 1).
///
/// --html OUT.html writes one self-contained page (no network; it opens from a USB stick) with
/// the board as the game draws it, controls, the move list, score and time plots, faults, logs
/// and standings, for every round of the file (--round picks the one shown first). It is written
/// even for a record that does not verify, with the discrepancy shown at the top (and exit code 1).
///
/// Exit codes: 0 done (a clean record); 1 the record does not verify or does not replay;
/// 2 bad usage or an unreadable file.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The round to replay, verify or show first, counting the rounds in the file from 1 (a
    /// line of the file: a match's round, or one token of a race). With --table, the table's
    /// round R as the schedule numbers it. `--game N` is an old name for it.
    #[arg(long, value_name = "N", alias = "game")]
    round: Option<usize>,
    /// A tournament's table (from 1, as `results.jsonl` and the report number them): its
    /// rounds in the schedule's order, whatever order they finished in; with --round R, its
    /// round R only.
    #[arg(long, value_name = "T")]
    table: Option<u32>,
    /// Check every move and every recorded effect against the rules; exit 1 on a discrepancy.
    #[arg(long)]
    verify: bool,
    /// Write a self-contained HTML viewer of the file's rounds to this file.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// Wait for Enter after each move or action (q then Enter quits).
    #[arg(long, conflicts_with_all = ["verify", "html", "delay"])]
    step: bool,
    /// Play at this pace: the pause after each move or action (500ms, 1s, ...).
    #[arg(long, value_name = "D", value_parser = parse_duration, conflicts_with_all = ["verify", "html"])]
    delay: Option<Duration>,
    /// Jump to the position after move or action PLY (0: the start).
    /// Alone, shows that position only; with --step or --delay, goes on from there.
    #[arg(long, value_name = "PLY", conflicts_with_all = ["verify", "html"])]
    to: Option<u32>,
    /// Show the rounds as seat N saw them (its own hidden cards and bids only; seats count
    /// from 0), in the terminal or, with --html, as the viewer's first view. Without it a
    /// replay shows every hand, as a spectator of the record sees it.
    #[arg(long, value_name = "N", conflicts_with = "verify")]
    seat: Option<usize>,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    if args.verify && args.html.is_none() && args.round.is_none() && args.table.is_none() {
        return verify_file(&args);
    }
    let file = match read_record_file(&args.file) {
        Ok(file) => file,
        Err(e) => return unreadable(&args, e),
    };
    torn_note(&args, &file);
    let records = &file.rounds;
    let games = match args.table {
        Some(t) => by_schedule(records, t, args.round),
        None => select(records.len(), args.round).map_err(UsageError::of),
    }?;
    if let Some(out) = &args.html {
        return write_html(&args, records, games[0], out);
    }
    if args.verify {
        let code = run_verify(&args, &file, &games);
        // The process ends with this command: the rounds read (every move of the file, a
        // tree of small allocations) are left to the OS rather than freed one by one, which
        // took a tenth of a verification's time.
        std::mem::forget(file);
        return code;
    }
    run_text(&args, records, &games)
}

/// A record file that cannot be read: damage is a verdict (exit 1), anything else a usage
/// error.
fn unreadable(args: &ReplayArgs, e: ReadError) -> anyhow::Result<ExitCode> {
    match e {
        e @ ReadError::Line { .. } => {
            eprintln!("{}: {e}", args.file.display());
            Ok(ExitCode::from(EXIT_VERDICT))
        }
        e => Err(UsageError(format!(
            "cannot read the record {}: {e}",
            args.file.display()
        ))
        .into()),
    }
}

fn torn_note(args: &ReplayArgs, file: &RecordFile) {
    if let Some(line) = file.torn {
        eprintln!(
            "note: line {line} of {}, the last, is torn (a round being written when the arbiter \
             stopped); it is ignored",
            args.file.display()
        );
    }
}

/// `--verify` of a whole file: each round is verified as it is read and dropped after, so
/// that the file's moves are never all held at once (an arena re-verifies every upload). The
/// rest of the file is still read after a discrepancy: a damaged line is said first, as when
/// the file is read whole.
fn verify_file(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let opened = std::fs::File::open(&args.file).map_err(|e| {
        UsageError(format!(
            "cannot read the record {}: {e}",
            args.file.display()
        ))
    })?;
    let mut verifier = Verifier::new();
    let (file, found) =
        match verify_stream(BufReader::with_capacity(1 << 16, opened), &mut verifier) {
            Ok(read) => read,
            Err(e) => return unreadable(args, e),
        };
    torn_note(args, &file);
    if verifier.rounds().is_empty() && found.is_none() {
        select(0, None).map_err(UsageError::of)?;
    }
    let verdict = match found {
        Some(d) => Err(d),
        None => verifier.finish(),
    };
    Ok(say_verdict(args, verdict, &file, verifier.rounds()))
}

/// The rounds of table `table` (`--table T`) in schedule order, or its round `round`
/// (`--round R`), as indexes in the file (from 1; the first line of a round written twice).
fn by_schedule(
    records: &[RoundRecord],
    table: u32,
    round: Option<usize>,
) -> Result<Vec<usize>, UsageError> {
    let mut picked: Vec<usize> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let wanted = r.table == Some(table) && round.is_none_or(|n| r.round as usize == n);
        if wanted && !picked.iter().any(|&p| records[p - 1].round == r.round) {
            picked.push(i + 1);
        }
    }
    picked.sort_by_key(|&p| records[p - 1].round);
    if picked.is_empty() {
        let tables: std::collections::BTreeSet<u32> =
            records.iter().filter_map(|r| r.table).collect();
        let what = match round {
            Some(n) => {
                format!("--table {table} --round {n}: the file holds no round {n} of table {table}")
            }
            None => format!("--table {table}: the file holds no round of table {table}"),
        };
        let has = match (tables.first(), tables.last()) {
            (Some(a), Some(b)) => format!("it holds tables {a} to {b} ({} of them)", tables.len()),
            _ => "it holds no tournament's rounds (without --table, --round N counts the file's rounds)".into(),
        };
        return Err(UsageError(format!("{what}; {has}")));
    }
    Ok(picked)
}

fn run_verify(args: &ReplayArgs, file: &RecordFile, games: &[usize]) -> anyhow::Result<ExitCode> {
    let records = &file.rounds;
    let verdict = match (args.round, args.table) {
        (None, None) => verify(records),
        _ => games
            .iter()
            .map(|&n| verify_game(records, n))
            .try_fold(None, |all: Option<Report>, one| {
                let one = one?;
                Ok(Some(match all {
                    None => one,
                    Some(mut all) => {
                        all.games += one.games;
                        all.moves += one.moves;
                        all.fallback_moves += one.fallback_moves;
                        all.refused += one.refused;
                        all.refused_unjudged += one.refused_unjudged;
                        all.forfeits += one.forfeits;
                        all
                    }
                }))
            })
            .map(|r| r.expect("one round at least")),
    };
    Ok(say_verdict(args, verdict, file, records))
}

/// Prints what a verification found: the summary and every whole match's standings, or the
/// discrepancy. `records`: the file's rounds in order (their moves may have been dropped).
fn say_verdict(
    args: &ReplayArgs,
    verdict: Result<Report, Discrepancy>,
    file: &RecordFile,
    records: &[RoundRecord],
) -> ExitCode {
    match verdict {
        Ok(report) => {
            println!("{}", summary(&args.file, &report));
            println!("{}", checked(&report, file));
            for m in &report.matches {
                let table = m.table.map(|t| format!(" (table {t})")).unwrap_or_default();
                match &m.standings {
                    Some(standings) => {
                        let played = m.games.len() as u32;
                        let whole = if played < m.rounds {
                            format!("all {played} rounds (the rules ended the match)")
                        } else {
                            format!("all {played} rounds")
                        };
                        println!("\nmatch {}{table}: {whole}; standings:", m.match_id);
                        println!("{}", standings_table(standings));
                    }
                    None => println!(
                        "\nmatch {}{table}: {} of its {} rounds are in the file, so no standings",
                        m.match_id,
                        m.games.len(),
                        m.rounds
                    ),
                }
            }
            ExitCode::SUCCESS
        }
        Err(d) => {
            eprintln!("{}", rejected(&args.file, records, &d));
            ExitCode::from(EXIT_VERDICT)
        }
    }
}

/// How much of the file was checked: rounds of lines, and the torn last line.
fn checked(report: &Report, file: &RecordFile) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let torn = file
        .torn
        .map(|l| format!("; line {l}, the last, is torn and was ignored"))
        .unwrap_or_default();
    format!(
        "checked {} of the file's {}{torn}",
        plural(report.games, "round"),
        plural(file.lines, "line")
    )
}

/// One line saying what a clean verification covered.
fn summary(file: &Path, r: &Report) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut extras = Vec::new();
    if r.fallback_moves > 0 {
        extras.push(format!(
            "{} reproduced with the seeded fallback",
            plural(r.fallback_moves, "arbiter move")
        ));
    }
    if r.refused > 0 {
        extras.push(format!(
            "{} re-judged",
            plural(r.refused, "refused attempt")
        ));
    }
    if r.refused_unjudged > 0 {
        extras.push(format!(
            "{} with cut evidence (placement checked only)",
            plural(r.refused_unjudged, "refused attempt")
        ));
    }
    if r.forfeits > 0 {
        extras.push(plural(r.forfeits, "forfeit"));
    }
    let extras = if extras.is_empty() {
        String::new()
    } else {
        format!(" ({})", extras.join(", "))
    };
    format!(
        "{}: verified {} and {}{extras}",
        file.display(),
        plural(r.games, "round"),
        plural(r.moves, "move")
    )
}

/// The message for a record that does not verify.
fn rejected(file: &Path, records: &[RoundRecord], d: &Discrepancy) -> String {
    let whence = records
        .get(d.game.wrapping_sub(1))
        .map(|r| {
            let table = r
                .table
                .map(|t| format!(" of table {t}"))
                .unwrap_or_default();
            format!(": round {} of match {}{table}", r.round, r.match_id)
        })
        .unwrap_or_default();
    format!(
        "{} does not verify: {d}\n(round {} is the file's line of that round{whence}; --round {} \
         picks it, counting the file's rounds from 1)",
        file.display(),
        d.game,
        d.game
    )
}

fn write_html(
    args: &ReplayArgs,
    records: &[RoundRecord],
    initial: usize,
    out: &Path,
) -> anyhow::Result<ExitCode> {
    let verdict = verify(records);
    let banner = match &verdict {
        Ok(r) => Verdict {
            ok: true,
            text: format!("verified: {} rounds, {} moves", r.games, r.moves),
        },
        Err(d) => Verdict {
            ok: false,
            text: format!("does not verify: {d}"),
        },
    };
    let title = args
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| args.file.display().to_string());
    let page = match html::render(&title, records, initial, Some(&banner), args.seat) {
        Ok(page) => page,
        Err(d) => {
            eprintln!(
                "{} does not replay, so no viewer was written: {d}",
                args.file.display()
            );
            return Ok(ExitCode::from(EXIT_VERDICT));
        }
    };
    std::fs::write(out, &page)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    println!(
        "wrote {} ({} rounds, {} KiB); open it in a browser",
        out.display(),
        records.len(),
        page.len().div_ceil(1024)
    );
    match verdict {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(d) => {
            eprintln!("{}", rejected(&args.file, records, &d));
            Ok(ExitCode::from(EXIT_VERDICT))
        }
    }
}

fn run_text(
    args: &ReplayArgs,
    records: &[RoundRecord],
    games: &[usize],
) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let terminal = stdout.is_terminal();
    let style = Style {
        colour: text::colour_wanted(terminal, std::env::var_os("NO_COLOR").as_deref()),
        clear: terminal && args.delay.is_some(),
    };
    let pace = Pace {
        to: args.to,
        step: args.step,
        delay: args.delay,
    };
    if let (Some(to), [n]) = (args.to, games) {
        let moves = records[n - 1].moves.len();
        if to as usize > moves {
            return usage(format!(
                "--to {to}: round {n} of the file has {moves} moves"
            ));
        }
    }
    let mut out = stdout.lock();
    let mut input = BufReader::new(std::io::stdin());
    let mut prompt = std::io::stderr();
    for (k, &n) in games.iter().enumerate() {
        let record = &records[n - 1];
        if let Some(seat) = args.seat
            && seat >= record.seats.len()
        {
            return usage(format!(
                "--seat {seat}: round {n} of the file has {} seats, numbered from 0",
                record.seats.len()
            ));
        }
        if k > 0 {
            writeln!(out)?;
        }
        let mut screen = Screen {
            index: n,
            total: records.len(),
            style: &style,
            pace: &pace,
            seat: args.seat,
            out: &mut out,
            input: &mut input,
            prompt: &mut prompt,
        };
        match crate::show::play(record, &mut screen) {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => break,
            Ok(Err(d)) => {
                out.flush()?;
                eprintln!(
                    "{} does not replay: {d}; `rollarena replay --verify` checks the whole file",
                    args.file.display()
                );
                return Ok(ExitCode::from(EXIT_VERDICT));
            }
            // A closed pipe (`| head`) is the reader leaving, not a failure.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `replay --help` ends with what each game's replays show, from the registry.
pub fn with_game_replays(command: clap::Command) -> clap::Command {
    let mut text = String::from("What each game's replays show:\n");
    for entry in crate::game::registry::GAMES {
        text.push_str(&format!("\n--game {}: {}.\n", entry.name, entry.show.about));
    }
    command.after_long_help(text)
}
