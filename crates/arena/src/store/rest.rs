//! The ladder at rest, and its wakes: the two marks the matchmaker (`ladder::matchmaker`) keeps
//! in the `state` table, which the organiser's pause and the pages read too.
//!
//! - `rest`: the time (Unix ms) the ladder came to rest: the matchmaker found no match that
//!   would teach anything (no version placing, no rating above `[ladder] rest_sigma`, or
//!   every pairing that would teach at its `max_matches_per_pair`) and none in play. Cleared
//!   by the next match it makes. The leaderboard, its JSON and `arena status` show it.
//! - `wake`: the time of the organiser's last wake (`arena resume`, the page's resume, a new
//!   team): from then on every version plays one match more, however settled its rating, then
//!   the ladder rests again unless a result unsettled one. A new version needs no wake: it
//!   places.

use rusqlite::Connection;

use super::{db, settings};

/// When the ladder came to rest, if it is at rest.
pub fn since(conn: &Connection) -> Result<Option<i64>, String> {
    read(conn, "rest")
}

/// When the organiser last woke the ladder, if ever.
pub fn woken_at(conn: &Connection) -> Result<Option<i64>, String> {
    read(conn, "wake")
}

/// Marks the ladder at rest from now on (kept as it is when it already was).
pub fn set(conn: &Connection) -> Result<(), String> {
    settings::set_if_unset(conn, "rest", &db::now_ms().to_string())?;
    Ok(())
}

/// The ladder plays: not at rest.
pub fn clear(conn: &Connection) -> Result<(), String> {
    settings::unset(conn, "rest")?;
    Ok(())
}

/// Wakes the ladder: every version plays one match more (see the module header). Returns
/// whether it was at rest.
pub fn wake(conn: &Connection) -> Result<bool, String> {
    let was = since(conn)?.is_some();
    settings::set(conn, "wake", &db::now_ms().to_string())?;
    clear(conn)?;
    Ok(was)
}

fn read(conn: &Connection, key: &str) -> Result<Option<i64>, String> {
    let value = settings::get(conn, key)?;
    Ok(value.and_then(|v| v.trim().parse().ok()))
}
