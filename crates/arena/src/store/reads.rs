//! The read models' queries: the rows the pages and the JSON API show (`views`), read in the
//! caller's transaction (a page reads in one snapshot). The row types are the store's own
//! ([`super::rows`]); `views` puts them together and decides who sees what; this module only
//! reads.

use rusqlite::{Connection, OptionalExtension, named_params, params, params_from_iter};

use super::rows::{
    DisabledRow, DisabledVersion, HistoryPoint, LeaderRow, MatchRow, OpponentRow, SeatRow, TeamRow,
    VersionRow, conservative,
};
use super::teams::ACTIVE_VERSION;
use super::{MatchId, MatchState, Result, TeamId, VersionId, VersionState};

/// The disabled teams, by name, with their active version.
pub fn disabled_teams(conn: &Connection) -> Result<Vec<DisabledRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT t.name, v.id, v.label, v.mu, v.sigma, v.matches
         FROM teams t LEFT JOIN versions v ON v.id = {ACTIVE_VERSION}
         WHERE t.disabled = 1 ORDER BY t.name"
    ))?;
    let rows = stmt
        .query_map(named_params! {":ready": VersionState::Ready}, |r| {
            let id: Option<VersionId> = r.get(1)?;
            let version = match id {
                Some(id) => Some(DisabledVersion {
                    id,
                    label: r.get(2)?,
                    conservative: conservative(r.get(3)?, r.get(4)?),
                    matches: r.get(5)?,
                }),
                None => None,
            };
            Ok(DisabledRow {
                team: r.get(0)?,
                version,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Every enabled team's active version as a leaderboard row (unranked, no trend yet).
pub fn leader_rows(conn: &Connection) -> Result<Vec<LeaderRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT t.name, v.id, v.label, v.mu, v.sigma, v.matches, t.builtin,
            t.pinned_version IS v.id
         FROM teams t JOIN versions v ON v.id = {ACTIVE_VERSION}
         WHERE t.disabled = 0"
    ))?;
    let rows = stmt
        .query_map(named_params! {":ready": VersionState::Ready}, |r| {
            let (mu, sigma): (f64, f64) = (r.get(3)?, r.get(4)?);
            Ok(LeaderRow {
                rank: 0,
                team: r.get(0)?,
                builtin: r.get(6)?,
                version_id: r.get(1)?,
                version_label: r.get(2)?,
                pinned: r.get(7)?,
                mu,
                sigma,
                conservative: conservative(mu, sigma),
                matches: r.get(5)?,
                trend: None,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Version `version`'s rating before its rated match `back` matches ago (0: its last).
pub fn rating_before(
    conn: &Connection,
    version: VersionId,
    back: i64,
) -> Result<Option<(f64, f64)>> {
    Ok(conn
        .prepare_cached(
            "SELECT mu_before, sigma_before FROM match_seats
             WHERE version_id = ?1 AND mu_before IS NOT NULL
             ORDER BY match_id DESC LIMIT 1 OFFSET ?2",
        )?
        .query_row(params![version, back], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// The enabled teams with no version ready, by name.
pub fn unranked(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT t.name FROM teams t WHERE t.disabled = 0 AND {ACTIVE_VERSION} IS NULL
         ORDER BY t.name"
    ))?;
    let names = stmt
        .query_map(named_params! {":ready": VersionState::Ready}, |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(names)
}

/// How many matches were played to their end.
pub fn matches_done(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM matches WHERE state = ?1",
        [MatchState::Done],
        |r| r.get(0),
    )?)
}

/// A team's forfeits in one finished match.
pub struct MatchForfeits {
    pub match_id: MatchId,
    /// The team's forfeits in it.
    pub forfeits: i64,
    pub record_path: Option<String>,
    /// The team's seats, joined by commas.
    pub seats: String,
}

/// Team `team`'s last `limit` finished matches, newest first, with its forfeits in each.
pub fn recent_forfeits(conn: &Connection, team: TeamId, limit: i64) -> Result<Vec<MatchForfeits>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.match_id, SUM(COALESCE(s.forfeits, 0)), m.record_path,
            GROUP_CONCAT(s.seat)
         FROM match_seats s JOIN versions v ON v.id = s.version_id
         JOIN matches m ON m.id = s.match_id
         WHERE v.team_id = ?1 AND m.state = ?3
         GROUP BY s.match_id ORDER BY s.match_id DESC LIMIT ?2",
    )?;
    let rows = stmt
        .query_map(params![team, limit, MatchState::Done], |r| {
            Ok(MatchForfeits {
                match_id: r.get(0)?,
                forfeits: r.get(1)?,
                record_path: r.get(2)?,
                seats: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// A version's row, with its team's id; its failure whatever the viewer (`views` decides).
fn version_row(r: &rusqlite::Row) -> rusqlite::Result<(TeamId, VersionRow)> {
    let (mu, sigma): (f64, f64) = (r.get("mu")?, r.get("sigma")?);
    let sprt: Option<String> = r.get("sprt")?;
    Ok((
        r.get("team_id")?,
        VersionRow {
            id: r.get("id")?,
            team: r.get("team")?,
            label: r.get("label")?,
            language: r.get("language")?,
            state: r.get("state")?,
            failure: r.get("failure")?,
            submitted_at: r.get("submitted_at")?,
            built_at: r.get("built_at")?,
            checked_at: r.get("checked_at")?,
            source_bytes: r.get("source_bytes")?,
            mu,
            sigma,
            conservative: conservative(mu, sigma),
            matches: r.get("matches")?,
            sprt: sprt.and_then(|s| serde_json::from_str(&s).ok()),
        },
    ))
}

const VERSION_COLUMNS: &str = "v.id, v.team_id, t.name AS team, v.label, v.language, v.state,
    v.failure, v.submitted_at, v.built_at, v.checked_at, v.source_bytes, v.mu, v.sigma,
    v.matches, v.sprt";

/// A team as its page starts.
pub struct TeamHead {
    pub id: TeamId,
    pub disabled: bool,
    pub builtin: bool,
    pub pinned_version: Option<VersionId>,
    pub active_version: Option<VersionId>,
}

/// The team named `name`, if any.
pub fn team_head(conn: &Connection, name: &str) -> Result<Option<TeamHead>> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT t.id, t.disabled, t.builtin, t.pinned_version, {ACTIVE_VERSION}
                 FROM teams t WHERE t.name = :name"
            ),
            named_params! {":name": name, ":ready": VersionState::Ready},
            |r| {
                Ok(TeamHead {
                    id: r.get(0)?,
                    disabled: r.get(1)?,
                    builtin: r.get(2)?,
                    pinned_version: r.get(3)?,
                    active_version: r.get(4)?,
                })
            },
        )
        .optional()?)
}

/// Team `team`'s versions, newest first.
pub fn team_versions(conn: &Connection, team: TeamId) -> Result<Vec<VersionRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {VERSION_COLUMNS} FROM versions v JOIN teams t ON t.id = v.team_id
         WHERE v.team_id = ?1 ORDER BY v.id DESC"
    ))?;
    let rows = stmt
        .query_map([team], |r| Ok(version_row(r)?.1))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Version `id` with its team's id and the team's active version.
pub fn submission(
    conn: &Connection,
    id: VersionId,
) -> Result<Option<(TeamId, VersionRow, Option<VersionId>)>> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT {VERSION_COLUMNS}, {ACTIVE_VERSION} AS active
                 FROM versions v JOIN teams t ON t.id = v.team_id WHERE v.id = :id"
            ),
            named_params! {":id": id, ":ready": VersionState::Ready},
            |r| {
                let (team, row) = version_row(r)?;
                Ok((team, row, r.get("active")?))
            },
        )
        .optional()?)
}

/// Team `team`'s conservative rating after each of its rated matches, oldest first.
pub fn history(conn: &Connection, team: TeamId) -> Result<Vec<HistoryPoint>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.match_id, m.finished_at, s.version_id, s.mu_after, s.sigma_after
         FROM match_seats s JOIN versions v ON v.id = s.version_id
         JOIN matches m ON m.id = s.match_id
         WHERE v.team_id = ?1 AND m.rated = 1 AND s.mu_after IS NOT NULL
         ORDER BY s.match_id",
    )?;
    let rows = stmt
        .query_map([team], |r| {
            Ok(HistoryPoint {
                match_id: r.get(0)?,
                at: r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                version_id: r.get(2)?,
                conservative: conservative(r.get(3)?, r.get(4)?),
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Team `team`'s last `limit` finished matches, newest first.
pub fn recent_matches(conn: &Connection, team: TeamId, limit: i64) -> Result<Vec<MatchId>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT s.match_id FROM match_seats s JOIN versions v ON v.id = s.version_id
         JOIN matches m ON m.id = s.match_id
         WHERE v.team_id = ?1 AND m.state = ?3
         ORDER BY s.match_id DESC LIMIT ?2",
    )?;
    let ids = stmt
        .query_map(params![team, limit, MatchState::Done], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(ids)
}

/// Team `team`'s results against each other team, by name.
pub fn opponents(conn: &Connection, team: TeamId) -> Result<Vec<OpponentRow>> {
    // CROSS JOIN fixes the order (the team's versions, their seats, those matches, the other
    // seats): left to itself, SQLite starts from every finished match (500 ms instead of 14
    // at 100,000 matches; bench/arena measures it).
    let mut stmt = conn.prepare_cached(
        "SELECT ot.name, COUNT(*),
            SUM(me.rank < them.rank), SUM(me.rank = them.rank), SUM(me.rank > them.rank)
         FROM versions mv
         CROSS JOIN match_seats me ON me.version_id = mv.id
         CROSS JOIN matches m ON m.id = me.match_id
         CROSS JOIN match_seats them ON them.match_id = me.match_id AND them.seat != me.seat
         JOIN versions tv ON tv.id = them.version_id
         JOIN teams ot ON ot.id = tv.team_id
         WHERE mv.team_id = ?1 AND m.state = ?2 AND tv.team_id != ?1
           AND me.rank IS NOT NULL AND them.rank IS NOT NULL
         GROUP BY ot.id ORDER BY ot.name",
    )?;
    let rows = stmt
        .query_map(params![team, MatchState::Done], |r| {
            let (matches, wins, draws, losses): (i64, i64, i64, i64) =
                (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?);
            Ok(OpponentRow {
                team: r.get(0)?,
                matches,
                wins,
                draws,
                losses,
                score: (wins as f64 + draws as f64 / 2.0) / matches.max(1) as f64,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The matches `ids`, in that order, with their seats (an id with no match is left out).
pub fn match_rows(conn: &Connection, ids: &[MatchId]) -> Result<Vec<MatchRow>> {
    let mut head = conn.prepare_cached(
        "SELECT id, state, kind, rounds, created_at, started_at, finished_at
         FROM matches WHERE id = ?1",
    )?;
    let mut seats = conn.prepare_cached(
        "SELECT s.seat, t.name, s.version_id, v.label, s.points, s.rank, s.forfeits,
            s.mu_before, s.sigma_before, s.mu_after, s.sigma_after
         FROM match_seats s JOIN versions v ON v.id = s.version_id
         JOIN teams t ON t.id = v.team_id
         WHERE s.match_id = ?1 ORDER BY s.seat",
    )?;
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let Some(mut row) = head
            .query_row([id], |r| {
                Ok(MatchRow {
                    id: r.get(0)?,
                    state: r.get(1)?,
                    kind: r.get(2)?,
                    rounds: r.get(3)?,
                    created_at: r.get(4)?,
                    started_at: r.get(5)?,
                    finished_at: r.get(6)?,
                    seats: Vec::new(),
                })
            })
            .optional()?
        else {
            continue;
        };
        row.seats = seats
            .query_map([id], |r| {
                Ok(SeatRow {
                    seat: r.get(0)?,
                    team: r.get(1)?,
                    version_id: r.get(2)?,
                    version_label: r.get(3)?,
                    points: r.get(4)?,
                    rank: r.get(5)?,
                    forfeits: r.get(6)?,
                    mu_before: r.get(7)?,
                    sigma_before: r.get(8)?,
                    mu_after: r.get(9)?,
                    sigma_after: r.get(10)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        out.push(row);
    }
    Ok(out)
}

/// The finished matches before `before` (of team `team`, if given), newest first.
pub fn done_matches(
    conn: &Connection,
    team: Option<&str>,
    before: MatchId,
    limit: i64,
) -> Result<Vec<MatchId>> {
    let ids = match team {
        None => conn
            .prepare_cached(
                "SELECT id FROM matches WHERE state = ?3 AND id < ?1
                 ORDER BY id DESC LIMIT ?2",
            )?
            .query_map(params![before, limit, MatchState::Done], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?,
        Some(name) => conn
            .prepare_cached(
                "SELECT DISTINCT s.match_id FROM match_seats s
                 JOIN versions v ON v.id = s.version_id JOIN teams t ON t.id = v.team_id
                 JOIN matches m ON m.id = s.match_id
                 WHERE t.name = ?1 AND m.state = ?4 AND s.match_id < ?2
                 ORDER BY s.match_id DESC LIMIT ?3",
            )?
            .query_map(params![name, before, limit, MatchState::Done], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?,
    };
    Ok(ids)
}

/// Match `id`'s error (why it failed or was voided).
pub fn match_error(conn: &Connection, id: MatchId) -> Result<Option<String>> {
    Ok(
        conn.query_row("SELECT error FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })?,
    )
}

/// Match `id`'s state and record path, if there is such a match.
pub fn match_record(
    conn: &Connection,
    id: MatchId,
) -> Result<Option<(MatchState, Option<String>)>> {
    Ok(conn
        .query_row(
            "SELECT state, record_path FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// The team of each seat of match `id`, in seat order.
pub fn seat_teams(conn: &Connection, id: MatchId) -> Result<Vec<TeamId>> {
    let teams = conn
        .prepare_cached(
            "SELECT v.team_id FROM match_seats s JOIN versions v ON v.id = s.version_id
             WHERE s.match_id = ?1 ORDER BY s.seat",
        )?
        .query_map([id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(teams)
}

/// Every team as the organiser's page lists it: built-in bots last, by name.
pub fn team_rows(conn: &Connection) -> Result<Vec<TeamRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT t.name, t.disabled, t.created_at,
            (SELECT COUNT(*) FROM versions v WHERE v.team_id = t.id), {ACTIVE_VERSION},
            t.builtin, t.pinned_version
         FROM teams t ORDER BY t.builtin, t.name"
    ))?;
    let rows = stmt
        .query_map(named_params! {":ready": VersionState::Ready}, |r| {
            Ok(TeamRow {
                name: r.get(0)?,
                builtin: r.get(5)?,
                disabled: r.get(1)?,
                created_at: r.get(2)?,
                versions: r.get(3)?,
                active_version: r.get(4)?,
                pinned_version: r.get(6)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// How many matches are queued or in play.
pub fn matches_pending(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM matches WHERE state IN (?1, ?2)",
        params![MatchState::Queued, MatchState::Running],
        |r| r.get(0),
    )?)
}

/// A team as `arena teams` lists it, from the store (`status` adds its placing).
pub struct TeamListingRow {
    pub name: String,
    pub builtin: bool,
    pub disabled: bool,
    pub active_version: Option<VersionId>,
    pub pinned_version: Option<VersionId>,
    pub versions: i64,
    pub matches: i64,
    pub last_version: Option<VersionId>,
    pub last_state: Option<VersionState>,
    pub last_submitted_at: Option<i64>,
    /// Rated matches of the active version.
    pub active_matches: Option<i64>,
}

/// Every team: the teams first, by name, then the built-in anchors.
pub fn team_listing(conn: &Connection) -> Result<Vec<TeamListingRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT t.name, t.builtin, t.disabled, {ACTIVE_VERSION}, t.pinned_version,
            (SELECT COUNT(*) FROM versions v WHERE v.team_id = t.id),
            (SELECT COUNT(DISTINCT m.id) FROM matches m
                JOIN match_seats s ON s.match_id = m.id
                JOIN versions v ON v.id = s.version_id
                WHERE v.team_id = t.id AND m.state = :done),
            l.id, l.state, l.submitted_at,
            (SELECT a.matches FROM versions a WHERE a.id = {ACTIVE_VERSION})
         FROM teams t
         LEFT JOIN versions l ON l.id =
            (SELECT MAX(id) FROM versions lv WHERE lv.team_id = t.id)
         ORDER BY t.builtin, t.name"
    ))?;
    let rows = stmt
        .query_map(
            named_params! {":ready": VersionState::Ready, ":done": MatchState::Done},
            |r| {
                Ok(TeamListingRow {
                    name: r.get(0)?,
                    builtin: r.get(1)?,
                    disabled: r.get(2)?,
                    active_version: r.get(3)?,
                    pinned_version: r.get(4)?,
                    versions: r.get(5)?,
                    matches: r.get(6)?,
                    last_version: r.get(7)?,
                    last_state: r.get(8)?,
                    last_submitted_at: r.get(9)?,
                    active_matches: r.get(10)?,
                })
            },
        )?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// How many of the teams' versions (not the built-in anchors') are in each of `states`.
pub fn team_versions_in(conn: &Connection, states: &[VersionState]) -> Result<i64> {
    Ok(conn.query_row(
        &format!(
            "SELECT COUNT(*) FROM versions WHERE state IN ({})
             AND team_id IN (SELECT id FROM teams WHERE builtin = 0)",
            placeholders(states.len())
        ),
        params_from_iter(states),
        |r| r.get(0),
    )?)
}

/// How many matches are in each of `states`.
pub fn matches_in(conn: &Connection, states: &[MatchState]) -> Result<i64> {
    Ok(conn.query_row(
        &format!(
            "SELECT COUNT(*) FROM matches WHERE state IN ({})",
            placeholders(states.len())
        ),
        params_from_iter(states),
        |r| r.get(0),
    )?)
}

/// `n` parameters for an SQL list, `?1, ?2, ...` (the states of an `IN`, bound each).
fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many matches were played to their end since `since` (Unix ms).
pub fn matches_done_since(conn: &Connection, since: i64) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM matches WHERE state = ?1 AND finished_at >= ?2",
        params![MatchState::Done, since],
        |r| r.get(0),
    )?)
}

/// How many teams there are (not the built-in anchors), and how many of them are disabled.
pub fn team_counts(conn: &Connection) -> Result<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE disabled = 1) FROM teams WHERE builtin = 0",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}
