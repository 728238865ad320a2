//! The viewers of the games with hidden information, Rollerball and Goofspiel, in headless
//! Chromium, with the machinery of [`super::browser`] (`tests/browser/viewer.mjs`).
//!
//! Each record is played here by `rollarena match` with the built-in random bots, two seats
//! named hostilely. For Rollerball the script checks the board against the record's end, the
//! ball phase of one turn frame by frame against its recorded step events, the victory-point
//! plot against the result, and the seat switch: a seat sees its own hand and only the sizes
//! of the others, and the other seats' bids stay sealed (move list, time plot, status) until
//! the last bid reveals them. For Goofspiel: each turn's prize and bids, sealed in a seat's
//! view until the turn's last bid. For both: the hostile names show as text, nothing runs.
//! Screenshots go to `target/tmp/replay-viewer-{rollerball,goofspiel}.png`, and to
//! `$ROLLARENA_SCREENSHOT_ROLLERBALL` / `$ROLLARENA_SCREENSHOT_GOOFSPIEL` when set (how
//! `docs/replay-rollerball.png` and `docs/replay-goofspiel.png` are made).

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::browser::{ready, run_script, viewer};
use super::rollerball::{RANDOM3, record};
use super::{HOSTILE, lines};

/// The seats' names of a record's round.
fn names(r: &Value) -> Vec<Value> {
    r["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect()
}

/// The events of a recorded move.
fn events(m: &Value) -> &[Value] {
    m["events"].as_array().map_or(&[], |e| e.as_slice())
}

/// What the script checks in a Rollerball round: its end, the ball phase of the first turn
/// whose balls only step (no push, combine or split) in both steps, its points and its bids.
fn expected_rollerball(r: &Value, view: usize) -> Value {
    let moves = r["moves"].as_array().unwrap();
    let simple = |m: &Value| {
        let es = events(m);
        let has = |k: u64| es.iter().any(|e| e["event"] == "step" && e["step"] == k);
        has(1)
            && has(2)
            && !es
                .iter()
                .any(|e| ["push", "combine", "split"].contains(&e["event"].as_str().unwrap()))
    };
    // Past the setup's card rounds, so that hands hold cards to hide.
    let phase = moves
        .iter()
        .skip(moves.len() / 3)
        .find(|m| simple(m))
        .expect("a ball phase with plain steps");
    let mut before = Map::new();
    let mut steps: Vec<Map<String, Value>> = vec![Map::new(), Map::new()];
    for e in events(phase).iter().filter(|e| e["event"] == "step") {
        let (ball, k) = (e["ball"].to_string(), e["step"].as_u64().unwrap() as usize);
        before.entry(ball.clone()).or_insert(e["from"].clone());
        steps[k - 1].insert(ball, e["to"].clone());
    }
    let steps: Vec<Value> = steps
        .into_iter()
        .enumerate()
        .map(|(k, balls)| json!({"step": k + 1, "balls": balls}))
        .collect();
    let bids: Vec<Value> = moves
        .iter()
        .filter(|m| m["move"].as_str().unwrap().starts_with("bid"))
        .map(|m| json!({"decision": m["ply"], "seat": m["seat"], "move": m["move"]}))
        .collect();
    let reveal = moves
        .iter()
        .find(|m| events(m).iter().any(|e| e["event"] == "bids"))
        .expect("the bids are revealed")["ply"]
        .clone();
    let board = &r["board"];
    let balls: Vec<String> = board["balls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| format!("{}:{}", b["id"], b["at"].as_str().unwrap()))
        .collect();
    json!({
        "rollerball": true,
        "seats": r["seats"].as_array().unwrap().len(),
        "names": names(r),
        "points": r["result"]["points"],
        "final": {"balls": balls.join(","), "cards": board["cards"].as_array().unwrap().len()},
        "phase": {"decision": phase["ply"], "before": before, "steps": steps},
        "bids": bids,
        "reveal": reveal,
        "view": view,
    })
}

/// What the script checks in a Goofspiel round: turns' prizes, bids and moves.
fn expected_goofspiel(r: &Value) -> Value {
    let mut turns = Vec::new();
    let mut made = Vec::new();
    for m in r["moves"].as_array().unwrap() {
        made.push(json!({"ply": m["ply"], "seat": m["seat"], "bid": m["move"]}));
        if m.get("bids").is_some() {
            turns.push(json!({"prize": m["prize"], "bids": m["bids"], "moves": made}));
            made = Vec::new();
        }
    }
    // The first three turns and the last: enough to see each reveal, in a fraction of the time.
    let last = turns.pop().expect("a turn");
    turns.truncate(3);
    turns.push(last);
    json!({"goofspiel": true, "names": names(r), "points": r["result"]["points"], "turns": turns})
}

#[test]
fn the_rollerball_and_goofspiel_viewers_in_chromium() {
    if !ready() {
        return;
    }
    let (rb_dir, rb) = record("rollerball", "11", &RANDOM3);
    let (gs_dir, gs) = record("goofspiel", "11", &RANDOM3);
    let rb_round = &lines(&rb)[0];
    let gs_round = &lines(&gs)[0];
    let hostile = json!({"game": 1, "names": HOSTILE});
    let mut rb_page = expected_rollerball(rb_round, 1);
    rb_page["html"] = json!(viewer(&rb, rb_dir.path().join("rollerball.html")));
    rb_page["hostile"] = hostile.clone();
    let mut gs_page = expected_goofspiel(gs_round);
    gs_page["html"] = json!(viewer(&gs, gs_dir.path().join("goofspiel.html")));
    gs_page["hostile"] = hostile;

    let shot_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    // Rollerball in the ball phase checked; Goofspiel in its second turn as the seat that
    // bids last sees it, the others' bids sealed.
    let phase = rb_page["phase"]["decision"].as_u64().unwrap();
    let second = &gs_page["turns"][1]["moves"];
    let second = second.as_array().unwrap();
    let last_bid = &second[second.len() - 1];
    let shots = [
        ("rollerball", json!({"row": phase - 1, "forward": 2})),
        (
            "goofspiel",
            json!({"ply": last_bid["ply"].as_u64().unwrap() - 1, "seat": last_bid["seat"]}),
        ),
    ]
    .map(|(game, at)| (game, shot_dir.join(format!("replay-viewer-{game}.png")), at));
    for (_, path, _) in &shots {
        let _ = std::fs::remove_file(path);
    }
    let shot_list: Vec<Value> = shots
        .iter()
        .enumerate()
        .map(|(page, (_, path, at))| {
            let mut shot = json!({"path": path, "page": page, "game": 1});
            shot.as_object_mut()
                .unwrap()
                .extend(at.as_object().unwrap().clone());
            shot
        })
        .collect();
    run_script(
        &json!({"pages": [rb_page, gs_page], "shots": shot_list}),
        &rb_dir.path().join("expect.json"),
    );
    for (game, path, _) in &shots {
        let png = std::fs::read(path).expect("the screenshot was saved");
        assert!(
            png.starts_with(b"\x89PNG"),
            "the {game} screenshot is a PNG"
        );
        let var = format!("ROLLARENA_SCREENSHOT_{}", game.to_uppercase());
        if let Some(copy) = std::env::var_os(var) {
            std::fs::write(&copy, &png).unwrap();
        }
    }
}
