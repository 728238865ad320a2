//! What tells the pages that what they show changed: a fingerprint of the finished matches,
//! the versions' states and the teams (`web::live` polls it while anybody listens).

use rusqlite::Connection;

use super::Result;

/// What the pages show changes when this does: finished matches, versions' states, teams.
const FINGERPRINT: &str = "SELECT
    (SELECT count(*) FROM matches WHERE state IN ('done', 'failed', 'void')),
    (SELECT coalesce(max(finished_at), 0) FROM matches),
    (SELECT count(*) FROM versions),
    (SELECT coalesce(sum(id * CASE state WHEN 'queued' THEN 1 WHEN 'building' THEN 2
        WHEN 'checking' THEN 3 WHEN 'ready' THEN 4 ELSE 5 END), 0) FROM versions),
    (SELECT count(*) FROM teams),
    (SELECT coalesce(sum(id * (1 + disabled) + coalesce(pinned_version, 0)), 0) FROM teams)";

/// The fingerprint now, as text (numbers joined by commas).
pub fn fingerprint(conn: &Connection) -> Result<String> {
    Ok(conn.query_row(FINGERPRINT, [], |r| {
        let parts: Vec<i64> = (0..6).map(|i| r.get(i)).collect::<Result<_, _>>()?;
        Ok(parts
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(","))
    })?)
}
