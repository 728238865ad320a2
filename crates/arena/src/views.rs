//! The read models of the arena's pages: what the leaderboard, a team, a match, a submission
//! and the organiser see, as plain serde structs read from the database (and, for a match or a
//! submission, from its files in the arena directory).
//!
//! Both the HTML templates and the JSON API serialise these very values, so a page and its API
//! can never disagree. Who may see what is decided here, once, from a [`Viewer`]: a field a
//! viewer may not see is left empty (`None`) rather than filled and hidden by a template.
//!
//! The rows read from the database (a version, a match and its seats, a leaderboard row...)
//! are the store's ([`crate::store::rows`], re-exported here), with typed ids and states that
//! serialize as the numbers and texts they are stored as.

use std::path::Path;

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

pub use super::store::rows::{
    DisabledRow, DisabledVersion, HistoryPoint, LeaderRow, MatchRow, OpponentRow, SeatRow, TeamRow,
    VersionRow, conservative,
};
use super::store::{MatchId, MatchState, TeamId, VersionId, reads, settings, versions};
use crate::record::RoundRecord;

/// Who is asking: decides what of a team's private material (its sources, build logs, check
/// reports, its bot's stderr and logs in records) a view holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Viewer {
    Public,
    Team { id: TeamId, name: String },
    Organiser,
}

impl Viewer {
    /// Whether this viewer may see team `team_id`'s private material.
    pub fn owns(&self, team_id: TeamId) -> bool {
        match self {
            Viewer::Public => false,
            Viewer::Team { id, .. } => *id == team_id,
            Viewer::Organiser => true,
        }
    }

    pub fn is_organiser(&self) -> bool {
        matches!(self, Viewer::Organiser)
    }
}

/// Why a view could not be made: the thing does not exist (or this viewer may not know it
/// does), or the database failed.
#[derive(Debug)]
pub enum ViewError {
    NotFound(String),
    Forbidden(String),
    Internal(String),
}

impl From<rusqlite::Error> for ViewError {
    fn from(e: rusqlite::Error) -> Self {
        ViewError::Internal(format!("database: {e}"))
    }
}

impl From<super::store::StoreError> for ViewError {
    fn from(e: super::store::StoreError) -> Self {
        ViewError::Internal(e.to_string())
    }
}

/// How many matches back the leaderboard's trend looks.
pub const TREND_MATCHES: i64 = 10;
/// How many matches a team page and the match list show.
pub const RECENT_MATCHES: i64 = 20;

// ---------------------------------------------------------------------------------------------
// The leaderboard

#[derive(Clone, Debug, Serialize)]
pub struct Leaderboard {
    /// The matchmaker is paused by the organiser.
    pub paused: bool,
    /// Since when (Unix ms) the ladder is at rest: no match would teach anything (see
    /// `store::rest`); `None` while it plays.
    pub at_rest_since: Option<i64>,
    /// Finished matches in the whole arena.
    pub matches: i64,
    /// The ranked versions: those that played their placement matches. Equal conservative
    /// ratings (to the hundredth shown) share a rank: 1, 1, 3.
    pub rows: Vec<LeaderRow>,
    /// Rated matches a version plays before it is ranked (`[ladder] placement_matches`).
    pub placement_matches: u32,
    /// The versions still placing, listed apart and unranked: most matches first.
    pub placing: Vec<LeaderRow>,
    /// Enabled teams without a version that passed its check yet.
    pub unranked: Vec<String>,
    /// The teams the organiser disabled: not ranked, but listed (marked, not vanished).
    pub disabled: Vec<DisabledRow>,
}

/// The disabled teams, by name.
fn disabled_teams(conn: &Connection) -> Result<Vec<DisabledRow>, ViewError> {
    Ok(reads::disabled_teams(conn)?)
}

/// The leaderboard, a version ranked once it played `placement` rated matches.
pub fn leaderboard(conn: &Connection, placement: u32) -> Result<Leaderboard, ViewError> {
    let mut rows = reads::leader_rows(conn)?;
    rows.sort_by(|a, b| {
        b.conservative
            .total_cmp(&a.conservative)
            .then_with(|| a.team.cmp(&b.team))
    });
    let (mut rows, mut placing): (Vec<LeaderRow>, Vec<LeaderRow>) = rows
        .into_iter()
        .partition(|r| r.matches >= i64::from(placement));
    placing.sort_by(|a, b| b.matches.cmp(&a.matches).then_with(|| a.team.cmp(&b.team)));
    // Competition ranking: a rating equal to the one above (to the hundredth the pages show)
    // shares its rank, and the next rank counts every row above it.
    let shown = |r: &LeaderRow| (r.conservative * 100.0).round();
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && shown(&rows[i]) == shown(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    for row in rows.iter_mut() {
        if row.matches > 0 {
            let back = (row.matches.min(TREND_MATCHES) - 1).max(0);
            let before = reads::rating_before(conn, row.version_id, back)?;
            row.trend = before.map(|(mu, sigma)| row.conservative - conservative(mu, sigma));
        }
    }
    let unranked = reads::unranked(conn)?;
    Ok(Leaderboard {
        paused: paused(conn)?,
        at_rest_since: crate::store::rest::since(conn)
            .map_err(|e| ViewError::Internal(e.to_string()))?,
        placement_matches: placement,
        placing,
        matches: reads::matches_done(conn)?,
        rows,
        unranked,
        disabled: disabled_teams(conn)?,
    })
}

/// Whether the organiser paused the matchmaker (the `state` table's `paused`).
pub fn paused(conn: &Connection) -> Result<bool, ViewError> {
    let value = settings::get(conn, "paused")?;
    Ok(value.is_some_and(|v| v.trim() == "true"))
}

// ---------------------------------------------------------------------------------------------
// A team

#[derive(Clone, Debug, Serialize)]
pub struct TeamPage {
    pub name: String,
    pub disabled: bool,
    /// One of the arena's built-in bots (an anchor): it has one version, never pinned.
    pub builtin: bool,
    /// The version that plays (`None`: none passed its check yet).
    pub active_version: Option<VersionId>,
    /// The version the team pinned, if it did.
    pub pinned_version: Option<VersionId>,
    /// The viewer may see this team's private material (its own page, or the organiser).
    pub own: bool,
    /// Newest first.
    pub versions: Vec<VersionRow>,
    /// The conservative rating after each of the team's rated matches, oldest first.
    pub history: Vec<HistoryPoint>,
    /// Newest first.
    pub recent: Vec<MatchRow>,
    pub opponents: Vec<OpponentRow>,
    /// The team's forfeits over its last [`RECENT_MATCHES`] finished matches, by cause.
    pub forfeits: ForfeitSummary,
}

/// A team's forfeits over its last finished matches, by cause (from the matches' records).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ForfeitSummary {
    /// The finished matches counted (at most [`RECENT_MATCHES`]).
    pub matches: i64,
    /// The bot's process ended (or closed its stdout) mid-match.
    pub crashes: i64,
    /// No answer in time (or no `ready` by the start-up deadline).
    pub timeouts: i64,
    /// Every attempt at a move refused as illegal.
    pub illegal: i64,
    /// Rounds forfeited at once by a bot withdrawn after crashing (or failing to start) in
    /// round after round: the arbiter did not start it again.
    pub withdrawn: i64,
    /// Lines too long, floods, and forfeits whose record could not be read.
    pub other: i64,
    /// The match with the most forfeits of the team (the latest of equals).
    pub worst: Option<WorstMatch>,
}

#[derive(Clone, Debug, Serialize)]
pub struct WorstMatch {
    pub id: MatchId,
    pub forfeits: i64,
}

/// Counts team `id`'s forfeits over its last [`RECENT_MATCHES`] finished matches: the
/// database has each seat's count, the records (read only for matches with forfeits) their
/// causes.
fn forfeit_summary(conn: &Connection, dir: &Path, id: TeamId) -> Result<ForfeitSummary, ViewError> {
    let rows = reads::recent_forfeits(conn, id, RECENT_MATCHES)?;
    let mut summary = ForfeitSummary {
        matches: rows.len() as i64,
        ..ForfeitSummary::default()
    };
    for reads::MatchForfeits {
        match_id,
        forfeits,
        record_path: path,
        seats,
    } in rows
    {
        if forfeits <= 0 {
            continue;
        }
        if summary.worst.as_ref().is_none_or(|w| forfeits > w.forfeits) {
            summary.worst = Some(WorstMatch {
                id: match_id,
                forfeits,
            });
        }
        let seats: Vec<usize> = seats.split(',').filter_map(|s| s.parse().ok()).collect();
        let records = path
            .and_then(|p| crate::record::reader::read_records(&dir.join(p)).ok())
            .map(|(records, _)| records);
        let mut counted = 0;
        for f in records
            .iter()
            .flatten()
            .flat_map(|r| &r.forfeits)
            .filter(|f| seats.contains(&f.seat))
        {
            use crate::record::fault::ForfeitKind as K;
            counted += 1;
            match f.kind {
                K::Crash | K::ClosedStdout => summary.crashes += 1,
                // The arbiter's documented mark of a withdrawn seat's rounds.
                K::Startup if f.detail.starts_with("withdrawn") => summary.withdrawn += 1,
                K::Timeout | K::Startup => summary.timeouts += 1,
                K::Retries => summary.illegal += 1,
                K::LineTooLong | K::Flood => summary.other += 1,
            }
        }
        summary.other += (forfeits - counted).max(0);
    }
    Ok(summary)
}

pub fn team(
    conn: &Connection,
    dir: &Path,
    name: &str,
    viewer: &Viewer,
) -> Result<TeamPage, ViewError> {
    let found = reads::team_head(conn, name)?;
    let Some(reads::TeamHead {
        id,
        disabled,
        builtin,
        pinned_version,
        active_version,
    }) = found
    else {
        return Err(ViewError::NotFound(format!("no team is named {name:?}")));
    };
    let mut versions = reads::team_versions(conn, id)?;
    if !viewer.owns(id) {
        for v in &mut versions {
            v.failure = None;
        }
    }
    let history = reads::history(conn, id)?;
    let ids = reads::recent_matches(conn, id, RECENT_MATCHES)?;
    let recent = match_rows(conn, &ids)?;
    let opponents = reads::opponents(conn, id)?;
    Ok(TeamPage {
        name: name.to_string(),
        disabled,
        builtin,
        active_version,
        pinned_version,
        own: viewer.owns(id),
        versions,
        history,
        recent,
        opponents,
        forfeits: forfeit_summary(conn, dir, id)?,
    })
}

/// The matches `ids`, in that order, with their seats.
pub fn match_rows(conn: &Connection, ids: &[MatchId]) -> Result<Vec<MatchRow>, ViewError> {
    Ok(reads::match_rows(conn, ids)?)
}

// ---------------------------------------------------------------------------------------------
// Matches

/// The finished matches, newest first: `before` (a match id) pages back, `team` filters.
pub fn matches(
    conn: &Connection,
    team: Option<&str>,
    before: Option<MatchId>,
    limit: i64,
) -> Result<Vec<MatchRow>, ViewError> {
    let before = before.unwrap_or(MatchId(i64::MAX));
    let limit = limit.clamp(1, 200);
    let ids = reads::done_matches(conn, team, before, limit)?;
    match_rows(conn, &ids)
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchPage {
    #[serde(flatten)]
    pub row: MatchRow,
    /// Why a failed or void match did not count.
    pub error: Option<String>,
    /// Per seat, from the record.
    pub timings: Vec<SeatTiming>,
    /// The rounds' winners (seat numbers), in round order.
    pub round_winners: Vec<Vec<usize>>,
    /// Every forfeit of the match, round by round.
    pub forfeits: Vec<ForfeitRow>,
    /// "Where the game was lost": its moves graded, once the grader has been through it
    /// ([`super::grading`]).
    pub grades: Option<super::grading::Grades>,
}

/// A forfeit, as a match's page lists it: its cause, move and time, and the bot's last stderr
/// for its own team and the organiser only.
#[derive(Clone, Debug, Serialize)]
pub struct ForfeitRow {
    pub round: u32,
    pub seat: usize,
    pub team: String,
    /// `crash`, `timeout`, `retries` (every attempt at a move refused), ... (the record's).
    pub kind: String,
    /// The move (ply, from 1) being asked; 0 before the round's first (start-up).
    pub ply: u32,
    /// Milliseconds into the round: the round's clock where the game has one, otherwise the
    /// time the round's moves took until then.
    pub at_ms: f64,
    /// What happened, in words.
    pub detail: String,
    /// How the process ended, where it ended ("exit status 3", "killed by SIGSEGV").
    pub exit: Option<String>,
    /// The last bytes the bot wrote to stderr (only for its team and the organiser).
    pub stderr_tail: Option<String>,
}

/// A record's forfeits as rows (`teams`: each seat's team; `visible`: the seats whose stderr
/// the viewer may read).
fn forfeit_rows(
    record: &RoundRecord,
    teams: &[String],
    visible: &dyn Fn(usize) -> bool,
) -> Vec<ForfeitRow> {
    record
        .forfeits
        .iter()
        .map(|f| {
            let played: f64 = record
                .moves
                .iter()
                .filter(|m| m.ply < f.ply.max(1))
                .map(|m| m.ms)
                .sum();
            ForfeitRow {
                round: record.round,
                seat: f.seat,
                team: teams.get(f.seat).cloned().unwrap_or_default(),
                kind: f.kind.name().to_string(),
                ply: f.ply,
                // A sum of nothing is -0.0.
                at_ms: f.at_ms.unwrap_or(played).max(0.0),
                detail: f.detail.clone(),
                exit: f.exit.as_ref().map(|e| e.to_string()),
                stderr_tail: (visible(f.seat) && !f.stderr_tail.is_empty())
                    .then(|| f.stderr_tail.clone()),
            }
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatTiming {
    pub seat: usize,
    pub moves: usize,
    pub mean_ms: f64,
    pub max_ms: f64,
    /// Total CPU time of its moves, where the system measured it.
    pub cpu_ms: Option<f64>,
}

/// A match, for anybody: only a finished match shows (a queued or running one is not found,
/// so nothing of a game in progress leaks; watching live is another page's business). The
/// forfeits' stderr tails are `viewer`'s own seats' only (every seat's for the organiser).
pub fn match_page(
    conn: &Connection,
    dir: &Path,
    id: MatchId,
    viewer: &Viewer,
) -> Result<MatchPage, ViewError> {
    let row = match_rows(conn, &[id])?.pop();
    let Some(row) = row.filter(|r| r.state.is_over()) else {
        return Err(ViewError::NotFound(format!(
            "no finished match has id {id} (a match shows once it is over)"
        )));
    };
    let error = reads::match_error(conn, id)?;
    let records = if row.state == MatchState::Done {
        match_records(conn, dir, id, viewer)?.unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut timings: Vec<SeatTiming> = (0..row.seats.len())
        .map(|seat| SeatTiming {
            seat,
            moves: 0,
            mean_ms: 0.0,
            max_ms: 0.0,
            cpu_ms: None,
        })
        .collect();
    for record in &records {
        for mv in record.moves.iter().filter(|m| !m.by_arbiter) {
            let Some(t) = timings.get_mut(mv.seat) else {
                continue;
            };
            t.moves += 1;
            t.mean_ms += mv.ms;
            t.max_ms = t.max_ms.max(mv.ms);
            if let Some(cpu) = mv.cpu_ms {
                *t.cpu_ms.get_or_insert(0.0) += cpu;
            }
        }
    }
    for t in &mut timings {
        if t.moves > 0 {
            t.mean_ms /= t.moves as f64;
        }
    }
    let teams: Vec<String> = row.seats.iter().map(|s| s.team.clone()).collect();
    // `match_records` emptied the tails the viewer may not read.
    let forfeits = records
        .iter()
        .flat_map(|r| forfeit_rows(r, &teams, &|_| true))
        .collect();
    Ok(MatchPage {
        row,
        error,
        timings,
        round_winners: records.iter().map(|r| r.result.winners()).collect(),
        forfeits,
        grades: super::grading::read(dir, id.0),
    })
}

/// A finished match's record, with what `viewer` may not see taken out: every seat's stderr,
/// logs and forfeit stderr tails, but for the seats of the viewer's own team (all of them for
/// the organiser). `None`: the match has no record (it failed before one was written).
pub fn match_records(
    conn: &Connection,
    dir: &Path,
    id: MatchId,
    viewer: &Viewer,
) -> Result<Option<Vec<RoundRecord>>, ViewError> {
    let found = reads::match_record(conn, id)?;
    let Some((state, path)) = found else {
        return Err(ViewError::NotFound(format!("no match has id {id}")));
    };
    if state != MatchState::Done {
        return Err(ViewError::NotFound(format!(
            "match {id} is {state}: its record shows once it is over"
        )));
    }
    let Some(path) = path else {
        return Ok(None);
    };
    let (mut records, _) = crate::record::reader::read_records(&dir.join(&path))
        .map_err(|e| ViewError::Internal(format!("the record of match {id}: {e}")))?;
    let seat_teams = reads::seat_teams(conn, id)?;
    let visible = |seat: usize| seat_teams.get(seat).is_some_and(|t| viewer.owns(*t));
    for record in &mut records {
        crate::records::strip(record, &visible);
    }
    Ok(Some(records))
}

// ---------------------------------------------------------------------------------------------
// A submission

#[derive(Clone, Debug, Serialize)]
pub struct SubmissionPage {
    #[serde(flatten)]
    pub version: VersionRow,
    /// Whether this is the version that plays for its team.
    pub active: bool,
    /// The build's output (its last bytes when long).
    pub build_log: Option<String>,
    /// The `rollarena check` report (its JSON), once the check ran.
    pub check: Option<Value>,
    /// The uploaded files, relative to the source's root, with their sizes.
    pub files: Vec<SourceFile>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SourceFile {
    pub path: String,
    pub bytes: u64,
}

/// The most of a build log a page holds (its end: where the errors are).
pub const BUILD_LOG_MAX: u64 = 256 * 1024;

/// A submission: only its team and the organiser may see it.
pub fn submission(
    conn: &Connection,
    dir: &Path,
    id: VersionId,
    viewer: &Viewer,
) -> Result<SubmissionPage, ViewError> {
    let found = reads::submission(conn, id)?;
    let Some((team_id, version, active)) = found else {
        return Err(ViewError::NotFound(format!("no submission has id {id}")));
    };
    if !viewer.owns(team_id) {
        return Err(ViewError::Forbidden(format!(
            "submission {id} belongs to another team: only that team and the organiser see it \
             (log in with the team's token)"
        )));
    }
    let base = dir.join("versions").join(id.to_string());
    let build_log = read_tail(&base.join("build.log"), BUILD_LOG_MAX);
    let check = std::fs::read(base.join("check.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let mut files = Vec::new();
    list_files(&base.join("source"), &base.join("source"), &mut files);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(SubmissionPage {
        active: active == Some(version.id),
        version,
        build_log,
        check,
        files,
    })
}

/// The last `max` bytes of a text file, as text.
fn read_tail(path: &Path, max: u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let mut buf = Vec::new();
    if len > max {
        f.seek(SeekFrom::Start(len - max)).ok()?;
    }
    f.read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf).into_owned();
    Some(if len > max {
        format!("[... the first {} bytes are cut]\n{text}", len - max)
    } else {
        text
    })
}

/// Regular files under `dir` (symlinks are not followed: they are refused at upload anyway).
fn list_files(root: &Path, dir: &Path, out: &mut Vec<SourceFile>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            list_files(root, &path, out);
        } else if kind.is_file() {
            out.push(SourceFile {
                path: path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .into_owned(),
                bytes: entry.metadata().map(|m| m.len()).unwrap_or(0),
            });
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The organiser

#[derive(Clone, Debug, Serialize)]
pub struct OrganiserPage {
    pub paused: bool,
    pub teams: Vec<TeamRow>,
    /// Versions waiting for, or in, their build and check.
    pub queued_versions: i64,
    /// Matches waiting for, or being played by, a worker.
    pub pending_matches: i64,
    /// The remote workers.
    pub workers: Vec<crate::remote::registry::WorkerRow>,
}

pub fn organiser(conn: &Connection) -> Result<OrganiserPage, ViewError> {
    let teams = reads::team_rows(conn)?;
    Ok(OrganiserPage {
        paused: paused(conn)?,
        teams,
        queued_versions: versions::pending(conn)?,
        pending_matches: reads::matches_pending(conn)?,
        workers: crate::remote::registry::list(conn)
            .map_err(|e| ViewError::Internal(e.to_string()))?,
    })
}

#[cfg(test)]
#[path = "views_tests.rs"]
mod tests;
