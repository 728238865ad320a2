//! `rollarena solve` and `rollarena analyse` (issue 44), the real binary checked against an
//! independent minimax on the naive second implementation of the rules (`tests/rolit/naive.rs`,
//! which knows nothing of bitboards or of the solver):
//!
//! - the 4x4 start solved for each first colour: the value and the best first moves;
//! - a recorded 4x4 match (`tests/data/rolit-4x4.jsonl`, `rollarena match --size 4 --rounds 2
//!   --seed 44` between `greedy` and `random`), every move's best moves, values and loss;
//! - bad input answered with what was wrong, and a round of another game refused;
//! - `robots`: a recorded Rock'n'Roll Robot match, each demonstration graded against the
//!   optimum.

mod robots;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::edges::{run_in, stderr, stdout};
use crate::rolit::naive::{Naive, name};

/// Exact values by position, from the mover's side: its final balls minus the opponent's.
#[derive(Default)]
struct Minimax(HashMap<(Vec<String>, u8), i32>);

impl Minimax {
    fn value(&mut self, pos: &Naive) -> i32 {
        let key = (pos.rows(), pos.to_move());
        if let Some(&v) = self.0.get(&key) {
            return v;
        }
        let v = if pos.is_over() {
            let counts = pos.counts();
            let me = pos.to_move() as usize;
            let you = pos.order[(pos.turn + 1) % pos.order.len()] as usize;
            counts[me] as i32 - counts[you] as i32
        } else {
            self.moves(pos).into_iter().map(|m| m.1).max().unwrap()
        };
        self.0.insert(key, v);
        v
    }

    /// Each legal move with its value for the mover.
    fn moves(&mut self, pos: &Naive) -> Vec<(String, i32)> {
        pos.legal()
            .into_iter()
            .map(|sq| {
                let mut next = pos.clone();
                next.play(sq).unwrap();
                (name(sq), -self.value(&next))
            })
            .collect()
    }

    /// The best value and the best moves, sorted by name.
    fn best(&mut self, pos: &Naive) -> (i32, Vec<String>) {
        let moves = self.moves(pos);
        let v = moves.iter().map(|m| m.1).max().unwrap();
        let mut best: Vec<String> = moves
            .into_iter()
            .filter(|m| m.1 == v)
            .map(|m| m.0)
            .collect();
        best.sort();
        (v, best)
    }
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(out), stderr(out)))
}

fn sorted(v: &Value) -> Vec<String> {
    let mut names: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn the_4x4_start_solved_for_each_first_colour() {
    let dir = tempfile::tempdir().unwrap();
    let mut minimax = Minimax::default();
    for (first, number) in [("red", 0), ("green", 2)] {
        let out = run_in(
            dir.path(),
            &[
                "solve",
                "--size",
                "4",
                "--players",
                "2",
                "--first",
                first,
                "--json",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let s = json(&out);
        let (value, best) = minimax.best(&Naive::start(4, 2, number));
        assert_eq!(s["solved"], true);
        assert_eq!(s["to_move"], first);
        assert_eq!(s["value"], value, "{s}");
        assert_eq!(sorted(&s["best"]), best, "{s}");
        assert!(s["nodes"].as_u64().unwrap() > 0);
        assert!(s["ms"].as_f64().is_some());
        assert!(s["objective"].as_str().unwrap().contains("ball difference"));
        assert_eq!(s["position"]["board"][1], ".RY.");
    }
    // The text form says the same.
    let out = run_in(dir.path(), &["solve", "--size", "4"]);
    let text = stdout(&out);
    assert!(text.contains("value: -2 for red"), "{text}");
    assert!(text.contains("best: b1 d3"), "{text}");
}

#[test]
fn every_move_of_a_recorded_4x4_match_graded_against_minimax() {
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rolit-4x4.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["analyse", record.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    let rounds = report["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2);
    let text = std::fs::read_to_string(&record).unwrap();
    let mut minimax = Minimax::default();
    let mut losses = 0;
    for (round, line) in rounds.iter().zip(text.lines()) {
        let recorded: Value = serde_json::from_str(line).unwrap();
        let moves = recorded["moves"].as_array().unwrap();
        let graded = round["moves"].as_array().unwrap();
        assert_eq!(graded.len(), moves.len());
        let first = moves[0]["colour"].as_str().unwrap();
        let first = ["red", "yellow", "green", "blue"]
            .iter()
            .position(|c| *c == first)
            .unwrap() as u8;
        let mut pos = Naive::start(4, 2, first);
        let mut within_one = [0, 0];
        for (m, g) in moves.iter().zip(graded) {
            let played = m["move"].as_str().unwrap();
            let (value, best) = minimax.best(&pos);
            let after = minimax
                .moves(&pos)
                .into_iter()
                .find(|x| x.0 == played)
                .unwrap()
                .1;
            let at = format!("round {}, move {}: {g}", round["round"], g["ply"]);
            assert_eq!(g["move"], played, "{at}");
            assert_eq!(g["seat"], m["seat"], "{at}");
            assert_eq!(g["colour"], m["colour"], "{at}");
            assert_eq!(g["exact"], true, "{at}");
            assert_eq!(g["value"], value, "{at}");
            assert_eq!(g["played"], after, "{at}");
            assert_eq!(g["loss"], value - after, "{at}");
            assert_eq!(sorted(&g["best"]), best, "{at}");
            losses += (value - after > 0) as u32;
            within_one[m["seat"].as_u64().unwrap() as usize] += (value - after <= 1) as u32;
            pos.play(crate::rolit::naive::parse(played)).unwrap();
        }
        for seat in round["seats"].as_array().unwrap() {
            let s = seat["seat"].as_u64().unwrap() as usize;
            assert_eq!(seat["within_one"], within_one[s]);
            assert_eq!(seat["moves"], 6);
        }
    }
    // The round is a real test: moves that lost balls, and moves that did not.
    assert!(losses > 4, "{losses}");
    // The table marks each seat's largest loss and gives its accuracy.
    let out = run_in(
        dir.path(),
        &["analyse", record.to_str().unwrap(), "--round", "2"],
    );
    let text = stdout(&out);
    assert!(text.contains("seat 1's largest loss"), "{text}");
    assert!(text.contains("accuracy"), "{text}");
    assert!(
        text.starts_with("round 2 (") && !text.contains("round 1 ("),
        "{text}"
    );
}

#[test]
fn bad_input_says_what_was_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str], expected: &str| {
        let out = run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    };
    refused(
        &["solve", "--size", "5"],
        "Rolit boards are 8x8, 6x6 or 4x4, not 5x5",
    );
    refused(
        &["solve", "--size", "4", "--players", "3"],
        "for 2 players only",
    );
    refused(
        &["solve", "--size", "4", "--first", "blue"],
        "blue does not play",
    );
    refused(
        &["solve", "--position", "..../.RY./.BG./...."],
        "add --to-move COLOUR",
    );
    refused(
        &[
            "solve",
            "--position",
            "..../.RX./.BG./....",
            "--to-move",
            "red",
        ],
        "'X'",
    );
    refused(&["analyse", "no-such-file.jsonl"], "no-such-file.jsonl");
    refused(
        &[
            "analyse",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/rolit-4x4.jsonl")
                .to_str()
                .unwrap(),
            "--round",
            "3",
        ],
        "the record holds 2 rounds",
    );
    // A position solved from its rows, and a budget that runs out (exit code 1).
    let out = run_in(
        dir.path(),
        &[
            "solve",
            "--position",
            "RRRR/GRRR/GGR./YBG.",
            "--to-move",
            "green",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let s = json(&out);
    let pos = Naive::from_rows(
        &["RRRR", "GRRR", "GGR.", "YBG."],
        &["red", "green"],
        "green",
    );
    let (value, best) = Minimax::default().best(&pos);
    assert_eq!(
        (s["value"].clone(), sorted(&s["best"])),
        (Value::from(value), best)
    );
    let out = run_in(
        dir.path(),
        &["solve", "--size", "8", "--nodes", "20000", "--json"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(json(&out)["solved"], false);
}

#[test]
fn rounds_of_other_games_are_refused_with_the_games_analyse_knows() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &[
            "match",
            "--game",
            "goofspiel",
            "--rounds",
            "1",
            "--record",
            "g.jsonl",
            "rollarena bot random",
            "rollarena bot random",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_in(dir.path(), &["analyse", "g.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "round 1 is a goofspiel round: analyse grades the rounds of rolit and robots only"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn report_analyse_shows_where_each_bot_lost() {
    // The report suite's tournament: 3-player 6x6 rounds, one bot crashing (its remaining
    // moves are the arbiter's and are not held against it).
    let played = crate::report::played();
    let out = tempfile::tempdir().unwrap();
    let run = crate::report::rollarena(&[
        "report",
        played.out.to_str().unwrap(),
        "--output",
        out.path().to_str().unwrap(),
        "--analyse",
        "--analyse-time",
        "10ms",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for bot in 1..=played.names.len() {
        let data = crate::report::page_data(&out.path().join(format!("bots/{bot}.html")));
        let lost = &data["lost"];
        let moves = lost["moves"].as_u64().unwrap();
        assert!(moves > 0, "bot {bot}: {lost}");
        let accuracy = lost["accuracy"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&accuracy), "{lost}");
        assert_eq!(lost["budget_ms"], 10);
        let worst = lost["worst"].as_array().unwrap();
        let losses: Vec<i64> = worst.iter().map(|w| w["loss"].as_i64().unwrap()).collect();
        assert!(losses.windows(2).all(|w| w[0] >= w[1]) && losses.iter().all(|&l| l > 0));
        assert!(
            worst
                .iter()
                .all(|w| w["h"].as_str().unwrap().starts_with("replays/"))
        );
    }
    // Without --analyse, no grading.
    let plain = crate::report::page_data(&played.out.join("report/bots/1.html"));
    assert!(plain.get("lost").is_none());
}
