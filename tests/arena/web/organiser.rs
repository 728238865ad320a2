//! The organiser at the host's shell and on the site, with `rollarena serve` running on the
//! arena (no embedded worker: the matches the matchmaker makes stay queued, to be read):
//! `rollarena arena pin` pins and unpins (the API and the pages say so at once, and the next
//! matches the matchmaker makes seat the pinned version), refuses each bad request with its
//! message and exit code 2 (unknown team, unknown version, another team's, one still being
//! checked, one that failed, a built-in bot, a malformed number) and, after the closing time,
//! any pin at all; the organiser's teams table and the leaderboard mark the pinned version
//! (with a team name that is markup shown as text); and error pages (a handler's 404 and 403,
//! axum's own 400 and 405) carry the closing-time banner, before the closing time and after.

use std::time::Duration;

use super::e2e::urlencode;
use super::pinning::{csrf_of, ready_kit, seats, set_matchmaker};
use super::{Arena, Server, Who, get, login, submit, version_id, wait_for};
use crate::arena::finals::arena_cmd;

/// This test's bots' and builds' uids.
const UIDS: [(u32, u32); 2] = [(62300, 62349), (62350, 62399)];

/// A team name that is markup: it must stay text in the organiser's table.
const HOSTILE: &str = "<img src=x onerror=alert(1)> & \"Charlie\"";

/// The built-in anchor of the arena.
const ANCHOR: &str = "(built-in) greedy";

/// The row of the organiser's teams table whose link is `name`'s page.
fn organiser_row(page: &str, name: &str) -> String {
    let href = format!("href=\"/teams/{}\"", urlencode(name));
    let table = page
        .split("id=\"teams\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no teams table in {page}"));
    table
        .split("<tr>")
        .find(|row| row.contains(&href))
        .unwrap_or_else(|| panic!("no row of {name} in {table}"))
        .split("</tr>")
        .next()
        .unwrap()
        .to_string()
}

/// Every error page of `url` carries `banner` (and says what was wrong).
fn error_pages_carry(url: &str, session: &str, banner: &str) {
    for (address, who, status, says) in [
        (
            "/no/such/page",
            Who::Nobody,
            404,
            "nothing is at /no/such/page",
        ),
        ("/teams/Nobody", Who::Nobody, 404, "Nobody"),
        ("/matches/x", Who::Nobody, 400, "(at /matches/x)"),
        ("/logout", Who::Nobody, 405, "does not take a GET request"),
        ("/submit", Who::Cookie(session), 403, "only a team submits"),
        (
            "/final/",
            Who::Nobody,
            404,
            "the final is not published yet",
        ),
    ] {
        let a = get(&format!("{url}{address}"), who);
        assert_eq!(a.status, status, "{address}: {}", a.body);
        assert!(
            a.body.starts_with("<!DOCTYPE html>") && a.body.contains("id=\"error\""),
            "{address}: {}",
            a.body
        );
        assert!(a.body.contains(says), "{address}: {says} in {}", a.body);
        assert!(
            a.body.contains("id=\"closing\"") && a.body.contains(banner),
            "{address}: {banner} in {}",
            a.body
        );
    }
    // The API keeps its JSON.
    let a = get(&format!("{url}/api/no/such"), Who::Nobody);
    assert_eq!(a.status, 404);
    assert!(a.json()["error"].is_string(), "{}", a.body);
}

#[test]
fn the_organiser_pins_from_the_shell_and_every_page_shows_the_closing_time() {
    let arena = Arena::init(&["--size", "6", "--rounds", "2", "--anchor", "greedy"], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    let alpha = arena.team("Alpha");
    let hostile = arena.team(HOSTILE);
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let pin = |args: &[&str]| {
        let mut all = vec!["pin"];
        all.extend_from_slice(args);
        arena_cmd(&arena, &all)
    };

    // A closing time tomorrow: every error page announces it.
    let tomorrow = humantime::format_rfc3339_seconds(
        std::time::SystemTime::now() + Duration::from_secs(24 * 3600),
    )
    .to_string();
    let (code, _, err) = arena_cmd(&arena, &["freeze", "--at", &tomorrow]);
    assert_eq!(code, 0, "{err}");
    let organiser = login(&url, &arena.organiser);
    error_pages_carry(&url, &organiser, "Submissions close at");

    // Versions arrive while the matchmaker is paused.
    let org_csrf = csrf_of(&get(&format!("{url}/organiser"), Who::Cookie(&organiser)).body);
    let matchmaker = |paused: bool| set_matchmaker(&url, &organiser, &org_csrf, paused);
    matchmaker(true);
    let ready = |token: &str| ready_kit(&server, token);
    let (a1, a2) = (ready(&alpha), ready(&alpha));
    let h1 = ready(&hostile);

    // Pinned from the shell: the command says so, and so do the API and the pages at once.
    let (code, out, err) = pin(&["Alpha", &format!("#{a1}")]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(out.trim(), format!("Alpha plays version {a1}, pinned"));
    assert!(
        err.contains("The next matches the ladder makes seat it"),
        "{err}"
    );
    let team = |name: &str| get(&format!("{url}/api/teams/{}", urlencode(name)), Who::Nobody);
    assert_eq!(team("Alpha").json()["pinned_version"], a1);
    assert_eq!(team("Alpha").json()["active_version"], a1);
    let page = get(&format!("{url}/teams/Alpha"), Who::Nobody).body;
    let plays = format!("Plays: version #{a1} <span class=\"badge pinned\">pinned</span>");
    assert!(page.contains(&plays), "{plays} in {page}");

    // The organiser's table: Alpha's pinned version marked, the hostile team's latest, its
    // name as text.
    let table = get(&format!("{url}/organiser"), Who::Cookie(&organiser)).body;
    assert!(!table.contains("<img src=x"), "{table}");
    assert!(
        table.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{table}"
    );
    let row = organiser_row(&table, "Alpha");
    assert!(
        row.contains(&format!("#{a1} <span class=\"badge pinned\">pinned</span>")),
        "{row}"
    );
    let row = organiser_row(&table, HOSTILE);
    assert!(
        row.contains(&format!("#{h1} <span class=\"muted\">latest</span>")),
        "{row}"
    );
    assert!(!row.contains("badge pinned"), "{row}");
    let api = get(
        &format!("{url}/api/organiser"),
        Who::Token(&arena.organiser),
    )
    .json();
    let of = |name: &str| {
        api["teams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(of("Alpha")["pinned_version"], a1);
    assert_eq!(of("Alpha")["active_version"], a1);
    assert!(of(HOSTILE)["pinned_version"].is_null());
    assert_eq!(of(HOSTILE)["active_version"], h1);
    // The leaderboard marks it too.
    let lb = get(&format!("{url}/api/leaderboard"), Who::Nobody).json();
    // Ranked or still placing (listed apart).
    let rows: Vec<&serde_json::Value> = lb["rows"]
        .as_array()
        .unwrap()
        .iter()
        .chain(lb["placing"].as_array().unwrap())
        .collect();
    let alpha_row = rows.iter().find(|r| r["team"] == "Alpha").unwrap();
    assert_eq!(
        (
            alpha_row["version_id"].as_i64(),
            alpha_row["pinned"].as_bool()
        ),
        (Some(a1), Some(true))
    );
    assert!(
        rows.iter()
            .filter(|r| r["team"] != "Alpha")
            .all(|r| r["pinned"] == false)
    );
    let page = get(&format!("{url}/"), Who::Nobody).body;
    assert_eq!(
        page.matches("<span class=\"badge pinned\">").count(),
        1,
        "{page}"
    );

    // A team name that is markup pins from the shell too, and shows as text.
    let (code, out, err) = pin(&[HOSTILE, &h1.to_string()]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(out.trim(), format!("{HOSTILE} plays version {h1}, pinned"));
    let table = get(&format!("{url}/organiser"), Who::Cookie(&organiser)).body;
    let row = organiser_row(&table, HOSTILE);
    assert!(
        row.contains(&format!("#{h1} <span class=\"badge pinned\">pinned</span>")),
        "{row}"
    );
    assert!(!table.contains("<img src=x"), "{table}");

    // A version still in its check (its bot never answers `hello`), then failed.
    let tmp = crate::check::shared_tempdir("rollarena-pin-cli-");
    let silent = tmp.path().join("bot.py");
    std::fs::write(&silent, "import time\ntime.sleep(600)\n").unwrap();
    let (code, out, err) = submit(&server, &alpha, &silent, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    let slow = version_id(&out);
    let (code, out, err) = pin(&["Alpha", &slow.to_string()]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(&format!("version {slow} is "))
            && err.contains("has not passed its build and check yet; pin it once it is ready"),
        "{err}"
    );

    // Every other refusal: its message, exit code 2, and the pin unchanged.
    for (args, says) in [
        (
            vec!["alpha".to_string(), a2.to_string()],
            "there is no team named \"alpha\": give the name exactly".to_string(),
        ),
        (
            vec!["Alpha".into(), "999999".into()],
            "there is no version 999999: give the number of one of Alpha's versions".into(),
        ),
        (
            vec!["Alpha".into(), h1.to_string()],
            format!("version {h1} is {HOSTILE}'s, not Alpha's"),
        ),
        (
            vec![ANCHOR.into(), "--latest".into()],
            format!("{ANCHOR} is one of the arena's built-in bots"),
        ),
        (
            vec!["Alpha".into(), "v2".into()],
            "\"v2\" is not a version's number".into(),
        ),
        (
            vec!["Alpha".into(), a2.to_string(), "--latest".into()],
            "cannot be used with".into(),
        ),
        (vec!["Alpha".into()], "<VERSION|--latest>".into()),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = pin(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains(&says), "{args:?}: {says} in {err}");
    }
    wait_for("the silent bot's verdict", Duration::from_secs(300), || {
        arena.count(&format!(
            "SELECT COUNT(*) FROM versions WHERE id = {slow} AND state = 'failed'"
        )) == 1
    });
    let (code, _, err) = pin(&["Alpha", &slow.to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("version {slow} failed (check:")),
        "{err}"
    );
    assert_eq!(team("Alpha").json()["pinned_version"], a1);

    // The matchmaker seats the pinned versions, not the latest.
    matchmaker(false);
    wait_for("two matches queued", Duration::from_secs(120), || {
        seats(&arena, "queued", 0).len() >= 2
    });
    matchmaker(true);
    let anchor = arena
        .count("SELECT v.id FROM versions v JOIN teams t ON t.id = v.team_id WHERE t.builtin = 1");
    let queued = seats(&arena, "queued", 0);
    let seated: Vec<i64> = queued.iter().flatten().copied().collect();
    assert!(seated.contains(&a1), "{queued:?}");
    assert!(
        seated.iter().all(|v| [a1, h1, anchor].contains(v)),
        "only the active versions (a1 {a1}, h1 {h1}, the anchor {anchor}): {queued:?}"
    );

    // Unpinned from the shell (with --json, the API's answer).
    let (code, out, err) = pin(&["Alpha", "--latest", "--json"]);
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        answer,
        serde_json::json!({ "active_version": a2, "pinned_version": null })
    );
    let (code, out, _) = pin(&["Alpha", "--latest"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        format!("Alpha plays version {a2}, its latest ready one (none pinned)")
    );
    assert_eq!(team("Alpha").json()["active_version"], a2);
    let row = organiser_row(
        &get(&format!("{url}/organiser"), Who::Cookie(&organiser)).body,
        "Alpha",
    );
    assert!(
        row.contains(&format!("#{a2} <span class=\"muted\">latest</span>")),
        "{row}"
    );

    // Closed: every pin refused from the shell, naming the time; the pins stay; the error
    // pages say the contest is closed.
    let (code, _, err) = pin(&["Alpha", &a1.to_string()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = arena_cmd(&arena, &["freeze", "--now"]);
    assert_eq!(code, 0, "{err}");
    for args in [
        vec!["Alpha".to_string(), a2.to_string()],
        vec!["Alpha".into(), "--latest".into()],
        vec![HOSTILE.into(), "--latest".into()],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = pin(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(
            err.contains("the contest closed at 20")
                && err.contains("the version that plays can no longer be changed"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(team("Alpha").json()["pinned_version"], a1);
    assert_eq!(team(HOSTILE).json()["pinned_version"], h1);
    error_pages_carry(&url, &organiser, "The contest is closed");

    let status = server.stop();
    assert!(status.success(), "{status:?}");
}
