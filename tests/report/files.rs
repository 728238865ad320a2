//! The report's files and the data in them, against the tournament's own files: the
//! standings are `standings.json`'s, the crosstable is the count of the records' ranks, the
//! quitter's page holds every forfeit with its evidence, every round has a link to a viewer
//! file holding that round; hostile names never appear as markup; the report is the same
//! when made again; `--live` leaves the full report; `merge` writes one; `--no-report` leaves
//! it out and says how to write it.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{crosstable, page_data, played, quitter, rollarena, rounds};

fn report(out: &Path) -> std::path::PathBuf {
    out.join("report")
}

#[test]
fn the_front_page_has_the_standings_and_the_crosstable_of_the_records() {
    let p = played();
    let data = page_data(&report(&p.out).join("index.html"));
    assert_eq!(data["kind"], "index");
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(p.out.join("standings.json")).unwrap())
            .unwrap();
    assert_eq!(data["standings"], standings);
    let names: Vec<String> = data["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, p.names);
    let want = crosstable(&rounds(&p.out));
    let mut got = BTreeMap::new();
    for (i, row) in data["crosstable"].as_array().unwrap().iter().enumerate() {
        for (j, cell) in row.as_array().unwrap().iter().enumerate() {
            if let Some(c) = cell.as_array() {
                let n: Vec<u64> = c[..3].iter().map(|x| x.as_u64().unwrap()).collect();
                got.insert(
                    (names[i].clone(), names[j].clone()),
                    [n[0], n[1], n[2], n.iter().sum()],
                );
            }
        }
    }
    assert_eq!(got, want);
    let about = &data["about"];
    assert_eq!(about["seed"], 11);
    assert!(
        about["reproduce"]
            .as_str()
            .unwrap()
            .contains("rollarena tournament")
    );
}

#[test]
fn the_quitters_page_has_every_forfeit_with_its_evidence() {
    let p = played();
    let b = p.names.iter().position(|n| n == quitter()).unwrap();
    let data = page_data(&report(&p.out).join(format!("bots/{}.html", b + 1)));
    let want: Vec<(u64, u64, String)> = rounds(&p.out)
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
                .filter(move |f| seat.is_some_and(|s| f["seat"] == s))
                .map(|f| {
                    (
                        r["table"].as_u64().unwrap(),
                        r["round"].as_u64().unwrap(),
                        f["kind"].as_str().unwrap().to_string(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!want.is_empty(), "the quitter forfeited");
    let forfeits = data["forfeits"].as_array().unwrap();
    let got: Vec<(u64, u64, String)> = forfeits
        .iter()
        .map(|f| {
            (
                f["t"].as_u64().unwrap(),
                f["r"].as_u64().unwrap(),
                f["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(got, want);
    for f in forfeits {
        assert!(
            f["stderr_tail"].as_str().unwrap().contains("giving up"),
            "{f}"
        );
        assert!(f["h"].as_str().unwrap().starts_with("replays/"));
    }
    assert!(data["timing"]["moves"].as_u64().unwrap() > 0);
    assert!(data["commands"][0].as_str().unwrap().contains("fumbler.py"));
    assert!(data["fault_kinds"]["refused"].as_u64().unwrap() > 0);
}

/// The viewer data of a replay file.
fn viewer_data(path: &Path) -> Value {
    let html = std::fs::read_to_string(path).unwrap();
    let tag = r#"<script type="application/json" id="replay-data">"#;
    let start = html.find(tag).expect("the viewer's data") + tag.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn every_round_links_to_a_viewer_that_holds_it() {
    let p = played();
    let dir = report(&p.out);
    let tables = page_data(&dir.join("tables.html"));
    let mut seen = 0;
    let mut viewers: BTreeMap<String, Value> = BTreeMap::new();
    for t in tables["tables"].as_array().unwrap() {
        for r in t["rounds"].as_array().unwrap() {
            // [round, win shares, points, forfeits, viewer file, place in it]
            let file = format!("replays/{:04}.html", r[4].as_u64().unwrap());
            let game = r[5].as_u64().unwrap() as usize;
            let v = viewers
                .entry(file.clone())
                .or_insert_with(|| viewer_data(&dir.join(&file)));
            let g = &v["games"][game - 1];
            assert_eq!(g["table"], t["t"], "{file}#game={game}");
            assert_eq!(g["round"], r[0], "{file}#game={game}");
            seen += 1;
        }
    }
    assert_eq!(seen, rounds(&p.out).len());
}

#[test]
fn hostile_names_are_never_markup_in_any_page() {
    let p = played();
    let dir = report(&p.out);
    let mut pages = vec![dir.join("index.html"), dir.join("tables.html")];
    for b in 1..=p.names.len() {
        pages.push(dir.join(format!("bots/{b}.html")));
    }
    for entry in std::fs::read_dir(dir.join("replays")).unwrap() {
        pages.push(entry.unwrap().path());
    }
    for page in pages {
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(!html.contains("<img"), "{}", page.display());
        assert!(!html.contains("<b>"), "{}", page.display());
        assert!(!html.contains("alert(2)</script>"), "{}", page.display());
        assert!(
            html.contains("Content-Security-Policy"),
            "{}",
            page.display()
        );
        assert!(html.contains("default-src 'none'"), "{}", page.display());
    }
}

#[test]
fn the_report_made_again_is_the_same_and_live_leaves_the_full_report() {
    let p = played();
    let again = p.out.with_file_name("again");
    let run = rollarena(&[
        "report",
        p.out.to_str().unwrap(),
        "--output",
        again.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("report: "));
    for page in [
        "index.html",
        "tables.html",
        "bots/3.html",
        "replays/0001.html",
    ] {
        let a = std::fs::read(report(&p.out).join(page)).unwrap();
        let b = std::fs::read(again.join(page)).unwrap();
        assert!(a == b, "{page} differs when made again");
    }
    // The live directory ends with the full report, which does not reload itself.
    let live = std::fs::read_to_string(p.live.join("index.html")).unwrap();
    assert!(!live.contains("http-equiv=\"refresh\""));
    assert_eq!(page_data(&p.live.join("index.html"))["kind"], "index");
    assert!(p.live.join("replays/0001.html").exists());
}

#[test]
fn the_live_page_reloads_itself_and_shows_the_standings() {
    let p = played();
    let text = std::fs::read_to_string(p.out.join("standings.json")).unwrap();
    let s: rollarena::tournament::aggregate::Standings = serde_json::from_str(&text).unwrap();
    let dir = p.out.with_file_name("live-unit");
    rollarena::report::live::write(&dir, &s).unwrap();
    let page = dir.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<meta http-equiv=\"refresh\" content=\"5\">"));
    let data = page_data(&page);
    assert_eq!(data["kind"], "live");
    assert_eq!(
        data["standings"],
        serde_json::from_str::<Value>(&text).unwrap()
    );
}

#[test]
fn merge_writes_the_report_of_the_merged_shards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("duel.toml");
    std::fs::write(
        &file,
        r#"name = "duel"
players = 2
rounds = 2
seed = 5
[options]
size = 4
[sandbox]
level = "none"
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "positional"
command = "rollarena bot positional"
[[bot]]
name = "random"
command = "rollarena bot random --seed 1"
"#,
    )
    .unwrap();
    let mut shards = Vec::new();
    for i in 1..=2 {
        let out = dir.path().join(format!("s{i}"));
        let run = rollarena(&[
            "tournament",
            file.to_str().unwrap(),
            "--shard",
            &format!("{i}/2"),
            "--output",
            out.to_str().unwrap(),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        shards.push(out.to_str().unwrap().to_string());
    }
    let all = dir.path().join("all");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--output", all.to_str().unwrap()]);
    let run = rollarena(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let data = page_data(&all.join("report/index.html"));
    assert_eq!(data["about"]["merged_from"].as_array().unwrap().len(), 2);
    assert_eq!(data["players"], 2);
    // Two players: the crosstable's score is the row bot's win shares against the column.
    let names = ["greedy", "positional", "random"];
    let mut want: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for r in rounds(&all) {
        let seats = r["seats"].as_array().unwrap();
        let wins = r["result"]["wins"].as_array().unwrap();
        let idx = |s: usize| names.iter().position(|n| seats[s]["name"] == *n).unwrap();
        *want.entry((idx(0), idx(1))).or_default() += wins[0].as_f64().unwrap();
        *want.entry((idx(1), idx(0))).or_default() += wins[1].as_f64().unwrap();
    }
    for ((a, b), score) in want {
        assert_eq!(data["crosstable"][a][b][3].as_f64().unwrap(), score);
    }
}

#[test]
fn a_report_made_while_a_round_is_being_written_leaves_the_file_alone() {
    let p = played();
    let copy = p.out.with_file_name("torn");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["tournament.json", "results.jsonl", "standings.json"] {
        std::fs::copy(p.out.join(f), copy.join(f)).unwrap();
    }
    // A round of a fifth table being written: half a line, no newline.
    let results = copy.join("results.jsonl");
    let mut text = std::fs::read_to_string(&results).unwrap();
    let first = text.lines().next().unwrap().to_string();
    text.push_str(&first.replace("\"table\":1", "\"table\":5")[..first.len() / 2]);
    std::fs::write(&results, &text).unwrap();
    let run = rollarena(&["report", copy.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(std::fs::read_to_string(&results).unwrap(), text);
    let tables = page_data(&copy.join("report/tables.html"));
    assert_eq!(tables["tables"].as_array().unwrap().len(), 4);
}

#[test]
fn a_report_refuses_a_damaged_middle_line_naming_it() {
    let p = played();
    let copy = p.out.with_file_name("damaged");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["tournament.json", "results.jsonl", "standings.json"] {
        std::fs::copy(p.out.join(f), copy.join(f)).unwrap();
    }
    // Line 2 cut in half, the lines after it whole: damage, not a round being written.
    let results = copy.join("results.jsonl");
    let text = std::fs::read_to_string(&results).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[1] = lines[1][..lines[1].len() / 2].to_string();
    std::fs::write(&results, lines.join("\n") + "\n").unwrap();
    let run = rollarena(&["report", copy.to_str().unwrap()]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("line 2 of") && err.contains("is damaged") && err.contains("--resume"),
        "{err}"
    );
}

#[test]
fn no_report_leaves_the_report_out_and_says_how_to_write_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small.toml");
    std::fs::write(
        &file,
        r#"name = "no report"
players = 2
rounds = 2
seed = 5
[options]
size = 6
[sandbox]
level = "none"
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "random"
command = "rollarena bot random --seed 1"
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = rollarena(&[
        "tournament",
        file.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--no-report",
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(out.join("results.jsonl").is_file() && out.join("standings.json").is_file());
    assert!(!report(&out).exists(), "--no-report wrote a report");
    assert!(
        stdout.contains("--no-report") && stdout.contains("rollarena report"),
        "the run says how to write the report: {stdout}"
    );
    let later = rollarena(&["report", out.to_str().unwrap()]);
    assert!(
        later.status.success(),
        "{}",
        String::from_utf8_lossy(&later.stderr)
    );
    assert_eq!(page_data(&report(&out).join("index.html"))["kind"], "index");
    // Refused with --live, which ends with the full report.
    let both = rollarena(&[
        "tournament",
        file.to_str().unwrap(),
        "--output",
        dir.path().join("again").to_str().unwrap(),
        "--no-report",
        "--live",
        dir.path().join("live").to_str().unwrap(),
    ]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("--live"));
}
