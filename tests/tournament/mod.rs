//! Tournaments: schedules, knockout brackets, openings (random plies and from a file), the file's errors and the statistics as library calls
//! (fast, data-driven); then the real binary end to end: the next table's bots started while
//! a table ends (`ahead`), the book's round robin, a run
//! killed with SIGKILL and resumed (a table and a match going on from their last finished
//! round), four shards as separate processes merged, and the merge's
//! refusals; files the hidden cards follow from kept out of the bots' reach (`private`); a seed drawn when none is given, kept for `--resume` (`seeds`); where the bots may run, with and without `--pin` (`placement`). End-to-end runs use built-in bots on small boards and compare results with the
//! timing fields removed ([`comparable_results`], [`comparable_standings`]).

mod ahead;
mod book;
mod config;
mod knockout;
mod placement;
mod private;
mod results;
mod resume;
mod runs;
mod schedule;
mod seeds;
mod stats;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Fails with the exit code, stdout and stderr unless the run succeeded.
pub fn assert_ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the binary with arguments, returning its output.
pub fn rollarena(args: &[&str]) -> Output {
    Command::new(crate::arbiter::rollarena())
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("rollarena runs")
}

/// The rounds of an output directory in schedule order, without timing fields: wall and CPU
/// times, timestamps, stderr tails.
pub fn comparable_results(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).expect("results.jsonl");
    let mut rounds: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a whole round per line"))
        .collect();
    for r in &mut rounds {
        let o = r.as_object_mut().expect("a round is an object");
        for key in ["started", "ended", "stderr"] {
            o.remove(key);
        }
        for m in o["moves"].as_array_mut().expect("moves") {
            let m = m.as_object_mut().expect("a move");
            m.remove("ms");
            m.remove("cpu_ms");
            if let Some(refused) = m.get_mut("refused").and_then(Value::as_array_mut) {
                for a in refused {
                    a.as_object_mut().expect("an attempt").remove("ms");
                }
            }
        }
        for f in o["forfeits"].as_array_mut().expect("forfeits") {
            f.as_object_mut().expect("a forfeit").remove("stderr_tail");
        }
    }
    rounds.sort_by_key(|r| (r["table"].as_u64(), r["round"].as_u64()));
    rounds
}

/// `standings.json` without its one timing field (ms per move).
pub fn comparable_standings(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("standings.json")).expect("standings.json");
    let mut v: Value = serde_json::from_str(&text).expect("standings.json is JSON");
    for row in v["standings"].as_array_mut().expect("rows") {
        row.as_object_mut().expect("a row").remove("avg_ms");
    }
    v
}
