//! The report in headless Chromium (Debian's `/usr/bin/chromium`, driven by `playwright-core`
//! from `tests/browser/report.mjs`, as the replay viewer's test does): the report of the real
//! tournament of [`super::played`], with a forfeiting bot and hostile names.
//!
//! The script checks that the standings shown are `standings.json`'s and sort on a click, that
//! every crosstable cell shows the count made here from `results.jsonl`, that the quitter's
//! page lists its forfeits with their evidence (stderr tail with markup in it, as text), that
//! the link of a forfeit's round opens the replay viewer on that round, that every round of
//! the tables page has its link, and that nothing executes (no dialog, no script error, no
//! `img` element, no request leaving the files); and that a live standings page reloads
//! itself and shows the page that replaced it. It measures each page's weight and time to
//! first paint, and saves screenshots of the front page and of the quitter's page
//! (`target/tmp/report-index.png`, `report-bot.png`; also to `$ROLLARENA_SCREENSHOT_REPORT`
//! and `$ROLLARENA_SCREENSHOT_REPORT_BOT` when set, which is how `docs/report.png` and
//! `docs/report-bot.png` are made).
//!
//! Without Chromium or playwright-core the test prints a loud SKIP, unless `CI` is set: then
//! it fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{HOSTILE, crosstable, played, quitter, rounds};

const CHROMIUM: &str = "/usr/bin/chromium";
/// How long the browser script may take before it is killed.
const LIMIT: Duration = Duration::from_secs(180);

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Whether the browser test can run here: a loud SKIP when it cannot, a failure in CI.
fn ready() -> bool {
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
        panic!("CI is set but the report's browser test cannot run: missing {what}");
    }
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\nSKIP: the report's browser test did not run: missing {what}.\n\
         .ci/run installs them (as root); in CI this test fails instead.\n{bar}\n",
        bar = "*".repeat(78)
    );
    false
}

/// Runs `report.mjs` on an expectation file; returns what it printed.
pub fn run_script(expect: &Value, path: &Path) -> String {
    std::fs::write(path, serde_json::to_vec_pretty(expect).unwrap()).unwrap();
    let mut child = Command::new("node")
        .arg(browser_dir().join("report.mjs"))
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
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
    stdout
}

#[test]
fn the_report_in_chromium() {
    if !ready() {
        return;
    }
    let p = played();
    let dir = p.out.join("report");
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(p.out.join("standings.json")).unwrap())
            .unwrap();
    let records = rounds(&p.out);
    let cells: Vec<Value> = crosstable(&records)
        .into_iter()
        .map(|((row, col), [a, t, b, n])| {
            json!({"row": row, "col": col, "ahead": a, "tied": t, "behind": b, "rounds": n})
        })
        .collect();
    let q = p.names.iter().position(|n| n == quitter()).unwrap();
    let forfeits: Vec<Value> = records
        .iter()
        .flat_map(|r| {
            let seat = r["seats"]
                .as_array()
                .unwrap()
                .iter()
                .position(|s| s["name"] == quitter());
            r["forfeits"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| seat.is_some_and(|s| f["seat"] == s))
                .map(|f| json!({"table": r["table"], "round": r["round"], "kind": f["kind"]}))
                .collect::<Vec<_>>()
        })
        .collect();
    let rows: Vec<Value> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!({"rank": r["rank"], "bot": r["bot"], "rounds": r["rounds"], "points": r["points"], "wins": r["wins"]}))
        .collect();
    // The live page, and the next version of it the script puts in its place.
    let live = p.out.with_file_name("live-browser");
    let mut s: rollarena::tournament::aggregate::Standings =
        serde_json::from_value(standings.clone()).unwrap();
    s.rounds_played = 2;
    rollarena::report::live::write(&live, &s).unwrap();
    std::fs::rename(live.join("index.html"), live.join("next.html")).unwrap();
    s.rounds_played = 1;
    rollarena::report::live::write(&live, &s).unwrap();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let shot = tmp.join("report-index.png");
    let bot_shot = tmp.join("report-bot.png");
    for s in [&shot, &bot_shot] {
        let _ = std::fs::remove_file(s);
    }
    run_script(
        &json!({
            "index": dir.join("index.html"),
            "tables": dir.join("tables.html"),
            "bot": dir.join(format!("bots/{}.html", q + 1)),
            "bot_name": quitter(),
            "hostile": HOSTILE,
            "standings": rows,
            "crosstable": cells,
            "forfeits": forfeits,
            "rounds": records.len(),
            "stderr": "giving up </pre><script>alert(4)</script>",
            "screenshot": shot,
            "bot_screenshot": bot_shot,
            "live": {"page": live.join("index.html"), "next": live.join("next.html")},
        }),
        &p.out.with_file_name("report-expect.json"),
    );
    for (png, var) in [
        (&shot, "ROLLARENA_SCREENSHOT_REPORT"),
        (&bot_shot, "ROLLARENA_SCREENSHOT_REPORT_BOT"),
    ] {
        let bytes = std::fs::read(png).expect("the screenshot was saved");
        assert!(bytes.starts_with(b"\x89PNG"));
        if let Some(copy) = std::env::var_os(var) {
            std::fs::write(&copy, &bytes).unwrap();
        }
    }
}
