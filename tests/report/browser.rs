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

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{HOSTILE, crosstable, played, quitter, rounds};

/// Whether the report's browser test can run here.
fn ready() -> bool {
    crate::chromium::ready("the report's browser test")
}

/// Runs `report.mjs` on an expectation file; returns what it printed.
pub fn run_script(expect: &Value, path: &Path) -> String {
    crate::chromium::run_script("report.mjs", expect, path)
}

/// The report of a tournament of one table of three rounds: a rating plot over three rounds,
/// whose x axis once read "1 2 2 3 3".
fn small_report() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix("rollarena-report-small-")
        .tempdir()
        .expect("a temporary directory");
    let dir = tmp.path();
    let file = dir.join("small.toml");
    std::fs::write(
        &file,
        "name = \"small\"\ngame = \"rolit\"\nplayers = 3\nrounds = 3\nseed = 5\n[options]\nsize = 6\n\
         [sandbox]\nlevel = \"none\"\n[[bot]]\nname = \"greedy\"\ncommand = \"rollarena bot greedy\"\n\
         [[bot]]\nname = \"positional\"\ncommand = \"rollarena bot positional\"\n\
         [[bot]]\nname = \"random\"\ncommand = \"rollarena bot random\"\n",
    )
    .unwrap();
    let run = super::rollarena(&["tournament", file.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let index = dir.join("small-out/report/index.html");
    (tmp, index)
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
                .map(|f| {
                    // How the process ended, in the words the page must use (never raw JSON).
                    let exit = match (f["exit"]["code"].as_i64(), f["exit"]["signal"].as_i64()) {
                        (Some(code), _) => format!("exited with status {code}"),
                        (None, Some(sig)) => format!("killed by signal {sig}"),
                        _ => String::new(),
                    };
                    json!({"table": r["table"], "round": r["round"], "kind": f["kind"], "exit": exit})
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let rows: Vec<Value> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!({"rank": r["rank"], "bot": r["bot"], "rounds": r["rounds"], "points": r["points"], "wins": r["wins"],
            // As the terminal's table prints it.
            "win_pct": format!("{:.1}", r["win_pct"].as_f64().unwrap())}))
        .collect();
    // Each table's round wins per bot (a shared win counts 1/k), from the records.
    let mut results: std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>> =
        Default::default();
    for r in &records {
        let table = results.entry(r["table"].to_string()).or_default();
        let names: Vec<String> = r["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect();
        for n in &names {
            table.entry(n.clone()).or_insert(0.0);
        }
        for (name, share) in names.iter().zip(r["result"]["wins"].as_array().unwrap()) {
            *table.get_mut(name).unwrap() += share.as_f64().unwrap();
        }
    }
    // The live page, and the next version of it the script puts in its place.
    let live = p.out.with_file_name("live-browser");
    // A standings row whose win % is exactly halfway (the terminal prints 1.25 as 1.2) and
    // wins that are whole for one bot and not for another; a head-to-head result as a
    // two-player event has.
    let mut value = standings.clone();
    value["standings"][0]["win_pct"] = json!(1.25);
    value["standings"][0]["wins"] = json!(32.0);
    value["standings"][1]["wins"] = json!(13.5);
    let (a, b) = (
        value["standings"][0]["bot"].clone(),
        value["standings"][1]["bot"].clone(),
    );
    value["head_to_head"] = json!([
        {"bot": a, "opponent": b, "wins": 3, "draws": 1, "losses": 0, "elo": 0.0, "error": 0.0, "los": 0.5},
        {"bot": b, "opponent": a, "wins": 0, "draws": 1, "losses": 3, "elo": 0.0, "error": 0.0, "los": 0.5}
    ]);
    let mut s: rollarena::tournament::aggregate::Standings = serde_json::from_value(value).unwrap();
    s.rounds_played = 2;
    rollarena::report::live::write(&live, &s).unwrap();
    std::fs::rename(live.join("index.html"), live.join("next.html")).unwrap();
    s.rounds_played = 1;
    rollarena::report::live::write(&live, &s).unwrap();
    // The live page as a running tournament writes it: the results so far lack the last
    // round of the table that ended last, so that table is still playing.
    let partial = p.out.with_file_name("out-partial");
    std::fs::create_dir_all(&partial).unwrap();
    let all = std::fs::read_to_string(p.out.join("results.jsonl")).unwrap();
    let kept: Vec<&str> = all.lines().collect();
    let (last, kept) = kept.split_last().unwrap();
    std::fs::write(partial.join("results.jsonl"), kept.join("\n") + "\n").unwrap();
    let last: Value = serde_json::from_str(last).unwrap();
    let running = p.out.with_file_name("live-running");
    rollarena::report::live::write_from(&running, Some(&partial), &s).unwrap();
    let partial_cells: Vec<Value> = crosstable(&rounds(&partial))
        .into_iter()
        .map(|((row, col), [a, t, b, n])| {
            json!({"row": row, "col": col, "ahead": a, "tied": t, "behind": b, "rounds": n})
        })
        .collect();
    let small = small_report();
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
            "live": {"page": live.join("index.html"), "next": live.join("next.html"),
                "win_pct": "1.2", "wins": ["32.0", "13.5"], "pair": [a, b]},
            "results": results,
            "running": {"page": running.join("index.html"), "crosstable": partial_cells,
                "table": last["table"], "done": last["round"].as_u64().unwrap() - 1,
                "screenshot": tmp.join("report-live.png")},
            "small": small.1,
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
