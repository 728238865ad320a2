//! `rollarena arena teams|status|disable|enable|token|pause|resume DIR ...`: what the
//! organiser's page does, from the host's shell, while `rollarena serve` runs on the arena or
//! not (the database is shared). The rules and their words are the arena's own
//! ([`crate::arena::admin`], [`crate::arena::status`]), the same the page uses; a refusal (no
//! such team, a built-in bot's token) is bad input (exit 2), a database that fails is the
//! arbiter's (exit 3).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::UsageError;
use crate::arena::freeze::utc;
use crate::arena::status::{self, Status, TeamListing};
use crate::arena::{Arena, admin};

#[derive(Subcommand, Debug)]
pub enum Organiser {
    /// List every team: its state (enabled, disabled, built-in), the version that plays, its
    /// versions, its finished matches and its last submission.
    Teams(ListArgs),
    /// The arena at a glance: the build queue, matches queued, in play and finished in the
    /// last minute, the workers, the matchmaker, the closing time and the final.
    Status(ListArgs),
    /// Disable a team: its versions leave the ladder (matches already made are played) and
    /// its submissions are refused, until `enable`.
    Disable(TeamArgs),
    /// Enable a disabled team again.
    Enable(TeamArgs),
    /// Give a team a new token and print it: the old token and every session opened with it
    /// stop working (for a team that lost its token or leaked it).
    Token(TeamArgs),
    /// Pause the matchmaker: no new match is made (matches already made are played), until
    /// `resume`.
    Pause(DirArgs),
    /// Resume the matchmaker; a ladder at rest wakes: every version plays one match more (it
    /// rests again unless a result unsettles a rating).
    Resume(DirArgs),
}

/// An arena to list.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// Print JSON (the same fields) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// An arena and one of its teams.
#[derive(Args, Debug)]
pub struct TeamArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The team's name, exactly as it was added (`rollarena arena teams DIR` lists them).
    pub team: String,
}

/// An arena.
#[derive(Args, Debug)]
pub struct DirArgs {
    /// The arena's directory.
    pub dir: PathBuf,
}

pub fn run(command: Organiser) -> anyhow::Result<ExitCode> {
    match command {
        Organiser::Teams(a) => teams(a),
        Organiser::Status(a) => status_cmd(a),
        Organiser::Disable(a) => set_disabled(a, true),
        Organiser::Enable(a) => set_disabled(a, false),
        Organiser::Token(a) => token(a),
        Organiser::Pause(a) => set_paused(a, true),
        Organiser::Resume(a) => set_paused(a, false),
    }
}

/// Opens the arena; a directory that holds none is the user's mistake.
fn open(dir: &std::path::Path) -> anyhow::Result<Arena> {
    Ok(Arena::open(dir).map_err(UsageError)?)
}

/// The team's id, or a refusal that says how to find the names.
fn team_id(
    arena: &Arena,
    dir: &std::path::Path,
    name: &str,
) -> anyhow::Result<crate::arena::store::TeamId> {
    let conn = arena.conn().map_err(|e| anyhow::anyhow!(e))?;
    match admin::find_team(&conn, name).map_err(|e| anyhow::anyhow!(e))? {
        Some(id) => Ok(id),
        None => Err(UsageError(format!(
            "there is no team named {name:?}: `rollarena arena teams {}` lists them (names are \
             compared exactly, capitals and blanks included)",
            dir.display()
        ))
        .into()),
    }
}

fn teams(a: ListArgs) -> anyhow::Result<ExitCode> {
    let arena = open(&a.dir)?;
    let mut conn = arena.conn().map_err(|e| anyhow::anyhow!(e))?;
    let placement = arena.config.ladder.placement_matches;
    let teams = status::teams(&mut conn, placement).map_err(|e| anyhow::anyhow!(e))?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&teams)?);
    } else if teams.is_empty() {
        println!(
            "No team yet: `rollarena arena team {} NAME` adds one.",
            a.dir.display()
        );
    } else {
        println!("{}", teams_table(&teams, placement));
    }
    Ok(ExitCode::SUCCESS)
}

/// The teams as a table: numbers right-aligned under right-aligned headers.
fn teams_table(teams: &[TeamListing], placement: u32) -> comfy_table::Table {
    use comfy_table::{CellAlignment, Table, presets};
    let mut table = Table::new();
    table.load_preset(presets::UTF8_FULL_CONDENSED);
    table.set_header([
        "team",
        "state",
        "plays",
        "versions",
        "matches",
        "last submission",
    ]);
    for t in teams {
        let plays = match (t.active_version, t.pinned_version) {
            (Some(v), Some(p)) if v == p => format!("#{v} (pinned)"),
            (Some(v), _) => format!("#{v}"),
            (None, _) => "-".into(),
        };
        // Not ranked until its placement matches are played.
        let plays = match t.active_matches {
            Some(n) if t.placing => format!("{plays}, placing: {n} of {placement}"),
            _ => plays,
        };
        let last = match (t.last_version, &t.last_state, t.last_submitted_at) {
            (Some(v), Some(s), Some(at)) => format!("#{v} {s}, {}", utc(at)),
            _ => "-".into(),
        };
        table.add_row([
            t.name.clone(),
            t.state().to_string(),
            plays,
            t.versions.to_string(),
            t.matches.to_string(),
            last,
        ]);
    }
    for col in [2, 3, 4] {
        if let Some(c) = table.column_mut(col) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    table
}

fn status_cmd(a: ListArgs) -> anyhow::Result<ExitCode> {
    let arena = open(&a.dir)?;
    let mut conn = arena.conn().map_err(|e| anyhow::anyhow!(e))?;
    let s = status::status(&arena, &mut conn).map_err(|e| anyhow::anyhow!(e))?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        print!("{}", sentences(&s));
    }
    Ok(ExitCode::SUCCESS)
}

/// `arena status` in words, one line a subject.
fn sentences(s: &Status) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(format!(
        "Arena of {}: {} team{}{}.",
        s.game,
        s.teams,
        plural(s.teams),
        if s.teams_disabled > 0 {
            format!(" ({} disabled)", s.teams_disabled)
        } else {
            String::new()
        }
    ));
    let v = &s.versions;
    line(format!(
        "Builds: {} queued, {} building or checking; {} version{} ready, {} failed.",
        v.queued,
        v.running,
        v.done,
        plural(v.done),
        v.failed
    ));
    let m = &s.matches;
    line(format!(
        "Matches: {} queued, {} in play, {} done, {} failed; {} finished in the last minute, \
         {} in the last ten.",
        m.queued, m.running, m.done, m.failed, s.matches_last_minute, s.matches_last_10_minutes
    ));
    line(match (s.paused, s.at_rest_since) {
        (true, _) => "The matchmaker is paused: no new match is made (`rollarena arena resume \
                      DIR` resumes it)."
            .into(),
        (false, Some(since)) => format!(
            "The ladder is at rest since {}: every rating is settled and no version is \
             placing, so no match would teach anything; a new version, a new team or \
             `rollarena arena resume DIR` wakes it.",
            utc(since)
        ),
        (false, None) => "The matchmaker is running.".into(),
    });
    if s.workers.is_empty() {
        line("Workers: the server's own only (no remote worker registered).".into());
    } else {
        let live: Vec<String> = s
            .workers
            .iter()
            .map(|w| {
                let seen = match w.last_contact {
                    Some(at) => format!("last seen {}", utc(at)),
                    None => "never seen".into(),
                };
                let revoked = if w.revoked { ", revoked" } else { "" };
                format!(
                    "{} ({seen}, {} holding, {} in the last hour{revoked})",
                    w.name, w.holding, w.matches_last_hour
                )
            })
            .collect();
        line(format!(
            "Workers: the server's own and {}: {}.",
            s.workers.len(),
            live.join("; ")
        ));
    }
    line(match (s.closing_at, s.closed) {
        (Some(at), true) => format!("The contest closed at {}.", utc(at)),
        (Some(at), false) => format!("The contest closes at {}.", utc(at)),
        (None, _) => "No closing time is set.".into(),
    });
    if let Some(p) = &s.final_progress {
        line(final_sentence(p));
    }
    out
}

/// The final's progress in one sentence (`arena status`, `arena final --status`).
pub fn final_sentence(p: &crate::arena::finals::tournament::Progress) -> String {
    let total = p.queued + p.running + p.done + p.failed;
    let phase = if p.state.phases > 1 {
        format!(
            ", Swiss round {} of {}",
            p.state.phase.min(p.state.phases),
            p.state.phases
        )
    } else {
        String::new()
    };
    let published = match p.state.published_at {
        Some(at) => format!("; published at {} (served at /final/)", utc(at)),
        None => "; not published yet".into(),
    };
    format!(
        "The final ({}{phase}, {} bot{} in the field): {} of {total} table{} done, {} in play, \
         {} queued, {} failed{}{published}.",
        p.state.schedule,
        p.field.len(),
        plural(p.field.len() as i64),
        p.done,
        plural(total as i64),
        p.running,
        p.queued,
        p.failed,
        if p.void > 0 {
            format!(", {} void", p.void)
        } else {
            String::new()
        },
    )
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn set_disabled(a: TeamArgs, disabled: bool) -> anyhow::Result<ExitCode> {
    let arena = open(&a.dir)?;
    let id = team_id(&arena, &a.dir, &a.team)?;
    admin::set_team_disabled(&arena, id, disabled).map_err(|e| anyhow::anyhow!(e))?;
    if disabled {
        println!(
            "Disabled the team {:?}: its versions leave the ladder (matches already made are \
             played) and its submissions are refused until `rollarena arena enable {} {:?}`.",
            a.team,
            a.dir.display(),
            a.team
        );
    } else {
        println!(
            "Enabled the team {:?}: its version plays in the ladder again and it may submit.",
            a.team
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn token(a: TeamArgs) -> anyhow::Result<ExitCode> {
    let arena = open(&a.dir)?;
    let id = team_id(&arena, &a.dir, &a.team)?;
    let conn = arena.conn().map_err(|e| anyhow::anyhow!(e))?;
    let token = admin::new_token(&conn, id).map_err(UsageError)?;
    eprintln!(
        "The team {:?} has a new token, which follows (shown this once): its old token and \
         every session opened with it no longer work. The team submits with it in \
         ROLLARENA_TOKEN.",
        a.team
    );
    println!("{token}");
    Ok(ExitCode::SUCCESS)
}

fn set_paused(a: DirArgs, paused: bool) -> anyhow::Result<ExitCode> {
    let arena = open(&a.dir)?;
    let resting = admin::set_paused(&arena, paused).map_err(|e| anyhow::anyhow!(e))?;
    println!(
        "{}",
        match (paused, resting) {
            (true, _) => {
                "Paused the matchmaker: no new match is made; matches already made are played."
            }
            (false, true) => {
                "Resumed the matchmaker and woke the ladder from its rest: every version plays \
                 one match more, then it rests again unless a result unsettles a rating."
            }
            (false, false) => "Resumed the matchmaker: it makes matches again.",
        }
    );
    Ok(ExitCode::SUCCESS)
}
