//! The fuzz's random requests: a route's path with its parameters filled in (the real value
//! now and then, else a hostile one) and mutated, a query string, a credential and extra
//! headers, and a body (JSON garbage, the API's own fields with values of every type, forms,
//! multipart with bad boundaries and oversized parts).

use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::raw::Request;
use super::{BODY_LIMIT, Route};

/// What the fuzz knows of the arena: real names, ids and credentials.
pub struct Known {
    pub version: i64,
    /// A match in play (its lease another worker's).
    pub playing: i64,
    pub credentials: Vec<(&'static str, Option<(String, String)>)>,
}

/// The values a path's `{param}` takes: the real one now and then, else a hostile one.
fn param(rng: &mut ChaCha8Rng, name: &str, known: &Known) -> String {
    let long = "a".repeat(rng.random_range(200..6000));
    let (version, playing) = (known.version.to_string(), known.playing.to_string());
    let ids = [
        version.as_str(),
        playing.as_str(),
        "1",
        "0",
        "-1",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999999999",
        "1e3",
        "0x10",
        "abc",
        "%31",
        "1%2f2",
        "1.5",
        "+1",
        "%20",
        "\u{661}\u{662}",
        "1%00",
    ];
    let names = [
        "alpha",
        "bravo",
        "nobody",
        "<script>alert(1)</script>",
        "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "..",
        "%2e%2e",
        "%2e%2e%2f%2e%2e%2farena.db",
        "\u{e9}mile",
        "%C3%A9mile",
        "%C3%28",
        long.as_str(),
        "%",
        "%zz",
        "%00",
        "alpha%00",
        "ALPHA",
        "alpha%2F..",
        "'; DROP TABLE teams; --",
    ];
    let paths = [
        "bot.py",
        "../../arena.db",
        "..%2f..%2farena.db",
        "%2e%2e/%2e%2e/arena.toml",
        "/etc/passwd",
        "//etc/passwd",
        "a/b/c/d/e",
        "bot.py%00.txt",
        ".",
        "...",
        "source/../../../arena.db",
        "%2F",
        "\u{1F4A5}.py",
        long.as_str(),
        "index.html",
        "../../../../../../etc/shadow",
    ];
    let hash = "ab".repeat(32);
    let shas = [
        hash.as_str(),
        "AB",
        "../../arena.db",
        "..%2F..%2Farena.db",
        "g0g0",
        long.as_str(),
    ];
    let pool: &[&str] = match name {
        "id" => &ids,
        "name" => &names,
        "*path" => &paths,
        "sha256" => &shas,
        _ => &names,
    };
    // Sometimes a value meant for another parameter.
    let pools: [&[&str]; 3] = [&ids, &names, &paths];
    let pool = if rng.random_bool(0.1) {
        pools.choose(rng).unwrap()
    } else {
        pool
    };
    pool.choose(rng).unwrap().to_string()
}

/// A path: a route's pattern filled in, sometimes mutated, now and then a random one.
fn path(rng: &mut ChaCha8Rng, route: &Route, known: &Known) -> String {
    if rng.random_bool(0.04) {
        let len = rng.random_range(0..60);
        let chars = b"/abcdefgh.%-_~!$&'()*+,;=:@0123456789API";
        let random: String = (0..len)
            .map(|_| *chars.choose(rng).unwrap() as char)
            .collect();
        return format!("/{random}");
    }
    let mut out = String::new();
    for segment in route.pattern.split('/').skip(1) {
        out.push('/');
        match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(p) => out.push_str(&param(rng, p, known)),
            None => out.push_str(segment),
        }
    }
    if rng.random_bool(0.3) {
        out = match rng.random_range(0..10) {
            0 => format!("{out}/"),
            1 => out.replacen('/', "//", 1),
            2 => format!("{out}/.."),
            3 => format!("{out}/../../arena.db"),
            4 => out.replace("/api/", "/api/./"),
            5 => format!("{out};x=1"),
            6 => format!("{out}%"),
            7 => out.to_ascii_uppercase(),
            8 => {
                let at = rng.random_range(1..out.len().max(2));
                let at = (0..=at).rev().find(|&i| out.is_char_boundary(i)).unwrap();
                let (a, b) = out.split_at(at);
                match b.chars().next() {
                    Some(c) if c.is_ascii() => {
                        format!("{a}%{:02X}{}", c as u32, &b[1..])
                    }
                    _ => format!("{a}%FF{b}"),
                }
            }
            _ => format!(
                "{out}/{}",
                ["extra", "1", "%2e%2e", "\u{430}"].choose(rng).unwrap()
            ),
        };
    }
    out
}

fn query(rng: &mut ChaCha8Rng) -> String {
    let keys = [
        "limit", "offset", "team", "before", "state", "kind", "x", "", "limit[]",
    ];
    let long = "9".repeat(rng.random_range(20..3000));
    let values = [
        "1",
        "-1",
        "0",
        "99999999999999999999",
        "abc",
        "%ff",
        "%",
        "",
        "1e9",
        "\u{1F4A5}",
        long.as_str(),
        "%00",
        "true",
    ];
    let n = rng.random_range(1..5);
    let pairs: Vec<String> = (0..n)
        .map(|_| {
            let k = keys.choose(rng).unwrap();
            if rng.random_bool(0.1) {
                k.to_string()
            } else {
                format!("{k}={}", values.choose(rng).unwrap())
            }
        })
        .collect();
    format!("?{}", pairs.join(["&", "&&", ";"].choose(rng).unwrap()))
}

/// A multipart body under `boundary`: well formed or broken in one of several ways.
fn multipart_body(rng: &mut ChaCha8Rng, boundary: &str) -> Vec<u8> {
    let names = ["file", "language", "label", "csrf", "", "file\"; x=\"y"];
    let files = [
        "bot.py",
        "bot.tar.gz",
        "bot.zip",
        "bot.xyz",
        "",
        "../../bot.py",
        "<img src=x>.py",
        "a/b.py",
    ];
    let mut body = Vec::new();
    for _ in 0..rng.random_range(0..4) {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let name = names.choose(rng).unwrap();
        if rng.random_bool(0.5) {
            body.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{}\"\r\n\
                     Content-Type: application/octet-stream\r\n\r\n",
                    files.choose(rng).unwrap()
                )
                .as_bytes(),
            );
        } else if rng.random_bool(0.8) {
            body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            );
        } else {
            body.extend_from_slice(b"X-Nothing: at all\r\n\r\n");
        }
        let len = if rng.random_bool(0.03) {
            rng.random_range(1 << 20..3 << 20)
        } else {
            rng.random_range(0..300)
        };
        // Not Python (so that an upload accepted builds and fails at once): random bytes.
        let content: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        body.extend_from_slice(&content);
        body.extend_from_slice(b"\r\n");
    }
    match rng.random_range(0..5) {
        0 => {}
        1 => body.extend_from_slice(format!("--{boundary}").as_bytes()),
        2 => body.extend_from_slice(b"--another--\r\n"),
        _ => body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes()),
    }
    body
}

/// A JSON object of the fields the API's bodies have, each with a value of a random type:
/// what gets past decoding to the handlers' own checks.
fn structured(rng: &mut ChaCha8Rng) -> serde_json::Value {
    use serde_json::{Value, json};
    let keys = [
        "action",
        "time",
        "at",
        "schedule",
        "rounds",
        "repeat",
        "swiss_rounds",
        "challengers",
        "anchors",
        "seed",
        "match",
        "reason",
        "version",
        "name",
        "protocol",
        "arch",
        "jobs",
        "free",
        "lease",
        "error",
        "points",
        "ranks",
    ];
    let value = |rng: &mut ChaCha8Rng| -> Value {
        match rng.random_range(0..14) {
            0 => json!(rng.random_range(-3..5)),
            1 => json!(i64::MAX),
            2 => json!(u64::MAX),
            3 => json!(-1e308),
            4 => Value::Null,
            5 => json!(rng.random_bool(0.5)),
            6 => json!(["alpha", "bravo", "nobody", "<script>"]),
            7 => json!([1, -1, 1e300]),
            8 => json!("x".repeat(rng.random_range(1000..70000))),
            9 => json!(env!("CARGO_PKG_VERSION")),
            _ => json!(
                [
                    "now",
                    "cancel",
                    "void",
                    "replay",
                    "round-robin",
                    "swiss",
                    "",
                    "2020-01-01T00:00:00Z",
                    "2999-12-31 23:59",
                    "x86_64",
                    "\u{1F4A5}",
                    "alpha",
                    "-1",
                ]
                .choose(rng)
                .unwrap()
            ),
        }
    };
    let mut object = serde_json::Map::new();
    for _ in 0..rng.random_range(0..6) {
        let key = keys.choose(rng).unwrap().to_string();
        object.insert(key, value(rng));
    }
    Value::Object(object)
}

/// A body and the content type that goes with it (or a wrong one).
fn body(rng: &mut ChaCha8Rng) -> (Option<String>, Vec<u8>) {
    let json = || Some("application/json".to_string());
    match rng.random_range(0..15) {
        12..=14 => (json(), structured(rng).to_string().into_bytes()),
        0 | 1 => (None, Vec::new()),
        2 => {
            let garbage: Vec<u8> = (0..rng.random_range(0..200))
                .map(|_| rng.random())
                .collect();
            (json(), garbage)
        }
        3 => {
            let text = [
                r#"{"at": "#,
                r#"{"at": "2020-01-01T00:00:00Z", "extra": [1,2,"#,
                r#"{"version": 1}"#,
                r#"{"version": -1}"#,
                r#"{"version": 99999999999999999999999}"#,
                r#"{"version": "one"}"#,
                r#"{"at": null}"#,
                r#"{"at": 1e308}"#,
                r#"{"kind": "swiss", "rounds": -5}"#,
                r#"{"matches": [1, 2, 3], "reason": "<script>"}"#,
                r#"{"arch": "x86_64", "version": "0.0.0", "slots": 99999999}"#,
                r#"{"lease": "x", "record": "{}"}"#,
                "[]",
                "null",
                "\"\"",
                "{\"a\":\"\\ud800\"}",
            ]
            .choose(rng)
            .unwrap()
            .to_string();
            (json(), text.into_bytes())
        }
        4 => {
            let depth = rng.random_range(100..20000);
            let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            (json(), nested.into_bytes())
        }
        5 => {
            let s = "\u{1F4A5}".repeat(rng.random_range(1000..30000));
            (json(), format!("{{\"reason\": \"{s}\"}}").into_bytes())
        }
        6 => {
            let fields = [
                "csrf=",
                "csrf=abababababababababababababababab",
                "token=team_0000",
                "version=1",
                "version=-1",
                "version=99999999999999999999",
                "paused=maybe",
                "action=disable",
                "action=%00",
                "name=%3Cscript%3E",
                "team=alpha",
                "at=",
                "%zz=%zz",
                "=",
                "&&&",
            ];
            let n = rng.random_range(0..5);
            let form: Vec<&str> = (0..n).map(|_| *fields.choose(rng).unwrap()).collect();
            let ct = if rng.random_bool(0.8) {
                "application/x-www-form-urlencoded"
            } else {
                "application/json"
            };
            (Some(ct.to_string()), form.join("&").into_bytes())
        }
        7..=9 => {
            let boundary = [
                "xYz",
                "a",
                "-----",
                "\u{e9}t\u{e9}",
                "x".repeat(200).as_str(),
            ]
            .choose(rng)
            .unwrap()
            .to_string();
            let ct = match rng.random_range(0..6) {
                0 => "multipart/form-data".to_string(),
                1 => "multipart/form-data; boundary=".to_string(),
                2 => "multipart/form-data; boundary=other".to_string(),
                3 => format!("multipart/form-data; boundary=\"{boundary}\""),
                _ => format!("multipart/form-data; boundary={boundary}"),
            };
            (Some(ct), multipart_body(rng, &boundary))
        }
        10 => {
            // Over the API's body limit.
            if rng.random_bool(0.3) {
                (json(), vec![b' '; BODY_LIMIT + 4096])
            } else {
                (json(), b"{}".to_vec())
            }
        }
        _ => {
            let ct = [
                "text/plain",
                "application/json; charset=utf-16",
                "garbage",
                "",
                "application/octet-stream",
                "multipart/mixed; boundary=x",
            ]
            .choose(rng)
            .unwrap()
            .to_string();
            let bytes: Vec<u8> = (0..rng.random_range(0..500))
                .map(|_| rng.random())
                .collect();
            (Some(ct), bytes)
        }
    }
}

/// One random request.
pub fn request(rng: &mut ChaCha8Rng, routes: &[Route], known: &Known) -> Request {
    let route = routes.choose(rng).unwrap();
    let method = if rng.random_bool(0.7) {
        route.methods.choose(rng).unwrap().to_string()
    } else {
        [
            "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "get", "FOO",
            "CONNECT",
        ]
        .choose(rng)
        .unwrap()
        .to_string()
    };
    let mut target = path(rng, route, known);
    if rng.random_bool(0.35) {
        target.push_str(&query(rng));
    }
    let (who, credential) = known.credentials.choose(rng).unwrap().clone();
    // An address of its own (loopback is a trusted proxy in the fuzz's arena), so that the
    // failed tokens' slowing, per address, does not make the fuzz wait.
    let mut headers: Vec<(String, Vec<u8>)> = vec![(
        "X-Forwarded-For".into(),
        format!(
            "198.51.{}.{}",
            rng.random_range(0..=255u8),
            rng.random_range(1..=254u8)
        )
        .into_bytes(),
    )];
    if let Some((k, v)) = credential {
        headers.push((k, v.into_bytes()));
    }
    let (content_type, body) = if method == "GET" && rng.random_bool(0.8) {
        (None, Vec::new())
    } else {
        body(rng)
    };
    if let Some(ct) = content_type {
        headers.push(("Content-Type".into(), ct.into_bytes()));
    }
    let huge = "A".repeat(rng.random_range(1000..60000));
    let extras: [(&str, &str); 16] = [
        ("Cookie", "rollarena_session=garbage"),
        ("Cookie", "rollarena_session=; rollarena_session=abc"),
        ("Cookie", ";;;=;=="),
        ("Cookie", "rollarena_login_csrf=x"),
        ("Authorization", "Bearer"),
        ("Authorization", "Bearer team_0123456789abcdef"),
        ("Authorization", "Basic YWxhZGRpbjpvcGVuc2VzYW1l"),
        ("Authorization", "Bearer org_ worker_ team_"),
        ("Last-Event-ID", "99999999999999999999"),
        ("Last-Event-ID", "-1"),
        ("X-Forwarded-For", "garbage, ::1, 10.0.0.1"),
        ("Origin", "http://evil.example"),
        ("Accept", "application/json"),
        ("Accept", "text/html"),
        ("X-Huge", huge.as_str()),
        ("Cookie", huge.as_str()),
    ];
    for _ in 0..rng.random_range(0..3) {
        let (k, v) = extras.choose(rng).unwrap();
        headers.push((k.to_string(), v.as_bytes().to_vec()));
    }
    if rng.random_bool(0.01) {
        // More headers than the parser takes.
        for i in 0..120 {
            headers.push((format!("X-Many-{i}"), b"1".to_vec()));
        }
    }
    if rng.random_bool(0.01) {
        // A header the parser cannot read.
        headers.push(("X-Bad".into(), b"a\x01b".to_vec()));
    }
    Request {
        who,
        method,
        target: target.into_bytes(),
        headers,
        body,
    }
}
