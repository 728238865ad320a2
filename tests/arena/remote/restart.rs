//! A worker outlives its server: the server is stopped while the worker plays and started
//! again on the same address; the worker, retrying with backoff meanwhile, carries on and its
//! matches are counted by the new server, each once.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::{Worker, arena, python_team, ratings_chain, register, wait_for};
use crate::arena::web::Server;
use crate::check::rollarena;

const UIDS: [(u32, u32); 2] = [(63250, 63269), (63270, 63279)];
const W: (u32, u32) = (63280, 63299);

/// `rollarena serve` on a given address, until it says it listens.
fn serve(dir: &std::path::Path, addr: &str) -> Child {
    let mut child = Command::new(rollarena())
        .arg("serve")
        .arg(dir)
        .args(["--listen", addr, "--workers", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            panic!("serve did not start: {said}");
        }
        said.push_str(&line);
        if line.contains(" at http://") {
            break;
        }
    }
    std::thread::spawn(move || {
        let mut rest = String::new();
        while reader.read_line(&mut rest).unwrap_or(0) > 0 {
            rest.clear();
        }
    });
    child
}

fn stop(mut child: Child) {
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_worker_carries_on_across_a_server_restart() {
    let arena = arena(UIDS, "30s", "");
    let server = Server::start(&arena, 0);
    python_team(&arena, &server, "py", None);
    server.stop();
    let token = register(&arena, "survivor");
    // A free port, then the server on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let url = format!("http://{addr}");
    let first = serve(&arena.dir(), &addr);
    let worker = Worker::start(&url, &token, W, "survivor-1");
    let counted = || arena.count("SELECT COUNT(*) FROM worker_matches");
    wait_for("a match counted", Duration::from_secs(300), || {
        counted() >= 1
    });
    stop(first);
    wait_for(
        "the worker to find the server gone",
        Duration::from_secs(120),
        || worker.stderr().contains("cannot be reached"),
    );
    let before = counted();
    let second = serve(&arena.dir(), &addr);
    wait_for(
        "matches counted by the new server",
        Duration::from_secs(300),
        || counted() >= before + 3,
    );
    assert!(worker.pid() > 0);
    let still = Command::new("kill")
        .args(["-0", &worker.pid().to_string()])
        .status()
        .unwrap();
    assert!(
        still.success(),
        "the worker kept running: {}",
        worker.stderr()
    );
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM (SELECT match_id FROM worker_matches GROUP BY match_id HAVING COUNT(*) > 1)"),
        0,
        "no match counted twice"
    );
    ratings_chain(&arena);
    assert!(worker.stop().success());
    stop(second);
}
