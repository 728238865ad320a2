//! What the organiser does: create an arena, add teams, disable one, pause the matchmaker
//! (a team's choice of the version that plays is [`super::pinning`]'s).
//!
//! Team names are shown as text everywhere (the pages escape them), so any character is
//! allowed but control characters, which no page or terminal shows faithfully; names of
//! built-in anchors start with `(built-in)`, which no team may take.

use std::path::Path;

use serde_json::{Map, Value};

use super::config::{self, Config};
use super::store::db;
use super::store::{TeamId, sessions, settings, teams, versions};
use super::{Arena, tokens};

/// Longest team name, in characters.
pub const MAX_NAME: usize = 64;

/// What names of built-in anchors start with.
pub const BUILTIN_PREFIX: &str = "(built-in)";

/// Creates an arena at `dir` (absent or empty) for `game` with its `options`; returns the
/// organiser's token, which is shown once and stored only as a hash.
pub fn init(dir: &Path, game: &str, options: Map<String, Value>) -> Result<String, String> {
    let config = Config::new(game, options)?;
    init_with(dir, &config)
}

/// Creates an arena at `dir` with these settings.
pub fn init_with(dir: &Path, config: &Config) -> Result<String, String> {
    config.validate()?;
    if dir.join(config::FILE).exists() || dir.join(db::FILE).exists() {
        return Err(format!(
            "{} already holds an arena: open it with `rollarena serve {}`, or choose another \
             directory",
            dir.display(),
            dir.display()
        ));
    }
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .next()
            .is_some()
    {
        return Err(format!(
            "{} is not empty: an arena needs a directory of its own (a new or empty one)",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // DIR is traversable (bots and builds run in `run/` under it) but not listable by them;
    // `versions/` and `records/` are root's only.
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    super::rundir::set_mode(dir, 0o711)?;
    for sub in ["versions", "records"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        super::rundir::set_mode(&d, 0o700)?;
    }
    super::rundir::prepare(dir)?;
    std::fs::write(dir.join(config::FILE), config.to_toml())
        .map_err(|e| format!("cannot write {}: {e}", dir.join(config::FILE).display()))?;
    let conn = db::create(dir)?;
    super::rundir::set_mode(&dir.join(db::FILE), 0o600)?;
    let token = tokens::generate(tokens::Kind::Organiser);
    sessions::add_organiser(&conn, &tokens::hash(&token), db::now_ms())?;
    Ok(token)
}

/// Checks a team name: what is wrong with it and what to do.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a team name cannot be empty".into());
    }
    if name.trim() != name {
        return Err(format!(
            "the team name {name:?} starts or ends with blanks: give it without them"
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the team name {name:?} holds the control character {:?}: names are shown as \
             text, so use printable characters only",
            c
        ));
    }
    let n = name.chars().count();
    if n > MAX_NAME {
        return Err(format!(
            "the team name is {n} characters long: at most {MAX_NAME} are allowed"
        ));
    }
    if name.starts_with(BUILTIN_PREFIX) {
        return Err(format!(
            "team names starting with {BUILTIN_PREFIX:?} are kept for the arena's built-in \
             bots: choose another"
        ));
    }
    Ok(())
}

/// Adds a team; returns its token (shown once, stored as a hash).
pub fn add_team(arena: &Arena, name: &str) -> Result<String, String> {
    check_name(name)?;
    let conn = arena.conn()?;
    let token = insert_team(&conn, name, false).map(|(_, token)| token)?;
    // A new team wakes a ladder at rest (its first version then places).
    crate::store::rest::wake(&conn)?;
    Ok(token)
}

fn insert_team(
    conn: &rusqlite::Connection,
    name: &str,
    builtin: bool,
) -> Result<(TeamId, String), String> {
    if teams::find(conn, name)?.is_some() {
        return Err(format!(
            "there is already a team named {name:?}: choose another name"
        ));
    }
    let token = tokens::generate(tokens::Kind::Team);
    let id = teams::insert(conn, name, &tokens::hash(&token), db::now_ms(), builtin)?;
    Ok((id, token))
}

/// The team with this name (exactly: names are compared as they are written), if any.
pub fn find_team(conn: &rusqlite::Connection, name: &str) -> Result<Option<TeamId>, String> {
    Ok(teams::find(conn, name)?)
}

/// The team with this name.
pub fn team_id(conn: &rusqlite::Connection, name: &str) -> Result<TeamId, String> {
    find_team(conn, name)?.ok_or_else(|| format!("there is no team named {name:?}"))
}

/// Disables (or enables again) a team: a disabled team's versions leave the ladder.
pub fn set_team_disabled(arena: &Arena, team: TeamId, disabled: bool) -> Result<(), String> {
    let conn = arena.conn()?;
    if !teams::set_disabled(&conn, team, disabled)? {
        return Err(format!("there is no team {team}"));
    }
    Ok(())
}

/// Gives a team a new token (the old one stops working, and its sessions end): for a team
/// that lost its token, or whose token leaked, since only the token's hash is kept. The page's
/// organiser table and `rollarena arena token` both call it.
pub fn new_token(conn: &rusqlite::Connection, team: TeamId) -> Result<String, String> {
    let token = tokens::generate(tokens::Kind::Team);
    if !teams::set_token_hash(conn, team, &tokens::hash(&token))? {
        return Err("a built-in bot has no token: no one logs in as it".into());
    }
    sessions::end_team_sessions(conn, team)?;
    Ok(token)
}

/// Pauses (or resumes) the matchmaker: no new match is made while paused; matches already
/// made are played. Resuming also wakes a ladder at rest (`store::rest`): every version
/// plays one match more. Returns whether the ladder was at rest.
pub fn set_paused(arena: &Arena, paused: bool) -> Result<bool, String> {
    let conn = arena.conn()?;
    settings::set(
        &conn,
        "paused",
        &serde_json::to_string(&paused).expect("a bool serialises"),
    )?;
    if paused {
        return Ok(crate::store::rest::since(&conn)?.is_some());
    }
    crate::store::rest::wake(&conn)
}

/// Whether the matchmaker is paused.
pub fn paused(arena: &Arena) -> Result<bool, String> {
    paused_in(&*arena.conn()?)
}

pub(crate) fn paused_in(conn: &rusqlite::Connection) -> Result<bool, String> {
    let value = settings::get(conn, "paused")?;
    Ok(value.is_some_and(|v| v == "true"))
}

/// Makes sure every anchor `arena.toml` names has its team and its one ready version.
pub fn sync_anchors(arena: &Arena) -> Result<(), String> {
    let conn = arena.conn()?;
    // An anchor the file no longer names leaves the ladder (its matches stay).
    teams::disable_builtins(&conn)?;
    for bot in &arena.config.ladder.anchors {
        let name = format!("{BUILTIN_PREFIX} {bot}");
        if let Some(id) = teams::find(&conn, &name)? {
            teams::set_disabled(&conn, id, false)?;
            continue;
        }
        let (team, _) = insert_team(&conn, &name, true)?;
        let (mu, sigma) = crate::rating::initial();
        versions::insert_builtin(
            &conn,
            team,
            bot,
            &format!("rollarena bot {bot}"),
            db::now_ms(),
            (mu, sigma),
        )?;
    }
    Ok(())
}

/// A fresh arena of the default game with `teams`, in a temporary directory (dropped with
/// it): the unit tests' starting point.
#[cfg(test)]
pub fn fresh_arena(teams: &[&str]) -> (tempfile::TempDir, Arena) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("arena");
    init(
        &dir,
        crate::game::registry::default_name(),
        Default::default(),
    )
    .unwrap();
    let arena = Arena::open(&dir).unwrap();
    for team in teams {
        add_team(&arena, team).unwrap();
    }
    (tmp, arena)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert!(check_name("Team <b>&'\" ünïcødé 🚀").is_ok());
        assert!(check_name("").unwrap_err().contains("empty"));
        assert!(check_name("a\u{1b}[31m").unwrap_err().contains("control"));
        assert!(check_name(" a").unwrap_err().contains("blanks"));
        assert!(
            check_name(&"x".repeat(65))
                .unwrap_err()
                .contains("at most 64")
        );
        assert!(
            check_name("(built-in) greedy")
                .unwrap_err()
                .contains("kept")
        );
    }

    #[test]
    fn init_then_teams_then_pause() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("arena");
        let token = init(&dir, crate::game::registry::default_name(), Map::new()).unwrap();
        assert!(token.starts_with("org_"));
        let again = init(&dir, crate::game::registry::default_name(), Map::new()).unwrap_err();
        assert!(again.contains("already holds an arena"), "{again}");
        let arena = Arena::open(&dir).unwrap();
        let t = add_team(&arena, "alpha").unwrap();
        assert!(t.starts_with("team_"));
        let dup = add_team(&arena, "alpha").unwrap_err();
        assert!(dup.contains("already a team"), "{dup}");
        assert!(!paused(&arena).unwrap());
        set_paused(&arena, true).unwrap();
        assert!(paused(&arena).unwrap());
        let id = team_id(&arena.conn().unwrap(), "alpha").unwrap();
        set_team_disabled(&arena, id, true).unwrap();
    }

    #[test]
    fn a_new_token_replaces_the_old_one_and_ends_its_sessions() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("arena");
        init(&dir, crate::game::registry::default_name(), Map::new()).unwrap();
        let arena = Arena::open(&dir).unwrap();
        let old = add_team(&arena, "alpha").unwrap();
        let conn = arena.conn().unwrap();
        let id = team_id(&conn, "alpha").unwrap();
        let session = sessions::Session {
            team: Some(id),
            organiser: false,
            csrf: "c".into(),
        };
        sessions::start(&conn, "s", &session, 0, 9999999999999).unwrap();
        assert_eq!(sessions::find(&conn, "s", 1).unwrap(), Some(session));
        let new = new_token(&conn, id).unwrap();
        assert_ne!(new, old);
        let hash = tokens::hash(&new);
        let found = sessions::team_of_token(&conn, &hash).unwrap();
        assert_eq!(found, Some((id, "alpha".to_string())));
        assert_eq!(
            sessions::team_of_token(&conn, &tokens::hash(&old)).unwrap(),
            None
        );
        assert_eq!(sessions::find(&conn, "s", 1).unwrap(), None);
    }
}
