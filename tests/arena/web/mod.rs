//! `rollarena serve` as its users meet it: the real binary on a loopback port in a temporary
//! arena, teams submitting with `rollarena submit` and through the browser, the ladder playing.
//!
//! - `e2e`: two teams submit the Python and C kits with `submit --wait`, a broken bot goes
//!   through the web form in Chromium (its check report must show the diagnosis), the ladder
//!   plays, the leaderboard page and API agree; hostile team names stay text;
//! - `visibility`: every address of team B with team A's token, A's session and no one's:
//!   refused or stripped, never B's sources, build log, check report or stderr;
//! - `sigkill`: the server killed with SIGKILL mid-match and mid-build, started again: every
//!   finished match once, ratings applied once, unfinished work run again, no bot or build
//!   process left;
//! - `uploads`: the bad uploads through HTTP, each with its status and message, nothing stored;
//! - `pinning`: a team chooses which version plays (API and its page's buttons), the
//!   matchmaker and the final seat it, and the choice is fixed once the contest has closed;
//! - `organiser`: the organiser pins from the shell (`rollarena arena pin`) while the server
//!   runs, every refusal with its message and exit code; the organiser's table and the
//!   leaderboard mark a pinned version; error pages carry the closing-time banner;
//! - `recipes`: a recipe whose compiler is missing: serve says so and how to install it, the
//!   API, the form and `submit` do not offer it;
//! - `rest`: two teams of the same deterministic kit (every match a draw): the ladder comes
//!   to rest by itself (page, API and `arena status` say so), wakes on a new version and on
//!   `arena resume`; the records stored compressed, and their bytes per match;
//! - `organiser_shell`: the organiser's page from the shell (`arena teams`, `status`,
//!   `disable`, `enable`, `token`, `pause`, `resume`) while the server runs;
//! - `api_errors`: every refusal under `/api/` is `{"error": ...}` with its status, axum's own
//!   (a path, query or body that does not decode, a missing content type, a body too large, a
//!   method the address does not take, an unknown address) included, and `rollarena submit`
//!   and `rollarena worker` show its message;
//! - `fuzz`: a bounded fuzz of every route the router's source declares (random methods,
//!   mutated paths, queries, headers and bodies, as each kind of user): no 5xx, no panic, no
//!   hang, and every refusal under `/api/` is `{"error": ...}`;
//! - `crashes`: a build's child process killed (SIGSEGV, then SIGKILL): the server answers
//!   throughout and the version fails after its second crash; a restart with a version left
//!   building serves at once;
//! - `fairness`: one team's ten slow uploads delay another's build by at most one build, a
//!   superseded version says so, and the 13th upload in an hour is refused with HTTP 429;
//! - `tokens`: every address of the API refuses a bad token with 401, the public ones too;
//! - `logins`: failed logins slowed per address, never locking out the right token;
//!   `X-Forwarded-For` believed from `[server] trusted_proxies` only;
//! - `stopping`: SIGTERM stops the server within 5 s with live streams open (each gets a last
//!   event) and with a match in play (queued again, played after the restart);
//! - `seeds`: the ladder's match seeds are 53 random bits;
//! - `pages`: a crashing bot's forfeits at the top of its match pages (its stderr for its own
//!   team and the organiser only) and counted on its team's page; every irreversible form
//!   asks first (Enter never acts); tables that read well in Chromium at 1280 and 800 px; one
//!   snapshot per render under a writer;
//! - `handover`: `arena team`'s instructions (the server's address, the token in
//!   ROLLARENA_TOKEN), `arena export`'s private archive, and `submit --wait` showing the stderr
//!   of a kit with a SyntaxError.
//!
//! Arenas live in world-traversable temporary directories (bots run as unprivileged uids);
//! the kits' bots use the system interpreter. Waits are for states, with wide time limits.

mod api_errors;
mod crashes;
mod e2e;
mod fairness;
mod fuzz;
mod handover;
mod logins;
mod organiser;
mod organiser_shell;
mod pages;
mod pinning;
mod recipes;
mod rest;
mod seeds;
mod sigkill;
mod stopping;
mod tokens;
mod uploads;
mod visibility;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::check::{rollarena, shared_tempdir};

/// An arena directory with its tokens.
pub struct Arena {
    pub tmp: tempfile::TempDir,
    pub organiser: String,
}

impl Arena {
    pub fn dir(&self) -> PathBuf {
        self.tmp.path().join("arena")
    }

    /// `rollarena arena init` with `extra` flags, then `extra_toml` appended to arena.toml.
    pub fn init(extra: &[&str], extra_toml: &str) -> Arena {
        Arena::init_game("rolit", extra, extra_toml)
    }

    /// [`Arena::init`] for `game`.
    pub fn init_game(game: &str, extra: &[&str], extra_toml: &str) -> Arena {
        Arena::init_in(shared_tempdir("rollarena-arena-"), game, extra, extra_toml)
    }

    /// [`Arena::init_game`] in `tmp`, a world-traversable directory (for an arena that must
    /// not be under /tmp, where the sandbox's private /tmp hides it from bots and builds).
    pub fn init_in(tmp: tempfile::TempDir, game: &str, extra: &[&str], extra_toml: &str) -> Arena {
        let dir = tmp.path().join("arena");
        let out = Command::new(rollarena())
            .args(["arena", "init"])
            .arg(&dir)
            .args(["--game", game])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "init: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let organiser = String::from_utf8(out.stdout).unwrap().trim().to_string();
        if !extra_toml.is_empty() {
            let path = dir.join("arena.toml");
            let mut text = std::fs::read_to_string(&path).unwrap();
            text.push_str(extra_toml);
            std::fs::write(&path, text).unwrap();
        }
        Arena { tmp, organiser }
    }

    /// `rollarena arena team`: the team's token.
    pub fn team(&self, name: &str) -> String {
        self.token("team", name)
    }

    /// `rollarena arena KIND DIR NAME` (`team`, `worker`): the token it prints.
    pub fn token(&self, kind: &str, name: &str) -> String {
        let out = Command::new(rollarena())
            .args(["arena", kind])
            .arg(self.dir())
            .arg(name)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "arena {kind}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    /// Gives the arena's bots and builds uid ranges of their own (instead of the defaults),
    /// for a test that must not share processes' uids with tests running beside it.
    pub fn own_uids(&self, bots: (u32, u32), builds: (u32, u32)) {
        let toml = self.dir().join("arena.toml");
        let text = std::fs::read_to_string(&toml).unwrap();
        let (b, u) = (
            format!("bot_uids = \"{}-{}\"", bots.0, bots.1),
            format!("uids = \"{}-{}\"", builds.0, builds.1),
        );
        let text = text
            .replace("bot_uids = \"60000-60999\"", &b)
            .replace("uids = \"61000-61099\"", &u);
        assert!(text.contains(&b) && text.contains(&u), "{text}");
        std::fs::write(&toml, text).unwrap();
    }

    pub fn db(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open(self.dir().join("arena.db")).unwrap();
        conn.busy_timeout(Duration::from_secs(30)).unwrap();
        conn
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// The ids a query returns.
    pub fn ids(&self, sql: &str) -> Vec<i64> {
        self.db()
            .prepare(sql)
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }
}

/// A running `rollarena serve`.
pub struct Server {
    pub child: Child,
    pub url: String,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Server {
    /// Starts the server on a free loopback port; returns once it listens. The arena is named
    /// relative to the server's working directory, as an organiser types it (`serve arena`).
    pub fn start(arena: &Arena, workers: usize) -> Server {
        let dir = arena.dir();
        let mut child = Command::new(rollarena())
            .current_dir(dir.parent().unwrap())
            .arg("serve")
            .arg(dir.file_name().unwrap())
            .args(["--listen", "127.0.0.1:0", "--workers", &workers.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        let log = stderr.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 {
                if let Some(rest) = line.split(" at http://").nth(1) {
                    let addr = rest.split('/').next().unwrap_or("").to_string();
                    let _ = tx.send(format!("http://{addr}"));
                }
                log.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let url = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => url,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server did not start: {}", stderr.lock().unwrap());
            }
        };
        Server { child, url, stderr }
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// SIGTERM, and the exit status.
    pub fn stop(mut self) -> std::process::ExitStatus {
        let stderr = self.stderr.clone();
        terminate(&mut self.child, "the server", || {
            stderr.lock().unwrap().clone()
        })
    }

    /// SIGKILL.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
pub struct Answer {
    pub status: u16,
    pub body: String,
    pub set_cookies: Vec<String>,
    pub headers: ureq::http::HeaderMap,
}

impl Answer {
    /// A header's value, if it has one.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// How a request authenticates.
#[derive(Clone, Copy)]
pub enum Who<'a> {
    Nobody,
    Token(&'a str),
    Cookie(&'a str),
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

fn answer(response: ureq::http::Response<ureq::Body>) -> Answer {
    let status = response.status().as_u16();
    let set_cookies = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    let headers = response.headers().clone();
    let mut body = String::new();
    response
        .into_body()
        .as_reader()
        .read_to_string(&mut body)
        .unwrap();
    Answer {
        status,
        body,
        set_cookies,
        headers,
    }
}

pub fn get(url: &str, who: Who) -> Answer {
    get_with(url, who, &[])
}

/// GETs with extra headers.
pub fn get_with(url: &str, who: Who, headers: &[(&str, &str)]) -> Answer {
    let mut req = agent().get(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = match who {
        Who::Nobody => req,
        Who::Token(t) => req.header("Authorization", &format!("Bearer {t}")),
        Who::Cookie(c) => req.header("Cookie", c),
    };
    answer(req.call().unwrap())
}

/// POSTs a body with its content type.
pub fn post(url: &str, who: Who, content_type: &str, body: &[u8]) -> Answer {
    post_with(url, who, &[], content_type, body)
}

/// POSTs with extra headers.
pub fn post_with(
    url: &str,
    who: Who,
    headers: &[(&str, &str)],
    content_type: &str,
    body: &[u8],
) -> Answer {
    let mut req = agent().post(url).header("Content-Type", content_type);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = match who {
        Who::Nobody => req,
        Who::Token(t) => req.header("Authorization", &format!("Bearer {t}")),
        Who::Cookie(c) => req.header("Cookie", c),
    };
    answer(req.send(body).unwrap())
}

/// Any request: `method` with exactly `headers` (no content type unless given) and `body`.
pub fn send(method: &str, url: &str, who: Who, headers: &[(&str, &str)], body: &[u8]) -> Answer {
    let mut req = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req = match who {
        Who::Nobody => req,
        Who::Token(t) => req.header("Authorization", format!("Bearer {t}")),
        Who::Cookie(c) => req.header("Cookie", c),
    };
    let response = if body.is_empty() {
        agent().run(req.body(()).unwrap())
    } else {
        agent().run(req.body(body.to_vec()).unwrap())
    };
    answer(response.unwrap())
}

/// A multipart body: (content type, bytes) of `fields` (name, file name, bytes).
pub fn multipart(fields: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "xXrollarenaTestBoundaryXx";
    let mut body = Vec::new();
    for (name, file, bytes) in fields {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match file {
            Some(f) => body.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\n\
                     Content-Type: application/octet-stream\r\n\r\n"
                )
                .as_bytes(),
            ),
            None => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            ),
        }
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Logs in through the form as a browser does; returns the session's `Cookie` header value.
pub fn login(url: &str, token: &str) -> String {
    let form = get(&format!("{url}/login"), Who::Nobody);
    assert_eq!(form.status, 200);
    let csrf_cookie = form
        .set_cookies
        .iter()
        .find(|c| c.starts_with("rollarena_login_csrf="))
        .expect("the login form sets its CSRF cookie");
    let value = csrf_cookie
        .split(';')
        .next()
        .unwrap()
        .split_once('=')
        .unwrap()
        .1
        .to_string();
    assert!(form.body.contains(&value), "the form holds the CSRF value");
    let answer = post(
        &format!("{url}/login"),
        Who::Cookie(&format!("rollarena_login_csrf={value}")),
        "application/x-www-form-urlencoded",
        format!("csrf={value}&token={token}").as_bytes(),
    );
    assert_eq!(answer.status, 303, "login: {}", answer.body);
    let session = answer
        .set_cookies
        .iter()
        .find(|c| c.starts_with("rollarena_session=") && !c.starts_with("rollarena_session=;"))
        .expect("a session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict"),
        "{session}"
    );
    session.split(';').next().unwrap().to_string()
}

/// `rollarena submit` (its exit code, stdout and stderr).
pub fn submit(server: &Server, token: &str, path: &Path, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(rollarena())
        .arg("submit")
        .args(["--server", &server.url, "--token", token])
        .args(extra)
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The version id `submit` printed.
pub fn version_id(stdout: &str) -> i64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("version "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no version id in {stdout:?}"))
}

/// Waits (up to `limit`) until `done` holds: the arena suite's.
pub use crate::arena::wait_for;

/// A kit's directory under `examples/`.
pub fn kit(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

/// Processes running as a uid in `ranges` ("60000-60999"): (pid, uid, command).
pub fn processes_of(ranges: &[(u32, u32)]) -> Vec<(u32, u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|u| u.parse::<u32>().ok());
        if let Some(uid) = uid
            && ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&uid))
        {
            let cmd = std::fs::read_to_string(entry.path().join("cmdline"))
                .unwrap_or_default()
                .replace('\0', " ");
            found.push((pid, uid, cmd));
        }
    }
    found
}

/// Sends `child` SIGTERM and waits (up to 120 s) for its exit status; past that, fails naming
/// `what` with its stderr.
pub fn terminate(
    child: &mut std::process::Child,
    what: &str,
    stderr: impl Fn() -> String,
) -> std::process::ExitStatus {
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{what} did not stop on SIGTERM: {}",
            stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
