//! A remote worker (`rollarena worker`, on loopback with `serve --workers 0`) whose seats
//! leave directory trees: a team's Python bot (the kit, with a prologue) makes a tree 3,000
//! levels deep in its `/tmp` before it plays, in its check and in every match. Its matches are
//! played and counted, none fails, the server answers, no tree is left anywhere on the
//! worker's machine (the seat's `/tmp` was its own tmpfs), and the worker stops cleanly.

use std::time::Duration;

use crate::arena::remote::{Worker, arena, python_team, register, wait_for};
use crate::arena::web::{Server, Who, get, kit};

const UIDS: [(u32, u32); 2] = [(65300, 65319), (65320, 65329)];
const W: (u32, u32) = (65330, 65349);

/// The Python kit, making a 3,000-level tree in /tmp first (mkdir and chdir; landlock, at
/// the arena's strict level, makes each step cost the kernel O(depth), so not 100,000).
fn digger() -> String {
    let source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let (head, rest) = source.split_once("\nimport ").unwrap();
    format!(
        "{head}\nimport os as _os\n_home = _os.open('.', _os.O_RDONLY)\n_os.chdir('/tmp')\n\
         _os.mkdir('zoo-deep')\n_os.chdir('zoo-deep')\nfor _ in range(3000):\n    \
         _os.mkdir('d'); _os.chdir('d')\n_os.fchdir(_home)\nimport {rest}"
    )
}

/// Whether a `zoo-deep` tree is anywhere in the first three levels under `dir`.
fn tree_under(dir: &std::path::Path, depth: usize) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            e.file_name().to_string_lossy().starts_with("zoo-deep")
                || (depth > 0
                    && e.file_type().is_ok_and(|t| t.is_dir())
                    && tree_under(&e.path(), depth - 1))
        })
}

#[test]
fn a_remote_worker_plays_on_past_seats_that_leave_deep_trees() {
    let arena = arena(UIDS, "30s", "");
    let server = Server::start(&arena, 0);
    python_team(&arena, &server, "digger", Some(&digger()));
    let token = register(&arena, "trees");
    let worker = Worker::start(&server.url, &token, W, "trees-1");
    wait_for("two matches counted", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM worker_matches") >= 2
    });
    assert_eq!(get(&server.url, Who::Nobody).status, 200);
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'failed'"),
        0
    );
    assert!(
        !tree_under(std::path::Path::new("/tmp"), 3),
        "a tree was left"
    );
    assert!(!tree_under(worker.cache.path(), 3));
    assert!(worker.stop().success());
    assert!(server.stop().success());
}
