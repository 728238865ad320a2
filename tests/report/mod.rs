//! The organiser's report (`rollarena report`, written by `tournament` and `merge`): a real
//! tournament with a bot that forfeits (the replay tests' `fumbler.py`, which also writes
//! markup to its stderr and its logs) and bots with HTML-injection names, its report's files
//! and data (`files`), the live view, and the report in headless Chromium (`browser`); an
//! arena final's report, which has no tournament file and links back to the site
//! (`final_page`).

mod browser;
mod files;
mod final_page;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// The hostile names: the replay tests' own.
pub use crate::replay::HOSTILE;

/// The tournament of this test run, played once.
pub struct Played {
    _dir: tempfile::TempDir,
    /// Its output directory.
    pub out: PathBuf,
    /// The `--live` directory it was given.
    pub live: PathBuf,
    /// The bots in file order.
    pub names: Vec<String>,
}

/// The name of the bot that forfeits (it crashes at its 4th turn of every round).
pub fn quitter() -> &'static str {
    HOSTILE[0]
}

/// Runs the binary with arguments, returning its output.
pub fn rollarena(args: &[&str]) -> Output {
    Command::new(crate::arbiter::rollarena())
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("rollarena runs")
}

/// A 3-player round robin of 4 bots on 6x6, 3 rounds a table (4 tables, 12 rounds): greedy,
/// positional, the fumbler that crashes at its 4th turn under a hostile name, random under
/// another hostile name.
pub fn played() -> &'static Played {
    static PLAYED: OnceLock<Played> = OnceLock::new();
    PLAYED.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("rollarena-report-")
            .tempdir()
            .expect("a temporary directory");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let bot = dir.path().join("fumbler.py");
        std::fs::write(&bot, include_str!("../replay/fumbler.py")).unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        let names = vec![
            "greedy".to_string(),
            "positional".to_string(),
            HOSTILE[0].to_string(),
            HOSTILE[1].to_string(),
        ];
        let toml = format!(
            r#"name = "report test <b>league</b>"
game = "rolit"
players = 3
rounds = 3
seed = 11
time = "10s"
[options]
size = 6
[sandbox]
level = "none"
[[bot]]
name = {greedy:?}
command = "rollarena bot greedy"
[[bot]]
name = {positional:?}
command = "rollarena bot positional"
[[bot]]
name = {quitter:?}
command = "/usr/bin/python3 {fumbler} --quit-at 4"
[[bot]]
name = {random:?}
command = "rollarena bot random --seed 3"
"#,
            greedy = names[0],
            positional = names[1],
            quitter = names[2],
            random = names[3],
            fumbler = bot.display(),
        );
        let file = dir.path().join("league.toml");
        std::fs::write(&file, toml).unwrap();
        let out = dir.path().join("out");
        let live = dir.path().join("live");
        let run = rollarena(&[
            "tournament",
            file.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--live",
            live.to_str().unwrap(),
            "--jobs",
            "2",
        ]);
        assert!(
            run.status.success(),
            "the tournament failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        Played {
            _dir: dir,
            out,
            live,
            names,
        }
    })
}

/// The rounds of `results.jsonl`, in schedule order.
pub fn rounds(out: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let mut v: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    v.sort_by_key(|r| (r["table"].as_u64(), r["round"].as_u64()));
    v
}

/// The crosstable counted from the records: (row, column) → [ahead, level, behind, rounds],
/// by the ranks of each round.
pub fn crosstable(rounds: &[Value]) -> BTreeMap<(String, String), [u64; 4]> {
    let mut cells: BTreeMap<(String, String), [u64; 4]> = BTreeMap::new();
    for r in rounds {
        let seats = r["seats"].as_array().unwrap();
        let ranks = r["result"]["ranks"].as_array().unwrap();
        for i in 0..seats.len() {
            for j in 0..seats.len() {
                if i == j {
                    continue;
                }
                let key = (
                    seats[i]["name"].as_str().unwrap().to_string(),
                    seats[j]["name"].as_str().unwrap().to_string(),
                );
                let (a, b) = (ranks[i].as_u64().unwrap(), ranks[j].as_u64().unwrap());
                let c = cells.entry(key).or_default();
                c[if a < b {
                    0
                } else if a == b {
                    1
                } else {
                    2
                }] += 1;
                c[3] += 1;
            }
        }
    }
    cells
}

/// The data embedded in a report page.
pub fn page_data(path: &Path) -> Value {
    let html = std::fs::read_to_string(path).unwrap();
    let start = html
        .find(r#"<script type="application/json" id="report-data">"#)
        .expect("the data element")
        + r#"<script type="application/json" id="report-data">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("the page's data is JSON")
}
