//! Rollerball's built-in bots as real processes: `heuristic` against `ismcts` plays a match to
//! the end and its record verifies, and the six-seat demo (both searching bots twice and two
//! `random`) plays a round to the end. Every move must be the bot's own (none by the arbiter,
//! no forfeit, no fault, no fallback to a random move), and `ismcts` must have searched.

use std::path::Path;

use serde_json::Value;

use crate::replay::{lines, rollarena, text};

/// Plays `match --record PATH ARGS...`, checks it succeeded and that `replay --verify` passes
/// the record, and returns its rounds.
fn play_and_verify(path: &Path, args: &[&str], rounds: usize) -> Vec<Value> {
    let mut argv = vec![
        "match",
        "--game",
        "rollerball",
        "--record",
        path.to_str().unwrap(),
    ];
    argv.extend_from_slice(args);
    let out = rollarena(&argv, None);
    assert!(out.status.success(), "{argv:?}: {}", text(&out.stderr));
    let verified = rollarena(&["replay", path.to_str().unwrap(), "--verify"], None);
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        text(&verified.stderr)
    );
    let said = text(&verified.stdout);
    assert!(said.contains(&format!("verified {rounds} round")), "{said}");
    let records = lines(path);
    assert_eq!(records.len(), rounds);
    records
}

/// The round ended by the rules, every move being the seat's own bot's.
fn assert_played_to_the_end(round: &Value, seats: usize) {
    assert_eq!(
        round["forfeits"],
        Value::Array(vec![]),
        "{}",
        round["forfeits"]
    );
    assert_eq!(round["faults"], Value::Array(vec![]), "{}", round["faults"]);
    let points = round["result"]["points"].as_array().expect("points");
    assert_eq!(points.len(), seats);
    let moves = round["moves"].as_array().expect("moves");
    assert!(moves.len() > 10, "{} moves", moves.len());
    assert!(moves.iter().all(|m| m["by_arbiter"] == false));
    let best = points.iter().filter_map(Value::as_u64).max().unwrap();
    let turn_limit = round["board"]["turn_limit"].as_u64().unwrap();
    let last_turn = round["board"]["turn"].as_u64().unwrap_or(turn_limit);
    assert!(
        best >= 5 || last_turn >= turn_limit,
        "nobody has 5 points before the turn limit: {points:?}, turn {last_turn}"
    );
    for log in round["logs"].as_array().expect("logs") {
        let said = log["text"].as_str().unwrap_or("");
        assert!(!said.contains("at random"), "{log}");
    }
}

/// The names the seats' bots gave in `ready`.
fn bot_names(round: &Value) -> Vec<&str> {
    round["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["bot_name"].as_str().unwrap())
        .collect()
}

/// Whether `seat`'s bot logged a search (`ismcts` logs its iterations).
fn searched(round: &Value, seat: u64) -> bool {
    round["logs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["seat"] == seat && l["text"].as_str().is_some_and(|t| t.contains("iterations")))
}

#[test]
fn heuristic_against_ismcts_plays_to_the_end_and_the_record_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.jsonl");
    let rounds = play_and_verify(
        &path,
        &[
            "--rounds",
            "2",
            "--seed",
            "4242424242424242",
            "rollarena bot heuristic",
            "rollarena bot ismcts --movetime 20",
        ],
        2,
    );
    for round in &rounds {
        assert_eq!(bot_names(round), ["heuristic", "ismcts"]);
        assert_played_to_the_end(round, 2);
        assert!(searched(round, 1), "{}", round["logs"]);
    }
}

#[test]
fn the_six_player_demo_plays_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("six.jsonl");
    let args = [
        "--players",
        "6",
        "--rounds",
        "1",
        "--seed",
        "777777777777777",
    ];
    let rounds = play_and_verify(&path, &args, 1);
    let round = &rounds[0];
    assert_eq!(
        bot_names(round),
        [
            "ismcts",
            "heuristic",
            "ismcts",
            "heuristic",
            "random",
            "random"
        ]
    );
    assert_played_to_the_end(round, 6);
    assert!(
        searched(round, 0) && searched(round, 2),
        "{}",
        round["logs"]
    );
}
