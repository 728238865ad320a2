//! `rollarena arena freeze | final | rejudge | export`: the contest's last day from the command
//! line, on the arena's directory (while `rollarena serve` runs on it, or not): the closing
//! time, the final tournament (queued here, played by the server's workers), re-judging a
//! match, and the archive of the whole arena. `arena::finals` does the work.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args, Subcommand};

use super::UsageError;
use crate::arena::Arena;
use crate::arena::finals::{export, rejudge, tournament};
use crate::arena::freeze;

#[derive(Subcommand, Debug)]
pub enum LastDay {
    Freeze(FreezeArgs),
    Final(FinalArgs),
    Rejudge(RejudgeArgs),
    Export(ExportArgs),
}

/// Close the contest: from the closing time on, submissions are refused, the ladder makes no
/// new match (those in play finish) and every page says so; before it, pages announce it.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("when").required(true).args(["at", "now", "undo"])))]
pub struct FreezeArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The closing time, RFC 3339 (2026-11-26T18:00:00Z; UTC when no offset is given).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// Close the contest now.
    #[arg(long)]
    pub now: bool,
    /// Take the closing time back (only before it passes).
    #[arg(long)]
    pub undo: bool,
}

/// Start the final tournament on the active versions (each enabled team's pinned or latest
/// ready version), once the contest is closed. Its matches are queued in the arena and played
/// by the server's workers before any other; when every one is over the server publishes the
/// standings and the report (DIR/final/, served at /final/). With --status, print the final's
/// progress instead.
#[derive(Args, Debug)]
pub struct FinalArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// round-robin, gauntlet or swiss (2 seats a table), as `rollarena tournament` plays them.
    #[arg(long, default_value = "round-robin")]
    pub schedule: String,
    /// Rounds a table, a multiple of the seats (default: the ladder's).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Round robin and gauntlet: play the whole schedule this many times.
    #[arg(long)]
    pub repeat: Option<u32>,
    /// Swiss: its rounds (default: ceil(log2 of the field)).
    #[arg(long)]
    pub swiss_rounds: Option<u32>,
    /// Gauntlet: a challenger's team name (repeatable).
    #[arg(long = "challenger", value_name = "TEAM")]
    pub challengers: Vec<String>,
    /// Let the anchors (built-in bots) play in the final too.
    #[arg(long)]
    pub anchors: bool,
    /// The tournament's seed (default: drawn at random; tournament.json keeps it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print the final's progress (and publish it if it is over) rather than start one.
    #[arg(long)]
    pub status: bool,
    /// With --status: print the progress as JSON instead of a sentence.
    #[arg(long, requires = "status")]
    pub json: bool,
}

/// Re-judge a match: void it (it never counts) or play it again (its old record kept
/// aside); then every version's rating, rated matches and SPRT are rebuilt from the done
/// matches in the order they were counted. --recompute alone rebuilds them (after a manual
/// fix of the database).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["rerun", "void", "recompute"])))]
pub struct RejudgeArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The match's id (as its page /matches/ID shows it).
    #[arg(value_name = "MATCH")]
    pub match_id: Option<i64>,
    /// Play the match again.
    #[arg(long)]
    pub rerun: bool,
    /// Void the match.
    #[arg(long)]
    pub void: bool,
    /// Only rebuild the ratings.
    #[arg(long)]
    pub recompute: bool,
    /// Why (kept with a voided match).
    #[arg(long, default_value = "")]
    pub reason: String,
}

/// Write the whole arena (a consistent copy of its database, arena.toml, versions, records,
/// the final) as a .tar.gz, while the server runs or not. It unpacks into an arena directory:
/// `tar xzf FILE && rollarena serve NAME`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The archive to write (it must not exist).
    pub file: PathBuf,
}

pub fn run(command: LastDay) -> anyhow::Result<ExitCode> {
    match command {
        LastDay::Freeze(a) => freeze_cmd(a),
        LastDay::Final(a) => final_cmd(a),
        LastDay::Rejudge(a) => rejudge_cmd(a),
        LastDay::Export(a) => export_cmd(a),
    }
}

fn freeze_cmd(a: FreezeArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&a.dir).map_err(UsageError)?;
    let conn = arena.conn().map_err(UsageError)?;
    if a.undo {
        freeze::undo(&conn).map_err(UsageError)?;
        eprintln!("The closing time is taken back: the contest stays open.");
        return Ok(ExitCode::SUCCESS);
    }
    let (at, now) = match &a.at {
        Some(t) => (freeze::parse_time(t).map_err(UsageError)?, false),
        None => (crate::arena::store::db::now_ms(), true),
    };
    freeze::set(&conn, at, now).map_err(UsageError)?;
    if now {
        eprintln!(
            "The contest closed at {}: submissions are refused and the ladder makes no new \
             match. Next: `rollarena arena final {}`.",
            freeze::utc(at),
            a.dir.display()
        );
    } else {
        eprintln!(
            "The contest closes at {} (pages announce it); `rollarena arena freeze {} --undo` \
             takes it back before then.",
            freeze::utc(at),
            a.dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn final_cmd(a: FinalArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&a.dir).map_err(UsageError)?;
    if a.status {
        let mut conn = arena.conn().map_err(UsageError)?;
        tournament::advance(&arena, &mut conn).map_err(UsageError)?;
        let Some(p) = tournament::progress(&arena, &conn).map_err(UsageError)? else {
            return Err(UsageError(format!(
                "no final was started: start one with `rollarena arena final {}`",
                a.dir.display()
            ))
            .into());
        };
        if a.json {
            println!("{}", serde_json::to_string_pretty(&p)?);
        } else {
            println!("{}", super::arena_admin::final_sentence(&p));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let opts = tournament::Options {
        schedule: Some(a.schedule),
        rounds: a.rounds,
        repeat: a.repeat,
        swiss_rounds: a.swiss_rounds,
        challengers: a.challengers,
        anchors: a.anchors,
        seed: a.seed,
    };
    let (st, tables) = tournament::start(&arena, &opts).map_err(UsageError)?;
    eprintln!(
        "The final ({}) is queued: {tables} tables{}. The server's workers play them first; \
         the standings and the report are published at /final/ (DIR/final/) when every table \
         is over. `rollarena arena final {} --status` shows its progress.",
        st.schedule,
        if st.phases > 1 {
            format!(" in the first of {} Swiss rounds", st.phases)
        } else {
            String::new()
        },
        a.dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn rejudge_cmd(a: RejudgeArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&a.dir).map_err(UsageError)?;
    if a.recompute {
        if a.match_id.is_some() {
            return Err(UsageError(
                "--recompute rebuilds every rating: give no match (or --rerun / --void with one)"
                    .into(),
            )
            .into());
        }
        let n = rejudge::recompute(&arena).map_err(UsageError)?;
        eprintln!("Every rating rebuilt from {n} counted ladder matches.");
        return Ok(ExitCode::SUCCESS);
    }
    let Some(id) = a.match_id else {
        return Err(
            UsageError("name the match to re-judge: rejudge DIR MATCH --void".into()).into(),
        );
    };
    let action = if a.void {
        rejudge::Action::Void { reason: a.reason }
    } else {
        rejudge::Action::Rerun { reason: a.reason }
    };
    let r = rejudge::rejudge(&arena, id, &action).map_err(UsageError)?;
    eprintln!(
        "Match {id} (was {}) is {}{}; every rating rebuilt from {} counted ladder matches.",
        r.was,
        if a.void {
            "void"
        } else {
            "queued to be played again"
        },
        r.kept
            .map(|k| format!(", its old record kept as {k}"))
            .unwrap_or_default(),
        r.counted
    );
    Ok(ExitCode::SUCCESS)
}

fn export_cmd(a: ExportArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&a.dir).map_err(UsageError)?;
    let e = export::export(&arena, &a.file).map_err(UsageError)?;
    eprintln!(
        "Wrote {} ({} bytes). It unpacks into the arena directory {}/ (`tar xzf {}`), which \
         `rollarena serve {}` runs as it is.",
        a.file.display(),
        e.bytes,
        e.root,
        a.file.display(),
        e.root
    );
    Ok(ExitCode::SUCCESS)
}
