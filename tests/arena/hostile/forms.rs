//! Forged forms and borrowed powers, on the real server: every form of the site that changes
//! something, posted with a logged-in session that may use it, but without the CSRF token its
//! pages carry, or with another session's (what a page on another site could send with the
//! browser's cookie); the organiser's forms with a team's session and its own valid token; and
//! every organiser's and worker's address under `/api/` with a team's token, and a team's with
//! a worker's. Each is refused (403 with its message, JSON under `/api/`), and afterwards the
//! arena's teams, versions, matches and state are what they were, and the sessions still work.
//! (The login form's CSRF, the logout without a token and the pinning API's refusals are
//! `arena::web::visibility`'s and `arena::web::pinning`'s.)

use crate::arena::web::{Arena, Server, Who, get, login, multipart, post};

/// Every row of the tables a forged request could change, as text.
fn snapshot(arena: &Arena) -> Vec<String> {
    let conn = arena.db();
    let mut out = Vec::new();
    for table in ["teams", "versions", "matches", "state"] {
        let mut stmt = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let columns = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                let cells: Vec<String> = (0..columns)
                    .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                    .collect();
                Ok(format!("{table}: {}", cells.join(" | ")))
            })
            .unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    out
}

/// The CSRF token of the forms on a page.
fn csrf_on(page: &str) -> String {
    let (_, rest) = page
        .split_once("name=\"csrf\" value=\"")
        .unwrap_or_else(|| panic!("no form with a CSRF token: {page}"));
    rest.split('"').next().unwrap().to_string()
}

#[test]
fn forged_forms_and_borrowed_powers_are_refused_and_change_nothing() {
    let arena = Arena::init(&[], "");
    let alpha = arena.team("alpha");
    let bravo = arena.team("bravo");
    let worker = arena.token("worker", "w1");
    let org = arena.organiser.clone();
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let alpha_session = login(&url, &alpha);
    let bravo_session = login(&url, &bravo);
    let org_session = login(&url, &org);
    let alpha_csrf = csrf_on(&get(&format!("{url}/submit"), Who::Cookie(&alpha_session)).body);
    let bravo_csrf = csrf_on(&get(&format!("{url}/submit"), Who::Cookie(&bravo_session)).body);
    let org_csrf = csrf_on(&get(&format!("{url}/organiser"), Who::Cookie(&org_session)).body);
    assert_ne!(alpha_csrf, bravo_csrf, "each session has its own token");
    let before = snapshot(&arena);

    let form = "application/x-www-form-urlencoded";
    let organiser_forms = [
        ("/organiser/teams", "name=mallory"),
        ("/organiser/team", "team=alpha&action=disable"),
        ("/organiser/team", "team=alpha&action=token"),
        ("/organiser/matchmaker", "paused=true"),
        ("/organiser/freeze", "action=now"),
        ("/organiser/final", "schedule=round-robin"),
        ("/organiser/rejudge", "action=void&match=1&reason=forged"),
    ];
    let team_forms = [("/teams/alpha/pin", "version="), ("/logout", "")];
    let mut table = Vec::new();
    let mut refused = |what: String, answer: crate::arena::web::Answer, says: &str| {
        table.push(format!("{what}: {}", answer.status));
        assert_eq!(answer.status, 403, "{what}: {}", answer.body);
        assert!(answer.body.contains(says), "{what}: {}", answer.body);
    };
    for (path, fields) in organiser_forms {
        for (how, csrf) in [
            ("no token", String::new()),
            ("alpha's token", alpha_csrf.clone()),
        ] {
            let body = format!("{fields}&csrf={csrf}");
            let answer = post(
                &format!("{url}{path}"),
                Who::Cookie(&org_session),
                form,
                body.as_bytes(),
            );
            refused(
                format!("{path} as the organiser with {how}"),
                answer,
                "CSRF",
            );
        }
        // A team's session with its own valid token: not the organiser.
        let body = format!("{fields}&csrf={alpha_csrf}");
        let answer = post(
            &format!("{url}{path}"),
            Who::Cookie(&alpha_session),
            form,
            body.as_bytes(),
        );
        refused(format!("{path} as alpha"), answer, "organiser");
    }
    for (path, fields) in team_forms {
        for (how, csrf) in [
            ("no token", String::new()),
            ("bravo's token", bravo_csrf.clone()),
        ] {
            let body = format!("{fields}&csrf={csrf}");
            let answer = post(
                &format!("{url}{path}"),
                Who::Cookie(&alpha_session),
                form,
                body.as_bytes(),
            );
            refused(format!("{path} as alpha with {how}"), answer, "CSRF");
        }
    }
    let bot = b"print('hi')\n";
    for (how, csrf) in [("no token", ""), ("bravo's token", bravo_csrf.as_str())] {
        let (ct, body) = multipart(&[
            ("file", Some("bot.py"), bot),
            ("csrf", None, csrf.as_bytes()),
        ]);
        let answer = post(
            &format!("{url}/submit"),
            Who::Cookie(&alpha_session),
            &ct,
            &body,
        );
        refused(format!("/submit as alpha with {how}"), answer, "CSRF");
    }

    // The organiser's and the workers' API with a team's token (403: the token is known, the
    // power is not its), the teams' and the organiser's with a worker's (401: a worker's token
    // is no login at all).
    let json = "application/json";
    let api: [(&str, &str, &str, &str, u16); 11] = [
        ("GET", "/api/organiser", &alpha, "", 403),
        ("POST", "/api/final", &alpha, r#"{"seed": 7}"#, 403),
        (
            "POST",
            "/api/final/closing",
            &alpha,
            r#"{"action": "now"}"#,
            403,
        ),
        (
            "POST",
            "/api/rejudge",
            &alpha,
            r#"{"action": "void", "match": 1, "reason": "x"}"#,
            403,
        ),
        ("GET", "/api/worker/traffic", &alpha, "", 403),
        ("POST", "/api/worker/hello", &alpha, "{}", 403),
        ("POST", "/api/worker/lease", &alpha, "{}", 403),
        ("POST", "/api/worker/lease", &org, "{}", 403),
        (
            "POST",
            "/api/teams/alpha/pin",
            &bravo,
            r#"{"version": null}"#,
            403,
        ),
        (
            "POST",
            "/api/teams/alpha/pin",
            &worker,
            r#"{"version": null}"#,
            401,
        ),
        ("GET", "/api/organiser", &worker, "", 401),
    ];
    for (method, path, token, body, status) in api {
        let answer = if method == "GET" {
            get(&format!("{url}{path}"), Who::Token(token))
        } else {
            post(
                &format!("{url}{path}"),
                Who::Token(token),
                json,
                body.as_bytes(),
            )
        };
        table.push(format!(
            "{method} {path}: {} {}",
            answer.status, answer.body
        ));
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
        let error = answer.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(error.len() > 20, "{method} {path}: {}", answer.body);
    }
    let (ct, body) = multipart(&[("file", Some("bot.py"), bot)]);
    let answer = post(
        &format!("{url}/api/submissions"),
        Who::Token(&worker),
        &ct,
        &body,
    );
    table.push(format!(
        "POST /api/submissions as a worker: {} {}",
        answer.status, answer.body
    ));
    assert_eq!(answer.status, 401, "{}", answer.body);
    println!("{}", table.join("\n"));

    // Nothing changed, and every session still works.
    assert_eq!(snapshot(&arena), before);
    for (session, name) in [(&alpha_session, "alpha"), (&org_session, "organiser")] {
        let me = get(&format!("{url}/api/whoami"), Who::Cookie(session));
        assert_eq!(me.status, 200, "{}", me.body);
        assert!(me.body.to_lowercase().contains(name), "{}", me.body);
    }
    let _ = org_csrf;
}
