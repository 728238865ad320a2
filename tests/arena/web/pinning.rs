//! A team chooses which of its versions plays, through the real server on loopback (no
//! embedded worker: the matches the matchmaker makes stay queued, to be read): the API pins and
//! unpins with the team's token or the organiser's, refuses another team's token, a session
//! cookie, a version that failed, one not checked yet, another team's and an unknown one, each
//! with its message; the next matches the matchmaker makes seat the pinned version while the
//! matches already queued keep theirs; the team page's buttons do the same with their CSRF
//! token, show a refusal on the page, and keep a hostile team name as text; once the contest
//! has closed both refuse (409, naming the time), the buttons are gone, and the final's field
//! is the pinned version.

use std::time::Duration;

use serde_json::{Value, json};

use super::e2e::urlencode;
use super::{Arena, Server, Who, get, kit, login, post, submit, version_id, wait_for};

/// This test's bots' and builds' uids.
const UIDS: [(u32, u32); 2] = [(62200, 62249), (62250, 62299)];

const FORM: &str = "application/x-www-form-urlencoded";

/// A team name that is markup: it must stay text on the page, and in the form's address.
const HOSTILE: &str = "<script>alert(\"pin\")</script> & 'Bravo'";

/// The first CSRF token of a page (every form of a session carries the same).
pub(super) fn csrf_of(page: &str) -> String {
    page.split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("no CSRF token in {page}"))
        .to_string()
}

/// The versions seated in each match of `kind` in `state` made after match `after`, by match.
pub(super) fn seats(arena: &Arena, state: &str, after: i64) -> Vec<Vec<i64>> {
    let ids = arena.ids(&format!(
        "SELECT id FROM matches WHERE state = '{state}' AND kind != 'final' AND id > {after}
         ORDER BY id"
    ));
    ids.iter()
        .map(|id| {
            arena.ids(&format!(
                "SELECT version_id FROM match_seats WHERE match_id = {id} ORDER BY version_id"
            ))
        })
        .collect()
}

/// Pauses (or resumes) the matchmaker through the organiser's form.
pub(super) fn set_matchmaker(url: &str, session: &str, csrf: &str, paused: bool) {
    let a = post(
        &format!("{url}/organiser/matchmaker"),
        Who::Cookie(session),
        FORM,
        format!("csrf={csrf}&paused={paused}").as_bytes(),
    );
    assert_eq!(a.status, 303, "{}", a.body);
}

/// The Python kit submitted with `--wait`: its version, ready.
pub(super) fn ready_kit(server: &Server, token: &str) -> i64 {
    let (code, out, err) = submit(server, token, &kit("python"), &["--wait"]);
    assert_eq!(code, 0, "{out}\n{err}");
    version_id(&out)
}

#[test]
fn a_team_chooses_the_version_that_plays_until_the_contest_closes() {
    let arena = Arena::init(&["--size", "6", "--rounds", "2"], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    let alpha = arena.team("Alpha");
    let bravo = arena.team(HOSTILE);
    let server = Server::start(&arena, 0);
    let url = server.url.clone();

    // The organiser pauses the matchmaker while the versions arrive.
    let organiser = login(&url, &arena.organiser);
    let org_csrf = csrf_of(&get(&format!("{url}/organiser"), Who::Cookie(&organiser)).body);
    let matchmaker = |paused: bool| set_matchmaker(&url, &organiser, &org_csrf, paused);
    matchmaker(true);

    let ready = |token: &str| ready_kit(&server, token);
    let (a1, a2) = (ready(&alpha), ready(&alpha));
    let b1 = ready(&bravo);
    let tmp = crate::check::shared_tempdir("rollarena-pin-");
    let broken = tmp.path().join("bot.py");
    std::fs::write(&broken, "print('hello')\n").unwrap();
    let (code, out, _) = submit(&server, &alpha, &broken, &["--wait"]);
    assert_eq!(code, 1, "{out}");
    let failed = version_id(&out);

    // The API: pin with the team's token.
    let pin_url = |team: &str| format!("{url}/api/teams/{}/pin", urlencode(team));
    let pin = |who: Who, team: &str, body: &Value| {
        post(
            &pin_url(team),
            who,
            "application/json",
            body.to_string().as_bytes(),
        )
    };
    let a = pin(Who::Token(&alpha), "Alpha", &json!({ "version": a1 }));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(
        a.json(),
        json!({ "active_version": a1, "pinned_version": a1 })
    );
    let team = |name: &str| get(&format!("{url}/api/teams/{}", urlencode(name)), Who::Nobody);
    assert_eq!(team("Alpha").json()["pinned_version"], a1);
    assert_eq!(team("Alpha").json()["active_version"], a1);

    // Refusals, each with its status and message; none changes the pin.
    let alpha_session = login(&url, &alpha);
    let v = |id: i64| json!({ "version": id });
    for (who, name, body, status, says) in [
        (
            Who::Token(&bravo),
            "Alpha",
            v(a2),
            403,
            "a team chooses only its own version".to_string(),
        ),
        (Who::Nobody, "Alpha", v(a2), 401, "Bearer".into()),
        (
            Who::Cookie(&alpha_session),
            "Alpha",
            v(a2),
            401,
            "Bearer".into(),
        ),
        (
            Who::Token(&alpha),
            "Alpha",
            v(b1),
            400,
            format!("version {b1} is {HOSTILE}'s, not Alpha's"),
        ),
        (
            Who::Token(&alpha),
            "Alpha",
            v(failed),
            400,
            format!("version {failed} failed (check:"),
        ),
        (
            Who::Token(&alpha),
            "Alpha",
            v(999_999),
            400,
            "there is no version 999999".into(),
        ),
        (
            Who::Token(&alpha),
            "Alpha",
            json!({ "v": 1 }),
            400,
            "has no \"version\"".into(),
        ),
        (
            Who::Token(&alpha),
            "Nobody here",
            v(a2),
            404,
            "no team named".into(),
        ),
    ] {
        let a = pin(who, name, &body);
        assert_eq!(a.status, status, "{body}: {}", a.body);
        let error = a.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(&says), "{body}: {error}");
    }
    // A version not checked yet says its state.
    let (code, out, err) = submit(&server, &alpha, &kit("python"), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    let a3 = version_id(&out);
    let a = pin(Who::Token(&alpha), "Alpha", &v(a3));
    assert_eq!(a.status, 400, "{}", a.body);
    let error = a.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.contains(&format!("version {a3} is "))
            && error.contains("has not passed its build and check yet"),
        "{error}"
    );
    assert_eq!(team("Alpha").json()["pinned_version"], a1);
    wait_for(
        "the last version's verdict",
        Duration::from_secs(300),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM versions WHERE id = {a3} AND state = 'ready'"
            )) == 1
        },
    );
    assert_eq!(team("Alpha").json()["active_version"], a1, "pinned");

    // The matchmaker seats the pinned version, not the latest.
    matchmaker(false);
    wait_for("two matches queued", Duration::from_secs(120), || {
        seats(&arena, "queued", 0).len() >= 2
    });
    let queued = seats(&arena, "queued", 0);
    for s in &queued {
        assert_eq!(s, &vec![a1, b1], "every match: {queued:?}");
    }

    // Unpinned by the organiser: matches already queued keep their versions; the next ones
    // made seat the latest.
    let a = pin(
        Who::Token(&arena.organiser),
        "Alpha",
        &json!({ "version": null }),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(
        a.json(),
        json!({ "active_version": a3, "pinned_version": null })
    );
    assert_eq!(seats(&arena, "queued", 0), queued);
    let last = arena.count("SELECT MAX(id) FROM matches");
    for id in arena.ids("SELECT id FROM matches WHERE state = 'queued'") {
        let a = post(
            &format!("{url}/api/rejudge"),
            Who::Token(&arena.organiser),
            "application/json",
            json!({ "action": "void", "match": id, "reason": "made before the unpin" })
                .to_string()
                .as_bytes(),
        );
        assert_eq!(a.status, 200, "{}", a.body);
    }
    wait_for("two new matches", Duration::from_secs(120), || {
        seats(&arena, "queued", last).len() >= 2
    });
    for s in seats(&arena, "queued", last) {
        assert_eq!(s, vec![b1, a3]);
    }
    matchmaker(true);

    // The team's page: one button per ready version, no choice for the public or others.
    let page_url = |name: &str| format!("{url}/teams/{}", urlencode(name));
    let page = get(&page_url("Alpha"), Who::Cookie(&alpha_session)).body;
    assert!(page.contains("id=\"choose\""), "{page}");
    assert!(page.contains("No version is pinned"), "{page}");
    assert_eq!(page.matches("Play this version").count(), 3, "{page}");
    assert!(!page.contains("Play the latest"), "{page}");
    assert!(
        !get(&page_url("Alpha"), Who::Nobody)
            .body
            .contains("id=\"choose\"")
    );
    let bravo_session = login(&url, &bravo);
    assert!(
        !get(&page_url("Alpha"), Who::Cookie(&bravo_session))
            .body
            .contains("id=\"choose\"")
    );
    let csrf = csrf_of(&page);
    let button = |session: &str, name: &str, csrf: &str, version: &str| {
        post(
            &format!("{}/pin", page_url(name)),
            Who::Cookie(session),
            FORM,
            format!("csrf={csrf}&version={version}").as_bytes(),
        )
    };
    let a = button(&alpha_session, "Alpha", &csrf, &a2.to_string());
    assert_eq!(a.status, 303, "{}", a.body);
    assert_eq!(team("Alpha").json()["pinned_version"], a2);
    let page = get(&page_url("Alpha"), Who::Cookie(&alpha_session)).body;
    assert!(page.contains(&format!("Version #{a2} is pinned")), "{page}");
    let plays = format!("Plays: version #{a2} <span class=\"badge pinned\">pinned</span>");
    assert!(page.contains(&plays), "{plays} in {page}");
    assert_eq!(page.matches("Play this version").count(), 2, "{page}");
    assert!(page.contains("Play the latest"), "{page}");
    // Refused on the page, with its message; another team's session and a bad token: 403.
    let a = button(&alpha_session, "Alpha", &csrf, &b1.to_string());
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.body.contains("id=\"pin-error\""), "{}", a.body);
    assert!(
        a.body.contains("not Alpha&#39;s") || a.body.contains("not Alpha's"),
        "{}",
        a.body
    );
    let bravo_csrf = csrf_of(&get(&format!("{url}/"), Who::Cookie(&bravo_session)).body);
    let a = button(&bravo_session, "Alpha", &bravo_csrf, &a1.to_string());
    assert_eq!(a.status, 403, "{}", a.body);
    let a = button(&alpha_session, "Alpha", "0000", &a1.to_string());
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(team("Alpha").json()["pinned_version"], a2);
    let a = button(&alpha_session, "Alpha", &csrf, "");
    assert_eq!(a.status, 303, "{}", a.body);
    assert!(team("Alpha").json()["pinned_version"].is_null());
    assert_eq!(
        button(&alpha_session, "Alpha", &csrf, &a1.to_string()).status,
        303
    );

    // A hostile name is text on its page, and its buttons' address is percent-encoded.
    let page = get(&page_url(HOSTILE), Who::Cookie(&bravo_session)).body;
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(page.contains("&lt;script&gt;alert"), "{page}");
    let action = format!("action=\"/teams/{}/pin\"", urlencode(HOSTILE));
    assert!(page.contains(&action), "{action} in {page}");
    assert_eq!(page.matches("Play this version").count(), 1, "{page}");
    let a = button(&bravo_session, HOSTILE, &bravo_csrf, &b1.to_string());
    assert_eq!(a.status, 303, "{}", a.body);
    assert_eq!(team(HOSTILE).json()["pinned_version"], b1);

    // Closed: the pin stays what it was at the closing time, for the team and the organiser.
    let a = post(
        &format!("{url}/api/final/closing"),
        Who::Token(&arena.organiser),
        "application/json",
        br#"{"action": "now"}"#,
    );
    assert_eq!(a.status, 200, "{}", a.body);
    for (who, body) in [
        (Who::Token(&alpha), v(a3)),
        (Who::Token(&alpha), json!({ "version": null })),
        (Who::Token(&arena.organiser), v(a2)),
    ] {
        let a = pin(who, "Alpha", &body);
        assert_eq!(a.status, 409, "{}", a.body);
        let error = a.json()["error"].as_str().unwrap().to_string();
        assert!(
            error.contains("the contest closed at 20")
                && error.contains("the final plays the versions the teams had at the closing time"),
            "{error}"
        );
    }
    let page = get(&page_url("Alpha"), Who::Cookie(&alpha_session)).body;
    assert!(page.contains("id=\"pin-closed\""), "{page}");
    assert!(
        !page.contains("Play this version") && !page.contains("Play the latest"),
        "{page}"
    );
    let a = button(&alpha_session, "Alpha", &csrf, &a3.to_string());
    assert_eq!(a.status, 409, "{}", a.body);
    assert!(
        a.body.contains("id=\"pin-error\"") && a.body.contains("the contest closed at"),
        "{}",
        a.body
    );
    assert_eq!(team("Alpha").json()["pinned_version"], a1);

    // The final's field is the pinned versions.
    let a = post(
        &format!("{url}/api/final"),
        Who::Token(&arena.organiser),
        "application/json",
        br#"{"seed": 7}"#,
    );
    assert_eq!(a.status, 201, "{}", a.body);
    let field: Vec<String> = a.json()["final"]["field"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    let mut expected = vec![format!("Alpha #{a1}"), format!("{HOSTILE} #{b1}")];
    let mut got = field.clone();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "{field:?}");
    let played = arena.ids(
        "SELECT DISTINCT s.version_id FROM match_seats s JOIN matches m ON m.id = s.match_id
         WHERE m.kind = 'final' ORDER BY s.version_id",
    );
    assert_eq!(played, vec![a1.min(b1), a1.max(b1)]);

    let status = server.stop();
    assert!(status.success(), "{status:?}");
}
