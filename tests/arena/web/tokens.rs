//! A bad token is refused with 401 at every address of the API (issue 41), the public ones
//! included (`/api/leaderboard` answered a bad token as the public before), in the API's JSON
//! (`{"error": ...}`), whatever the method and the body; without a token the public addresses
//! still answer the public. The addresses are read from the router's sources, so a route
//! added later is tried too. The real server on loopback.

use std::collections::BTreeSet;

use super::{Arena, Server, Who, get, send};

/// Every API address with a method it takes (placeholders filled in).
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/leaderboard"),
    ("GET", "/api/teams/a"),
    ("GET", "/api/matches"),
    ("GET", "/api/matches/1"),
    ("GET", "/api/matches/1/record"),
    ("GET", "/api/matches/1/live"),
    ("GET", "/api/submissions/1"),
    ("POST", "/api/submissions"),
    ("GET", "/api/organiser"),
    ("GET", "/api/whoami"),
    ("GET", "/api/languages"),
    ("GET", "/api/playing"),
    ("GET", "/api/changes"),
    ("GET", "/api/final"),
    ("POST", "/api/final"),
    ("POST", "/api/final/closing"),
    ("POST", "/api/rejudge"),
    ("POST", "/api/teams/a/pin"),
    ("POST", "/api/worker/hello"),
    ("POST", "/api/worker/lease"),
    ("POST", "/api/worker/matches/1/heartbeat"),
    ("POST", "/api/worker/matches/1/live"),
    ("POST", "/api/worker/matches/1/record"),
    ("POST", "/api/worker/matches/1/release"),
    (
        "GET",
        "/api/worker/artifacts/0000000000000000000000000000000000000000000000000000000000000000",
    ),
    ("GET", "/api/worker/traffic"),
];

/// The `/api/` paths the router's sources name, placeholders as `{...}`: the routes declared in
/// a function `api_routes` (which the router nests under `/api`).
fn routes_in_sources() -> BTreeSet<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/arena/src/web");
    let route = regex::Regex::new(r#"\.route\(\s*"(/[^"]*)""#).unwrap();
    let mut found = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        for c in route.captures_iter(&text) {
            let before = &text[..c.get(0).unwrap().start()];
            if before
                .rfind("fn ")
                .is_some_and(|f| before[f..].starts_with("fn api_routes("))
            {
                found.insert(format!("/api{}", &c[1]));
            }
        }
    }
    found
}

/// A route's pattern as its filled-in path would match it.
fn fits(pattern: &str, path: &str) -> bool {
    let (p, q): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    p.len() == q.len() && p.iter().zip(&q).all(|(a, b)| a.starts_with('{') || a == b)
}

#[test]
fn every_api_address_refuses_a_bad_token_with_401() {
    let sources = routes_in_sources();
    assert!(sources.len() >= 20, "{sources:?}");
    for pattern in &sources {
        assert!(
            ROUTES.iter().any(|(_, path)| fits(pattern, path)),
            "{pattern} is not tried here: add it to ROUTES"
        );
    }
    // Each request from an address of its own (through the trusted proxy on loopback), so that
    // none is slowed by the failures before it.
    let arena = Arena::init(&[], "");
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("trusted_proxies = []", "trusted_proxies = [\"127.0.0.1\"]"),
    )
    .unwrap();
    arena.team("a");
    let server = Server::start(&arena, 0);
    let bad_tokens = [
        "team_00000000000000000000000000000000",
        "org_00000000000000000000000000000000",
        "worker_00000000000000000000000000000000",
        "not a token",
    ];
    let mut n = 0;
    for (method, path) in ROUTES {
        for token in bad_tokens {
            n += 1;
            let from = format!("192.0.2.{n}");
            let body: &[u8] = if *method == "POST" { b"{}" } else { b"" };
            let a = send(
                method,
                &format!("{}{path}", server.url),
                Who::Token(token),
                &[
                    ("X-Forwarded-For", &from),
                    ("Content-Type", "application/json"),
                ],
                body,
            );
            assert_eq!(a.status, 401, "{method} {path} with {token:?}: {}", a.body);
            let error = a.json()["error"].as_str().unwrap_or_default().to_string();
            assert!(!error.is_empty(), "{method} {path}: {}", a.body);
        }
    }
    // Not `Bearer TOKEN` at all: refused too, saying how to write it.
    let basic = send(
        "GET",
        &format!("{}/api/leaderboard", server.url),
        Who::Nobody,
        &[("Authorization", "Basic dXNlcjpwYXNz")],
        b"",
    );
    assert_eq!(basic.status, 401, "{}", basic.body);
    assert!(
        basic.json()["error"]
            .as_str()
            .unwrap()
            .contains("must be `Bearer TOKEN`"),
        "{}",
        basic.body
    );
    // No token: the public addresses answer the public.
    for path in [
        "/api/leaderboard",
        "/api/matches",
        "/api/playing",
        "/api/whoami",
    ] {
        let a = get(&format!("{}{path}", server.url), Who::Nobody);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
    }
    assert_eq!(
        get(&format!("{}/api/whoami", server.url), Who::Nobody).json()["role"],
        "public"
    );
}
