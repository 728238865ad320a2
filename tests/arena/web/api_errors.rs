//! Every refusal under `/api/` is the API's JSON, on the real server on loopback: what axum
//! refuses before a handler runs (a path number or query string that does not parse, a JSON
//! body that does not decode or comes without its content type, a multipart upload without a
//! boundary, a body over the limit, a method the address does not take, an unknown address)
//! answers `{"error": ...}` with its status, `Content-Type: application/json` and a message
//! that says what was wrong and what to do; a 405 keeps its `Allow`. The same addresses asked
//! rightly still answer, the pages' refusals stay pages, every answer carries the security
//! headers, and `rollarena submit` and
//! `rollarena worker` sent to an address that refuses them show the server's sentence.
//!
//! No bot plays (the server has no embedded worker and nothing is submitted); the arena's
//! uids are the range of this test all the same.

use std::process::Command;
use std::time::Duration;

use serde_json::json;

use super::{Answer, Arena, Server, Who, get, send};
use crate::arena::remote::Worker;
use crate::check::rollarena;

/// This test's bots' and builds' uids (none is used: see the header).
const UIDS: [(u32, u32); 2] = [(62400, 62449), (62450, 62499)];

const JSON: (&str, &str) = ("Content-Type", "application/json");

/// The request's answer is the API's refusal: `status`, JSON, an `error` that says `says`.
fn refused(what: &str, a: &Answer, status: u16, says: &[&str]) {
    assert_eq!(a.status, status, "{what}: {}", a.body);
    assert_eq!(
        a.header("content-type"),
        Some("application/json"),
        "{what}: {}",
        a.body
    );
    let error = a.json()["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no error in {}", a.body))
        .to_string();
    for s in says {
        assert!(
            error.contains(s),
            "{what}: the error does not say {s:?}: {error}"
        );
    }
}

#[test]
fn every_refusal_of_the_api_is_json_with_its_status_and_what_to_do() {
    let arena = Arena::init(&["--size", "6"], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    let team = arena.team("Alpha");
    let worker = arena.token("worker", "w1");
    let org = arena.organiser.clone();
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let at = |path: &str| format!("{url}{path}");

    // A path's number that does not parse.
    for (path, example) in [
        ("/api/matches/abc", "/api/matches/12"),
        ("/api/matches/abc/record", "/api/matches/12/record"),
        ("/api/submissions/1x", "/api/submissions/12"),
    ] {
        let a = get(&at(path), Who::Nobody);
        let value = path.split('/').nth(3).unwrap();
        refused(
            path,
            &a,
            400,
            &[
                &format!("`{value}` in {path} is not a number"),
                &format!("as in {example}"),
            ],
        );
    }
    let a = send(
        "POST",
        &at("/api/worker/matches/x/heartbeat?lease=1"),
        Who::Token(&worker),
        &[],
        b"",
    );
    refused(
        "a worker's path",
        &a,
        400,
        &["`x` in /api/worker/matches/x/heartbeat", "The worker API"],
    );

    // A query string that does not decode.
    let a = get(&at("/api/matches?limit=many"), Who::Nobody);
    refused(
        "limit=many",
        &a,
        400,
        &["query string", "limit: invalid digit"],
    );
    let a = send(
        "POST",
        &at("/api/worker/matches/1/heartbeat"),
        Who::Token(&worker),
        &[],
        b"",
    );
    refused("no lease", &a, 400, &["missing field `lease`"]);

    // JSON bodies: no content type, not JSON, JSON of the wrong shape.
    let closing = at("/api/final/closing");
    let a = send(
        "POST",
        &closing,
        Who::Token(&org),
        &[],
        br#"{"action": "undo"}"#,
    );
    refused(
        "no content type",
        &a,
        415,
        &["takes a JSON body", "`Content-Type: application/json`"],
    );
    let a = send(
        "POST",
        &closing,
        Who::Token(&org),
        &[JSON],
        br#"{"action": 1}"#,
    );
    refused(
        "a number for a string",
        &a,
        422,
        &[
            "action: invalid type: integer `1`, expected a string",
            "section 15",
        ],
    );
    let a = send(
        "POST",
        &at("/api/rejudge"),
        Who::Token(&org),
        &[JSON],
        br#"{"match": 3}"#,
    );
    refused("no action", &a, 422, &["missing field `action`"]);
    let a = send(
        "POST",
        &at("/api/final"),
        Who::Token(&org),
        &[JSON],
        b"{schedule: swiss}",
    );
    refused(
        "not JSON",
        &a,
        400,
        &["the body is not JSON (key must be a string"],
    );
    let pin = at("/api/teams/Alpha/pin");
    let a = send(
        "POST",
        &pin,
        Who::Token(&team),
        &[JSON],
        br#"{"version": "x"}"#,
    );
    refused(
        "a pin of \"x\"",
        &a,
        400,
        &[
            "\"version\" is \"x\", not a version's number",
            "{\"version\": null}",
        ],
    );

    // A body over the limit (one byte over: the server has read it all when it answers).
    let big = vec![b' '; (2 << 20) + 1];
    let a = send("POST", &pin, Who::Token(&team), &[JSON], &big);
    refused(
        "a body over the limit",
        &a,
        413,
        &["larger than /api/teams/Alpha/pin reads (at most 2 MiB)"],
    );

    // An upload that is not multipart.
    let a = send(
        "POST",
        &at("/api/submissions"),
        Who::Token(&team),
        &[("Content-Type", "multipart/form-data")],
        b"print(1)",
    );
    refused(
        "multipart without a boundary",
        &a,
        400,
        &["`multipart/form-data`", "the field `file`"],
    );

    // A method the address does not take: the methods it takes, and its Allow.
    for (method, path, allow, says) in [
        ("POST", "/api/leaderboard", "GET,HEAD", "send a GET or HEAD"),
        ("DELETE", "/api/teams/Alpha/pin", "POST", "send a POST"),
        (
            "PUT",
            "/api/final",
            "GET,HEAD,POST",
            "send a GET, HEAD or POST",
        ),
        ("GET", "/api/worker/hello", "POST", "send a POST"),
    ] {
        let a = send(method, &at(path), Who::Nobody, &[], b"");
        let what = format!("{method} {path}");
        refused(
            &what,
            &a,
            405,
            &[&format!("{path} does not take a {method} request"), says],
        );
        assert_eq!(a.header("allow"), Some(allow), "{what}");
    }

    // An address the API does not have.
    for path in ["/api/nothing/here", "/api", "/api/"] {
        let a = get(&at(path), Who::Nobody);
        refused(
            path,
            &a,
            404,
            &[
                &format!("the API has no address {path}"),
                "GET /api/leaderboard",
            ],
        );
    }

    // The same addresses asked rightly still answer.
    let a = get(&at("/api/matches?limit=1"), Who::Nobody);
    assert_eq!((a.status, a.json()), (200, json!([])), "{}", a.body);
    let a = get(&at("/api/matches/12"), Who::Nobody);
    refused("no match 12", &a, 404, &["12"]);
    let a = send(
        "POST",
        &closing,
        Who::Token(&org),
        &[JSON],
        br#"{"action": "at", "time": "2099-01-01T00:00:00Z"}"#,
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["closing"], 4070908800000_i64, "{}", a.body);
    let a = send(
        "POST",
        &closing,
        Who::Token(&org),
        &[JSON],
        br#"{"action": "undo"}"#,
    );
    assert_eq!((a.status, a.json()), (200, json!({"closing": null})));
    let a = send(
        "POST",
        &pin,
        Who::Token(&team),
        &[JSON],
        br#"{"version": null}"#,
    );
    assert_eq!(
        (a.status, a.json()),
        (200, json!({"active_version": null, "pinned_version": null})),
        "{}",
        a.body
    );

    // A page's refusal is still a page.
    let a = get(&at("/matches/abc"), Who::Nobody);
    assert_eq!(a.status, 400);
    assert!(
        a.header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "{}",
        a.body
    );

    // Every answer carries the security headers; the policy and the caching only where the
    // response set none of its own (the stylesheet is cached an hour).
    for path in ["/matches/abc", "/api/nothing", "/", "/style.css"] {
        let a = get(&at(path), Who::Nobody);
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "SAMEORIGIN"),
            ("referrer-policy", "same-origin"),
        ] {
            assert_eq!(a.header(name), Some(value), "{path}: {name}");
        }
        assert!(
            a.header("content-security-policy")
                .is_some_and(|p| p.starts_with("default-src 'none'; script-src 'self'; ")
                    && p.ends_with("frame-ancestors 'self'; base-uri 'none'")),
            "{path}: {:?}",
            a.header("content-security-policy")
        );
        let cache = if path == "/style.css" {
            "max-age=3600"
        } else {
            "no-store"
        };
        assert_eq!(a.header("cache-control"), Some(cache), "{path}");
    }

    // The command line shows the server's sentence: an address with a query pasted after it
    // sends the CLI's request to /api/leaderboard, which takes GETs only.
    let pasted = at("/api/leaderboard?from=");
    let tmp = crate::check::shared_tempdir("rollarena-api-errors-");
    let bot = tmp.path().join("bot.py");
    std::fs::write(&bot, "print('hi')\n").unwrap();
    let out = Command::new(rollarena())
        .args(["submit", "--server", &pasted, "--token", &team])
        .arg(&bot)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("405") && err.contains("/api/leaderboard does not take a POST request"),
        "{err}"
    );
    let w = Worker::start(&pasted, &worker, UIDS[0], "w1");
    let (status, err) = w.wait(Duration::from_secs(60));
    assert!(!status.success(), "{err}");
    assert!(
        err.contains("405") && err.contains("send a GET or HEAD"),
        "{err}"
    );
    server.stop();
}
