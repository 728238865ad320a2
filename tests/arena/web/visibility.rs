//! Who sees what: team B's bot carries a secret in its source and writes another to stderr;
//! every address of B's (its submission, its files, its team page, its matches, their replay
//! and records) is fetched with team A's token, with A's browser session and with nothing.
//! Each is refused or comes without B's secrets, build log and check report; B itself and the
//! organiser do see them (so the test would notice a secret that never got there).

use std::time::Duration;

use super::{Arena, Server, Who, get, kit, login, submit, version_id, wait_for};

const SOURCE_SECRET: &str = "SOURCE-SECRET-OF-B-4711";
const STDERR_SECRET: &str = "STDERR-SECRET-OF-B-0815";

#[test]
fn team_a_never_sees_team_b_s_sources_logs_or_stderr() {
    let arena = Arena::init(&[], "");
    let token_a = arena.team("a");
    let token_b = arena.team("b");
    let server = Server::start(&arena, 1);
    let url = server.url.clone();

    let (code, out, err) = submit(&server, &token_a, &kit("python"), &["--wait"]);
    assert_eq!(code, 0, "{out}{err}");
    // B: the Python kit with a secret in its source and on its stderr.
    let tmp = crate::check::shared_tempdir("rollarena-secret-");
    let kit_source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let (head, rest) = kit_source
        .split_once("\nimport ")
        .expect("the kit imports something");
    let source = format!(
        "{head}\n# {SOURCE_SECRET}\nimport sys as _s; _s.stderr.write('{STDERR_SECRET}\\n'); _s.stderr.flush()\nimport {rest}"
    );
    std::fs::write(tmp.path().join("bot.py"), source).unwrap();
    let (code, out, err) = submit(&server, &token_b, &tmp.path().join("bot.py"), &["--wait"]);
    assert_eq!(code, 0, "{out}{err}");
    let b = version_id(&out);

    wait_for("a finished match", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'") >= 1
    });
    let m: i64 = arena.count("SELECT MIN(id) FROM matches WHERE state = 'done'");
    let build_log = std::fs::read_to_string(arena.dir().join(format!("versions/{b}/build.log")))
        .unwrap_or_default();

    let private = [
        format!("/submissions/{b}"),
        format!("/submissions/{b}/files/bot.py"),
        format!("/api/submissions/{b}"),
    ];
    let public = [
        "/".to_string(),
        "/teams/b".to_string(),
        "/api/teams/b".to_string(),
        "/matches".to_string(),
        "/api/matches".to_string(),
        format!("/matches/{m}"),
        format!("/matches/{m}/replay"),
        format!("/api/matches/{m}"),
        format!("/api/matches/{m}/record"),
    ];

    // The control: B and the organiser see B's secrets where they are.
    let cookie_b = login(&url, &token_b);
    for who in [
        Who::Token(&token_b),
        Who::Cookie(&cookie_b),
        Who::Token(&arena.organiser),
    ] {
        let file = get(&format!("{url}/submissions/{b}/files/bot.py"), who);
        assert_eq!(file.status, 200);
        assert!(file.body.contains(SOURCE_SECRET));
        let record = get(&format!("{url}/api/matches/{m}/record"), who);
        assert!(
            record.body.contains(STDERR_SECRET),
            "the control: B's stderr is in its record"
        );
        let api = get(&format!("{url}/api/submissions/{b}"), who).json();
        assert!(api["check"]["items"].is_array(), "{api}");
    }

    let cookie_a = login(&url, &token_a);
    for (label, who) in [
        ("A's token", Who::Token(&token_a)),
        ("A's session", Who::Cookie(&cookie_a)),
        ("no one", Who::Nobody),
    ] {
        for path in private.iter() {
            let answer = get(&format!("{url}{path}"), who);
            assert_eq!(answer.status, 403, "{path} with {label}: {}", answer.body);
            assert!(
                answer.body.contains("another team") || answer.body.contains("only that team"),
                "{path} with {label}: {}",
                answer.body
            );
            assert!(!answer.body.contains(SOURCE_SECRET));
        }
        for path in public.iter() {
            let answer = get(&format!("{url}{path}"), who);
            assert_eq!(answer.status, 200, "{path} with {label}: {}", answer.body);
            for secret in [SOURCE_SECRET, STDERR_SECRET] {
                assert!(
                    !answer.body.contains(secret),
                    "{path} with {label} shows {secret}"
                );
            }
            if build_log.trim().len() > 20 {
                assert!(
                    !answer.body.contains(build_log.trim()),
                    "{path} with {label}: B's build log"
                );
            }
        }
        // B's check report and failure line never reach A's view of B's team.
        let team = get(&format!("{url}/api/teams/b"), who).json();
        assert_eq!(team["own"], false, "{label}");
        assert!(
            team["versions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|v| v["failure"].is_null())
        );
    }

    // Failed logins never shut the right token out (`logins` has their slowing and the
    // proxies): after ten failures from one address the right token logs in from it.
    let csrf = "ab".repeat(16);
    let try_login = |address: &str, token: &str| {
        super::post_with(
            &format!("{url}/login"),
            Who::Cookie(&format!("rollarena_login_csrf={csrf}")),
            &[("X-Forwarded-For", address)],
            "application/x-www-form-urlencoded",
            format!("csrf={csrf}&token={token}").as_bytes(),
        )
    };
    for _ in 0..10 {
        assert_eq!(try_login("10.9.9.9", "team_wrong").status, 401);
    }
    assert_eq!(try_login("10.9.9.9", &token_a).status, 303);
    // A form without its CSRF token is refused.
    let forged = super::post(
        &format!("{url}/logout"),
        Who::Cookie(&cookie_a),
        "application/x-www-form-urlencoded",
        b"csrf=",
    );
    assert_eq!(forged.status, 403, "{}", forged.body);

    // A bad token is refused, not taken for the public.
    let bad = get(&format!("{url}/api/teams/b"), Who::Token("team_0000"));
    assert_eq!(bad.status, 401, "{}", bad.body);
    // An unfinished match shows nothing of its record to anyone: its page is the live viewer
    // (public messages only, protocol/ARENA.md §17).
    arena
        .db()
        .execute(
            "INSERT INTO matches (id, created_at, state, kind, seed, rounds, lease_owner, lease_until)
             VALUES (999999, 0, 'running', 'ladder', 1, 2, 'test', 9999999999999)",
            [],
        )
        .unwrap();
    for who in [
        Who::Nobody,
        Who::Token(&token_a),
        Who::Token(&arena.organiser),
    ] {
        for path in ["/api/matches/999999", "/api/matches/999999/record"] {
            assert_eq!(get(&format!("{url}{path}"), who).status, 404, "{path}");
        }
        let page = get(&format!("{url}/matches/999999"), who);
        assert_eq!(page.status, 200);
        assert!(page.body.contains("id=\"live\"") && !page.body.contains("/replay"));
    }
}
