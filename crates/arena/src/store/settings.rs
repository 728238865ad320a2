//! The arena's settings kept in the database (the `state` table, key -> JSON text): whether
//! the matchmaker is paused, the ladder's rest and wake, the finals' closing time and phase.
//! What each key means is its owner's (`admin`, [`super::rest`], `freeze`, `finals`).

use rusqlite::{Connection, OptionalExtension};

use super::Result;

/// The value of `key`, if set.
pub fn get(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM state WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Sets `key` to `value`.
pub fn set(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO state (key, value) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [key, value],
    )?;
    Ok(())
}

/// Sets `key` to `value` unless it is set already; whether it was set now.
pub fn set_if_unset(conn: &Connection, key: &str, value: &str) -> Result<bool> {
    Ok(conn.execute(
        "INSERT INTO state (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
        [key, value],
    )? > 0)
}

/// Unsets `key`; whether it was set.
pub fn unset(conn: &Connection, key: &str) -> Result<bool> {
    Ok(conn.execute("DELETE FROM state WHERE key = ?1", [key])? > 0)
}

/// A value of the `state` table, as JSON.
pub fn get_json<T: serde::de::DeserializeOwned>(
    conn: &Connection,
    key: &str,
) -> Result<Option<T>, String> {
    let text = get(conn, key)?;
    text.map(|t| serde_json::from_str(&t).map_err(|e| format!("the arena's {key} state: {e}")))
        .transpose()
}

/// Sets (or with `None` removes) a value of the `state` table.
pub fn set_json<T: serde::Serialize>(
    conn: &Connection,
    key: &str,
    value: Option<&T>,
) -> Result<(), String> {
    match value {
        Some(v) => set(
            conn,
            key,
            &serde_json::to_string(v).map_err(|e| e.to_string())?,
        )?,
        None => {
            unset(conn, key)?;
        }
    }
    Ok(())
}
