//! What the organiser reads from the host's shell (`rollarena arena teams` and `arena
//! status`): every team with the version that plays, its matches and its last submission,
//! and the arena's state at a glance (the build queue, the matches in play and finished in
//! the last minutes, the workers, the matchmaker, the closing time and the final).
//!
//! Plain serde values read from the database in one transaction each, so a listing is one
//! snapshot; the command line prints them as sentences and tables, or as JSON (`--json`).

use rusqlite::{Connection, TransactionBehavior};
use serde::Serialize;

use super::pinning::ACTIVE_VERSION;
use super::remote::registry::{self, WorkerRow};
use super::{admin, db, finals, sql};

/// One team as `arena teams` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamListing {
    pub name: String,
    /// One of the arena's built-in anchors ([ladder] anchors).
    pub builtin: bool,
    pub disabled: bool,
    /// The version that plays (`None`: none has passed its check).
    pub active_version: Option<i64>,
    /// The version pinned to play (`None`: its latest ready one plays).
    pub pinned_version: Option<i64>,
    /// Rated matches of the version that plays.
    pub active_matches: Option<i64>,
    /// The version that plays is still placing (fewer than `[ladder] placement_matches`
    /// rated matches): it is not ranked yet.
    pub placing: bool,
    /// Versions submitted, in every state.
    pub versions: i64,
    /// Finished matches (done) any of its versions played.
    pub matches: i64,
    /// Its latest submission: version, state and when (Unix ms); `None` before the first.
    pub last_version: Option<i64>,
    pub last_state: Option<String>,
    pub last_submitted_at: Option<i64>,
}

impl TeamListing {
    /// The team's state in a word: `built-in`, `disabled` or `enabled`.
    pub fn state(&self) -> &'static str {
        if self.builtin {
            "built-in"
        } else if self.disabled {
            "disabled"
        } else {
            "enabled"
        }
    }
}

/// Every team: the teams first, by name, then the built-in anchors; a version placing until
/// it played `placement` rated matches.
pub fn teams(conn: &mut Connection, placement: u32) -> Result<Vec<TeamListing>, String> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Deferred)
        .map_err(sql)?;
    let rows = {
        let mut stmt = tx
            .prepare(&format!(
                "SELECT t.name, t.builtin, t.disabled, {ACTIVE_VERSION}, t.pinned_version,
                    (SELECT COUNT(*) FROM versions v WHERE v.team_id = t.id),
                    (SELECT COUNT(DISTINCT m.id) FROM matches m
                        JOIN match_seats s ON s.match_id = m.id
                        JOIN versions v ON v.id = s.version_id
                        WHERE v.team_id = t.id AND m.state = 'done'),
                    l.id, l.state, l.submitted_at,
                    (SELECT a.matches FROM versions a WHERE a.id = {ACTIVE_VERSION})
                 FROM teams t
                 LEFT JOIN versions l ON l.id =
                    (SELECT MAX(id) FROM versions lv WHERE lv.team_id = t.id)
                 ORDER BY t.builtin, t.name"
            ))
            .map_err(sql)?;
        stmt.query_map([], |r| {
            let active_matches: Option<i64> = r.get(10)?;
            Ok(TeamListing {
                active_matches,
                placing: active_matches.is_some_and(|n| n < i64::from(placement)),
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
            })
        })
        .map_err(sql)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(sql)?
    };
    tx.commit().map_err(sql)?;
    Ok(rows)
}

/// Counts of versions or matches by state.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Counts {
    pub queued: i64,
    /// Versions: being built or checked; matches: being played.
    pub running: i64,
    pub done: i64,
    pub failed: i64,
}

/// The arena at a glance, as `arena status` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// Unix ms of this snapshot.
    pub at: i64,
    pub game: String,
    /// The matchmaker is paused (`arena pause`): no new match is made.
    pub paused: bool,
    /// Since when (Unix ms) the ladder is at rest (no match would teach anything, see
    /// `ladder::rest`); `None` while it plays.
    pub at_rest_since: Option<i64>,
    /// The closing time (Unix ms), if one is set, and whether it has passed.
    pub closing_at: Option<i64>,
    pub closed: bool,
    pub teams: i64,
    pub teams_disabled: i64,
    /// The teams' versions (not the built-in anchors'): queued for a build, building or
    /// checking, ready, failed.
    pub versions: Counts,
    /// Ladder and final matches: queued, in play, done, failed (void ones are left out).
    pub matches: Counts,
    /// Matches finished in the last minute and in the last ten minutes.
    pub matches_last_minute: i64,
    pub matches_last_10_minutes: i64,
    /// The remote workers (the server's own embedded workers are not listed).
    pub workers: Vec<WorkerRow>,
    /// The final's progress, once one was started.
    pub final_progress: Option<finals::tournament::Progress>,
}

/// The arena's state now.
pub fn status(arena: &super::Arena, conn: &mut Connection) -> Result<Status, String> {
    let now = db::now_ms();
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Deferred)
        .map_err(sql)?;
    let count = |q: &str, p: &[&dyn rusqlite::ToSql]| -> Result<i64, String> {
        tx.query_row(q, p, |r| r.get(0)).map_err(sql)
    };
    let by_state = |table: &str, running: &str| -> Result<Counts, String> {
        // The anchors' versions are built in, never built: they are left out.
        let teams_only = if table == "versions" {
            " AND team_id IN (SELECT id FROM teams WHERE builtin = 0)"
        } else {
            ""
        };
        let n = |states: &str| {
            count(
                &format!("SELECT COUNT(*) FROM {table} WHERE state IN ({states}){teams_only}"),
                &[],
            )
        };
        Ok(Counts {
            queued: n("'queued'")?,
            running: n(running)?,
            done: n(if table == "versions" {
                "'ready'"
            } else {
                "'done'"
            })?,
            failed: n("'failed'")?,
        })
    };
    let versions = by_state("versions", "'building', 'checking'")?;
    let matches = by_state("matches", "'running'")?;
    let finished_since = |ms: i64| {
        count(
            "SELECT COUNT(*) FROM matches WHERE state = 'done' AND finished_at >= ?1",
            &[&(now - ms)],
        )
    };
    let status = Status {
        at: now,
        game: arena.config.game.clone(),
        paused: admin::paused_in(&tx)?,
        at_rest_since: crate::ladder::rest::since(&tx)?,
        closing_at: finals::freeze::closing(&tx)?,
        closed: finals::freeze::closed(&tx)?.is_some(),
        teams: count("SELECT COUNT(*) FROM teams WHERE builtin = 0", &[])?,
        teams_disabled: count(
            "SELECT COUNT(*) FROM teams WHERE builtin = 0 AND disabled = 1",
            &[],
        )?,
        versions,
        matches,
        matches_last_minute: finished_since(60_000)?,
        matches_last_10_minutes: finished_since(600_000)?,
        workers: registry::list(&tx)?,
        final_progress: finals::tournament::progress(arena, &tx)?,
    };
    tx.commit().map_err(sql)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Arena;

    #[test]
    fn a_new_arena_lists_its_teams_and_an_empty_queue() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("arena");
        admin::init(
            &dir,
            crate::game::registry::default_name(),
            Default::default(),
        )
        .unwrap();
        let arena = Arena::open(&dir).unwrap();
        admin::add_team(&arena, "beta").unwrap();
        admin::add_team(&arena, "alpha").unwrap();
        let mut conn = arena.conn().unwrap();
        let id = admin::team_id(&conn, "beta").unwrap();
        admin::set_team_disabled(&arena, id, true).unwrap();
        let teams = teams(&mut conn, 10).unwrap();
        let names: Vec<_> = teams.iter().map(|t| (t.name.as_str(), t.state())).collect();
        assert_eq!(names, [("alpha", "enabled"), ("beta", "disabled")]);
        assert!(
            teams
                .iter()
                .all(|t| t.versions == 0 && t.last_version.is_none())
        );
        let s = status(&arena, &mut conn).unwrap();
        assert_eq!((s.teams, s.teams_disabled), (2, 1));
        assert_eq!(s.versions, Counts::default());
        assert_eq!(s.matches_last_minute, 0);
        assert!(!s.paused && !s.closed && s.closing_at.is_none());
        assert!(s.at_rest_since.is_none());
        assert!(s.final_progress.is_none());
        admin::set_paused(&arena, true).unwrap();
        assert!(status(&arena, &mut conn).unwrap().paused);
    }
}
