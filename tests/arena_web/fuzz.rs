//! A bounded fuzz of every route of `rollarena serve` (issue 40): the routes are read from the
//! router's source (`src/arena/web/`), so that a route added later is fuzzed without anyone
//! listing it; then, for a fixed seed, [`REQUESTS`] random requests go to the real server on
//! loopback through a raw TCP client (so that nothing a well-behaved client would refuse to
//! send is out of reach): any method, the routes' paths with mutated segments (ids out of
//! range, huge numbers, unicode, `..`, %-encodings), query strings, headers (bad cookies and
//! bearer tokens, content types, huge values, too many) and bodies (JSON garbage, forms,
//! multipart with bad boundaries and oversized parts), as a team (token and session), the
//! organiser (token and session), a worker, another team and nobody.
//!
//! Every answer: never a 5xx, within [`BOUND`] (an event stream: its headers), no token, no
//! byte of the database, of `arena.toml` or of the host's `/etc/passwd` in its body, and under
//! `/api/` a refusal is `{"error": "..."}` as `application/json`. Only a request the HTTP
//! parser refuses before the router sees it (a header or a request line it cannot read) may
//! answer otherwise, and it must still be a 4xx. Afterwards the server's stderr holds no panic
//! and its pages still answer. A failure prints the seed, the request and the answer.
//!
//! No bot plays (`serve --workers 0`); an upload the fuzz happens to get accepted is built and
//! checked under this test's own uids.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Arena, Server, Who, get, kit, login, multipart, post};

/// This test's bots' and builds' uids.
const UIDS: [(u32, u32); 2] = [(64600, 64649), (64650, 64699)];

/// The fixed seed: a failure names it, and the same seed makes the same requests. Another
/// can be tried with `ROLLARENA_FUZZ_SEED=N` (decimal) in the environment.
const SEED: u64 = 0x5eed_4011;

fn seed() -> u64 {
    std::env::var("ROLLARENA_FUZZ_SEED")
        .ok()
        .map(|s| {
            s.parse()
                .unwrap_or_else(|_| panic!("ROLLARENA_FUZZ_SEED={s:?} is not a whole number"))
        })
        .unwrap_or(SEED)
}

/// How many requests the fuzz sends.
const REQUESTS: usize = 4000;

/// The longest a request may take to be answered (its whole body, or an event stream's head).
const BOUND: Duration = Duration::from_secs(5);

/// The API's largest body but for uploads (`api_refusals::BODY_LIMIT`): a request over it may
/// see its connection closed before it has sent its body.
const BODY_LIMIT: usize = 2 << 20;

/// A route as the router declares it: its path pattern and the methods it takes.
#[derive(Debug, Clone)]
struct Route {
    pattern: String,
    methods: Vec<&'static str>,
}

/// Every `.route("PATTERN", get(..).post(..))` of the web server's source files.
fn routes() -> Vec<Route> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/arena/web");
    let method = regex::Regex::new(r"\b(get|post|put|delete|patch)\(").unwrap();
    let literal = regex::Regex::new(r#"^\s*"([^"]+)""#).unwrap();
    let next_call = regex::Regex::new(r"\n\s*\.").unwrap();
    let mut found = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for chunk in text.split(".route(").skip(1) {
            let Some(pattern) = literal.captures(chunk) else {
                continue;
            };
            // The route's arguments end where the builder's next call begins.
            let end = next_call.find(chunk).map_or(chunk.len(), |m| m.start());
            let methods: Vec<&'static str> = method
                .captures_iter(&chunk[..end])
                .map(|c| match &c[1] {
                    "get" => "GET",
                    "post" => "POST",
                    "put" => "PUT",
                    "delete" => "DELETE",
                    _ => "PATCH",
                })
                .collect();
            assert!(
                !methods.is_empty(),
                "{}: no method for {}",
                file.display(),
                &pattern[1]
            );
            found.push(Route {
                pattern: pattern[1].to_string(),
                methods,
            });
        }
    }
    found
}

#[test]
fn the_routes_are_read_from_the_routers_source() {
    let routes = routes();
    for (pattern, method) in [
        ("/", "GET"),
        ("/submissions/{id}/files/{*path}", "GET"),
        ("/submit", "POST"),
        ("/api/submissions", "POST"),
        ("/api/final", "POST"),
        ("/api/worker/matches/{id}/heartbeat", "POST"),
        ("/api/worker/artifacts/{sha256}", "GET"),
        ("/api/teams/{name}/pin", "POST"),
        ("/api/changes", "GET"),
    ] {
        assert!(
            routes
                .iter()
                .any(|r| r.pattern == pattern && r.methods.contains(&method)),
            "{method} {pattern} is not among {routes:#?}"
        );
    }
    assert!(routes.len() >= 45, "{routes:#?}");
}

/// One raw request.
struct Request {
    who: &'static str,
    method: String,
    target: Vec<u8>,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
}

impl std::fmt::Display for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = |b: &[u8], n: usize| {
            let s = String::from_utf8_lossy(&b[..b.len().min(n)]).into_owned();
            if b.len() > n {
                format!("{s:?}... ({} bytes)", b.len())
            } else {
                format!("{s:?}")
            }
        };
        writeln!(
            f,
            "{} {} (as {})",
            self.method,
            short(&self.target, 300),
            self.who
        )?;
        for (k, v) in &self.headers {
            writeln!(f, "  {k}: {}", short(v, 200))?;
        }
        write!(f, "  body: {}", short(&self.body, 400))
    }
}

/// One answer.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    took: Duration,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl std::fmt::Display for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = String::from_utf8_lossy(&self.body[..self.body.len().min(600)]);
        write!(
            f,
            "{} after {:?}, {:?}: {body}",
            self.status, self.took, self.headers
        )
    }
}

/// Sends `req` on a connection of its own and reads the answer, all within [`BOUND`]; an
/// event stream is answered once its head has arrived.
fn exchange(addr: &str, req: &Request) -> Result<Reply, String> {
    let start = Instant::now();
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    stream.set_write_timeout(Some(BOUND)).unwrap();
    let mut head = Vec::new();
    head.extend_from_slice(req.method.as_bytes());
    head.push(b' ');
    head.extend_from_slice(&req.target);
    head.extend_from_slice(
        format!(" HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n").as_bytes(),
    );
    for (k, v) in &req.headers {
        head.extend_from_slice(k.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(v);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(format!("Content-Length: {}\r\n\r\n", req.body.len()).as_bytes());
    // A server that refuses early may close before the body is sent: its answer is still read.
    let sent = stream
        .write_all(&head)
        .and_then(|()| stream.write_all(&req.body));
    let mut got = Vec::new();
    let mut buf = [0u8; 16384];
    let mut head_end = None;
    loop {
        let left = BOUND.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Err(format!(
                "no whole answer within {BOUND:?} ({} bytes: {:?})",
                got.len(),
                String::from_utf8_lossy(&got[..got.len().min(300)])
            ));
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
            Err(e) if head_end.is_some() => {
                return Err(format!("the answer was cut: {e}"));
            }
            Err(e) => {
                return Err(format!(
                    "no answer: {e} (sending: {sent:?}, {} bytes read)",
                    got.len()
                ));
            }
        }
        if head_end.is_none() {
            head_end = got.windows(4).position(|w| w == b"\r\n\r\n");
        }
        // Whole once its head says so: no need to wait for the server to close (it may reset
        // the connection instead, when it did not read the whole request).
        if let Some(end) = head_end
            && complete(&got, end, &req.method)
        {
            break;
        }
    }
    let took = start.elapsed();
    let end = head_end.ok_or_else(|| {
        format!(
            "no answer's head (sending: {sent:?}): {:?}",
            String::from_utf8_lossy(&got)
        )
    })?;
    let head = String::from_utf8_lossy(&got[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("a bad status line: {status_line:?}"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let raw = got[end + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked && req.method != "HEAD" {
        dechunk(&raw).ok_or_else(|| format!("a bad chunked body: {raw:?}"))?
    } else {
        raw
    };
    Ok(Reply {
        status,
        headers,
        body,
        took,
    })
}

/// Whether `got`, whose head ends at `end`, holds the whole answer: an event stream's head, a
/// body of its `Content-Length`, a chunked body to its last chunk.
fn complete(got: &[u8], end: usize, method: &str) -> bool {
    let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
    let body = &got[end + 4..];
    let status = head.split(' ').nth(1).unwrap_or_default();
    if head.contains("content-type: text/event-stream")
        || method == "HEAD"
        || status.starts_with('1')
        || status == "204"
        || status == "304"
    {
        return true;
    }
    if let Some(length) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|l| l.trim().parse::<usize>().ok())
    {
        return body.len() >= length;
    }
    head.contains("transfer-encoding: chunked") && body.ends_with(b"0\r\n\r\n")
}

/// A chunked body's bytes (a stream cut short keeps what came).
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") else {
            return Some(out);
        };
        let size = std::str::from_utf8(&raw[..eol]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        let data = raw.get(eol + 2..eol + 2 + size)?;
        out.extend_from_slice(data);
        raw = raw.get(eol + 2 + size + 2..).unwrap_or_default();
    }
}

/// What the fuzz knows of the arena: real names, ids and credentials.
struct Known {
    version: i64,
    credentials: Vec<(&'static str, Option<(String, String)>)>,
}

/// The values a path's `{param}` takes: the real one now and then, else a hostile one.
fn param(rng: &mut ChaCha8Rng, name: &str, known: &Known) -> String {
    let long = "a".repeat(rng.random_range(200..6000));
    let real_id = known.version.to_string();
    let ids = [
        real_id.as_str(),
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
fn request(rng: &mut ChaCha8Rng, routes: &[Route], known: &Known) -> Request {
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
    let mut headers: Vec<(String, Vec<u8>)> = Vec::new();
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

/// What every answer must be; `Err` says what it is instead.
fn judge(req: &Request, reply: &Reply, secrets: &[&str]) -> Result<(), String> {
    let body = String::from_utf8_lossy(&reply.body);
    if let Some(secret) = secrets.iter().find(|s| body.contains(**s)) {
        return Err(format!("the answer holds {secret:?}"));
    }
    if reply.status >= 500 {
        return Err("a 5xx".into());
    }
    if reply.took > BOUND {
        return Err(format!("answered after {:?}", reply.took));
    }
    // The router's own answers carry its headers; the HTTP parser's refusals (a request it
    // cannot read: the router never sees it) do not, and need only be a 4xx.
    let routed = reply.header("x-content-type-options").is_some();
    if !routed {
        return if (400..500).contains(&reply.status) {
            Ok(())
        } else {
            Err("an answer from outside the router that is not a 4xx".into())
        };
    }
    let target = String::from_utf8_lossy(&req.target);
    let path = target.split('?').next().unwrap_or_default();
    let api = path == "/api" || path.starts_with("/api/");
    if api && reply.status >= 400 && req.method != "HEAD" {
        if reply.header("content-type") != Some("application/json") {
            return Err("an API refusal that is not application/json".into());
        }
        let value: serde_json::Value = serde_json::from_slice(&reply.body)
            .map_err(|e| format!("an API refusal that is not JSON: {e}"))?;
        let error = value["error"].as_str().unwrap_or_default();
        if error.len() < 10 {
            return Err("an API refusal without its error sentence".into());
        }
    }
    Ok(())
}

#[test]
fn a_fuzz_of_every_route_finds_no_5xx_no_panic_no_hang_and_json_refusals() {
    let routes = routes();
    let arena = Arena::init(&[], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    let alpha = arena.team("alpha");
    let bravo = arena.team("bravo");
    let worker = arena.token("worker", "w1");
    let org = arena.organiser.clone();
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let addr = url.trim_start_matches("http://").to_string();

    // A real version, so that its addresses are there to mutate.
    let (ct, upload) = multipart(&[(
        "file",
        Some("bot.py"),
        &std::fs::read(kit("python").join("bot.py")).unwrap(),
    )]);
    let submitted = post(
        &format!("{url}/api/submissions"),
        Who::Token(&alpha),
        &ct,
        &upload,
    );
    assert_eq!(submitted.status, 201, "{}", submitted.body);
    let version = submitted.json()["id"].as_i64().unwrap();
    let alpha_session = login(&url, &alpha);
    let org_session = login(&url, &org);
    let bearer = |t: &str| Some(("Authorization".to_string(), format!("Bearer {t}")));
    let cookie = |c: &str| Some(("Cookie".to_string(), c.to_string()));
    let known = Known {
        version,
        credentials: vec![
            ("nobody", None),
            ("alpha's token", bearer(&alpha)),
            ("alpha's session", cookie(&alpha_session)),
            ("bravo's token", bearer(&bravo)),
            ("the organiser's token", bearer(&org)),
            ("the organiser's session", cookie(&org_session)),
            ("a worker's token", bearer(&worker)),
        ],
    };

    // What no answer may hold: a token (the server keeps their hashes only, and never shows
    // one but a new team's to the organiser), the database's bytes, a file of the host's.
    let secrets = [
        alpha.as_str(),
        bravo.as_str(),
        org.as_str(),
        worker.as_str(),
        "SQLite format 3",
        "root:x:0:0",
        "bot_uids = \"64600-64649\"",
    ];
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let started = Instant::now();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let (mut unrouted, mut closed_early, mut slowest) = (0, 0, Duration::ZERO);
    for n in 0..REQUESTS {
        let req = request(&mut rng, &routes, &known);
        let fail = |what: &str| {
            format!(
                "request {n} of the fuzz (seed {seed}): {what}\n{req}\nthe server's stderr:\n{}",
                server.stderr()
            )
        };
        let reply = match exchange(&addr, &req) {
            Ok(reply) => reply,
            // Past the body limit the server may close before reading the whole body.
            Err(e) if req.body.len() > BODY_LIMIT && !e.starts_with("no whole answer") => {
                closed_early += 1;
                continue;
            }
            Err(e) => panic!("{}", fail(&e)),
        };
        if let Err(e) = judge(&req, &reply, &secrets) {
            panic!("{}", fail(&format!("{e}: {reply}")));
        }
        if reply.header("x-content-type-options").is_none() {
            unrouted += 1;
        }
        slowest = slowest.max(reply.took);
        *statuses.entry(reply.status).or_default() += 1;
    }
    let took = started.elapsed();
    println!(
        "{REQUESTS} requests in {took:?} (slowest {slowest:?}): statuses {statuses:?}, \
         {unrouted} refused by the HTTP parser, {closed_early} closed past the body limit"
    );

    // Still serving, and nothing panicked.
    assert_eq!(get(&format!("{url}/"), Who::Nobody).status, 200);
    assert_eq!(
        get(&format!("{url}/api/leaderboard"), Who::Nobody).status,
        200
    );
    let team = get(&format!("{url}/api/teams/alpha"), Who::Token(&alpha));
    assert_eq!(team.status, 200, "{}", team.body);
    let stderr = server.stderr();
    assert!(
        !stderr.contains("panicked"),
        "the server panicked: {stderr}"
    );
    // The fuzz reached the handlers, not only the router's refusals.
    for status in [200, 400, 401, 403, 404, 405] {
        assert!(statuses.contains_key(&status), "no {status}: {statuses:?}");
    }
}
