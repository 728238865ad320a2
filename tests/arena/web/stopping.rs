//! SIGTERM stops `rollarena serve` within 5 s whatever is connected (issue 40): open
//! server-sent event streams (`/api/changes`, a match's live stream) get a last `shutdown`
//! event and are closed, an idle keep-alive connection and a request whose headers never end
//! do not hold it up, and a match in play and a build in progress are given back to the queue,
//! taken up again after the restart. Raw TCP clients on loopback, the real server, its real
//! database.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Arena, Server, kit, submit, version_id, wait_for};

/// This test's bots' and builds' uids: no other test's, so the processes counted are this
/// server's.
const BOTS: (u32, u32) = (64150, 64199);
const BUILDS: (u32, u32) = (64200, 64219);

/// A C recipe whose build takes long enough to be caught building.
const SLOW_RECIPE: &str = r#"
[[recipes]]
name = "slowc"
main = "bot.c"
extensions = []
build = "sleep 30 && gcc -O2 -o bot bot.c -lm"
run = "bot"
"#;

/// The promise: from SIGTERM to the process's exit.
const STOP_LIMIT: Duration = Duration::from_secs(5);

/// A raw HTTP client reading everything the server sends until it closes.
struct Raw {
    read: Arc<Mutex<Vec<u8>>>,
    closed: Arc<Mutex<bool>>,
}

impl Raw {
    /// Connects to `url`'s host and sends `request` as it is.
    fn open(url: &str, request: &str) -> Raw {
        let host = url.trim_start_matches("http://");
        let mut stream = TcpStream::connect(host).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let (read, closed) = (
            Arc::new(Mutex::new(Vec::new())),
            Arc::new(Mutex::new(false)),
        );
        let (r, c) = (read.clone(), closed.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => r.lock().unwrap().extend_from_slice(&buf[..n]),
                }
            }
            *c.lock().unwrap() = true;
        });
        Raw { read, closed }
    }

    /// A GET of a stream of server-sent events.
    fn events(url: &str, path: &str) -> Raw {
        Raw::open(
            url,
            &format!("GET {path} HTTP/1.1\r\nHost: arena\r\nAccept: text/event-stream\r\n\r\n"),
        )
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.read.lock().unwrap()).into_owned()
    }

    fn closed(&self) -> bool {
        *self.closed.lock().unwrap()
    }

    /// Waits until the server has sent `what`.
    fn wait_for(&self, what: &str) {
        let start = Instant::now();
        while !self.text().contains(what) {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no {what} in: {}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Sends SIGTERM and waits for the exit: (its status, how long it took). Fails past the limit.
fn terminate(server: &mut Server) -> (std::process::ExitStatus, Duration) {
    let start = Instant::now();
    unsafe { libc::kill(server.child.id() as i32, libc::SIGTERM) };
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            return (status, start.elapsed());
        }
        assert!(
            start.elapsed() < STOP_LIMIT,
            "the server still runs {} s after SIGTERM: {}",
            STOP_LIMIT.as_secs(),
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn open_streams_and_stuck_connections_do_not_hold_the_server_up() {
    let arena = Arena::init(&[], "");
    let mut server = Server::start(&arena, 0);
    // Two pages following the arena, a client that keeps its connection after a request,
    // and one whose request never ends.
    let changes = [
        Raw::events(&server.url, "/api/changes"),
        Raw::events(&server.url, "/api/changes"),
    ];
    let idle = Raw::open(
        &server.url,
        "GET /api/leaderboard HTTP/1.1\r\nHost: arena\r\n\r\n",
    );
    let stuck = Raw::open(&server.url, "GET /api/leaderboard HTTP/1.1\r\nHost: ar");
    for c in &changes {
        c.wait_for("text/event-stream");
    }
    idle.wait_for("\"rows\"");

    let (status, took) = terminate(&mut server);
    assert!(status.success(), "{status}: {}", server.stderr());
    eprintln!("stopped in {} ms with two streams open", took.as_millis());
    for c in &changes {
        wait_for("the stream closed", Duration::from_secs(5), || c.closed());
        let text = c.text();
        assert!(
            text.contains("event: shutdown\ndata: {\"error\":\"the server is stopping"),
            "the last event: {text}"
        );
    }
    wait_for("every connection closed", Duration::from_secs(5), || {
        idle.closed() && stuck.closed()
    });
    let log = server.stderr();
    assert!(log.contains("rollarena: stopped"), "{log}");
    assert!(!log.contains("exiting now"), "no forced exit: {log}");
}

/// Goofspiel's built-in bots as anchors, in matches long enough to be caught in play, and a
/// slow recipe.
fn long_matches() -> Arena {
    let arena = Arena::init_game(
        "goofspiel",
        &[
            "--anchor",
            "random",
            "--anchor",
            "heuristic",
            "--rounds",
            "4000",
        ],
        SLOW_RECIPE,
    );
    arena.own_uids(BOTS, BUILDS);
    arena
}

#[test]
fn a_match_in_play_and_a_build_are_queued_again_and_taken_up_after_the_restart() {
    let arena = long_matches();
    let token = arena.team("builder");
    let mut server = Server::start(&arena, 1);
    let (code, out, err) = submit(&server, &token, &kit("c"), &["--language", "slowc"]);
    assert_eq!(code, 0, "{out}{err}");
    let building = version_id(&out);
    let state_of = |v: i64| -> String {
        arena
            .db()
            .query_row("SELECT state FROM versions WHERE id = ?1", [v], |r| {
                r.get(0)
            })
            .unwrap()
    };
    wait_for(
        "a match in play and a build",
        Duration::from_secs(60),
        || {
            arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'") == 1
                && state_of(building) == "building"
        },
    );
    let id = arena.ids("SELECT id FROM matches WHERE state = 'running'")[0];
    let attempts = arena.count(&format!("SELECT attempts FROM matches WHERE id = {id}"));
    // Its page's live stream, with moves in it (204 until its first message).
    let path = format!("/api/matches/{id}/live");
    let mut live = Raw::events(&server.url, &path);
    wait_for("the match's stream", Duration::from_secs(60), || {
        live.wait_for("HTTP/1.1 ");
        if live.text().starts_with("HTTP/1.1 204") {
            std::thread::sleep(Duration::from_millis(200));
            live = Raw::events(&server.url, &path);
            return false;
        }
        true
    });
    live.wait_for("\"type\":\"move\"");

    let (status, took) = terminate(&mut server);
    assert!(status.success(), "{status}: {}", server.stderr());
    eprintln!("stopped in {} ms with a match in play", took.as_millis());
    wait_for("the live stream closed", Duration::from_secs(5), || {
        live.closed()
    });
    // The stream's last event is the shutdown's, unless the stream had already ended with a
    // `reload` (a reader that fell behind a fast match: the page reloads), which is a last
    // event too: either way the page is told what to do and the stream ends.
    let text = live.text();
    assert!(
        text.contains("event: shutdown\n") || text.contains("event: reload\n"),
        "{text}"
    );
    let (state, owner, now): (String, Option<String>, i64) = arena
        .db()
        .query_row(
            "SELECT state, lease_owner, attempts FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (state.as_str(), owner, now),
        ("queued", None, attempts - 1),
        "given back, the attempt not counted"
    );
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('done', 'failed')"),
        0
    );
    assert_eq!(state_of(building), "queued", "the build given back at once");
    wait_for(
        "no bot or build outliving the server",
        Duration::from_secs(10),
        || super::processes_of(&[BOTS, BUILDS]).is_empty(),
    );

    // The next start plays the match again (the oldest queued first) and builds again.
    let mut again = Server::start(&arena, 1);
    wait_for(
        "the match in play and the build again",
        Duration::from_secs(60),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM matches WHERE id = {id} AND state = 'running'"
            )) == 1
                && state_of(building) == "building"
        },
    );
    let (status, _) = terminate(&mut again);
    assert!(status.success(), "{status}: {}", again.stderr());
}
