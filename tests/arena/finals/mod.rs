//! The contest's last day (issue 29, item 5), through the real binary on loopback: teams
//! submit the Python kit, the ladder plays, the organiser sets a closing time (announced on
//! the pages), closes the contest (a later submission refused over HTTP and by `submit`, the
//! pages say "closed"), re-judges matches (the ratings rebuilt from scratch equal those the
//! ladder computed match by match; a voided match changes them to the recomputed values; a
//! re-run one counts once), plays a round-robin final on the embedded workers (its standings
//! equal `rollarena merge`'s aggregation of the same records, the report served without any
//! seat's stderr), exports the arena while it runs and serves the copy with the same
//! leaderboard; and a Swiss final, decided round by round as `tournament` decides it. And, as
//! data in-process (`counting`): the final's matches claimed first and never rated, the
//! ratings rebuilt bit for bit, a voided match's ratings those of a ladder without it.
//!
//! The arenas' bots and builds run under uids of this suite (63800-63999).

mod counting;
mod last_day;
mod swiss;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::arena::web::{Arena, Server, Who, get, kit, submit, version_id, wait_for};
use crate::check::rollarena;

/// An arena of 6x6 Rolit, 2 seats and 2 rounds a match, with this suite's uids.
pub fn arena() -> Arena {
    let arena = Arena::init(&["--size", "6", "--rounds", "2"], "");
    let path = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("bot_uids = \"60000-60999\"", "bot_uids = \"63800-63899\"")
        .replace("uids = \"61000-61099\"", "uids = \"63900-63999\"");
    assert!(text.contains("63800-63899") && text.contains("63900-63999"));
    std::fs::write(&path, text).unwrap();
    arena
}

/// Teams submit the Python kit and wait for its verdict; their tokens and versions.
pub fn teams(arena: &Arena, server: &Server, names: &[&str]) -> Vec<(String, i64)> {
    names
        .iter()
        .map(|name| {
            let token = arena.team(name);
            let (code, out, err) = submit(server, &token, &kit("python"), &["--wait"]);
            assert_eq!(code, 0, "{name}: {out}\n{err}");
            (token, version_id(&out))
        })
        .collect()
}

/// `rollarena arena ARGS...` on the arena: exit code, stdout, stderr.
pub fn arena_cmd(arena: &Arena, args: &[&str]) -> (i32, String, String) {
    let (sub, rest) = args.split_first().unwrap();
    let out = Command::new(rollarena())
        .args(["arena", sub])
        .arg(arena.dir())
        .args(rest)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Closes the contest now and waits until the ladder's matches in play are over.
pub fn close(arena: &Arena) {
    let (code, _, err) = arena_cmd(arena, &["freeze", "--now"]);
    assert_eq!(code, 0, "{err}");
    wait_for("the ladder drained", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('queued', 'running')") == 0
    });
}

/// Waits until the final is published; its `/api/final`.
pub fn published(server: &Server) -> serde_json::Value {
    let mut last = serde_json::Value::Null;
    wait_for("the final published", Duration::from_secs(600), || {
        last = get(&format!("{}/api/final", server.url), Who::Nobody).json();
        !last["standings"].is_null()
    });
    last
}

/// Every version's (id, mu, sigma, rated matches, SPRT).
pub fn ratings(arena: &Arena) -> Vec<(i64, f64, f64, i64, Option<String>)> {
    arena
        .db()
        .prepare("SELECT id, mu, sigma, matches, sprt FROM versions ORDER BY id")
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The final's rounds as `DIR/final/results.jsonl` holds them.
pub fn final_rounds(dir: &Path) -> Vec<rollarena::record::RoundRecord> {
    rollarena::record::read_records(&dir.join("final").join("results.jsonl"))
        .unwrap()
        .0
}
