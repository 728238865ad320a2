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
//! it fails (README, "Development").

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{HOSTILE, lines, records, rollarena, text};

const CHROMIUM: &str = "/usr/bin/chromium";
/// How long the browser script may take before it is killed.
const LIMIT: Duration = Duration::from_secs(180);

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Whether the browser test can run here. Prints a loud SKIP when it cannot, and panics
/// instead in CI.
pub(super) fn ready() -> bool {
    let mut missing = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        missing.push(format!("{CHROMIUM} (apt-get install chromium)"));
    }
    if !browser_dir().join("node_modules/playwright-core").is_dir() {
        missing.push("tests/browser/node_modules/playwright-core (npm ci in tests/browser)".into());
    }
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !node.is_ok_and(|s| s.success()) {
        missing.push("node".into());
    }
    if missing.is_empty() {
        return true;
    }
    let what = missing.join(", ");
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("CI is set but the browser test cannot run: missing {what}; .ci/run installs them");
    }
    // Straight to the process's stderr: libtest hides what a passing test prints with
    // eprintln!, and this must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\nSKIP: the HTML viewer's browser test did not run: missing {what}.\n\
         .ci/run installs them (as root); in CI this test fails instead.\n{bar}\n",
        bar = "*".repeat(78)
    );
    false
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
            })
        })
        .collect()
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

/// Runs the browser script on the expectations, written to `path`; panics with its output on
/// failure.
pub(super) fn run_script(expect: &Value, path: &Path) {
    std::fs::write(path, serde_json::to_vec_pretty(expect).unwrap()).unwrap();
    let mut child = Command::new("node")
        .arg(browser_dir().join("viewer.mjs"))
        .arg(path)
        .current_dir(browser_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the browser script took more than {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    println!("{stdout}");
    assert!(
        status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
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
