//! The organiser's page from the host's shell, with `rollarena serve` running on the arena
//! (no embedded worker): `arena teams` and `arena status` (text and `--json`), `arena
//! disable` and `enable` (the API and `rollarena submit` see it at once), `arena token` (the
//! new token logs in, the old one and its session are refused), `arena pause` and `resume`,
//! and each refusal (an unknown team, a built-in bot's token) with its message and exit code 2.

use super::{Arena, Server, Who, get, kit, login, multipart, post, submit};
use crate::arena::finals::arena_cmd;

/// This test's bots' and builds' uids.
const UIDS: [(u32, u32); 2] = [(65000, 65049), (65050, 65099)];

/// A team name that is markup and has blanks: the shell takes it as one word.
const ODD: &str = "<b>Odd</b> team";

/// The row of team `name` in a JSON list of teams (`arena teams --json`, the API's).
fn named(teams: &serde_json::Value, name: &str) -> serde_json::Value {
    teams
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no team {name:?} in {teams}"))
        .clone()
}

#[test]
fn the_organiser_runs_the_arena_from_the_shell() {
    let arena = Arena::init(&["--size", "6", "--rounds", "2", "--anchor", "greedy"], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    let alpha = arena.team("Alpha");
    arena.team(ODD);
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let cmd = |args: &[&str]| arena_cmd(&arena, args);

    // Listing: the teams by name, then the anchor; JSON with the same fields.
    let (code, out, err) = cmd(&["teams"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("enabled")).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].contains(ODD) && lines[1].contains("Alpha"),
        "{out}"
    );
    assert!(
        out.contains("(built-in) greedy") && out.contains("built-in"),
        "{out}"
    );
    for header in [
        "team",
        "state",
        "plays",
        "versions",
        "matches",
        "last submission",
    ] {
        assert!(out.contains(header), "{header} in {out}");
    }
    let (code, out, err) = cmd(&["teams", "--json"]);
    assert_eq!(code, 0, "{err}");
    let alpha_row = named(&serde_json::from_str(&out).unwrap(), "Alpha");
    assert_eq!(alpha_row["disabled"], false);
    assert_eq!(alpha_row["versions"], 0);
    assert!(alpha_row["active_version"].is_null());

    // Disabled from the shell: the API says so and its submission is refused; enabled again,
    // it submits.
    let (code, out, err) = cmd(&["disable", "Alpha"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Disabled the team \"Alpha\""), "{out}");
    let api = get(
        &format!("{url}/api/organiser"),
        Who::Token(&arena.organiser),
    )
    .json();
    assert_eq!(named(&api["teams"], "Alpha")["disabled"], true);
    let (code, out, err) = submit(&server, &alpha, &kit("python"), &[]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("disabled"), "{err}");
    // The JSON API itself refuses it (the rule is the domain's, not a page's): 403, saying why.
    let (content_type, body) = multipart(&[("file", Some("bot.py"), b"print(1)\n")]);
    let refused = post(
        &format!("{url}/api/submissions"),
        Who::Token(&alpha),
        &content_type,
        &body,
    );
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.json()["error"]
            .as_str()
            .is_some_and(|e| e.contains("disabled by the organiser")),
        "{}",
        refused.body
    );
    let (code, _, err) = cmd(&["teams"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cmd(&["enable", "Alpha"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = submit(&server, &alpha, &kit("python"), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (_, out, _) = cmd(&["teams", "--json"]);
    let alpha_row = named(&serde_json::from_str(&out).unwrap(), "Alpha");
    assert_eq!(alpha_row["versions"], 1);
    assert!(alpha_row["last_submitted_at"].is_i64(), "{alpha_row}");

    // A new token: printed alone on stdout; it logs in, the old token and the session it
    // opened are refused.
    let session = login(&url, &alpha);
    let (code, out, err) = cmd(&["token", "Alpha"]);
    assert_eq!(code, 0, "{err}");
    let new = out.trim();
    assert!(new.starts_with("team_") && !new.contains(' '), "{out}");
    assert_ne!(new, alpha);
    assert!(err.contains("old token"), "{err}");
    let whoami = get(&format!("{url}/api/whoami"), Who::Token(new));
    assert_eq!(whoami.status, 200, "{}", whoami.body);
    assert_eq!(whoami.json()["name"], "Alpha");
    let old = get(&format!("{url}/api/whoami"), Who::Token(&alpha));
    assert_eq!(old.status, 401, "{}", old.body);
    let by_session = get(&format!("{url}/api/whoami"), Who::Cookie(&session));
    assert_ne!(by_session.json()["role"], "team", "{}", by_session.body);

    // Pause and resume: the API says so.
    let (code, out, err) = cmd(&["pause"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Paused"), "{out}");
    let api = get(
        &format!("{url}/api/organiser"),
        Who::Token(&arena.organiser),
    )
    .json();
    assert_eq!(api["paused"], true);
    let (code, out, _) = cmd(&["status"]);
    assert_eq!(code, 0);
    assert!(out.contains("The matchmaker is paused"), "{out}");
    assert!(out.contains("Arena of rolit: 2 teams."), "{out}");
    assert!(out.contains("No closing time is set."), "{out}");
    let (code, _, err) = cmd(&["resume"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = cmd(&["status", "--json"]);
    assert_eq!(code, 0, "{err}");
    let status: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(status["paused"], false);
    assert_eq!(status["teams"], 2);
    let versions: i64 = ["queued", "running", "done", "failed"]
        .iter()
        .map(|k| status["versions"][k].as_i64().unwrap())
        .sum();
    assert_eq!(versions, 1, "{status}");
    assert!(status["matches_last_minute"].is_i64(), "{status}");

    // Refusals: exit 2, the message says what to do.
    for args in [
        &["disable", "alpha"][..],
        &["enable", "Nobody"],
        &["token", "Zed"],
    ] {
        let (code, out, err) = cmd(args);
        assert_eq!(code, 2, "{args:?}: {out}\n{err}");
        assert!(
            err.contains("there is no team named") && err.contains("arena teams"),
            "{err}"
        );
    }
    let (code, _, err) = cmd(&["token", "(built-in) greedy"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("built-in bot has no token"), "{err}");
    let (code, _, err) = cmd(&["disable", ODD]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = cmd(&["status"]);
    assert!(out.contains("2 teams (1 disabled)"), "{out}");
    server.stop();
}
