//! The contest's last day: the organiser [`freeze`]s the arena (submissions closed at a set
//! time, announced on every page; the ladder makes no more matches), runs the final
//! [`tournament`] on the active versions with a schedule of `rollarena tournament` (its
//! matches played by the arena's workers, its standings and report computed as `tournament`
//! computes them), [`rejudge`]s a match (void it, or play it again) with the ratings rebuilt
//! from the counted matches, and [`export`]s the whole arena as one archive.
//!
//! The final's files live in `DIR/final/`: a tournament output directory (`tournament.json`,
//! `results.jsonl`, `standings.json`, `standings.csv`) and its report in `DIR/final/report/`,
//! written once every match of the final is over. protocol/ARENA.md (sections 11 to 14)
//! describes them.

pub mod export;
pub mod freeze;
pub mod rejudge;
pub mod tournament;

use rusqlite::Connection;

use super::store::{self, MatchId, MatchKind, settings};
use crate::Error;

/// The match kind of the final tournament's matches.
pub const KIND: MatchKind = MatchKind::Final;

/// Whether match `id` belongs to the final tournament.
pub fn is_final(conn: &Connection, id: i64) -> Result<bool, Error> {
    let kind = store::matches::kind(conn, MatchId(id))?;
    Ok(kind == Some(MatchKind::Final))
}

/// A value of the `state` table, as JSON.
pub(crate) fn get_state<T: serde::de::DeserializeOwned>(
    conn: &Connection,
    key: &str,
) -> Result<Option<T>, Error> {
    let text = settings::get(conn, key)?;
    text.map(|t| {
        serde_json::from_str(&t)
            .map_err(|e| Error::Internal(format!("the arena's {key} state: {e}")))
    })
    .transpose()
}

/// Sets (or with `None` removes) a value of the `state` table.
pub(crate) fn set_state<T: serde::Serialize>(
    conn: &Connection,
    key: &str,
    value: Option<&T>,
) -> Result<(), Error> {
    match value {
        Some(v) => settings::set(
            conn,
            key,
            &serde_json::to_string(v).map_err(Error::internal)?,
        )?,
        None => {
            settings::unset(conn, key)?;
        }
    }
    Ok(())
}
