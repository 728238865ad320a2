//! The organiser's day: an arena made, two teams (with hostile names) given their tokens, the
//! Python and C kits submitted with `rollarena submit --wait`, a broken bot submitted through
//! the web form in Chromium (its check report must show the diagnosis), a team pinning its
//! version with its page's button while the leaderboard open in another tab redraws with the
//! "pinned" badge, the ladder playing, and the leaderboard's page and API agreeing; then a
//! clean stop on SIGTERM.

use std::time::Duration;

use serde_json::json;

use super::{Arena, Server, Who, get, kit, submit, version_id, wait_for};

const TEAM_A: &str = "<img src=x onerror=alert(1)>";
const TEAM_B: &str = "\"><script>alert(2)</script>";

#[test]
fn two_kits_and_a_broken_bot_fill_the_ladder_and_its_pages() {
    let arena = Arena::init(&[], "");
    let token_a = arena.team(TEAM_A);
    let token_b = arena.team(TEAM_B);
    let server = Server::start(&arena, 2);

    let (code, out, err) = submit(
        &server,
        &token_a,
        &kit("python"),
        &["--name", "kit <b>py</b>", "--wait"],
    );
    assert_eq!(code, 0, "python kit: {out}\n{err}");
    let python = version_id(&out);
    assert!(
        out.contains(&format!("{}/submissions/{python}", server.url)),
        "{out}"
    );
    assert!(out.contains("passed"), "{out}");
    let (code, out, err) = submit(&server, &token_b, &kit("c"), &["--wait"]);
    assert_eq!(code, 0, "C kit: {out}\n{err}");
    let c = version_id(&out);

    // A broken bot through the CLI: exit 1, and the check's failed items with their hints.
    let tmp = crate::check::shared_tempdir("rollarena-broken-");
    let broken = tmp.path().join("bot.py");
    std::fs::write(&broken, "print('hello')\n").unwrap();
    let (code, out, _) = submit(&server, &token_b, &broken, &["--wait"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("failed: version"), "{out}");
    assert!(
        out.contains("FAIL") && out.contains("Log to stderr instead"),
        "{out}"
    );

    // The same through the browser's form, as team A.
    let browsed = crate::chromium::ready("the arena's browser test");
    if browsed {
        let expect = json!({
            "url": server.url,
            "token": token_a,
            "team": TEAM_A,
            "hostile": [TEAM_A, TEAM_B],
            "broken": broken,
            "label": "<img src=y onerror=alert(3)> v2",
            "diagnosis": ["no junk on stdout", "Hint:", "Log to stderr instead"],
            "pin": python,
        });
        crate::chromium::run_script("arena.mjs", &expect, &tmp.path().join("expect.json"));
    }

    wait_for("six finished matches", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'") >= 6
    });
    // The ladder paused and drained, so that the page and the API are read on the same ratings.
    arena
        .db()
        .execute(
            "INSERT INTO state (key, value) VALUES ('paused', 'true')
             ON CONFLICT (key) DO UPDATE SET value = 'true'",
            [],
        )
        .unwrap();
    wait_for("the ladder drained", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('queued', 'running')") == 0
    });
    let lb = get(&format!("{}/api/leaderboard", server.url), Who::Nobody).json();
    assert_eq!(lb["paused"], true);
    // Ranked or still placing (listed apart), every active version is on the leaderboard.
    let rows: Vec<&serde_json::Value> = lb["rows"]
        .as_array()
        .unwrap()
        .iter()
        .chain(lb["placing"].as_array().unwrap())
        .collect();
    let mut seen: Vec<(&str, i64)> = rows
        .iter()
        .map(|r| {
            (
                r["team"].as_str().unwrap(),
                r["version_id"].as_i64().unwrap(),
            )
        })
        .collect();
    seen.sort();
    let mut want = vec![(TEAM_A, python), (TEAM_B, c)];
    want.sort();
    assert_eq!(seen, want, "{lb}");
    // Team A pinned its Python version in the browser; nobody pinned team B's.
    if browsed {
        for r in &rows {
            assert_eq!(r["pinned"], r["team"] == TEAM_A, "{r}");
        }
    }
    for r in &rows {
        assert!(r["matches"].as_i64().unwrap() >= 6, "{r}");
        let (mu, sigma) = (r["mu"].as_f64().unwrap(), r["sigma"].as_f64().unwrap());
        assert!(sigma < 25.0 / 3.0, "played matches lower sigma: {r}");
        assert!((r["conservative"].as_f64().unwrap() - (mu - 3.0 * sigma)).abs() < 1e-9);
    }
    assert!(lb["matches"].as_i64().unwrap() >= 6);

    // The page shows the API's rows, names escaped.
    let page = get(&format!("{}/", server.url), Who::Nobody);
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;")
            || page
                .body
                .contains("\"&gt;&lt;script&gt;alert(2)&lt;/script&gt;"),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("<script>") && !page.body.contains("<img"),
        "{}",
        page.body
    );
    for r in &rows {
        assert!(
            page.body
                .contains(&format!("{:.2}", r["conservative"].as_f64().unwrap()))
        );
    }

    // A finished match: its page, its replay, its API.
    let matches = get(&format!("{}/api/matches?limit=1", server.url), Who::Nobody).json();
    let id = matches[0]["id"].as_i64().unwrap();
    let m = get(&format!("{}/api/matches/{id}", server.url), Who::Nobody).json();
    assert_eq!(m["state"], "done");
    assert_eq!(m["seats"].as_array().unwrap().len(), 2);
    assert!(m["timings"][0]["moves"].as_u64().unwrap() > 0, "{m}");
    let page = get(&format!("{}/matches/{id}", server.url), Who::Nobody);
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&format!("/matches/{id}/replay")));
    let replay = get(&format!("{}/matches/{id}/replay", server.url), Who::Nobody);
    assert_eq!(replay.status, 200);
    assert!(replay.body.contains("replay-data"));
    let team = get(
        &format!("{}/api/teams/{}", server.url, urlencode(TEAM_A)),
        Who::Nobody,
    )
    .json();
    assert_eq!(team["name"], TEAM_A);
    assert!(!team["history"].as_array().unwrap().is_empty());
    assert_eq!(team["opponents"][0]["team"], TEAM_B);

    let status = server.stop();
    assert!(status.success(), "serve exits 0 on SIGTERM: {status:?}");
}

pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
