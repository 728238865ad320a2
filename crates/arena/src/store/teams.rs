//! Teams (`teams`): their names, token hashes, the disabled and built-in marks, and the
//! version each pinned. Who may do what with them is `admin`'s and `pinning`'s.

use rusqlite::{Connection, OptionalExtension, named_params, params};

use super::{Result, TeamId, VersionId, VersionState};

/// The SQL of a team's active version (an id, or NULL), over the team's row aliased `t`: the
/// version it pinned if that is ready, else its latest ready one (the newest first along the
/// index `versions(team_id, id)`, stopping at the first ready one). See `pinning`.
///
/// It takes the ready state as the named parameter `:ready` (`VersionState::Ready`), so a
/// query that uses it names all its parameters (SQLite numbers a named parameter after the
/// ones before it in the text: mixed with `?1`, the two could share a number).
pub const ACTIVE_VERSION: &str = "COALESCE(
    (SELECT pv.id FROM versions pv WHERE pv.id = t.pinned_version AND pv.state = :ready),
    (SELECT lv.id FROM versions lv WHERE lv.team_id = t.id AND lv.state = :ready
        ORDER BY lv.id DESC LIMIT 1))";

/// The team named `name` (exactly), if any.
pub fn find(conn: &Connection, name: &str) -> Result<Option<TeamId>> {
    Ok(conn
        .query_row("SELECT id FROM teams WHERE name = ?1", [name], |r| r.get(0))
        .optional()?)
}

/// The name of team `team`, if there is one.
pub fn name(conn: &Connection, team: TeamId) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT name FROM teams WHERE id = ?1", [team], |r| r.get(0))
        .optional()?)
}

/// What may stop a team from playing or submitting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    pub name: String,
    /// Disabled by the organiser.
    pub disabled: bool,
    /// One of the arena's built-in bots (an anchor).
    pub builtin: bool,
}

/// Team `team`'s name and marks, if there is such a team.
pub fn marks(conn: &Connection, team: TeamId) -> Result<Option<Marks>> {
    Ok(conn
        .query_row(
            "SELECT name, disabled, builtin FROM teams WHERE id = ?1",
            [team],
            |r| {
                Ok(Marks {
                    name: r.get(0)?,
                    disabled: r.get(1)?,
                    builtin: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Adds a team with its token's hash; its id.
pub fn insert(
    conn: &Connection,
    name: &str,
    token_hash: &str,
    now: i64,
    builtin: bool,
) -> Result<TeamId> {
    conn.execute(
        "INSERT INTO teams (name, token_hash, created_at, builtin) VALUES (?1, ?2, ?3, ?4)",
        params![name, token_hash, now, builtin],
    )?;
    Ok(TeamId(conn.last_insert_rowid()))
}

/// Disables or enables team `team`; whether there is such a team.
pub fn set_disabled(conn: &Connection, team: TeamId, disabled: bool) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE teams SET disabled = ?1 WHERE id = ?2",
        params![disabled, team],
    )? > 0)
}

/// Disables every built-in bot (before the anchors `arena.toml` names are enabled again).
pub fn disable_builtins(conn: &Connection) -> Result<()> {
    conn.execute("UPDATE teams SET disabled = 1 WHERE builtin = 1", [])?;
    Ok(())
}

/// Replaces the token's hash of team `team` (not a built-in bot's); whether it was replaced.
pub fn set_token_hash(conn: &Connection, team: TeamId, token_hash: &str) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE teams SET token_hash = ?1 WHERE id = ?2 AND builtin = 0",
        params![token_hash, team],
    )? > 0)
}

/// Sets (or with `None` clears) the version team `team` pinned.
pub fn set_pinned(conn: &Connection, team: TeamId, version: Option<VersionId>) -> Result<()> {
    conn.execute(
        "UPDATE teams SET pinned_version = ?1 WHERE id = ?2",
        params![version, team],
    )?;
    Ok(())
}

/// A team's pin and the version that plays: (active, pinned).
pub fn pinned(conn: &Connection, team: TeamId) -> Result<(Option<VersionId>, Option<VersionId>)> {
    Ok(conn.query_row(
        &format!("SELECT {ACTIVE_VERSION}, t.pinned_version FROM teams t WHERE t.id = :team"),
        named_params! {":team": team, ":ready": VersionState::Ready},
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// A version as a pin sees it.
pub struct Owned {
    pub team: TeamId,
    pub team_name: String,
    pub state: VersionState,
    pub failure: Option<String>,
}

/// Version `version`'s team and state, if there is such a version.
pub fn version_owner(conn: &Connection, version: VersionId) -> Result<Option<Owned>> {
    Ok(conn
        .query_row(
            "SELECT v.team_id, t.name, v.state, v.failure
             FROM versions v JOIN teams t ON t.id = v.team_id WHERE v.id = ?1",
            [version],
            |r| {
                Ok(Owned {
                    team: r.get(0)?,
                    team_name: r.get(1)?,
                    state: r.get(2)?,
                    failure: r.get(3)?,
                })
            },
        )
        .optional()?)
}
