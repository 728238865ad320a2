//! Rock'n'Roll Robot records in the terminal replay and the HTML viewer (without a browser):
//! snapshots of what does not depend on timing (a token's start; a solo token), and, for
//! matches where bots race, what the output must say whatever the race: every action, the
//! demonstrations with the rules' reasons, the robots where the record leaves them, the winner
//! beside the optimal length, the tokens so far.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use super::terminal::{redact, snapshot};
use super::{HOSTILE, lines, robots_records, rollarena, text, write_lines};

fn replay(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let out = rollarena(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// The robots drawn on each board of a terminal replay, in order: robot name to cell.
fn boards_drawn(out: &str) -> Vec<BTreeMap<String, String>> {
    let mut boards = Vec::new();
    let mut current = BTreeMap::new();
    let mut rows = 0;
    for line in out.lines() {
        let Some(rank) = line
            .get(..3)
            .and_then(|r| r.trim().parse::<usize>().ok())
            .filter(|r| (1..=16).contains(r))
        else {
            continue;
        };
        let line = format!("{line:69}");
        for file in 0..16 {
            let cell = &line[5 + 4 * file..8 + 4 * file];
            if let Some(letter) = cell.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
                let robot = match letter {
                    "R" => "red",
                    "G" => "green",
                    "B" => "blue",
                    "Y" => "yellow",
                    "K" => "black",
                    other => panic!("unknown robot letter {other:?} in {line:?}"),
                };
                current.insert(
                    robot.to_string(),
                    format!("{}{rank}", (b'a' + file as u8) as char),
                );
            }
        }
        rows += 1;
        if rows == 16 {
            boards.push(std::mem::take(&mut current));
            rows = 0;
        }
    }
    boards
}

/// A robots map of a record (`{"red": "a1", ...}`) as a BTreeMap.
fn robots_of(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, c)| (k.clone(), c.as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn the_start_of_a_token_as_text() {
    let r = robots_records();
    let (code, out, err) = replay(
        &[
            "replay",
            r.duel.to_str().unwrap(),
            "--round",
            "1",
            "--to",
            "0",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains('\x1b'), "no colour on a pipe");
    assert_eq!(boards_drawn(&out).len(), 1);
    snapshot("robots-duel-1-start", &redact(&out, &r.duel));
}

#[test]
fn a_solo_token_whole() {
    let r = robots_records();
    let (code, out, err) = replay(&["replay", r.solo.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    snapshot("robots-solo-1", &redact(&out, &r.solo));
}

#[test]
fn every_action_winner_and_tally_of_a_duel() {
    let r = robots_records();
    let (code, out, err) = replay(&["replay", r.duel.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let records = lines(&r.duel);
    let games: Vec<&str> = out.split("\nround ").collect();
    assert_eq!(games.len(), records.len(), "{out}");
    for (k, (rec, shown)) in records.iter().zip(&games).enumerate() {
        let moves = rec["moves"].as_array().unwrap();
        for i in 1..=moves.len() {
            assert!(
                shown.contains(&format!("action {i}/{}: seat ", moves.len())),
                "game {}: action {i}:\n{shown}",
                k + 1
            );
        }
        let state = &rec["board"];
        let token = state["token"].as_str().unwrap();
        assert!(shown.contains(&format!("token {token} (")), "{shown}");
        // The winner with its moves, its declaration and the optimal from the record.
        let win = moves
            .iter()
            .find(|m| m["kind"] == "solution" && m["ok"] == true)
            .expect("the solver wins every token");
        let n = win["move"]["moves"].as_array().unwrap().len();
        let optimal = state["optimal"]["moves"].as_u64().unwrap();
        let line = format!(
            "result: seat {}, {} wins {token} with {n} moves (declared {}; the optimal is {optimal} moves)",
            win["seat"],
            rec["seats"][win["seat"].as_u64().unwrap() as usize]["name"]
                .as_str()
                .unwrap(),
            win["declared"]
        );
        assert!(shown.contains(&line), "no {line:?} in\n{shown}");
        // The tokens so far are the record's scores.
        let scores = &rec["result"]["scores"];
        let tally = format!(
            "tokens so far: solver {}, solver strength 6 {};",
            scores["0"], scores["1"]
        );
        assert!(shown.contains(&tally), "no {tally:?} in\n{shown}");
        // Two boards: the start, and after the winning demonstration, with the robots where
        // the record leaves them.
        let boards = boards_drawn(shown);
        assert_eq!(boards.len(), 2, "game {}", k + 1);
        assert_eq!(boards[1], robots_of(&state["robots"]), "game {}", k + 1);
        if let Some(carry) = rec.get("carry") {
            assert_eq!(boards[0], robots_of(&carry["robots"]), "game {}", k + 1);
        }
        // Each move of the winning demonstration is listed.
        for (i, m) in win["move"]["moves"].as_array().unwrap().iter().enumerate() {
            let listed = format!(
                "{:>2}. {} {} from ",
                i + 1,
                m["robot"].as_str().unwrap(),
                m["dir"].as_str().unwrap()
            );
            assert!(shown.contains(&listed), "no {listed:?} in\n{shown}");
        }
    }
}

#[test]
fn failed_demonstrations_show_the_rules_reasons() {
    let r = robots_records();
    let (code, out, err) = replay(&["replay", r.faults.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains('\x1b'));
    for needle in [
        // Token 1: moves that do not reach the target.
        "fails: after the last move",
        // Token 2: moves that cannot be read.
        "sends moves that cannot be read for its declaration of 2",
        "fails: a solution is a list of moves",
        // Token 3: no answer in time.
        "sends no solution for its declaration of 2; the arbiter closes it at",
        "fails: no solution within 400 ms of the request",
        "the robots go back where they were",
        "fault: seat 0, <img src=x onerror=alert(1)> solution: failed demonstration of 2 moves",
        "log lines from the bots",
    ] {
        assert!(out.contains(needle), "no {needle:?} in\n{out}");
    }
    // The hostile name is text, shown as it is (it is not a control character).
    assert!(out.contains(&format!("seat 0  {}  (fumbler <b> 1)", HOSTILE[0])));
}

#[test]
fn paces_count_actions() {
    let r = robots_records();
    let file = r.duel.to_str().unwrap();
    let record = &lines(&r.duel)[0];
    let actions = record["moves"].as_array().unwrap().len();
    // --to N alone: the actions up to N and one board.
    let (code, out, _) = replay(&["replay", file, "--round", "1", "--to", "2"], None);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("action 2/{actions}:")), "{out}");
    assert!(
        !out.contains("action 3/") && !out.contains("result:"),
        "{out}"
    );
    assert_eq!(boards_drawn(&out).len(), 1);
    // --step: Enter once then q: the start and one action.
    let (code, out, err) = replay(&["replay", file, "--round", "1", "--step"], Some("\nq\n"));
    assert_eq!(code, 0);
    assert!(
        out.contains("action 1/") && !out.contains("action 2/"),
        "{out}"
    );
    assert!(err.contains("[Enter: next action"), "{err}");
    // --delay plays every action.
    let (code, out, _) = replay(&["replay", file, "--round", "1", "--delay", "5ms"], None);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("action {actions}/{actions}:")) && out.contains("result:"));
    // Past the last action: a usage error.
    let past = (actions + 1).to_string();
    assert_eq!(
        replay(&["replay", file, "--round", "1", "--to", &past], None).0,
        2
    );
}

#[test]
fn a_demonstration_the_rules_judge_otherwise_does_not_replay() {
    let r = robots_records();
    let mut rounds = lines(&r.duel);
    let win = rounds[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["ok"] == true)
        .unwrap();
    // Drop the winning demonstration's last move: the robot no longer reaches the target.
    rounds[0]["moves"][win]["move"]["moves"]
        .as_array_mut()
        .unwrap()
        .pop();
    let path = r.path("tampered.jsonl");
    write_lines(&path, &rounds);
    let (code, _, err) = replay(&["replay", path.to_str().unwrap(), "--round", "1"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("does not replay: round 1")
            && err.contains(
                "the record says the demonstration succeeded, but the rules say it fails"
            ),
        "{err}"
    );
    let html = r.path("tampered.html");
    let (code, _, err) = replay(
        &[
            "replay",
            path.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("does not replay"), "{err}");
}

/// The text between two markers.
fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let from = s.find(start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    let to = from + s[from..].find(end).unwrap_or_else(|| panic!("no {end}"));
    &s[from..to]
}

/// Writes the viewer of a record; returns the page and its data.
pub fn viewer(record: &Path, name: &str) -> (String, Value) {
    let out = robots_records().path(name);
    let (code, _, err) = replay(
        &[
            "replay",
            record.to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&out).unwrap();
    let data = serde_json::from_str(between(&page, r#"id="replay-data">"#, "</script>")).unwrap();
    (page, data)
}

#[test]
fn the_viewer_holds_the_board_and_every_step() {
    let r = robots_records();
    let (page, data) = viewer(&r.faults, "faults.html");
    for needle in [HOSTILE[0], "<img", "<script>alert"] {
        assert!(!page.contains(needle), "{needle} appears raw in the page");
    }
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(data["verification"]["ok"], true);
    let records = lines(&r.faults);
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), records.len());
    for (g, rec) in games.iter().zip(&records) {
        assert_eq!(g["game"], "robots");
        assert_eq!(g["seats"][0]["name"], HOSTILE[0], "names stay data");
        let board = &g["board"];
        assert_eq!(board["walls"].as_str().unwrap().len(), 256);
        assert_eq!(board["targets"].as_array().unwrap().len(), 17);
        assert_eq!(
            board["diagonals"].as_array().unwrap().len(),
            rec["board"]["board"]["diagonals"].as_array().unwrap().len()
        );
        assert_eq!(g["token"], rec["board"]["token"]);
        assert_eq!(g["target"], rec["board"]["target"]);
        let actions = g["actions"].as_array().unwrap();
        assert_eq!(actions.len(), rec["moves"].as_array().unwrap().len());
        // Steps: the start, a step per declaration or pass, one per move shown, one more per
        // failure.
        let steps = g["steps"].as_array().unwrap();
        let failed = actions.iter().filter(|a| a["ok"] == false).count();
        let declared = actions
            .iter()
            .filter(|a| a["kind"] == "declare" || a["kind"] == "pass")
            .count();
        let moved = steps.iter().filter(|s| s.get("move").is_some()).count();
        assert_eq!(steps.len(), 1 + declared + moved + failed);
        assert_eq!(
            robots_of(&steps.last().unwrap()["robots"]),
            robots_of(&rec["board"]["robots"]),
            "the last step leaves the robots where the record does"
        );
        // A failed demonstration puts the robots back.
        for s in steps
            .iter()
            .filter(|s| s["verdict"] == true && s.get("move").is_none())
        {
            assert_eq!(s["robots"], steps[0]["robots"]);
        }
        assert_eq!(g["optimal"], rec["board"]["optimal"]);
        assert_eq!(
            g["tokens_after"],
            json!([rec["result"]["scores"]["0"], rec["result"]["scores"]["1"]])
        );
    }
}
