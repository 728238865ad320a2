//! The verifier agrees with the live arbiter on the records it wrote itself, in the two cases
//! that once split them: a seat that forfeits for refused attempts in a turn-based game (the
//! arbiter's fallback move follows the last refusal at once) and refused attempts that echo
//! `turn_id` in a match's later rounds (the numbers run on across rounds).

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use super::{lines, rollarena, text};

/// Records a match of `game` between the golden records' misbehaving bot in `mode` (`retries`:
/// every answer is `bad`; `echo`: `bad` then a legal move, both echoing `turn_id`) and the
/// built-in random bot; returns the record's path.
fn record(dir: &tempfile::TempDir, game: &str, mode: &str, bad: &str, rounds: &str) -> PathBuf {
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = dir.path().join("misbehave.py");
    std::fs::write(&bot, include_str!("../records/misbehave.py")).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let refuser = format!("/usr/bin/python3 {} {mode} {bad}", bot.display());
    let path = dir.path().join(format!("{game}-{mode}.jsonl"));
    let out = rollarena(
        &[
            "match",
            "--game",
            game,
            "--rounds",
            rounds,
            "--seed",
            "5",
            "--time",
            "20s",
            "--record",
            path.to_str().unwrap(),
            &refuser,
            "rollarena bot random",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

fn verifies(path: &std::path::Path) -> String {
    let out = rollarena(&["replay", path.to_str().unwrap(), "--verify"], None);
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn a_retries_forfeit_verifies_in_every_turn_based_game() {
    for (game, bad) in [("rolit", "a1"), ("goofspiel", "99"), ("rollerball", "99")] {
        let dir = tempfile::tempdir().unwrap();
        let path = record(&dir, game, "retries", bad, "1");
        let round = &lines(&path)[0];
        let forfeits = round["forfeits"].as_array().unwrap();
        assert!(
            forfeits.iter().any(|f| f["kind"] == "retries"),
            "{game}: {round}"
        );
        let out = verifies(&path);
        assert!(out.contains("1 forfeit"), "{game}: {out}");
    }
}

#[test]
fn refused_attempts_echoing_turn_id_verify_in_later_rounds() {
    for (game, bad) in [("rolit", "a1"), ("goofspiel", "99")] {
        let dir = tempfile::tempdir().unwrap();
        let path = record(&dir, game, "echo", bad, "3");
        let rounds = lines(&path);
        assert_eq!(rounds.len(), 3);
        // Round 2 numbers its requests on from round 1's.
        let from = rounds[1]["turn_id_from"].as_u64().unwrap();
        assert!(from > 0, "{game}: {}", rounds[1]);
        let echoed = rounds[2]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["refused"].as_array().cloned().unwrap_or_default())
            .filter(|a| a["line"].as_str().unwrap().contains("turn_id"))
            .count();
        assert!(echoed > 0, "{game}: {}", rounds[2]);
        let out = verifies(&path);
        assert!(out.contains("refused attempts re-judged"), "{game}: {out}");
        // Without the field (an older record), the numbers still run on from round 1's.
        let old: Vec<serde_json::Value> = rounds
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.as_object_mut().unwrap().remove("turn_id_from");
                r
            })
            .collect();
        let old_path = dir.path().join("old.jsonl");
        super::write_lines(&old_path, &old);
        verifies(&old_path);
        // A record that numbers round 3 on from the wrong place is refused.
        let mut wrong = rounds.clone();
        wrong[2]["turn_id_from"] = (from + 1000).into();
        let wrong_path = dir.path().join("wrong.jsonl");
        super::write_lines(&wrong_path, &wrong);
        let out = rollarena(&["replay", wrong_path.to_str().unwrap(), "--verify"], None);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
        assert!(
            text(&out.stderr).contains("turn_id"),
            "{}",
            text(&out.stderr)
        );
    }
}
