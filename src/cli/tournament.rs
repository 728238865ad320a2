//! `rollarena tournament FILE.toml`: runs (or resumes, or runs one shard of) a tournament
//! described in a TOML file, with command-line overrides, and prints its standings.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::UsageError;
use crate::arbiter::process::resolve_program;
use crate::duration::parse_duration;
use crate::sandbox::{Isolation, Level};
use crate::tournament::aggregate::Fold;
use crate::tournament::config::{self, Overrides};
use crate::tournament::output::{self, Shard};
use crate::tournament::runner::{self, Finished, RunError, RunOptions};
use crate::tournament::sprt::{EloModel, Sprt};

/// Run a tournament described in a TOML file (see the book, docs/tournaments.md).
///
/// Tables (matches of a multiple of the players' rounds, so seats and the first move rotate
/// fully) are played concurrently; every round is appended to OUTPUT/results.jsonl as it ends;
/// the standings (OUTPUT/standings.json, standings.csv) and ratings are computed from the
/// records in schedule order, so an interrupted run continued with --resume, or shards merged
/// with `rollarena merge`, give the same results as one uninterrupted run.
///
/// Before the first table every bot of the field is started once (the pre-flight: hello, ready
/// within the start-up time, bye): a bot that cannot start is named with its stderr and nothing
/// is played or written (--no-preflight skips it).
///
/// Exit codes: 0 the tournament was played; 2 bad file or usage; 3 the arbiter failed;
/// 130 interrupted (finished rounds are kept: continue with --resume).
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The tournament file (TOML).
    #[arg(value_name = "FILE.toml")]
    file: PathBuf,
    /// Output directory (default: the file's `output`, else `<file stem>-out` next to it).
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
    /// Tables played at once (default: the file's `jobs`, else the number of cores; 1 for
    /// a game where bots race in real time and must not share cores with another table).
    #[arg(long, short, value_name = "N")]
    jobs: Option<usize>,
    /// Continue an interrupted tournament in its output directory: every finished round is
    /// kept, and each unfinished table goes on from the round after its last finished one.
    #[arg(long)]
    resume: bool,
    /// Add bots to a round robin that ran (or is stopped mid-way) in the output directory:
    /// append their [[bot]] entries to the file, change nothing else, and run with
    /// --add-bot. Only the tables that seat a new bot are scheduled (numbered after the
    /// others); every round played is kept, and interrupted tables go on (implies --resume).
    #[arg(long)]
    add_bot: bool,
    /// Play only part i of n of the schedule (tables whose number is i modulo n); combine the
    /// parts with `rollarena merge`.
    #[arg(long, value_name = "i/n", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Tournament seed (overrides the file's).
    #[arg(long)]
    seed: Option<u64>,
    /// Bots per table (overrides the file's `players`).
    #[arg(long)]
    players: Option<usize>,
    /// Rounds per table, a multiple of the players (overrides the file's `rounds`).
    #[arg(long)]
    rounds: Option<u32>,
    /// Board size (overrides the file's options.size).
    #[arg(long)]
    size: Option<u8>,
    /// Time per move (overrides the file's `time`).
    #[arg(long, value_parser = parse_duration)]
    time: Option<Duration>,
    /// Time from hello to ready (overrides the file's `startup`).
    #[arg(long, value_parser = parse_duration)]
    startup: Option<Duration>,
    /// Latency margin (overrides the file's `margin`).
    #[arg(long, value_parser = parse_duration)]
    margin: Option<Duration>,
    /// A bank, an increment and a first-move allowance (override the file's `tc` and
    /// `first_move`).
    #[command(flatten)]
    clock: super::clock_args::ClockArgs,
    /// Refused attempts allowed per move beyond the first (overrides the file's `retries`).
    #[arg(long)]
    retries: Option<u32>,
    /// Plies of seeded random opening at the start of each rotation cycle (overrides the
    /// file's `opening_plies`).
    #[arg(long, value_name = "N")]
    opening_plies: Option<u32>,
    /// Openings from FILE, one a line (the first moves in the game's notation; a deal seed in
    /// a game with hidden information), each played once per rotation cycle of a table, so
    /// every seat plays it from every colour (the file's `openings`; not with
    /// --opening-plies).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The order in which the openings file is used: its own, or shuffled by the seed (a new
    /// shuffle each time the file is used up) (the file's `openings_order`).
    #[arg(long, value_name = "ORDER", value_enum)]
    openings_order: Option<crate::tournament::book::Order>,
    /// Play the whole schedule this many times (overrides the file's `repeat`).
    #[arg(long, value_name = "N")]
    repeat: Option<u32>,
    /// Sequential test for a two-bot event: elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05); the
    /// event stops when it decides.
    #[arg(long, value_name = "elo0,elo1,alpha,beta")]
    sprt: Option<String>,
    /// The Elo model of the SPRT bounds.
    #[arg(long, value_enum, default_value = "normalized")]
    sprt_model: EloModel,
    /// Run the SPRT on pentanomial results (pairs of rounds with the seats swapped: a
    /// table's rotation cycles, each with its opening), as fastchess does, instead of on
    /// single rounds.
    #[arg(long, requires = "sprt")]
    sprt_pentanomial: bool,
    /// Sandbox level (overrides the file's sandbox.level).
    #[arg(long, value_enum)]
    sandbox: Option<Level>,
    /// Run every bot as this one user when the arbiter is root, instead of a uid per seat
    /// (overrides the file's sandbox.user; seats then share an identity: a warning says so).
    #[arg(long, value_name = "USER")]
    bot_user: Option<String>,
    /// The uids seats are given one each when the arbiter is root (overrides the file's
    /// sandbox.uids; default 60000-60999).
    #[arg(long, value_name = "FIRST-LAST")]
    bot_uids: Option<String>,
    /// Bytes a bot may write in its scratch directory, /tmp, /var/tmp and /dev/shm together
    /// (one tmpfs: a write past it fails with ENOSPC); overrides the file's disk [default:
    /// 512M].
    #[arg(long, value_parser = crate::sandbox::parse_size, value_name = "SIZE")]
    disk: Option<u64>,
    /// Files and directories a bot may make there; overrides the file's inodes [default:
    /// 100000].
    #[arg(long, value_name = "N")]
    inodes: Option<u64>,
    /// Make the output (records, logs, live page, report) readable by this group too (it is
    /// owner-only otherwise, so that no bot can read it while the tournament runs).
    #[arg(long, value_name = "GROUP")]
    output_group: Option<String>,
    /// In a game of hidden information, play even if the bots could read the files the seed
    /// comes from (the tournament file, an openings file of deal seeds), which is refused
    /// otherwise: for a ladder of your own bots, never for a contest.
    #[arg(long)]
    public_seed: bool,
    /// Keep each bot's stderr in OUTPUT/logs/table-<T>-seat-<S>-<name>.log.
    #[arg(long)]
    bot_logs: bool,
    /// Bind each table, its arbiter thread and its bots, to one CPU (table slot i to the i-th
    /// CPU the arbiter may use): no wake-up crosses CPUs, which speeds up fast bots. Not for
    /// bots that use several threads. Use it with --jobs at most the number of CPUs. Without
    /// it, each slot's own threads are still placed on a CPU of their own (its bots start
    /// there, free to run on every CPU).
    #[arg(long)]
    pin: bool,
    /// Print the standings as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Withdraw a bot from a table after it lost N rounds of it in a row by a crash or at
    /// start-up (overrides the file's `withdraw_after`, default 3).
    #[arg(long, value_name = "N", conflicts_with = "recover")]
    withdraw_after: Option<u32>,
    /// Keep restarting a bot that crashes, however often (the file's `recover = true`).
    #[arg(long)]
    recover: bool,
    /// Skip the pre-flight (every bot of the field started once, hello to ready, before
    /// anything is played or written; a bot that fails it stops the run with exit 2).
    #[arg(long)]
    no_preflight: bool,
    /// Keep DIR/index.html showing the standings while the tournament runs (rewritten as each
    /// table ends; the page reloads itself); the full report replaces it at the end.
    #[arg(long, value_name = "DIR")]
    live: Option<PathBuf>,
    /// Do not write the report (OUTPUT/report/) when the tournament ends: it reads every
    /// round back and replays it, which on a big event of fast bots takes a large share of the
    /// run; `rollarena report OUTPUT` writes it later, the same.
    #[arg(long, conflicts_with = "live")]
    no_report: bool,
    /// Start a slot's next table's bots while its current table plays its last rounds, so
    /// that their start-up overlaps the table before (off by default: with minimal bots it
    /// gained nothing pinned and halved unpinned throughput, and the start-up shares a CPU
    /// with bots on the clock). For bots whose start-up is long but light (waiting, not
    /// computing).
    #[arg(long)]
    start_ahead: bool,
}

pub fn run(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let loaded = load(&args)?;
    let mut t = loaded.tournament.clone();
    let isolation = isolation(&args, &mut t)?;
    check_secrets(&args, &loaded, &t, &isolation)?;
    check_bots(&args, &t, &isolation)?;
    let output = output_dir(&args, &loaded);
    let jobs = jobs(&args, &loaded, &t)?;
    let field = crate::tournament::grow::fit(
        &output,
        &mut t,
        &args.file.display().to_string(),
        &loaded.file_sha256,
        loaded.seed_drawn,
        args.add_bot,
    )
    .map_err(UsageError::of)?;
    if !args.no_preflight {
        preflight(&t, &isolation)?;
    }
    if let crate::tournament::grow::Field::Grown { meta, names } = &field {
        // Only once the new bots have passed the pre-flight: the directory is the grown
        // event's from now on.
        output::write_meta(&output, meta)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", output::META))?;
        if !args.json {
            announce_growth(&t, names)?;
        }
    }
    let opts = RunOptions {
        output: output.clone(),
        jobs,
        resume: args.resume || args.add_bot,
        shard: args.shard,
        isolation,
        bot_logs: args.bot_logs,
        pin: args.pin,
        start_ahead: args.start_ahead,
        quiet: args.json,
        file: args.file.display().to_string(),
        file_sha256: loaded.file_sha256.clone(),
        on_standings: args.live.clone().map(|dir| {
            let out = output.clone();
            runner::OnStandings(std::sync::Arc::new(move |standings| {
                crate::report::live::write_from(&dir, Some(&out), standings)
            }))
        }),
    };
    let tables = runner::scheduled_tables(&t).map_err(UsageError::of)?;
    if !args.json {
        announce(&args, &t, tables, jobs, &output);
    }
    if let Some(live) = &args.live {
        empty_live_page(&args, &t, tables, live)?;
    }
    let summary = match runner::run(&t, opts) {
        Ok(Finished::Done(s)) => s,
        Ok(Finished::Interrupted) => {
            eprintln!(
                "interrupted: every bot was killed; finished rounds are in {}. Continue with:\n  {}",
                output.join(output::RESULTS).display(),
                resume_command()
            );
            return Ok(ExitCode::from(130));
        }
        Err(RunError::Usage(m)) => return Err(UsageError(m).into()),
        Err(RunError::Failed(m)) => return Err(anyhow::anyhow!(m)),
    };
    let reports = reports(&args, &output);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary.standings)?);
        for line in reports.iter().filter(|l| !l.starts_with("report: ")) {
            eprintln!("{line}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}", crate::tournament::summary::text(&summary, &output));
    for line in reports {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The tournament file with the command line's overrides; a shard of a file without a seed
/// is refused (each shard would draw its own, so its own schedule and deals).
fn load(args: &TournamentArgs) -> anyhow::Result<config::Loaded> {
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| Sprt::parse(s, args.sprt_model))
        .map(|r| {
            r.map(|t| Sprt {
                pentanomial: args.sprt_pentanomial,
                ..t
            })
        })
        .transpose()
        .map_err(UsageError::of)?;
    let clock = args.clock.resolve()?;
    let overrides = Overrides {
        seed: args.seed,
        players: args.players,
        rounds: args.rounds,
        time: args.time,
        tc: clock.bank(),
        first_move: clock.first_move,
        startup: args.startup,
        margin: args.margin,
        retries: args.retries,
        opening_plies: args.opening_plies,
        openings: args.openings.clone(),
        openings_order: args.openings_order,
        repeat: args.repeat,
        size: args.size,
        withdraw_after: if args.recover {
            Some(0)
        } else {
            args.withdraw_after
        },
        sprt,
    };
    let loaded = config::load(&args.file, &overrides).map_err(|e| UsageError(e.to_string()))?;
    if let Some(shard) = args.shard
        && loaded.seed_drawn
    {
        return Err(UsageError(format!(
            "--shard {shard}: the shards of one tournament must share its seed, and {} gives \
             none (without one, each run draws its own): add `seed = N` to the file, N a random \
             number below 2^53 (python3 -c 'import secrets; print(secrets.randbits(53))'), \
             or give every shard the same --seed N",
            args.file.display()
        ))
        .into());
    }
    Ok(loaded)
}

/// The sandbox's settings with the command line's overrides written into `t`, the output's
/// group set, and the isolation they give, probed.
fn isolation(args: &TournamentArgs, t: &mut config::Tournament) -> anyhow::Result<Isolation> {
    if let Some(level) = args.sandbox {
        t.sandbox.level = level;
    }
    if let Some(user) = &args.bot_user {
        t.sandbox.user = Some(user.clone());
    }
    if let Some(uids) = &args.bot_uids {
        t.sandbox.uids = uids.clone();
    }
    if let Some(disk) = args.disk {
        t.sandbox.limits.disk = disk;
    }
    if let Some(inodes) = args.inodes {
        t.sandbox.limits.inodes = inodes;
    }
    crate::sandbox::output::make_private(args.output_group.as_deref()).map_err(UsageError::of)?;
    let isolation = Isolation::new(
        t.sandbox.level,
        t.sandbox.user.as_deref(),
        &t.sandbox.uids,
        t.sandbox.limits,
    )
    .map_err(UsageError::of)?;
    isolation.probe().map_err(UsageError::of)?;
    Ok(isolation)
}

/// A game with hidden cards deals them from the seed: the files that give it (the tournament
/// file's `seed`, the openings file) must be out of the bots' reach (`--public-seed` waives it).
fn check_secrets(
    args: &TournamentArgs,
    loaded: &config::Loaded,
    t: &config::Tournament,
    isolation: &Isolation,
) -> anyhow::Result<()> {
    if args.public_seed || !t.game().is_ok_and(|g| g.hidden_information()) {
        return Ok(());
    }
    let hidden = "the game deals hidden cards from the tournament's seed";
    // With --seed the file does not decide it (the command line is out of a sandboxed
    // bot's sight: its PID namespace shows no other process), nor without a `seed` in it
    // (the seed is drawn from the operating system, and kept in the private output).
    if args.seed.is_none() && !loaded.seed_drawn {
        super::isolation::check_private(
            isolation,
            &args.file,
            "the tournament file",
            &format!("{hidden}, which is its `seed`"),
        )
        .map_err(UsageError::of)?;
    }
    if args.seed.is_some() {
        super::isolation::warn_seed_in_sight(isolation, &t.game);
    }
    if let Some(book) = &t.openings {
        super::isolation::check_private(
            isolation,
            &book.file,
            "the openings file",
            "its lines are the deal seeds of the rounds",
        )
        .map_err(UsageError::of)?;
    }
    Ok(())
}

/// Every bot's program exists and the seats can reach it; an error names the bot, its command
/// and, for a relative path, the directory it was taken from.
fn check_bots(
    args: &TournamentArgs,
    t: &config::Tournament,
    isolation: &Isolation,
) -> anyhow::Result<()> {
    for b in &t.bots {
        let mut argv = shell_words::split(&b.command).map_err(|e| UsageError(e.to_string()))?;
        if let Some(cwd) = &b.cwd
            && argv[0].contains('/')
            && std::path::Path::new(&argv[0]).is_relative()
        {
            argv[0] = cwd.join(&argv[0]).display().to_string();
        }
        resolve_program(&argv[0])
            .map_err(UsageError::of)
            .and_then(|_| super::isolation::check_reachable(isolation, &argv))
            .map_err(|e| {
                let from = b.cwd.clone().or_else(|| {
                    args.file
                        .parent()
                        .and_then(|d| std::fs::canonicalize(d).ok())
                });
                let said = match from {
                    Some(dir) if std::path::Path::new(&argv[0]).starts_with(&dir) => format!(
                        " (a relative path in the file is taken from {}: the {} directory)",
                        dir.display(),
                        if b.cwd.is_some() {
                            "bot's cwd"
                        } else {
                            "file's"
                        }
                    ),
                    _ => String::new(),
                };
                UsageError(format!("bot {:?} ({}): {e}{said}", b.name, b.command))
            })?;
    }
    Ok(())
}

/// The output directory: `--output`, else the file's `output`, else `<file stem>-out` beside
/// it; a shard gets a directory of its own inside it unless `--output` names one.
fn output_dir(args: &TournamentArgs, loaded: &config::Loaded) -> PathBuf {
    let output = args
        .output
        .clone()
        .or(loaded.run.output.clone())
        .unwrap_or_else(|| {
            let stem = args
                .file
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| "tournament".into());
            let dir = args.file.parent().unwrap_or(std::path::Path::new("."));
            dir.join(format!("{stem}-out"))
        });
    match args.shard {
        Some(s) if args.output.is_none() => {
            output.join(format!("shard-{}-of-{}", s.index, s.count))
        }
        _ => output,
    }
}

/// Tables at once: `--jobs`, else the file's `jobs`, else one for a simultaneous game (its
/// bots race in wall time), else one per core.
fn jobs(
    args: &TournamentArgs,
    loaded: &config::Loaded,
    t: &config::Tournament,
) -> anyhow::Result<usize> {
    let simultaneous = t.game().is_ok_and(|g| g.simultaneous());
    if let Some(j) = args.jobs {
        crate::arbiter::settings::jobs(j).map_err(|e| UsageError(format!("--jobs 0: {e}")))?;
    }
    Ok(args
        .jobs
        .or(loaded.run.jobs)
        .or(simultaneous.then_some(1))
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }))
}

/// The line that says which bots joined a round robin and how many tables that adds.
fn announce_growth(t: &config::Tournament, names: &[String]) -> anyhow::Result<()> {
    let before = crate::tournament::Tournament {
        bots: t.bots[..t.added[t.added.len() - 1]].to_vec(),
        added: t.added[..t.added.len() - 1].to_vec(),
        ..t.clone()
    };
    let fresh = runner::scheduled_tables(t).map_err(UsageError::of)?
        - runner::scheduled_tables(&before).map_err(UsageError::of)?;
    eprintln!(
        "adding {} to the round robin: {fresh} new tables, numbered after the ones \
         scheduled before (every round played is kept)",
        names.join(", ")
    );
    Ok(())
}

/// The run's first line: bots, schedule, tables, tables at once and the output directory.
fn announce(
    args: &TournamentArgs,
    t: &config::Tournament,
    tables: u32,
    jobs: usize,
    output: &std::path::Path,
) {
    let plural = crate::record::notes::plural;
    eprintln!(
        "{}: {}, {} schedule, {} of {} x {}{}, {} at once -> {}",
        t.name,
        plural(t.bots.len(), "bot", "bots"),
        t.schedule.name(),
        plural(tables as usize, "table", "tables"),
        plural(t.players, "player", "players"),
        plural(t.rounds as usize, "round", "rounds"),
        args.shard
            .map(|s| format!(" (shard {s})"))
            .unwrap_or_default(),
        jobs.min(tables.max(1) as usize),
        output.display()
    );
}

/// `--live`: the page written at once, with no round played yet.
fn empty_live_page(
    args: &TournamentArgs,
    t: &config::Tournament,
    tables: u32,
    live: &std::path::Path,
) -> anyhow::Result<()> {
    let tables = match args.shard.map(|s| runner::shard_tables(t, Some(s))) {
        Some(Ok(Some(fixed))) => fixed.len() as u32,
        _ => tables,
    };
    let empty = Fold::new(t).standings(Some(tables));
    crate::report::live::write(live, &empty).map_err(UsageError::of)?;
    Ok(())
}

/// The report's lines: the report written (or why not), and the full report in place of the
/// live page.
fn reports(args: &TournamentArgs, output: &std::path::Path) -> Vec<String> {
    let mut reports = Vec::new();
    if args.no_report {
        reports.push(format!(
            "no report (--no-report): `rollarena report {}` writes it",
            shell_words::quote(&output.display().to_string())
        ));
    } else {
        reports.push(written(crate::report::write(output)));
    }
    if let Some(live) = &args.live {
        reports.push(written(crate::report::write_to(output, live)));
    }
    reports
}

/// What writing a report came to, in a line.
fn written(result: Result<crate::report::Written, rollarena_tournament::Error>) -> String {
    match result {
        Ok(w) => super::report::summary(&w),
        Err(e) => format!("the report could not be written: {e}"),
    }
}

/// Starts every bot of the field once before anything is written (see
/// [`crate::arbiter::preflight`]); a bot that fails stops the run.
fn preflight(
    t: &crate::tournament::config::Tournament,
    isolation: &Isolation,
) -> anyhow::Result<()> {
    let specs = t
        .bots
        .iter()
        .map(runner::spec_of)
        .collect::<Result<Vec<_>, _>>()
        .map_err(UsageError::of)?;
    let game = t.game().map_err(UsageError::of)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let failed = runtime.block_on(crate::arbiter::preflight::run(
        &specs,
        &*game,
        t.rounds,
        t.time(),
        crate::arbiter::Limits::default(),
        isolation,
    ));
    if failed.is_empty() {
        Ok(())
    } else {
        Err(UsageError(crate::arbiter::preflight::message(&failed, specs.len())).into())
    }
}

/// The command line that resumes this run: the same words, plus `--resume`.
fn resume_command() -> String {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--resume" && a != "--add-bot")
        .collect();
    format!("rollarena {} --resume", shell_words::join(words))
}
