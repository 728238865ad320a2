//! The final tournament's rows: its field (read at the start), its tables (`final_tables`,
//! each a match of kind `final`), and the versions still on their way when it would start.
//! What the final does is `finals::tournament`'s.

use rusqlite::{Connection, named_params, params};

use super::teams::ACTIVE_VERSION;
use super::{MatchId, MatchKind, MatchState, Result, VersionId, VersionState};

/// A version of the final's field, as stored.
pub struct FieldRow {
    pub version: VersionId,
    pub team: String,
    pub run_command: String,
    pub builtin: bool,
}

/// Every enabled team's active version, best conservative rating first.
pub fn field(conn: &Connection) -> Result<Vec<FieldRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT v.id, t.name, COALESCE(v.run_command, ''), t.builtin
         FROM teams t JOIN versions v ON v.id = {ACTIVE_VERSION}
         WHERE t.disabled = 0 ORDER BY v.mu - 3 * v.sigma DESC, v.id"
    ))?;
    let rows = stmt
        .query_map(named_params! {":ready": VersionState::Ready}, |r| {
            Ok(FieldRow {
                version: r.get(0)?,
                team: r.get(1)?,
                run_command: r.get(2)?,
                builtin: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Queues table `index` of phase `phase` as a final match made at `now` with its seats.
pub fn insert_table(
    conn: &Connection,
    index: u32,
    phase: u32,
    now: i64,
    seed: i64,
    rounds: u32,
    seats: &[VersionId],
) -> Result<MatchId> {
    let id = super::ladder::insert_match(conn, MatchKind::Final, now, seed, rounds, seats)?;
    conn.execute(
        "INSERT INTO final_tables (match_id, table_index, phase) VALUES (?1, ?2, ?3)",
        params![id, index, phase],
    )?;
    Ok(id)
}

/// The final's tables: (table, match id, match state), in schedule order.
pub fn tables(conn: &Connection) -> Result<Vec<(u32, MatchId, MatchState)>> {
    let mut stmt = conn.prepare(
        "SELECT f.table_index, m.id, m.state FROM final_tables f
         JOIN matches m ON m.id = f.match_id ORDER BY f.table_index",
    )?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}
