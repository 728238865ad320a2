//! A team's choice of the version that plays. Its **active version** is the one it pinned
//! (`teams.pinned_version`, if that version is ready), or else its latest ready one: the
//! matchmaker seats it, the final's field takes it, and the pages show it, all through the one
//! SQL expression [`ACTIVE_VERSION`].
//!
//! [`pin`] is the only writer of the pin, for the team itself and for the organiser: the site
//! (`POST /api/teams/NAME/pin` and the team page's buttons, which decide who may ask) and the
//! organiser's `rollarena arena pin` both find the team with [`team_named`] and call it, so
//! they refuse the same things with the same words. It refuses once the contest has closed: the final plays the
//! versions the teams had at the closing time, so no team may swap in another version for it,
//! nor while it is played (a final is started only after the closing time, which cannot be
//! taken back once it has passed). The check and the write are one `IMMEDIATE` transaction, so
//! a pin is either written before the closing time or refused.

use rusqlite::{Connection, TransactionBehavior};
use serde::Serialize;

use super::freeze;
use super::sql;
use super::store::{self, TeamId, VersionId, VersionState, teams};

/// The SQL of a team's active version (an id, or NULL), over the team's row aliased `t`: the
/// version it pinned if that is ready, else its latest ready one (kept in the store).
pub use super::store::teams::ACTIVE_VERSION;

/// Which version of a team plays, after a pin (`POST /api/teams/NAME/pin` answers it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pinned {
    /// The version that plays (`None`: none is ready).
    pub active_version: Option<i64>,
    /// The version the team pinned (`None`: its latest ready one plays).
    pub pinned_version: Option<i64>,
}

/// Why a pin was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PinError {
    /// No team has that name.
    NoTeam(String),
    /// The contest has closed: the versions that play are fixed (the message names the time).
    Closed(String),
    /// What was asked cannot play: no such version, another team's, not ready, a built-in bot.
    Refused(String),
    /// The database failed.
    Internal(String),
}

impl PinError {
    pub fn message(&self) -> &str {
        match self {
            PinError::NoTeam(m)
            | PinError::Closed(m)
            | PinError::Refused(m)
            | PinError::Internal(m) => m,
        }
    }
}

impl std::fmt::Display for PinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

fn internal(e: rusqlite::Error) -> PinError {
    PinError::Internal(sql(e))
}

impl From<store::StoreError> for PinError {
    fn from(e: store::StoreError) -> Self {
        PinError::Internal(e.to_string())
    }
}

/// The id of the team named `name` (exactly: names are compared as they are written).
pub fn team_named(conn: &Connection, name: &str) -> Result<TeamId, PinError> {
    super::admin::find_team(conn, name)
        .map_err(PinError::Internal)?
        .ok_or_else(|| {
            PinError::NoTeam(format!(
                "there is no team named {name:?}: give the name exactly as the team was added \
                 (case, spaces and punctuation count; the leaderboard and the organiser's page \
                 list the teams)"
            ))
        })
}

/// What a pin refused after the closing time says.
pub fn closed_refusal(at: i64) -> String {
    format!(
        "the contest closed at {}: the version that plays can no longer be changed, since the \
         final plays the versions the teams had at the closing time",
        freeze::utc(at)
    )
}

/// Pins `version` as the one team `team` plays (one of its own, ready), or with `None` goes
/// back to its latest ready version; returns which version plays now. Pinning the version
/// already pinned, or unpinning a team that pinned none, changes nothing and is not an error.
pub fn pin(
    conn: &mut Connection,
    team: TeamId,
    version: Option<VersionId>,
) -> Result<Pinned, PinError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(internal)?;
    if let Some(at) = freeze::closed(&tx).map_err(PinError::Internal)? {
        return Err(PinError::Closed(closed_refusal(at)));
    }
    let teams::Marks { name, builtin, .. } = teams::marks(&tx, team)?
        .ok_or_else(|| PinError::Refused(format!("there is no team {team}")))?;
    if builtin {
        return Err(PinError::Refused(format!(
            "{name} is one of the arena's built-in bots: it has one version, which always \
             plays, so there is nothing to choose (arena.toml's [ladder] anchors says which \
             built-in bots play)"
        )));
    }
    if let Some(v) = version {
        check_version(&tx, team, &name, v)?;
    }
    teams::set_pinned(&tx, team, version)?;
    let pinned = pinned(&tx, team)?;
    tx.commit().map_err(internal)?;
    Ok(pinned)
}

/// Refuses a version team `team` (named `name`) cannot play, saying why and what to do.
fn check_version(
    conn: &Connection,
    team: TeamId,
    name: &str,
    v: VersionId,
) -> Result<(), PinError> {
    let row = teams::version_owner(conn, v)?;
    let Some(teams::Owned {
        team: owner,
        team_name: owner_name,
        state,
        failure,
    }) = row
    else {
        return Err(PinError::Refused(format!(
            "there is no version {v}: give the number of one of {name}'s versions (its page \
             lists them)"
        )));
    };
    if owner != team {
        return Err(PinError::Refused(format!(
            "version {v} is {owner_name}'s, not {name}'s: a team plays one of its own versions"
        )));
    }
    match state {
        VersionState::Ready => Ok(()),
        VersionState::Failed => Err(PinError::Refused(format!(
            "version {v} failed ({}): only a version that passed its build and check can play; \
             its page says what went wrong",
            failure.as_deref().unwrap_or("no reason recorded")
        ))),
        VersionState::Superseded => Err(PinError::Refused(format!(
            "version {v} was {}: it is never built; pin a version that is ready",
            failure.as_deref().unwrap_or("superseded by a newer upload")
        ))),
        other => Err(PinError::Refused(format!(
            "version {v} is {other}: it has not passed its build and check yet; pin it once it \
             is ready"
        ))),
    }
}

/// The team's pin and the version that plays.
pub fn pinned(conn: &Connection, team: TeamId) -> store::Result<Pinned> {
    let (active, pinned) = teams::pinned(conn, team)?;
    Ok(Pinned {
        active_version: active.map(i64::from),
        pinned_version: pinned.map(i64::from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admin;
    use crate::store::db;
    use crate::store::fixtures;

    fn version(conn: &Connection, id: i64, team: TeamId, state: VersionState) {
        let failure = (state == VersionState::Failed).then_some("check: hello: no answer");
        fixtures::version(conn, VersionId(id), team, state, failure);
    }

    #[test]
    fn a_pin_plays_until_unpinned_and_every_refusal_says_why() {
        let (_tmp, arena) = admin::fresh_arena(&["a", "b"]);
        let mut conn = arena.conn().unwrap();
        let (a, b) = (
            team_named(&conn, "a").unwrap(),
            team_named(&conn, "b").unwrap(),
        );
        match team_named(&conn, "A") {
            Err(PinError::NoTeam(m)) => {
                assert!(
                    m.contains("there is no team named \"A\": give the name exactly"),
                    "{m}"
                )
            }
            other => panic!("{other:?}"),
        }
        version(&conn, 1, a, VersionState::Ready);
        version(&conn, 2, a, VersionState::Ready);
        version(&conn, 3, a, VersionState::Failed);
        version(&conn, 4, a, VersionState::Building);
        version(&conn, 5, b, VersionState::Ready);
        let latest = Pinned {
            active_version: Some(2),
            pinned_version: None,
        };
        assert_eq!(pinned(&conn, a).unwrap(), latest);
        let on_1 = Pinned {
            active_version: Some(1),
            pinned_version: Some(1),
        };
        assert_eq!(pin(&mut conn, a, Some(VersionId(1))).unwrap(), on_1);
        assert_eq!(pin(&mut conn, a, Some(VersionId(1))).unwrap(), on_1);
        let refused = |conn: &mut Connection, v| match pin(conn, a, Some(VersionId(v))) {
            Err(PinError::Refused(m)) => m,
            other => panic!("{other:?}"),
        };
        let m = refused(&mut conn, 3);
        assert!(m.contains("failed (check: hello: no answer)"), "{m}");
        let m = refused(&mut conn, 4);
        assert!(
            m.contains("is building") && m.contains("once it is ready"),
            "{m}"
        );
        let m = refused(&mut conn, 5);
        assert!(m.contains("version 5 is b's, not a's"), "{m}");
        let m = refused(&mut conn, 99);
        assert!(m.contains("there is no version 99"), "{m}");
        // A refusal leaves the pin as it was.
        assert_eq!(pinned(&conn, a).unwrap(), on_1);
        assert_eq!(pin(&mut conn, a, None).unwrap(), latest);
        fixtures::set_builtin(&conn, b);
        match pin(&mut conn, b, Some(VersionId(5))) {
            Err(PinError::Refused(m)) => assert!(m.contains("built-in bots"), "{m}"),
            other => panic!("{other:?}"),
        }

        // Closed: refused, naming the time; the pin stays what it was at the closing time.
        pin(&mut conn, a, Some(VersionId(1))).unwrap();
        freeze::set(&conn, db::now_ms(), true).unwrap();
        for asked in [Some(VersionId(2)), None] {
            match pin(&mut conn, a, asked) {
                Err(PinError::Closed(m)) => {
                    assert!(m.contains("the contest closed at 20"), "{m}");
                    assert!(m.contains("the final plays the versions"), "{m}");
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(pinned(&conn, a).unwrap(), on_1);
    }
}
