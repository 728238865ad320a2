//! The real server (`rollarena serve` on loopback) while a submission's build leaves a
//! directory tree 3,000 levels deep (its paths far past PATH_MAX; issue 40's server died of
//! one 15,000 deep): the version fails with the bound named, the server answers throughout and
//! after, nothing is left in its run directories, and it stops cleanly.

use std::time::{Duration, Instant};

use crate::arena::web::{Arena, Server, Who, get, submit, version_id};

#[test]
fn the_server_answers_while_and_after_a_build_leaves_a_deep_tree() {
    let arena = Arena::init(
        &[],
        r#"
[[recipes]]
name = "deep"
main = "bot.sh"
extensions = []
build = "/usr/bin/python3 -c 'import os\nfor _ in range(3000):\n    os.mkdir(\"d\"); os.chdir(\"d\")\nprint(\"deep: done\")'"
run = "/bin/sh bot.sh"
"#,
    );
    let token = arena.team("diggers");
    let server = Server::start(&arena, 0);
    let bot = arena.tmp.path().join("bot.sh");
    std::fs::write(&bot, "exit 0\n").unwrap();
    let (code, out, err) = submit(&server, &token, &bot, &["--language", "deep"]);
    assert_eq!(code, 0, "{out}{err}");
    let id = version_id(&out);
    let state = || -> (String, Option<String>) {
        arena
            .db()
            .query_row(
                "SELECT state, failure FROM versions WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap()
    };
    let started = Instant::now();
    loop {
        assert_eq!(
            get(&server.url, Who::Nobody).status,
            200,
            "the server answers"
        );
        if state().0 == "failed" {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "the build never ended: {:?}\n{}",
            state(),
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let why = state().1.unwrap();
    eprintln!(
        "deep build under serve: {why} ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
    assert!(why.contains("deeper than 128 levels"), "{why}");
    let version = arena.dir().join("versions").join(id.to_string());
    assert!(!version.join("build").exists());
    let log = std::fs::read_to_string(version.join("build.log")).unwrap();
    assert!(log.contains("deep: done"), "{log}");
    let run = arena.dir().join("run");
    crate::arena::wait_for("run/ emptied", Duration::from_secs(60), || {
        std::fs::read_dir(&run).unwrap().next().is_none()
    });
    assert_eq!(get(&server.url, Who::Nobody).status, 200);
    assert!(server.stop().success());
}
