//! A failing build fails only itself (issue 40): each build runs in a child process of the
//! server (`rollarena __build DIR ID`). The test kills that child, found by its command line
//! and its parent under /proc, as a stack overflow or an abort in it would end it: SIGSEGV,
//! then SIGKILL the second time. The server answers throughout, builds the version once more
//! after the first crash, and marks it failed after the second ("the build crashed the
//! builder twice"). A server stopped cleanly while a version builds queues it again without
//! counting the attempt; one killed serves at once when started again (the build resumes in
//! the background), and a version found building at two starts is failed likewise.

use std::time::{Duration, Instant};

use super::{Arena, Server, Who, get, submit, version_id, wait_for};

/// A build that takes long enough to be caught running.
const SLOW: &str = r#"
[[recipes]]
name = "slowsh"
main = "bot.sh"
extensions = []
build = "sleep 120"
run = "/bin/sh bot.sh"
"#;

/// The uids of these tests' builds and bots: ranges of their own.
const UIDS: [(u32, u32); 2] = [(61100, 61199), (61200, 61299)];

/// The pid of the server's build child for `version`, if one runs.
fn build_child(server: &Server, version: i64) -> Option<i32> {
    let parent = server.child.id().to_string();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let ours = args.iter().position(|a| a == "__build").is_some_and(|i| {
            args.get(i + 2).map(String::as_str) == Some(version.to_string().as_str())
        });
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // The fourth field of stat, after the command's parenthesised name, is the parent.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1).map(str::to_string));
        if ours && ppid.as_deref() == Some(parent.as_str()) {
            return Some(pid);
        }
    }
    None
}

/// A version's state, failure and builds started.
fn version(arena: &Arena, id: i64) -> (String, Option<String>, i64) {
    arena
        .db()
        .query_row(
            "SELECT state, failure, build_attempts FROM versions WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
}

/// Waits for the `attempt`-th build of `id` to run in a child of `server`; its pid.
fn child_of_attempt(arena: &Arena, server: &Server, id: i64, attempt: i64) -> i32 {
    let started = Instant::now();
    loop {
        let (state, failure, attempts) = version(arena, id);
        let pid = build_child(server, id);
        if let Some(pid) = pid
            && state == "building"
            && attempts == attempt
        {
            return pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "build {attempt} of version {id} never ran: the version is {state} ({failure:?}, \
             {attempts} builds started); the server said:\n{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Sends `signal` to the build child `pid` until it is gone. A SIGSEGV sent by another process
/// is absorbed once by Rust's stack-overflow handler (which then restores the default action
/// and returns: a fault would happen again, a sent signal does not), so it may take two, as a
/// real fault would not.
fn kill_until_gone(pid: i32, signal: i32) {
    let cmdline = format!("/proc/{pid}/cmdline");
    let ours =
        || std::fs::read(&cmdline).is_ok_and(|c| c.split(|&b| b == 0).any(|a| a == b"__build"));
    let started = Instant::now();
    while ours() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{pid} survives"
        );
        unsafe { libc::kill(pid, signal) };
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The server answers a page and the API at once.
fn answers(server: &Server) {
    let started = Instant::now();
    assert_eq!(get(&format!("{}/", server.url), Who::Nobody).status, 200);
    assert_eq!(
        get(&format!("{}/api/leaderboard", server.url), Who::Nobody).status,
        200
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the server took {:?} to answer",
        started.elapsed()
    );
}

/// An arena with the slow recipe, its own uids, a team, and a bot file for it.
fn slow_arena() -> (Arena, String, tempfile::TempDir) {
    let arena = Arena::init(&[], SLOW);
    arena.own_uids(UIDS[0], UIDS[1]);
    let token = arena.team("crashers");
    let tmp = crate::check::shared_tempdir("rollarena-crash-");
    std::fs::write(tmp.path().join("bot.sh"), "exit 0\n").unwrap();
    (arena, token, tmp)
}

/// Submits the slow recipe's bot in `dir`; its version.
fn submit_slow(server: &Server, token: &str, dir: &std::path::Path) -> i64 {
    let (code, out, err) = submit(
        server,
        token,
        &dir.join("bot.sh"),
        &["--language", "slowsh"],
    );
    assert_eq!(code, 0, "{out}{err}");
    version_id(&out)
}

#[test]
fn a_build_that_takes_its_process_down_twice_fails_and_the_server_answers_throughout() {
    let (arena, token, tmp) = slow_arena();
    let server = Server::start(&arena, 0);
    let v = submit_slow(&server, &token, tmp.path());

    let first = child_of_attempt(&arena, &server, v, 1);
    kill_until_gone(first, libc::SIGSEGV);
    answers(&server);
    // Built once more, in a new child.
    let second = child_of_attempt(&arena, &server, v, 2);
    assert_ne!(first, second);
    assert!(
        server.stderr().contains("killed by signal 11"),
        "the server logs the first crash: {}",
        server.stderr()
    );
    answers(&server);
    kill_until_gone(second, libc::SIGKILL);
    wait_for("the version failed", Duration::from_secs(60), || {
        version(&arena, v).0 == "failed"
    });
    answers(&server);
    let (_, failure, attempts) = version(&arena, v);
    let failure = failure.unwrap();
    assert!(
        failure.starts_with("the build crashed the builder twice"),
        "{failure}"
    );
    assert!(
        failure.contains("signal 9"),
        "the last crash named: {failure}"
    );
    assert_eq!(attempts, 2);
    // Never built a third time: no child comes back.
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(build_child(&server, v), None);
    assert_eq!(version(&arena, v).2, 2);
    // The team reads why through the API.
    let view = get(
        &format!("{}/api/submissions/{v}", server.url),
        Who::Token(&token),
    )
    .json();
    assert_eq!(view["state"], "failed");
    assert!(
        view["failure"]
            .as_str()
            .unwrap()
            .contains("the build crashed the builder"),
        "{view}"
    );
    assert!(
        server.stop().success(),
        "the server stops cleanly after its builds crashed"
    );
}

#[test]
fn a_restart_with_a_version_left_building_serves_at_once() {
    let (arena, token, tmp) = slow_arena();
    let server = Server::start(&arena, 0);
    let v = submit_slow(&server, &token, tmp.path());
    let pid = child_of_attempt(&arena, &server, v, 1);
    // A clean stop is no crash: the build is killed and queued again, its attempt not counted.
    assert!(server.stop().success());
    assert_eq!(version(&arena, v), ("queued".into(), None, 0));
    assert!(!std::path::Path::new(&format!("/proc/{pid}/cmdline")).exists());

    let server = Server::start(&arena, 0);
    answers(&server);
    child_of_attempt(&arena, &server, v, 1);
    server.kill();

    // Started again: it serves at once, and the build runs again in the background.
    let started = Instant::now();
    let server = Server::start(&arena, 0);
    answers(&server);
    let serving = started.elapsed();
    eprintln!("restart with a version left building: serving after {serving:?}");
    assert!(serving < Duration::from_secs(20), "{serving:?}");
    child_of_attempt(&arena, &server, v, 2);
    server.kill();

    // Found building at a second start: that build took the server down twice.
    let server = Server::start(&arena, 0);
    answers(&server);
    let (state, failure, attempts) = version(&arena, v);
    assert_eq!(state, "failed");
    assert_eq!(attempts, 2);
    let failure = failure.unwrap();
    assert!(
        failure.starts_with("the build crashed the builder twice"),
        "{failure}"
    );
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(build_child(&server, v), None, "never built a third time");
    assert!(server.stop().success());
}
