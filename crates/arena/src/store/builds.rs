//! A version's build under the builder's lease (`versions`): claimed in the fair order,
//! built, checked, ready or failed, or queued again; and its packed artifact for remote
//! workers. The rules (what a build runs, when it is retried) are `submissions::builder`'s.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Result, VersionId, VersionState};

/// A claimed version: its id, language and builds started (this one included).
pub struct Claim {
    pub id: VersionId,
    pub language: String,
    pub attempts: i64,
}

/// Claims the next version to build for `owner` until `lease_until`: the queued version of
/// the team whose last build started longest ago, then the one waiting longest.
pub fn claim(conn: &Connection, owner: &str, now: i64, lease_until: i64) -> Result<Option<Claim>> {
    Ok(conn
        .query_row(
            "UPDATE versions SET state = ?4, lease_owner = ?1, lease_until = ?2,
                 build_attempts = build_attempts + 1, build_started_at = ?3
             WHERE id = (SELECT v.id FROM versions v WHERE v.state = ?5
                     ORDER BY (SELECT COALESCE(MAX(w.build_started_at), 0) FROM versions w
                               WHERE w.team_id = v.team_id),
                              COALESCE(v.waiting_since, v.submitted_at), v.id
                     LIMIT 1)
               AND state = ?5
             RETURNING id, language, build_attempts",
            params![
                owner,
                lease_until,
                now,
                VersionState::Building,
                VersionState::Queued
            ],
            |r| {
                Ok(Claim {
                    id: r.get(0)?,
                    language: r.get(1)?,
                    attempts: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Version `id`'s language and its team's name.
pub fn language_and_team(conn: &Connection, id: VersionId) -> Result<(String, String)> {
    Ok(conn.query_row(
        "SELECT v.language, t.name FROM versions v JOIN teams t ON t.id = v.team_id
         WHERE v.id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// Version `id` built at `now`: being checked, run by `run_command`.
pub fn built(conn: &Connection, id: VersionId, now: i64, run_command: &str) -> Result<()> {
    conn.execute(
        "UPDATE versions SET state = ?4, built_at = ?1, run_command = ?2 WHERE id = ?3",
        params![now, run_command, id, VersionState::Checking],
    )?;
    Ok(())
}

/// Version `id` passed its check at `now`: ready.
pub fn ready(conn: &Connection, id: VersionId, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE versions SET state = ?3, checked_at = ?1, failure = NULL,
             lease_owner = NULL, lease_until = NULL WHERE id = ?2",
        params![now, id, VersionState::Ready],
    )?;
    Ok(())
}

/// Notes when version `id`'s build ended (before it is failed).
pub fn set_built_at(conn: &Connection, id: VersionId, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE versions SET built_at = ?1 WHERE id = ?2",
        params![now, id],
    )?;
    Ok(())
}

/// Notes when version `id`'s check ended (before it is failed).
pub fn set_checked_at(conn: &Connection, id: VersionId, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE versions SET checked_at = ?1 WHERE id = ?2",
        params![now, id],
    )?;
    Ok(())
}

/// Version `id` failed, for the reason `why`.
pub fn failed(conn: &Connection, id: VersionId, why: &str) -> Result<()> {
    conn.execute(
        "UPDATE versions SET state = ?3, failure = ?1, lease_owner = NULL,
             lease_until = NULL WHERE id = ?2",
        params![why, id, VersionState::Failed],
    )?;
    Ok(())
}

/// Queues version `id` again (`uncount`: its attempt not counted).
pub fn requeue(conn: &Connection, id: VersionId, uncount: bool) -> Result<()> {
    let sql = if uncount {
        "UPDATE versions SET state = ?2, lease_owner = NULL, lease_until = NULL,
             build_attempts = MAX(build_attempts - 1, 0) WHERE id = ?1"
    } else {
        "UPDATE versions SET state = ?2, lease_owner = NULL, lease_until = NULL WHERE id = ?1"
    };
    conn.execute(sql, params![id, VersionState::Queued])?;
    Ok(())
}

/// Queues again every version being built or checked under a lease whose owner is `LIKE`
/// `owner` (a builder that stopped).
pub fn requeue_owned(conn: &Connection, owner: &str) -> Result<()> {
    conn.execute(
        "UPDATE versions SET state = ?2, lease_owner = NULL, lease_until = NULL
         WHERE state IN (?3, ?4) AND lease_owner LIKE ?1",
        params![
            owner,
            VersionState::Queued,
            VersionState::Building,
            VersionState::Checking
        ],
    )?;
    Ok(())
}

/// A version's packed build, as stored.
pub struct ArtifactRow {
    pub language: String,
    pub sha256: Option<String>,
    pub bytes: Option<i64>,
    pub arch: Option<String>,
}

/// Version `id`'s language and artifact, if there is such a version.
pub fn artifact(conn: &Connection, id: VersionId) -> Result<Option<ArtifactRow>> {
    Ok(conn
        .query_row(
            "SELECT language, artifact_sha256, artifact_bytes, artifact_arch FROM versions
             WHERE id = ?1",
            [id],
            |r| {
                Ok(ArtifactRow {
                    language: r.get(0)?,
                    sha256: r.get(1)?,
                    bytes: r.get(2)?,
                    arch: r.get(3)?,
                })
            },
        )
        .optional()?)
}

/// Records version `id`'s artifact.
pub fn set_artifact(
    conn: &Connection,
    id: VersionId,
    sha256: &str,
    bytes: i64,
    arch: &str,
) -> Result<()> {
    conn.execute(
        "UPDATE versions SET artifact_sha256 = ?1, artifact_bytes = ?2, artifact_arch = ?3
         WHERE id = ?4",
        params![sha256, bytes, arch, id],
    )?;
    Ok(())
}

/// The first version whose artifact has this hash.
pub fn with_artifact(conn: &Connection, sha256: &str) -> Result<Option<VersionId>> {
    Ok(conn
        .query_row(
            "SELECT id FROM versions WHERE artifact_sha256 = ?1 ORDER BY id LIMIT 1",
            [sha256],
            |r| r.get(0),
        )
        .optional()?)
}
