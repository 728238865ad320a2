//! A bounded fuzz of every route of `rollarena serve` (issue 40): the routes are read from the
//! router's source (`crates/arena/src/web/`), so that a route added later is fuzzed without anyone
//! listing it; then, for a fixed seed, [`REQUESTS`] random requests go to the real server on
//! loopback from [`CLIENTS`] clients at once, through a raw TCP client (so that nothing a
//! well-behaved client would refuse to send is out of reach): any method, the routes' paths
//! with mutated segments (ids out of range, huge numbers, unicode, `..`, %-encodings), query
//! strings, headers (bad cookies and bearer tokens, content types, huge values, too many) and
//! bodies (JSON garbage, the API's own fields with values of every type, forms, multipart with
//! bad boundaries and oversized parts), as a team (token and session), the organiser (token
//! and session), a worker, another team and nobody.
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

mod raw;
mod requests;

use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Arena, Server, Who, get, kit, login, multipart, post};
use raw::{Reply, Request, exchange};
use requests::{Known, request};

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
const REQUESTS: usize = 8000;

/// The longest a request may take to be answered (its whole body, or an event stream's head).
const BOUND: Duration = Duration::from_secs(5);

/// The API's largest body but for uploads (`refusals::BODY_LIMIT`): a request over it may
/// see its connection closed before it has sent its body.
const BODY_LIMIT: usize = 2 << 20;

/// A route as the router declares it: its path pattern and the methods it takes.
#[derive(Debug, Clone)]
struct Route {
    pattern: String,
    methods: Vec<&'static str>,
}

/// Every `.route("PATTERN", get(..).post(..))` of the web server's source files (those of a
/// function `api_routes` below `/api`).
fn routes() -> Vec<Route> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/arena/src/web");
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
        let mut at = 0;
        for chunk in text.split(".route(").skip(1) {
            // The API's routes are declared below `/api`, in the functions `api_routes` (the
            // router nests them there).
            let before = &text[..at + text[at..].find(".route(").unwrap()];
            at = before.len() + ".route(".len();
            let nested = before
                .rfind("fn ")
                .is_some_and(|f| before[f..].starts_with("fn api_routes("));
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
            let prefix = if nested { "/api" } else { "" };
            found.push(Route {
                pattern: format!("{prefix}{}", &pattern[1]),
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

/// How many clients send the requests at once.
const CLIENTS: usize = 4;

/// What the answers were.
#[derive(Default)]
struct Tally {
    statuses: std::collections::BTreeMap<u16, usize>,
    /// Answers from the HTTP parser (the router never saw the request).
    unrouted: usize,
    /// Requests past the body limit whose connection closed before an answer.
    closed_early: usize,
    slowest: Duration,
}

impl Tally {
    fn add(&mut self, reply: &Reply) {
        if reply.header("x-content-type-options").is_none() {
            self.unrouted += 1;
        }
        self.slowest = self.slowest.max(reply.took);
        *self.statuses.entry(reply.status).or_default() += 1;
    }

    fn merge(&mut self, other: Tally) {
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        self.unrouted += other.unrouted;
        self.closed_early += other.closed_early;
        self.slowest = self.slowest.max(other.slowest);
    }
}

#[test]
fn a_fuzz_of_every_route_finds_no_5xx_no_panic_no_hang_and_json_refusals() {
    let routes = routes();
    let arena = Arena::init(&[], "");
    // Loopback is a trusted proxy here, and every request comes "from" an address of its own
    // (`X-Forwarded-For`, see `requests::request`): failed tokens are slowed per address (up to
    // 1 s each past ten), and 8,000 requests from one address would wait for minutes.
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let trusted = text.replace("trusted_proxies = []", "trusted_proxies = [\"127.0.0.1\"]");
    assert_ne!(text, trusted, "arena.toml's trusted_proxies line moved");
    std::fs::write(&toml, trusted).unwrap();
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
    // A match in play, leased to a worker that is not the fuzz's.
    let playing = 4242;
    arena
        .db()
        .execute(
            "INSERT INTO matches (id, created_at, state, kind, seed, rounds, lease_owner, \
             lease_until) VALUES (?1, 0, 'running', 'ladder', 1, 2, 'elsewhere', 9999999999999)",
            [playing],
        )
        .unwrap();
    let alpha_session = login(&url, &alpha);
    let org_session = login(&url, &org);
    let bearer = |t: &str| Some(("Authorization".to_string(), format!("Bearer {t}")));
    let cookie = |c: &str| Some(("Cookie".to_string(), c.to_string()));
    let known = Known {
        version,
        playing,
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
    // The requests, made in order from the seed, then sent by CLIENTS threads at once (request
    // n by thread n % CLIENTS), so that the handlers also meet each other.
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let requests: Vec<Request> = (0..REQUESTS)
        .map(|_| request(&mut rng, &routes, &known))
        .collect();
    let started = Instant::now();
    let outcomes: Vec<Result<Tally, String>> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let (requests, addr, secrets) = (&requests, &addr, &secrets);
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for (n, req) in requests.iter().enumerate().skip(client).step_by(CLIENTS) {
                        let fail = |what: &str| {
                            format!("request {n} of the fuzz (seed {seed}): {what}\n{req}")
                        };
                        let reply = match exchange(addr, req) {
                            Ok(reply) => reply,
                            // Past the body limit the server may close before reading it all.
                            Err(e)
                                if req.body.len() > BODY_LIMIT
                                    && !e.starts_with("no whole answer") =>
                            {
                                tally.closed_early += 1;
                                continue;
                            }
                            Err(e) => return Err(fail(&e)),
                        };
                        if let Err(e) = judge(req, &reply, secrets) {
                            return Err(fail(&format!("{e}: {reply}")));
                        }
                        tally.add(&reply);
                    }
                    Ok(tally)
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let mut tally = Tally::default();
    for outcome in outcomes {
        match outcome {
            Ok(t) => tally.merge(t),
            Err(e) => panic!("{e}\nthe server's stderr:\n{}", server.stderr()),
        }
    }
    let Tally {
        statuses,
        unrouted,
        closed_early,
        slowest,
    } = tally;
    let took = started.elapsed();
    println!(
        "{REQUESTS} requests from {CLIENTS} clients in {took:?} (slowest {slowest:?}): statuses {statuses:?}, \
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
