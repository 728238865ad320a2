//! The terminal replay of real Rollerball and Goofspiel rounds, played here by `rollarena
//! match` with the built-in random bots: the board drawn, the ball phase shown step by step as
//! the recorded events move the balls, the victory points at the end equal to the result, and
//! `--seat N` hiding the other seats' hands.

use std::path::PathBuf;

use serde_json::Value;

use super::{HOSTILE, lines, rollarena, text};

/// A recorded match (a round per seat) of `game` with the given seed and bots, the first seats
/// named hostilely (one name of [`HOSTILE`] each).
pub(super) fn record(game: &str, seed: &str, bots: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{game}.jsonl"));
    let names: Vec<String> = (0..bots.len())
        .map(|i| {
            HOSTILE
                .get(i)
                .map_or_else(|| format!("bot{i}"), |h| h.to_string())
        })
        .collect();
    let names = names.join(",");
    let mut argv = vec![
        "match",
        "--game",
        game,
        "--seed",
        seed,
        "--record",
        path.to_str().unwrap(),
        "--names",
        &names,
    ];
    argv.extend_from_slice(bots);
    let out = rollarena(&argv, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    (dir, path)
}

pub(super) const RANDOM3: [&str; 3] = [
    "rollarena bot random",
    "rollarena bot random --seed 2",
    "rollarena bot random --seed 3",
];

#[test]
fn a_rollerball_round_in_the_terminal() {
    let (_dir, path) = record("rollerball", "11", &RANDOM3);
    let rec = &lines(&path)[0];
    let out = rollarena(&["replay", path.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("shown as a spectator"));
    // The board: the logo and the ranks' labels.
    assert!(shown.contains("::::::|") && shown.contains(" 8  |"));
    // The first step event recorded: the ball phase frame of that step shows the ball on the
    // square the event says it went to.
    let moves = rec["moves"].as_array().unwrap();
    let (ply, step) = moves
        .iter()
        .find_map(|m| {
            m["events"].as_array().and_then(|es| {
                es.iter()
                    .find(|e| e["event"] == "step" && e["step"] == 1)
                    .map(|e| (m["ply"].as_u64().unwrap(), e.clone()))
            })
        })
        .expect("a ball moved in the round");
    let (ball, from, to) = (
        &step["ball"],
        step["from"].as_str().unwrap(),
        step["to"].as_str().unwrap(),
    );
    assert!(
        shown.contains(&format!("step 1: ball {ball} {from} -> {to}")),
        "the event in words"
    );
    let frame = shown
        .lines()
        .find(|l| {
            l.starts_with("ball phase") && l.contains(&format!("after decision {ply}, step 1"))
        })
        .expect("a frame for step 1");
    assert!(
        frame.contains(&format!("ball {ball} on {to}"))
            || frame.contains(&format!("ball {ball}* on {to}"))
            || frame.contains(&format!("ball {ball}^ on {to}"))
            || frame.contains(&format!("ball {ball}v on {to}"))
            || frame.contains(&format!("ball {ball}*^ on {to}"))
            || frame.contains(&format!("ball {ball}*v on {to}")),
        "{frame}"
    );
    // The victory points of the last state equal the result's points.
    let points = rec["result"]["points"].as_array().unwrap();
    let tail = &shown[shown.rfind("decision ").unwrap()..];
    for (seat, colour) in ["red", "blue", "green"].iter().enumerate() {
        let line = tail
            .lines()
            .find(|l| l.trim_start().starts_with(colour) && l.contains(" vp "))
            .unwrap_or_else(|| panic!("{colour}'s line"));
        assert!(
            line.contains(&format!(" vp {} (", points[seat])),
            "{line} vs {}",
            points[seat]
        );
    }
    // The hostile name is plain text with no escape sequence.
    assert!(shown.contains(HOSTILE[0]) && !shown.contains('\u{1b}'));
}

#[test]
fn a_seat_sees_only_its_own_hand() {
    let (_dir, path) = record("rollerball", "12", &RANDOM3);
    let file = path.to_str().unwrap();
    let all = text(&rollarena(&["replay", file], None).stdout);
    let out = rollarena(&["replay", file, "--seat", "1"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let one = text(&out.stdout);
    assert!(one.contains("shown as seat 1 (blue) saw it"));
    let hands = |s: &str, colour: &str| {
        s.lines()
            .filter(|l| l.trim_start().starts_with(colour) && l.contains(", hand "))
            .filter(|l| l.contains(": "))
            .count()
    };
    assert!(hands(&all, "red") > 0 && hands(&all, "green") > 0);
    assert_eq!(hands(&one, "red"), 0, "red's cards shown to blue");
    assert_eq!(hands(&one, "green"), 0, "green's cards shown to blue");
    assert!(hands(&one, "blue") > 0);
    assert!(one.contains("bid (sealed)"));
    let bad = rollarena(&["replay", file, "--seat", "5"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("--seat 5"));
}

#[test]
fn a_goofspiel_round_in_the_terminal() {
    let (_dir, path) = record("goofspiel", "3", &RANDOM3[..2]);
    let rec = &lines(&path)[0];
    let out = rollarena(&["replay", path.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let points: Vec<Value> = rec["result"]["points"].as_array().unwrap().clone();
    assert!(
        shown.contains(&format!(
            "result: points {:?}",
            points
                .iter()
                .map(|p| p.as_u64().unwrap())
                .collect::<Vec<_>>()
        )),
        "{shown}"
    );
    assert!(shown.matches("move ").count() >= rec["moves"].as_array().unwrap().len());
}
