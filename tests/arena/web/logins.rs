//! Failed logins slowed, never locked out (issue 40): after 20 failures from loopback (the
//! form's and bad bearer tokens, both counted) the right token still logs in, by the form and
//! as a bearer token, while the failures past 10 are answered slowly; `X-Forwarded-For` is
//! ignored from a peer that is not a trusted proxy (the failures land on the peer's address)
//! and believed from one named in `[server] trusted_proxies`. The real server on loopback;
//! the addresses counted are read from its database.

use std::time::{Duration, Instant};

use super::{Arena, Server, Who, get, get_with, login};

/// One failed login through the form (its CSRF cookie first), with extra headers; the time
/// the answer took.
fn bad_login(url: &str, headers: &[(&str, &str)]) -> Duration {
    let form = get(&format!("{url}/login"), Who::Nobody);
    let csrf = form
        .set_cookies
        .iter()
        .find_map(|c| c.strip_prefix("rollarena_login_csrf="))
        .and_then(|c| c.split(';').next())
        .expect("the login form's CSRF cookie")
        .to_string();
    let start = Instant::now();
    let answer = super::post_with(
        &format!("{url}/login"),
        Who::Cookie(&format!("rollarena_login_csrf={csrf}")),
        headers,
        "application/x-www-form-urlencoded",
        format!("csrf={csrf}&token=team_00000000000000000000000000000000").as_bytes(),
    );
    let took = start.elapsed();
    assert_eq!(answer.status, 401, "the form again: {}", answer.body);
    assert!(
        answer.body.contains("this token is not valid here"),
        "{}",
        answer.body
    );
    took
}

/// One bad bearer token on the API; the time the answer took.
fn bad_bearer(url: &str, headers: &[(&str, &str)]) -> Duration {
    let start = Instant::now();
    let answer = get_with(
        &format!("{url}/api/whoami"),
        Who::Token("team_11111111111111111111111111111111"),
        headers,
    );
    let took = start.elapsed();
    assert_eq!(answer.status, 401, "{}", answer.body);
    assert!(answer.json()["error"].is_string(), "{}", answer.body);
    took
}

/// The failures counted per address: (address, count), by address.
fn counted(arena: &Arena) -> Vec<(String, i64)> {
    arena
        .db()
        .prepare("SELECT address, COUNT(*) FROM login_attempts GROUP BY address ORDER BY address")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn the_right_token_logs_in_after_twenty_failures_from_its_address() {
    let arena = Arena::init(&[], "");
    let token = arena.team("class");
    let server = Server::start(&arena, 0);
    let url = &server.url;
    // Ten free failures by the form...
    for _ in 0..10 {
        bad_login(url, &[]);
    }
    // ...then ten bad bearer tokens: counted the same way, each answered later than the one
    // before, up to a second (50 ms, doubling: a sleep's lower bound, so never flaky).
    let mut slowest = Duration::ZERO;
    for _ in 0..10 {
        slowest = slowest.max(bad_bearer(url, &[]));
    }
    assert!(
        slowest >= Duration::from_millis(950),
        "the 20th failure waits the full second: {slowest:?}"
    );
    assert_eq!(counted(&arena), [("127.0.0.1".to_string(), 20)]);

    // The right token from the same address: in, by the form and as a bearer token, and
    // not counted.
    let cookie = login(url, &token);
    for who in [Who::Cookie(&cookie), Who::Token(&token)] {
        let me = get(&format!("{url}/api/whoami"), who);
        assert_eq!(me.status, 200, "{}", me.body);
        assert_eq!(
            (&me.json()["role"], &me.json()["name"]),
            (&"team".into(), &"class".into()),
            "{}",
            me.body
        );
    }
    assert_eq!(counted(&arena), [("127.0.0.1".to_string(), 20)]);
}

#[test]
fn forwarded_for_counts_only_from_a_trusted_proxy() {
    let arena = Arena::init(&[], "");
    let mut server = Server::start(&arena, 0);
    // Not trusted (the default): a client naming another address for each failure still
    // has them all counted on its own, and slowed from the 11th.
    let mut last = Duration::ZERO;
    for i in 0..11 {
        let forged = format!("203.0.113.{i}");
        last = bad_login(&server.url, &[("X-Forwarded-For", &forged)]);
    }
    assert!(
        last >= Duration::from_millis(50),
        "the 11th is slowed: {last:?}"
    );
    assert_eq!(counted(&arena), [("127.0.0.1".to_string(), 11)]);
    let status = server.stop();
    assert!(status.success());

    // The proxy on loopback named: the client it forwards for is counted, never the proxy,
    // nor the addresses the client wrote before the proxy's own entry.
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("trusted_proxies = []"), "{text}");
    std::fs::write(
        &toml,
        text.replace(
            "trusted_proxies = []",
            "trusted_proxies = [\"127.0.0.1\", \"::1\"]",
        ),
    )
    .unwrap();
    arena
        .db()
        .execute("DELETE FROM login_attempts", [])
        .unwrap();
    server = Server::start(&arena, 0);
    for _ in 0..3 {
        bad_login(&server.url, &[("X-Forwarded-For", "6.6.6.6, 198.51.100.7")]);
    }
    bad_bearer(&server.url, &[("X-Forwarded-For", "198.51.100.8")]);
    assert_eq!(
        counted(&arena),
        [
            ("198.51.100.7".to_string(), 3),
            ("198.51.100.8".to_string(), 1)
        ]
    );
    // A bad entry in the list is refused with the way to write it.
    drop(server);
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("\"::1\"", "\"proxy.local\"")).unwrap();
    let out = std::process::Command::new(crate::check::rollarena())
        .args(["serve"])
        .arg(arena.dir())
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("[server] trusted_proxies: \"proxy.local\" is not an address")
            && err.contains("write it like 127.0.0.1, 10.0.0.0/8 or ::1"),
        "{err}"
    );
}
