//! What tells the pages that what they show changed: a fingerprint of the finished matches,
//! the versions' states and the teams (`web::live` polls it while anybody listens).

use rusqlite::{Connection, params};

use super::{MatchState, Result, VersionState};

/// What the pages show changes when this does: finished matches, versions' states, teams.
/// The states are bound: `?1..?3` the finished matches', `?4..?7` the versions' that weigh 1
/// to 4 (any other state weighs 5).
const FINGERPRINT: &str = "SELECT
    (SELECT count(*) FROM matches WHERE state IN (?1, ?2, ?3)),
    (SELECT coalesce(max(finished_at), 0) FROM matches),
    (SELECT count(*) FROM versions),
    (SELECT coalesce(sum(id * CASE state WHEN ?4 THEN 1 WHEN ?5 THEN 2
        WHEN ?6 THEN 3 WHEN ?7 THEN 4 ELSE 5 END), 0) FROM versions),
    (SELECT count(*) FROM teams),
    (SELECT coalesce(sum(id * (1 + disabled) + coalesce(pinned_version, 0)), 0) FROM teams)";

/// The fingerprint now, as text (numbers joined by commas).
pub fn fingerprint(conn: &Connection) -> Result<String> {
    let states = params![
        MatchState::Done,
        MatchState::Failed,
        MatchState::Void,
        VersionState::Queued,
        VersionState::Building,
        VersionState::Checking,
        VersionState::Ready,
    ];
    Ok(conn.query_row(FINGERPRINT, states, |r| {
        let parts: Vec<i64> = (0..6).map(|i| r.get(i)).collect::<Result<_, _>>()?;
        Ok(parts
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(","))
    })?)
}
