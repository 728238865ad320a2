//! The HTML viewer in a real browser: headless Chromium (Debian's `/usr/bin/chromium`) driven
//! by `playwright-core` from npm (`tests/browser/viewer.mjs`), both installed by `.ci/run`.
//!
//! For every round of an 8x8 record and of a record whose seats have hostile names, the script
//! steps to the end and checks the board and scores shown against the record, checks both
//! plots, the keyboard and the slider; for every token of two Rock'n'Roll Robot records, it
//! checks the board drawn, the token, the robots at the start and the end, the winning
//! demonstration move by move (paths drawn, the robot sliding), failures and declarations; it
//! checks that the hostile names show as text and that nothing runs (no dialog, no img
//! element, no script error, no network request), and saves screenshots
//! (`target/tmp/replay-viewer.png` and `replay-viewer-robots.png`; also to
//! `$ROLLARENA_SCREENSHOT` and `$ROLLARENA_SCREENSHOT_ROBOTS` when set, which is how
//! `docs/replay.png` and `docs/replay-robots.png` are made).
//!
//! Without Chromium or playwright-core the test prints a loud SKIP, unless `CI` is set: then
//! it fails (docs/development.md).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{HOSTILE, lines, records, rollarena, text};

/// Whether the viewer's browser tests can run here (see [`crate::chromium::ready`]).
pub(super) fn ready() -> bool {
    crate::chromium::ready("the HTML viewer's browser test")
}

/// What the script checks for each round of a record: moves, final board, scores, names.
fn expected_games(record: &Path) -> Vec<Value> {
    lines(record)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let board: String = r["board"]["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row.as_str().unwrap())
                .collect();
            let names: Vec<&Value> = r["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| &s["name"])
                .collect();
            json!({
                "index": i + 1,
                "moves": r["moves"].as_array().unwrap().len(),
                "board": board,
                "scores": r["result"]["scores"],
                "names": names,
            })
        })
        .collect()
}

/// The robots as a viewer shows them in `data-robots`: "blue:d9,green:l12,...", by name.
fn robots_key(robots: &Value) -> String {
    let mut pairs: Vec<String> = robots
        .as_object()
        .unwrap()
        .iter()
        .map(|(r, c)| format!("{r}:{}", c.as_str().unwrap()))
        .collect();
    pairs.sort();
    pairs.join(",")
}

/// What the script checks for each token of a Rock'n'Roll Robot record: the board, the token,
/// where the robots start and end, the declarations, the failures, the winning moves.
fn expected_robots(record: &Path) -> Vec<Value> {
    lines(record)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let state = &r["board"];
            let moves = r["moves"].as_array().unwrap();
            let count = |kind: &str, ok: Option<bool>| {
                moves
                    .iter()
                    .filter(|m| m["kind"] == kind && ok.is_none_or(|ok| m["ok"] == ok))
                    .count()
            };
            let win = moves
                .iter()
                .find(|m| m["kind"] == "solution" && m["ok"] == true)
                .map(|m| m["move"]["moves"].clone());
            let names: Vec<&Value> = r["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| &s["name"])
                .collect();
            json!({
                "index": i + 1,
                "token": state["token"],
                "target": state["target"],
                "diagonals": state["board"]["diagonals"].as_array().unwrap().len(),
                "names": names,
                "start": r.get("carry").map(|c| robots_key(&c["robots"])),
                "start_count": state["robots"].as_object().unwrap().len(),
                "final": robots_key(&state["robots"]),
                "declarations": count("declare", None),
                "failed": count("solution", Some(false)),
                "win": win,
                "optimal": state["optimal"]["solution"],
                // The pile as the terminal replay counts it, which the viewer must say too.
                "pile": terminal_pile(record, i + 1),
            })
        })
        .collect()
}

/// "N tokens in the pile", as `rollarena replay --round N` says it of a robots token.
fn terminal_pile(record: &Path, round: usize) -> String {
    let out = rollarena(
        &[
            "replay",
            record.to_str().unwrap(),
            "--round",
            &round.to_string(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let line = shown
        .lines()
        .find(|l| l.contains("tokens so far:"))
        .unwrap_or_else(|| panic!("no tally in the replay of round {round}:\n{shown}"));
    line.rsplit("; ")
        .next()
        .expect("the pile after the tally")
        .to_string()
}

/// Writes the viewer of a record to `out`; returns its path.
pub(super) fn viewer(record: &Path, out: PathBuf) -> PathBuf {
    let run = rollarena(
        &[
            "replay",
            record.to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    out
}

/// Runs the viewer's browser script on the expectations, written to `path`; panics with its
/// output on failure.
pub(super) fn run_script(expect: &Value, path: &Path) {
    crate::chromium::run_script("viewer.mjs", expect, path);
}

#[test]
fn the_viewer_in_chromium() {
    if !ready() {
        return;
    }
    let r = records();
    let shot_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let shot = shot_dir.join("replay-viewer.png");
    let _ = std::fs::remove_file(&shot);

    let robots_shot = shot_dir.join("replay-viewer-robots.png");
    let _ = std::fs::remove_file(&robots_shot);

    // One browser session: the 8x8 record (four rounds, each stepped to its end), the record
    // with hostile seat names, and two Rock'n'Roll Robot records (a duel of solvers; a clumsy
    // bot with a hostile name failing its demonstrations against the solver); a screenshot in
    // the middle of the 8x8 round 1, and one of a robots token near its end.
    let big = viewer(&r.big, r.path("big.html"));
    let hostile = viewer(&r.hostile, r.path("hostile-browser.html"));
    let rr = super::robots_records();
    let duel = viewer(&rr.duel, r.path("robots-duel.html"));
    let faults = viewer(&rr.faults, r.path("robots-faults.html"));
    let faults_games = expected_robots(&rr.faults);
    let shot_ply = lines(&rr.faults)[0]["moves"].as_array().unwrap().len() + 6;
    run_script(
        &json!({
            "pages": [
                {"html": big, "games": expected_games(&r.big)},
                {
                    "html": hostile,
                    "games": expected_games(&r.hostile),
                    "hostile": {"game": 1, "names": HOSTILE},
                },
                {"html": duel, "robots": true, "games": expected_robots(&rr.duel)},
                {
                    "html": faults,
                    "robots": true,
                    "games": faults_games,
                    "hostile": {"game": 1, "names": [HOSTILE[0]]},
                },
            ],
            "screenshot": shot,
            "shot": {"page": 0, "game": 1, "ply": 33},
            "shots": [{"path": robots_shot, "page": 3, "game": 1, "ply": shot_ply}],
        }),
        &r.path("expect.json"),
    );
    let png = std::fs::read(&shot).expect("the screenshot was saved");
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
    if let Some(copy) = std::env::var_os("ROLLARENA_SCREENSHOT") {
        std::fs::write(&copy, &png).unwrap();
    }
    let png = std::fs::read(&robots_shot).expect("the robots screenshot was saved");
    assert!(png.starts_with(b"\x89PNG"));
    if let Some(copy) = std::env::var_os("ROLLARENA_SCREENSHOT_ROBOTS") {
        std::fs::write(&copy, &png).unwrap();
    }
}
