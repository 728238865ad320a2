//! `rollarena match`: plays one multi-round match and prints a line per round and the final
//! standings (or JSON with `--json`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;

use super::{UsageError, usage};
use crate::arbiter::events::{Event, Observer};
use crate::arbiter::names::default_name;
use crate::arbiter::process::{kill_all, resolve_program};
use crate::arbiter::{BotSpec, Limits, MatchConfig, Resume, TimeControl, run_match_from};
use crate::arbiter::{preflight, settings};
use crate::duration::parse_duration;
use crate::game::Game;
use crate::game::registry;
use crate::record::RecordWriter;
use crate::seed::random_seed;
use crate::standings::MatchStandings;
use crate::wire::Standing;

/// Play a match of several rounds between bots.
///
/// Each BOT is a command line, split into words like a shell would (no shell is started: use
/// sh -c '...' for one). A first word `rollarena` runs this very binary, so
/// "rollarena bot greedy" is a built-in bot. With no BOT, plays a demo among built-in bots.
///
/// Each bot process lives for the whole match; a bot that forfeits a round (timeout, crash,
/// illegal moves beyond the retries, ...) is killed, the arbiter plays its remaining moves, and
/// it is started afresh for the next round. Seats rotate colours so that over k rounds every
/// seat plays every colour and moves first once.
///
/// Before the first round every bot is started once (the pre-flight: hello, ready within
/// --startup, bye): a bot that cannot start is named with its stderr and nothing is played
/// (--no-preflight skips it).
///
/// Interrupted (Ctrl-C, SIGTERM), it kills every bot and prints the standings of the finished
/// rounds; with --record FILE, the same command with --resume plays the rest.
///
/// Exit codes: 0 the match was played (bot faults are results, not errors); 2 bad usage;
/// 3 the arbiter failed (a record that cannot be written); 130 interrupted.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Bot command lines, one per seat (quote each). None: a demo among built-in bots.
    #[arg(value_name = "BOT")]
    bots: Vec<String>,
    /// The game (its own options are listed below, a heading each).
    #[arg(long, default_value = crate::game::registry::default_name(), value_parser = crate::game::registry::names())]
    game: String,
    /// Number of players (see each game's range below). Defaults to the number of BOTs; for a
    /// demo, to the game's demo.
    #[arg(long, long_help = players_help())]
    players: Option<usize>,
    /// Rounds to play. Defaults to the number of players (with colours, one full rotation of
    /// them); in a game whose match ends by its rules (a race for tokens, say), a cap on the
    /// rounds.
    #[arg(long)]
    rounds: Option<u32>,
    /// Time per move (all attempts included), e.g. 60s, 500ms, 2m: with a time bank, the cap
    /// of any one answer.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    time: Duration,
    /// Time from hello to ready.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    startup: Duration,
    /// Latency margin the arbiter adds before declaring a timeout.
    #[arg(long, default_value = "200ms", value_parser = parse_duration)]
    margin: Duration,
    /// Refused attempts allowed per move beyond the first (2 means 3 attempts in all).
    #[arg(long, default_value_t = 2)]
    retries: u32,
    /// Match seed (rounds' seeds, the first colour and fallback moves derive from it).
    /// Random when not given; the record keeps it.
    #[arg(long)]
    seed: Option<u64>,
    /// Append every finished round to this JSON Lines record file (`-`: standard output, with
    /// the round lines and the table on stderr; a pipe or a FIFO works too).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Go on with the interrupted match in the --record file (its last match): its finished
    /// rounds are kept, and the match is played on from the round after them, with the
    /// record's seed. The other arguments must be the interrupted match's (a difference is
    /// named); with no round in the file, the match starts afresh.
    #[arg(long, requires = "record")]
    resume: bool,
    /// Do not freeze idle bots between their turns (they may then think on others' time).
    #[arg(long)]
    no_freeze: bool,
    /// Leave the list of legal moves out of `turn` messages.
    #[arg(long)]
    hide_legal: bool,
    /// Write each seat's stderr to DIR/seat-<SEAT>-<name>.log (seats from 0).
    #[arg(long, value_name = "DIR")]
    bot_logs: Option<PathBuf>,
    /// Seat names in seat order, comma-separated (default: each bot's own ready name; its
    /// command's name where two bots call themselves alike; numbered only when still equal).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    names: Vec<String>,
    /// Longest line accepted from a bot, in bytes.
    #[arg(long, default_value_t = 1 << 20, value_name = "BYTES")]
    max_line: usize,
    /// Unasked lines allowed per round before a bot forfeits for flooding.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    max_unasked: u32,
    /// Print the result as one JSON object instead of tables.
    #[arg(long)]
    json: bool,
    /// Withdraw a bot after it lost N rounds in a row by a crash or at start-up: it is not
    /// started again, and the arbiter plays its remaining rounds (each a forfeit marked
    /// "withdrawn"). 0 keeps restarting it (as --recover does in fastchess and cutechess).
    #[arg(long, value_name = "N", default_value_t = 0)]
    withdraw_after: u32,
    /// Keep restarting a bot that crashes, however often (the default; --withdraw-after 0).
    #[arg(long, conflicts_with = "withdraw_after")]
    recover: bool,
    /// Skip the pre-flight (every bot started once, hello to ready, before anything is played
    /// or written; a bot that fails it stops the match with exit 2).
    #[arg(long)]
    no_preflight: bool,
    /// Openings from FILE, one a line, as a tournament takes them (the first moves in the
    /// game's notation; a deal seed in a game with hidden information): each rotation cycle of
    /// `players` rounds plays the next line, once from every seat. A resumed match needs the
    /// same file.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The order in which the openings file is used: its own, or shuffled by the seed.
    #[arg(
        long,
        value_name = "ORDER",
        value_enum,
        default_value = "sequential",
        requires = "openings"
    )]
    openings_order: crate::tournament::book::Order,
    /// In a game of hidden information, play even if the bots could read the --openings
    /// file (its deal seeds), which is refused otherwise: for your own bots, never a contest.
    #[arg(long)]
    public_seed: bool,
    #[command(flatten)]
    clock: super::clock_args::ClockArgs,
    #[command(flatten)]
    isolation: super::isolation::IsolationArgs,
    /// The game flags given (read by [`super::Cli::from_env`]).
    #[arg(skip)]
    pub game_flags: super::game_flags::GameFlags,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    if args.json && args.record.as_deref() == Some(std::path::Path::new("-")) {
        return usage(
            "--record - writes the record to standard output, where --json would write too: \
             give --record a file, or leave out --json",
        );
    }
    // A resumed match is played with its record's seed (its openings are drawn from it too).
    let recorded_seed = match (&args.record, args.resume) {
        (Some(path), true) => super::match_resume::seed_of(path),
        _ => None,
    };
    let mut config = build_config(&args, recorded_seed)?;
    if let Some(w) = config.game.schedule_warning(config.rounds) {
        tracing::warn!("{w}");
    }
    let say = Say::for_args(&args);
    let resume = match (&args.record, args.resume) {
        (Some(path), true) => super::match_resume::kept(path, &mut config, args.seed)?,
        _ => None,
    };
    if let Some(finished) = announce_resume(&args, &config, resume.as_ref(), &say) {
        return Ok(finished);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    if !args.no_preflight {
        let failed = runtime.block_on(preflight::run(
            &config.bots,
            &*config.game,
            config.rounds,
            config.time,
            config.limits,
            &config.isolation,
        ));
        if !failed.is_empty() {
            return usage(preflight::message(&failed, config.bots.len()));
        }
    }
    let mut observers: Vec<Box<dyn Observer>> = Vec::new();
    if let Some(path) = &args.record {
        observers.push(Box::new(open_record(path)?));
    }
    let faults = SeatFaults::default();
    // The standings of the rounds finished so far, for an interrupted match.
    let so_far = SoFar(Arc::new(std::sync::Mutex::new(
        resume.as_ref().map(|r| r.standings.clone()),
    )));
    observers.push(Box::new(so_far.clone()));
    // `--record -`: the record is standard output, so what people read goes to stderr.
    if !args.json {
        observers.push(Box::new(RoundLines {
            to_stderr: say.record_on_stdout,
            faults: faults.clone(),
        }));
    }
    let outcome = runtime.block_on(async {
        tokio::select! {
            result = run_match_from(&config, resume, &mut observers) => Some(result),
            _ = interrupted() => None,
        }
    });
    let Some(result) = outcome else {
        return stopped(&args, &config, &so_far, &faults, &say);
    };
    let standings = result.map_err(|e| anyhow::anyhow!("the match failed: {e}"))?;
    if args.json {
        let out = serde_json::json!({
            "match": config.match_id,
            "game": config.game.name(),
            "options": config.game.options(),
            "seed": config.seed,
            "rounds": config.rounds,
            "record": args.record,
            "standings": standings,
            "arbiter_peak_rss_kib": crate::arbiter::process::peak_rss_kib(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let faults = faults.lock().unwrap_or_else(|p| p.into_inner()).clone();
        say.line(format!("\n{}", standings_with_faults(&standings, &faults)));
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the lines for people go: standard output, unless it carries the record (`--record -`)
/// or the JSON (`--json`), then standard error.
struct Say {
    record_on_stdout: bool,
    to_stderr: bool,
}

impl Say {
    fn for_args(args: &MatchArgs) -> Say {
        let record_on_stdout = args.record.as_deref() == Some(std::path::Path::new("-"));
        Say {
            record_on_stdout,
            to_stderr: record_on_stdout || args.json,
        }
    }

    fn line(&self, line: String) {
        if self.to_stderr {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
}

/// Says what `--resume` found in the record: the exit code when the match is already finished
/// (its standings said), nothing when it goes on.
fn announce_resume(
    args: &MatchArgs,
    config: &MatchConfig,
    resume: Option<&Resume>,
    say: &Say,
) -> Option<ExitCode> {
    let record = || {
        args.record
            .as_ref()
            .expect("--resume requires --record")
            .display()
    };
    match resume {
        Some(r) if r.ended || r.played >= config.rounds => {
            say.line(format!(
                "the match {} in {} is finished ({} rounds): nothing to resume",
                config.match_id,
                record(),
                r.played
            ));
            say.line(format!("\n{}", standings_table(&r.standings.table())));
            return Some(ExitCode::SUCCESS);
        }
        Some(r) => say.line(format!(
            "resuming match {} (seed {}): rounds 1-{} kept from {}, playing rounds {}-{}",
            config.match_id,
            config.seed,
            r.played,
            record(),
            r.played + 1,
            config.rounds
        )),
        None if args.resume => say.line(format!(
            "nothing to resume in {}: the match starts afresh",
            record()
        )),
        None => {}
    }
    None
}

/// The record's writer, appending; a record appended to is kept out of the bots' reach as a
/// new one is.
fn open_record(path: &std::path::Path) -> anyhow::Result<RecordWriter> {
    let writer = RecordWriter::append(path).map_err(|e| {
        UsageError(format!(
            "cannot open the record file {}: {e}",
            path.display()
        ))
    })?;
    if let Some(mode) = crate::sandbox::output::file_mode()
        && path.is_file()
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .map_err(|e| UsageError(format!("cannot make {} owner-only: {e}", path.display())))?;
    }
    Ok(writer)
}

/// Ctrl-C or SIGTERM: every bot killed, the way to go on said, and the standings of the rounds
/// finished; exit 130.
fn stopped(
    args: &MatchArgs,
    config: &MatchConfig,
    so_far: &SoFar,
    faults: &SeatFaults,
    say: &Say,
) -> anyhow::Result<ExitCode> {
    kill_all();
    eprintln!(
        "interrupted: every bot was killed{}",
        match &args.record {
            Some(p) if !say.record_on_stdout => format!(
                "; the finished rounds are in the record {}: the same command with \
                 --resume plays the rest",
                p.display()
            ),
            _ => String::new(),
        }
    );
    let standings = so_far.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
    match standings {
        Some(s) if args.json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "match": config.match_id,
                "game": config.game.name(),
                "seed": config.seed,
                "rounds": config.rounds,
                "interrupted": true,
                "standings": s.table(),
            }))?
        ),
        Some(s) => {
            let faults = faults.lock().unwrap_or_else(|p| p.into_inner()).clone();
            say.line(format!(
                "\nstandings after the finished rounds:\n{}",
                standings_with_faults(&s.table(), &faults)
            ));
        }
        None => eprintln!("no round was finished"),
    }
    Ok(ExitCode::from(130))
}

/// Resolves when the arbiter is asked to stop (Ctrl-C or SIGTERM).
async fn interrupted() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

fn build_config(args: &MatchArgs, recorded_seed: Option<u64>) -> anyhow::Result<MatchConfig> {
    let entry = registry::find(&args.game).map_err(UsageError::of)?;
    let mut options = args.game_flags.options_for(entry)?;
    let demo = args.bots.is_empty();
    let (demo_bots, demo_seats) = (entry.demo)(&options);
    let players = match (args.players, demo) {
        (Some(p), false) if p != args.bots.len() => {
            return usage(format!(
                "--players {p} needs {p} bots, but {} were given",
                args.bots.len()
            ));
        }
        (Some(p), _) => p,
        (None, false) => args.bots.len(),
        (None, true) => demo_seats,
    };
    options.insert("players".into(), players.into());
    let game: Arc<dyn Game> = (entry.build)(&options).map_err(UsageError::of)?;
    if demo && players > demo_bots.len() {
        return usage(format!(
            "the {} demo has {} built-in bots, not {players}: give the bots' commands",
            entry.name,
            demo_bots.len()
        ));
    }
    let commands: Vec<String> = if demo {
        demo_bots
            .iter()
            .take(players)
            .map(|s| s.to_string())
            .collect()
    } else {
        args.bots.clone()
    };
    if !args.names.is_empty() && args.names.len() != players {
        return usage(format!(
            "--names lists {} names for {players} seats",
            args.names.len()
        ));
    }
    let isolation = args.isolation.isolation()?;
    let bots = bot_specs(args, &commands, &isolation)?;
    let seed = seed_for(args, recorded_seed, &*game, &isolation)?;
    let rounds = args
        .rounds
        .or(game.default_rounds())
        .unwrap_or(players as u32);
    let rounds = settings::rounds(rounds).map_err(|e| UsageError(format!("--rounds: {e}")))?;
    let per_move = settings::per_move(args.time).map_err(|e| UsageError(format!("--time: {e}")))?;
    let (openings, deals) = openings_for(args, &*game, &isolation, seed, rounds, players)?;
    let startup =
        settings::startup(args.startup).map_err(|e| UsageError(format!("--startup: {e}")))?;
    let clock = args.clock.resolve()?;
    Ok(MatchConfig {
        rounds,
        game,
        bots,
        time: TimeControl {
            startup,
            per_move,
            margin: args.margin,
            bank: clock.bank,
            increment: clock.increment.unwrap_or_default(),
            first_move: clock.first_move.unwrap_or_default(),
        },
        retries: args.retries,
        freeze: !args.no_freeze,
        hide_legal: args.hide_legal,
        limits: Limits {
            max_line: args.max_line,
            max_unasked: args.max_unasked,
            ..Limits::default()
        },
        isolation,
        seed,
        match_id: new_match_id(seed),
        table: None,
        openings,
        deals,
        withdraw_after: Some(args.withdraw_after).filter(|&n| n > 0),
    })
}

/// The seats' bots from their commands: each program found and reachable by the seats, each
/// named (`--names`, else after its command, numbered when names repeat), each with its log
/// file under `--bot-logs`.
fn bot_specs(
    args: &MatchArgs,
    commands: &[String],
    isolation: &crate::sandbox::Isolation,
) -> anyhow::Result<Vec<BotSpec>> {
    let mut bots = Vec::new();
    for (seat, command) in commands.iter().enumerate() {
        let mut spec = BotSpec::parse("", command).map_err(UsageError::of)?;
        if spec.argv[0] != "rollarena"
            && let Ok(here) = std::env::current_dir()
            && let Err(missing) = crate::arbiter::process::paths_from(&spec.argv, &here)
        {
            return usage(format!(
                "bot at seat {seat} ({command}): {missing} is not in the current directory, {} \
                 (give its path from there, or an absolute one)",
                here.display()
            ));
        }
        resolve_program(&spec.argv[0])
            .map_err(UsageError::of)
            .and_then(|_| super::isolation::check_reachable(isolation, &spec.argv))
            .map_err(|e| UsageError(format!("bot at seat {seat} ({command}): {e}")))?;
        match args.names.get(seat) {
            Some(name) => {
                spec.name = name.clone();
                spec.named = true;
            }
            None => {
                spec.name = default_name(&spec.argv);
                spec.named = false;
            }
        }
        bots.push(spec);
    }
    let unique =
        crate::arbiter::names::numbered(&bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>());
    for (spec, name) in bots.iter_mut().zip(unique) {
        spec.name = name;
    }
    if let Some(dir) = &args.bot_logs {
        std::fs::create_dir_all(dir).map_err(|e| {
            UsageError(format!(
                "cannot create the log directory {}: {e}",
                dir.display()
            ))
        })?;
        for (seat, spec) in bots.iter_mut().enumerate() {
            // Renamed after the seat's name once the bot has said `ready` (as the tables
            // name it).
            spec.log = Some(dir.join(crate::arbiter::names::log_file_name(seat, &spec.name)));
        }
    }
    Ok(bots)
}

/// The match's seed: `--seed`, else the resumed record's, else one drawn from the operating
/// system; a seed given for a game with hidden information is warned about when short or in
/// the bots' sight, and one of 2^53 or more is refused.
fn seed_for(
    args: &MatchArgs,
    recorded_seed: Option<u64>,
    game: &dyn Game,
    isolation: &crate::sandbox::Isolation,
) -> anyhow::Result<u64> {
    let seed = args.seed.or(recorded_seed).unwrap_or_else(random_seed);
    if args.seed.is_some() && game.hidden_information() && seed < crate::seed::SHORT_SEED {
        tracing::warn!(
            "--seed {seed} is short: {} keeps hands or bids secret, and a bot could try every \
             seed below 2^40 to rebuild them; for a contest leave --seed unset or give a long \
             random one (protocol/SPEC.md §9)",
            game.name()
        );
    }
    if args.seed.is_some() && game.hidden_information() {
        super::isolation::warn_seed_in_sight(isolation, game.name());
    }
    if seed > crate::seed::SEED_MASK {
        return usage(format!(
            "--seed {seed} is too large: seeds are below 2^53 ({}) so that every JSON reader, \
             JavaScript's included, reads them exactly",
            crate::seed::SEED_MASK + 1
        ));
    }
    Ok(seed)
}

/// `--openings`: the rounds' opening moves and deals from the file (which must be out of the
/// bots' reach when it deals hidden cards); none without it.
#[allow(clippy::type_complexity)]
fn openings_for(
    args: &MatchArgs,
    game: &dyn Game,
    isolation: &crate::sandbox::Isolation,
    seed: u64,
    rounds: u32,
    players: usize,
) -> anyhow::Result<(Vec<Vec<serde_json::Value>>, Vec<u64>)> {
    let Some(path) = &args.openings else {
        return Ok((Vec::new(), Vec::new()));
    };
    if game.hidden_information() && !args.public_seed {
        super::isolation::check_private(
            isolation,
            path,
            "the openings file",
            "its lines are the deal seeds of the rounds",
        )
        .map_err(UsageError::of)?;
    }
    use crate::tournament::book;
    let lines = book::read(path, game, seed).map_err(|e| UsageError(format!("--openings: {e}")))?;
    let config = book::BookConfig {
        file: path.clone(),
        order: args.openings_order,
        sha256: String::new(),
        count: lines.len(),
    };
    let b = book::table_book(&lines, &config, seed, 1, rounds, players as u32);
    Ok((b.moves, b.deals))
}

/// `--players`'s long help: the games' ranges.
fn players_help() -> String {
    format!(
        "Number of players ({}). Defaults to the number of BOTs; for a demo, to the game's demo.",
        super::game_flags::player_ranges()
    )
}

/// Folds the standings of the rounds finished so far (from the kept ones of a resumed match).
#[derive(Clone)]
struct SoFar(Arc<std::sync::Mutex<Option<MatchStandings>>>);

impl Observer for SoFar {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::RoundEnded { record } = event {
            let mut so_far = self.0.lock().unwrap_or_else(|p| p.into_inner());
            so_far
                .get_or_insert_with(|| {
                    let names: Vec<String> = record.seats.iter().map(|s| s.name.clone()).collect();
                    MatchStandings::new(&names)
                })
                .add(record);
        }
        Ok(())
    }
}

/// Faults by seat and kind over the match (unasked lines, restarts, ...), for the table.
type SeatFaults = Arc<std::sync::Mutex<BTreeMap<usize, BTreeMap<String, usize>>>>;

/// Prints one line per finished round, the seats named as the record names them, with each
/// forfeit's cause and the round's other faults; counts the faults for the table.
struct RoundLines {
    /// Write to stderr (the record is on stdout).
    to_stderr: bool,
    faults: SeatFaults,
}

impl Observer for RoundLines {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::RoundEnded { record } = event {
            let names: Vec<String> = record.seats.iter().map(|s| s.name.clone()).collect();
            let mut line = match registry::find(&record.game) {
                Ok(entry) => (entry.summary)(record, &names),
                Err(_) => registry::points_line(record, &names),
            };
            for f in &record.forfeits {
                line.push_str(&format!(
                    "  {}",
                    crate::record::notes::forfeit_note(&names[f.seat], f, &record.faults)
                ));
            }
            // Unasked lines of a seat that forfeited are told with its forfeit.
            let others: Vec<_> = record
                .faults
                .iter()
                .filter(|x| !record.forfeits.iter().any(|f| f.seat == x.seat))
                .cloned()
                .collect();
            for note in crate::record::notes::fault_notes(&names, &others) {
                line.push_str(&format!("  {note}"));
            }
            let mut counts = self.faults.lock().unwrap_or_else(|p| p.into_inner());
            for x in &record.faults {
                *counts
                    .entry(x.seat)
                    .or_default()
                    .entry(x.kind.name().to_string())
                    .or_default() += 1;
            }
            if self.to_stderr {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
        Ok(())
    }
}

/// The standings as a table for people.
pub fn standings_table(standings: &[Standing]) -> comfy_table::Table {
    standings_with_faults(standings, &BTreeMap::new())
}

/// The standings as a table for people, with the faults counted by seat (unasked lines,
/// restarts, ...: what `check` would name) where there were any.
pub fn standings_with_faults(
    standings: &[Standing],
    faults: &BTreeMap<usize, BTreeMap<String, usize>>,
) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    let mut header = vec![
        "rank", "seat", "bot", "wins", "points", "outright", "rounds", "forfeits",
    ];
    if !faults.is_empty() {
        header.push("faults");
    }
    table.set_header(header);
    let list = |m: Option<&BTreeMap<String, usize>>| match m {
        Some(m) if !m.is_empty() => m
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => "-".to_string(),
    };
    let wins = crate::standings::wins_column(&standings.iter().map(|s| s.wins).collect::<Vec<_>>());
    for (i, s) in standings.iter().enumerate() {
        let forfeits = if s.forfeits.is_empty() {
            "-".to_string()
        } else {
            s.forfeits
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut row = vec![
            s.rank.to_string(),
            s.seat.to_string(),
            s.name.clone(),
            wins[i].clone(),
            s.points.to_string(),
            s.outright.to_string(),
            s.rounds.to_string(),
            forfeits,
        ];
        if !faults.is_empty() {
            row.push(list(faults.get(&s.seat)));
        }
        table.add_row(row);
    }
    table
}

/// A fresh match id: the seed in hexadecimal, the Unix time in seconds, and a random part, so
/// that matches set up in the same second (with the same seed, too) never share one.
pub fn new_match_id(seed: u64) -> String {
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!("{seed:x}-{started}-{:08x}", rand::random::<u32>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_wins_column_has_one_number_of_decimals() {
        let seat = |seat: usize, wins: f64| Standing {
            rank: seat as u32 + 1,
            seat,
            name: format!("bot{seat}"),
            wins,
            points: 10,
            outright: 1,
            rounds: 5,
            forfeits: BTreeMap::new(),
        };
        let table = standings_table(&[seat(0, 3.0), seat(1, 1.0 / 3.0), seat(2, 1.0)]);
        let cells: Vec<String> = table
            .row_iter()
            .map(|r| r.cell_iter().nth(3).unwrap().content())
            .collect();
        // Before, each row alone: "3", "0.33", "1".
        assert_eq!(cells, ["3.00", "0.33", "1.00"]);
    }

    #[test]
    fn match_ids_made_in_the_same_second_differ() {
        let ids: Vec<String> = (0..64).map(|_| new_match_id(0x2a)).collect();
        for id in &ids {
            let parts: Vec<&str> = id.split('-').collect();
            assert_eq!(parts.len(), 3, "{id}");
            assert_eq!(parts[0], "2a", "{id}");
            assert!(parts[1].parse::<u64>().is_ok(), "{id}");
            assert_eq!(parts[2].len(), 8, "{id}");
        }
        let distinct: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
    }
}
