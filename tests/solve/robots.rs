//! `rollarena analyse` on a Rock'n'Roll Robot record: each demonstration graded against the
//! token's optimum, every loss checked against what this test finds on its own.
//!
//! The record (`tests/data/robots-analyse.jsonl`) is a real match of four tokens:
//!
//! ```sh
//! rollarena match --game robots --seed 6 --rounds 4 --hourglass 1s --prove-time 3s \
//!   --record tests/data/robots-analyse.jsonl "/usr/bin/python3 tests/data/robots-lone.py" \
//!   "/usr/bin/python3 tests/bots/robots_zoo.py --undercut --pass 300"
//! ```
//!
//! `robots-lone.py` moves the token's robot alone, the shortest way (optimal on two tokens,
//! 5 and 4 moves too long on the others); the zoo bot declares one move fewer than it and
//! fails every demonstration (below the optimum on two tokens, above it on the others). The
//! test finds each token's optimum by a plain breadth-first search over whole positions (every
//! robot, each robot's moves counted for the bounce rule; the engine's `slide` is the only
//! thing it shares with the arbiter, and the solver nothing), plays each winning demonstration
//! itself, and derives every loss from the rules page's definition.

use std::collections::HashSet;
use std::path::Path;

use rollarena::game::robots::{Cell, Dir, Positions, Robot, Robots, slide};
use serde_json::Value;

use crate::edges::{run_in, stderr, stdout};

fn record() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robots-analyse.jsonl")
}

/// A robots move from its JSON.
fn parse(m: &Value) -> (Robot, Dir) {
    (
        m["robot"].as_str().unwrap().parse().unwrap(),
        m["dir"].as_str().unwrap().parse().unwrap(),
    )
}

/// Plays the moves; `None` when one cannot be played (the robot would not move).
fn play(
    board: &rollarena::game::robots::Board,
    start: Positions,
    moves: &[(Robot, Dir)],
) -> Option<(Positions, [u8; 5])> {
    let mut pos = start;
    let mut moved = [0u8; 5];
    for &(robot, dir) in moves {
        let from = pos.get(robot)?;
        let to = slide(board, &pos, robot, dir);
        if to == from {
            return None;
        }
        pos.set(robot, to);
        moved[robot.index()] += 1;
    }
    Some((pos, moved))
}

/// Whether the position solves the token: an accepted robot on the target having moved twice.
fn solved(pos: &Positions, moved: &[u8; 5], target: Cell, accepts: &[Robot]) -> bool {
    pos.at(target)
        .is_some_and(|r| accepts.contains(&r) && moved[r.index()] >= 2)
}

/// The fewest moves that solve the token: breadth-first over (positions, each robot's moves
/// capped at 2), up to `limit`.
fn bfs(
    board: &rollarena::game::robots::Board,
    start: Positions,
    target: Cell,
    accepts: &[Robot],
    limit: usize,
) -> usize {
    let robots: Vec<Robot> = start.iter().map(|(r, _)| r).collect();
    let mut seen = HashSet::new();
    let mut level = vec![(start, [0u8; 5])];
    seen.insert(level[0]);
    for depth in 1..=limit {
        let mut next = Vec::new();
        for (pos, moved) in &level {
            for &robot in &robots {
                for dir in [Dir::Up, Dir::Down, Dir::Left, Dir::Right] {
                    let from = pos.get(robot).unwrap();
                    let to = slide(board, pos, robot, dir);
                    if to == from {
                        continue;
                    }
                    let mut p = *pos;
                    p.set(robot, to);
                    let mut m = *moved;
                    m[robot.index()] = (m[robot.index()] + 1).min(2);
                    if solved(&p, &m, target, accepts) {
                        return depth;
                    }
                    if seen.insert((p, m)) {
                        next.push((p, m));
                    }
                }
            }
        }
        level = next;
    }
    panic!("no solution within {limit} moves");
}

/// Moves in analyse's short form: the robot's letter and the direction's.
fn short(moves: &[(Robot, Dir)]) -> String {
    let words: Vec<String> = moves
        .iter()
        .map(|(r, d)| {
            let letter = match r {
                Robot::Black => 'K',
                other => other.name().chars().next().unwrap().to_ascii_uppercase(),
            };
            format!("{letter}{}", &d.name()[..1])
        })
        .collect();
    words.join(" ")
}

#[test]
fn every_demonstration_of_a_recorded_match_graded_against_the_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &["analyse", record().to_str().unwrap(), "--json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rounds = report["rounds"].as_array().unwrap();
    let text = std::fs::read_to_string(record()).unwrap();
    assert_eq!(rounds.len(), text.lines().count());
    let (mut at_optimum, mut above, mut failed_above, mut failed_below) = (0, 0, 0, 0);
    for (round, line) in rounds.iter().zip(text.lines()) {
        let rec: Value = serde_json::from_str(line).unwrap();
        let game = Robots::from_options(&rec["options"]).unwrap();
        let board = game.board(rec["match_seed"].as_u64().unwrap());
        let start: Positions = serde_json::from_value(rec["carry"]["robots"].clone()).unwrap();
        let token = rec["board"]["token"].as_str().unwrap();
        let target: Cell = rec["board"]["target"].as_str().unwrap().parse().unwrap();
        let accepts: Vec<Robot> = match token {
            "vortex" => start.iter().map(|(r, _)| r).collect(),
            t => vec![t.split('-').next().unwrap().parse().unwrap()],
        };
        let optimum = bfs(&board, start, target, &accepts, 6);
        let solution: Vec<(Robot, Dir)> = rec["board"]["optimal"]["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(parse)
            .collect();
        let mut per_seat = [(0u64, 0u64, 0i64, 0i64); 2];
        let graded = round["moves"].as_array().unwrap();
        let demonstrations = rec["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["kind"] == "solution")
            .count();
        assert_eq!(graded.len(), demonstrations, "one grade per demonstration");
        for g in graded {
            let at = format!("round {}, action {}: {g}", round["round"], g["ply"]);
            let m = &rec["moves"][g["ply"].as_u64().unwrap() as usize - 1];
            assert_eq!(m["kind"], "solution", "{at}");
            assert_eq!(g["seat"], m["seat"], "{at}");
            let moves: Vec<(Robot, Dir)> = m["move"]["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(parse)
                .collect();
            let declared = m["declared"].as_i64().unwrap();
            let ok = play(&board, start, &moves).is_some_and(|(p, moved)| {
                moves.len() as i64 <= declared && solved(&p, &moved, target, &accepts)
            });
            // The loss as the rules page defines it.
            let opt = optimum as i64;
            let loss = if ok {
                moves.len() as i64 - opt
            } else {
                (declared + 1).max(opt + 1) - opt
            };
            assert_eq!(g["ok"], ok, "{at}");
            assert_eq!(g["move"], short(&moves), "{at}");
            assert_eq!(g["shown"], moves.len(), "{at}");
            assert_eq!(g["declared"], declared, "{at}");
            assert_eq!(g["token"], token, "{at}");
            assert_eq!(g["optimal"], optimum, "{at}");
            assert_eq!(g["value"], optimum, "{at}");
            assert_eq!(g["loss"], loss, "{at}");
            assert_eq!(g["played"], opt + loss, "{at}");
            assert_eq!(g["bid_loss"], declared - opt, "{at}");
            assert_eq!(g["exact"], true, "{at}");
            assert_eq!(g["colour"], Value::Null, "{at}");
            assert_eq!(g["best"], serde_json::json!([short(&solution)]), "{at}");
            assert_eq!(g["round"], rec["round"], "{at}");
            match (ok, loss, declared >= opt) {
                (true, 0, _) => at_optimum += 1,
                (true, _, _) => above += 1,
                (false, _, true) => failed_above += 1,
                (false, _, false) => failed_below += 1,
            }
            let s = &mut per_seat[m["seat"].as_u64().unwrap() as usize];
            s.0 += 1;
            s.1 += u64::from(loss == 0);
            s.2 = s.2.max(loss);
            s.3 += loss;
        }
        // The recorded optimum is a solution of the length found here.
        let (p, moved) = play(&board, start, &solution).expect("the optimal solution plays");
        assert!(solved(&p, &moved, target, &accepts));
        assert_eq!(solution.len(), optimum);
        for seat in round["seats"].as_array().unwrap() {
            let s = per_seat[seat["seat"].as_u64().unwrap() as usize];
            assert_eq!(seat["moves"], s.0, "{seat}");
            assert_eq!(seat["at_optimum"], s.1, "{seat}");
            assert_eq!(seat["largest_loss"], s.2, "{seat}");
            assert_eq!(seat["total_loss"], s.3, "{seat}");
            assert_eq!(seat["accuracy"], s.1 as f64 / s.0 as f64, "{seat}");
        }
    }
    // The record is a real test: every kind of demonstration.
    assert_eq!(
        (at_optimum, above, failed_above, failed_below),
        (2, 2, 2, 2),
        "demonstrations at the optimum, above it, failed bids at or above it, below it"
    );
    // The table says the same in words.
    let out = run_in(
        dir.path(),
        &["analyse", record().to_str().unwrap(), "--round", "3"],
    );
    let text = stdout(&out);
    assert!(text.contains("seat 0's largest loss"), "{text}");
    assert!(
        text.contains(
            "accuracy 0% (0 of 1 demonstrations at the optimum), largest loss 5, 5 moves lost"
        ),
        "{text}"
    );
    assert!(
        text.contains("blue-gear, declared 11, optimal 6: won"),
        "{text}"
    );
    assert!(!text.contains("colour"), "no colour column: {text}");
}
