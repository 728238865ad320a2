//! What the organiser hands over and what a team gets back: `arena team` gives the team its
//! instructions with the server's address and the token in ROLLARENA_TOKEN (never `--token`
//! on a command line); `arena export` writes an archive as private as the arena (0600, and
//! the `arena.db` inside it 0600); `submit --wait` on a kit with a SyntaxError prints the
//! bot's stderr that the check's hint promises.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::{Arena, Server, kit, submit};
use crate::arena::finals::arena_cmd;

/// Uids of this file's arena (bots, builds).
const UIDS: [(u32, u32); 2] = [(62600, 62649), (62650, 62699)];

#[test]
fn the_team_gets_instructions_with_the_server_and_the_token_in_a_variable() {
    let arena = Arena::init(&["--size", "6", "--rounds", "2"], "");
    let (code, out, err) = arena_cmd(
        &arena,
        &["team", "Alpha", "--server", "https://arena.example.org/"],
    );
    assert_eq!(code, 0, "{err}");
    // The token alone on stdout, for `TOKEN=$(rollarena arena team ...)`.
    let token = out.trim();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(token.starts_with("team_"), "{out}");
    assert!(
        err.contains(&format!("export ROLLARENA_TOKEN={token}\n")),
        "{err}"
    );
    assert!(
        err.contains("rollarena submit --server https://arena.example.org --wait"),
        "{err}"
    );
    assert!(
        !err.contains("--token"),
        "no token on a command line: {err}"
    );
    // Without --server: arena.toml's listen address, and how to give the real one.
    let (code, out, err) = arena_cmd(&arena, &["team", "Beta"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("export ROLLARENA_TOKEN={}", out.trim())),
        "{err}"
    );
    assert!(
        err.contains("--server http://127.0.0.1:8080 ") && err.contains("give --server URL"),
        "{err}"
    );
    // An address without its scheme is refused before the team is added.
    let (code, _, err) = arena_cmd(&arena, &["team", "Gamma", "--server", "arena.example.org"]);
    assert_eq!(code, 2);
    assert!(err.contains("with its scheme"), "{err}");
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM teams WHERE name = 'Gamma'"),
        0
    );
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn an_export_is_as_private_as_the_arena() {
    let arena = Arena::init(&["--size", "6", "--rounds", "2"], "");
    arena.team("Alpha");
    assert_eq!(mode(&arena.dir().join("arena.db")), 0o600, "the live arena");
    let out = crate::check::shared_tempdir("rollarena-export-modes-");
    let file = out.path().join("arena.tar.gz");
    let (code, _, err) = arena_cmd(&arena, &["export", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(mode(&file), 0o600, "the archive");
    // The entry's mode, as `tar xzf` restores it.
    let mut bytes = Vec::new();
    std::fs::File::open(&file)
        .unwrap()
        .read_to_end(&mut bytes)
        .unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    let mut db_mode = None;
    for entry in archive.entries().unwrap() {
        let entry = entry.unwrap();
        if entry.path().unwrap().ends_with("arena.db") {
            db_mode = Some(entry.header().mode().unwrap() & 0o7777);
        }
    }
    assert_eq!(db_mode, Some(0o600), "arena.db in the archive");
    // Unpacked by tar, the database is private again.
    let unpacked = out.path().join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    let tar = std::process::Command::new("tar")
        .arg("xzf")
        .arg(&file)
        .arg("-C")
        .arg(&unpacked)
        .output()
        .unwrap();
    assert!(
        tar.status.success(),
        "{}",
        String::from_utf8_lossy(&tar.stderr)
    );
    assert_eq!(mode(&unpacked.join("arena/arena.db")), 0o600);
}

#[test]
fn submit_wait_prints_the_stderr_of_a_kit_with_a_syntax_error() {
    let arena = Arena::init(&["--size", "6", "--rounds", "2"], "");
    arena.own_uids(UIDS[0], UIDS[1]);
    let token = arena.team("Alpha");
    // The Python kit with a SyntaxError at its top: Python says so on stderr and exits.
    let tmp = crate::check::shared_tempdir("rollarena-syntax-");
    let dir = tmp.path().join("kit");
    std::fs::create_dir(&dir).unwrap();
    for entry in std::fs::read_dir(kit("python")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let main = dir.join("bot.py");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, format!("def broken(:\n    pass\n{text}")).unwrap();
    let server = Server::start(&arena, 1);
    let (code, out, err) = submit(&server, &token, &dir, &["--wait"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("FAIL"), "{out}");
    assert!(
        out.contains("its stderr (below) usually says why"),
        "the hint that promises it: {out}"
    );
    let shown = out
        .split("its stderr")
        .nth(2)
        .unwrap_or_else(|| panic!("no stderr after the hint: {out}"));
    assert!(shown.contains("| SyntaxError"), "{out}");
    assert!(
        shown.contains("| def broken(:") || shown.contains("|     def broken(:"),
        "{out}"
    );
    assert!(server.stop().success());
}
