//! What the organiser reads from the host's shell (`rollarena arena teams` and `arena
//! status`): every team with the version that plays, its matches and its last submission,
//! and the arena's state at a glance (the build queue, the matches in play and finished in
//! the last minutes, the workers, the matchmaker, the closing time and the final).
//!
//! Plain serde values read from the database in one transaction each, so a listing is one
//! snapshot; the command line prints them as sentences and tables, or as JSON (`--json`).

use rusqlite::{Connection, TransactionBehavior};
use serde::Serialize;

use super::remote::registry::{self, WorkerRow};
use super::store::db;
use super::store::{VersionId, VersionState, reads};
use super::{admin, finals};
use crate::Error;

/// One team as `arena teams` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamListing {
    pub name: String,
    /// One of the arena's built-in anchors ([ladder] anchors).
    pub builtin: bool,
    pub disabled: bool,
    /// The version that plays (`None`: none has passed its check).
    pub active_version: Option<VersionId>,
    /// The version pinned to play (`None`: its latest ready one plays).
    pub pinned_version: Option<VersionId>,
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
    pub last_version: Option<VersionId>,
    pub last_state: Option<VersionState>,
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
pub fn teams(conn: &mut Connection, placement: u32) -> Result<Vec<TeamListing>, Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
    let rows = reads::team_listing(&tx)?
        .into_iter()
        .map(|r| TeamListing {
            active_matches: r.active_matches,
            placing: r.active_matches.is_some_and(|n| n < i64::from(placement)),
            name: r.name,
            builtin: r.builtin,
            disabled: r.disabled,
            active_version: r.active_version,
            pinned_version: r.pinned_version,
            versions: r.versions,
            matches: r.matches,
            last_version: r.last_version,
            last_state: r.last_state,
            last_submitted_at: r.last_submitted_at,
        })
        .collect();
    tx.commit()?;
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
    /// `store::rest`); `None` while it plays.
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
pub fn status(arena: &super::Arena, conn: &mut Connection) -> Result<Status, Error> {
    let now = db::now_ms();
    let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
    use super::store::{MatchState as M, VersionState as V};
    let versions = Counts {
        queued: reads::team_versions_in(&tx, &[V::Queued])?,
        running: reads::team_versions_in(&tx, &[V::Building, V::Checking])?,
        done: reads::team_versions_in(&tx, &[V::Ready])?,
        failed: reads::team_versions_in(&tx, &[V::Failed])?,
    };
    let matches = Counts {
        queued: reads::matches_in(&tx, &[M::Queued])?,
        running: reads::matches_in(&tx, &[M::Running])?,
        done: reads::matches_in(&tx, &[M::Done])?,
        failed: reads::matches_in(&tx, &[M::Failed])?,
    };
    let finished_since = |ms: i64| reads::matches_done_since(&tx, now - ms);
    let (teams, teams_disabled) = reads::team_counts(&tx)?;
    let status = Status {
        at: now,
        game: arena.config.game.clone(),
        paused: admin::paused_in(&tx)?,
        at_rest_since: crate::store::rest::since(&tx)?,
        closing_at: crate::freeze::closing(&tx)?,
        closed: crate::freeze::closed(&tx)?.is_some(),
        teams,
        teams_disabled,
        versions,
        matches,
        matches_last_minute: finished_since(60_000)?,
        matches_last_10_minutes: finished_since(600_000)?,
        workers: registry::list(&tx)?,
        final_progress: finals::tournament::progress(arena, &tx)?,
    };
    tx.commit()?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_arena_lists_its_teams_and_an_empty_queue() {
        let (_tmp, arena) = admin::fresh_arena(&["beta", "alpha"]);
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
