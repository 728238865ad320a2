//! The binary end to end: the book's round robin (`examples/tournament.toml`), SIGKILL then `--resume`, four shards as
//! separate processes then `merge`, the refusals, an SPRT that stops its event, a Swiss event.
//!
//! The resume and shard tests compare with one reference run of the same file, made once per
//! test process ([`reference`]), with the timing fields removed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::{assert_ok, comparable_results, comparable_standings, rollarena, s};

/// 6 bots, 3 per table: C(6,3) = 20 tables, repeated 3 times, 3 rounds each: 180 rounds.
const FILE: &str = r#"name = "e2e"
players = 3
rounds = 3
repeat = 3
seed = 7
opening_plies = 2
time = "10s"
[options]
size = 6
[[bot]]
name = "random-1"
command = "rollarena bot random --seed 1"
[[bot]]
name = "random-2"
command = "rollarena bot random --seed 2"
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "noisy"
command = "rollarena bot greedy --noise 0.3 --seed 3"
[[bot]]
name = "positional"
command = "rollarena bot positional"
[[bot]]
name = "positional-d2"
command = "rollarena bot positional --depth 2"
"#;
const ROUNDS: usize = 180;

/// A directory with the tournament file, for one test.
fn scratch(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("t.toml");
    std::fs::write(&file, text).expect("the file is written");
    (dir, file)
}

fn lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn assert_refused(out: &std::process::Output, expected: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "exit 2 expected; stderr: {err}");
    assert!(err.contains(expected), "expected {expected:?} in: {err}");
}

/// One uninterrupted run of [`FILE`], shared by the tests that compare with it.
fn reference() -> &'static Path {
    static REF: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, out) = REF.get_or_init(|| {
        let (dir, file) = scratch(FILE);
        let out = dir.path().join("out");
        let run = rollarena(&["tournament", s(&file), "-o", s(&out), "--jobs", "2"]);
        assert_ok(&run, "the reference run");
        assert_eq!(lines(&out), ROUNDS);
        (dir, out)
    });
    out
}

#[test]
fn readme_round_robin_runs_and_prints_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tournament.toml");
    let run = rollarena(&["tournament", s(&file), "-o", s(&out)]);
    assert_ok(&run, "examples/tournament.toml");
    let stdout = String::from_utf8_lossy(&run.stdout);
    for name in [
        "positional-d2",
        "greedy-noisy",
        "random-2",
        "avg points",
        "win %",
    ] {
        assert!(stdout.contains(name), "{name} in the table:\n{stdout}");
    }
    assert!(stdout.contains("60 rounds played"), "{stdout}");
    for f in [
        "tournament.json",
        "results.jsonl",
        "standings.json",
        "standings.csv",
    ] {
        assert!(out.join(f).is_file(), "{f} written");
    }
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "a header and six bots:\n{csv}");
    // The record verifies, openings included.
    let verify = rollarena(&["replay", "--verify", s(&out.join("results.jsonl"))]);
    assert_ok(&verify, "replay --verify");
    let first = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert!(first.contains("\"opening\":true"), "openings are recorded");
}

#[test]
fn killed_with_sigkill_then_resumed_gives_the_same_results() {
    let (dir, file) = scratch(FILE);
    let out = dir.path().join("out");
    let mut child = Command::new(crate::arbiter::rollarena())
        .args(["tournament", s(&file), "-o", s(&out), "--jobs", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill at a random moment once some rounds are in.
    let start = Instant::now();
    while lines(&out) < 3 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    std::thread::sleep(Duration::from_millis(u64::from(nanos % 600)));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept = lines(&out);
    eprintln!(
        "killed after {} ms with {kept} rounds",
        start.elapsed().as_millis()
    );
    assert!(
        kept < ROUNDS,
        "the run was killed before its end ({kept} rounds)"
    );
    // As if the kill had landed inside a write: half a line with no newline.
    let mut results = std::fs::OpenOptions::new()
        .append(true)
        .open(out.join("results.jsonl"))
        .unwrap();
    std::io::Write::write_all(&mut results, b"{\"format\":1,\"arbiter\":\"0.1.0\",\"ga").unwrap();
    drop(results);

    let again = rollarena(&["tournament", s(&file), "-o", s(&out)]);
    assert_refused(&again, "not empty");
    let resumed = rollarena(&[
        "tournament",
        s(&file),
        "-o",
        s(&out),
        "--resume",
        "--jobs",
        "2",
    ]);
    assert_ok(&resumed, "--resume");
    assert_eq!(lines(&out), ROUNDS, "every round once, the torn line cut");
    let reference = reference();
    assert!(
        comparable_results(&out) == comparable_results(reference),
        "resumed rounds differ from an uninterrupted run"
    );
    assert_eq!(comparable_standings(&out), comparable_standings(reference));

    // Another file (one comment more) is another tournament: no resume into this directory.
    std::fs::write(&file, format!("{FILE}# changed\n")).unwrap();
    let other = rollarena(&["tournament", s(&file), "-o", s(&out), "--resume"]);
    assert_refused(&other, "different file");
}

#[test]
fn four_shards_in_separate_processes_merge_into_one_run() {
    let (dir, file) = scratch(FILE);
    let shards: Vec<PathBuf> = (1..=4).map(|i| dir.path().join(format!("s{i}"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(i, d)| {
            Command::new(crate::arbiter::rollarena())
                .args(["tournament", s(&file), "-o", s(d), "--jobs", "1"])
                .arg(format!("--shard={}/4", i + 1))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_ok(&out, "a shard");
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["merge", "-o", s(&merged)];
    args.extend(shards.iter().map(|d| s(d)));
    assert_ok(&rollarena(&args), "merge");
    let reference = reference();
    assert!(
        comparable_results(&merged) == comparable_results(reference),
        "merged rounds differ from a single run"
    );
    assert_eq!(
        comparable_standings(&merged),
        comparable_standings(reference)
    );

    // Refusals: a missing shard, an unfinished shard, another tournament's shard.
    let missing = rollarena(&[
        "merge",
        "-o",
        s(&dir.path().join("m2")),
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
    ]);
    assert_refused(&missing, "4/4 is missing");
    let cut = dir.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    for f in ["tournament.json", "results.jsonl"] {
        std::fs::copy(shards[1].join(f), cut.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(cut.join("results.jsonl")).unwrap();
    let half: Vec<&str> = text.lines().take(text.lines().count() / 2).collect();
    std::fs::write(cut.join("results.jsonl"), half.join("\n") + "\n").unwrap();
    let unfinished = rollarena(&[
        "merge",
        "-o",
        s(&dir.path().join("m3")),
        s(&shards[0]),
        s(&cut),
        s(&shards[2]),
        s(&shards[3]),
    ]);
    assert_refused(&unfinished, "is incomplete");
    let other = dir.path().join("other");
    let tiny = rollarena(&[
        "tournament",
        s(&file),
        "-o",
        s(&other),
        "--shard",
        "4/4",
        "--seed",
        "8",
        "--repeat",
        "1",
        "--rounds",
        "3",
    ]);
    assert_ok(&tiny, "another tournament's shard");
    let mixed = rollarena(&[
        "merge",
        "-o",
        s(&dir.path().join("m4")),
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
        s(&other),
    ]);
    assert_refused(&mixed, "different tournaments");
}

#[test]
fn an_sprt_stops_its_event_when_it_decides() {
    let (dir, file) = scratch(
        r#"name = "sprt"
players = 2
rounds = 2
repeat = 60
seed = 3
opening_plies = 1
time = "10s"
[options]
size = 4
[[bot]]
name = "positional"
command = "rollarena bot positional --depth 2"
[[bot]]
name = "random"
command = "rollarena bot random"
"#,
    );
    let out = dir.path().join("out");
    let run = rollarena(&[
        "tournament",
        s(&file),
        "-o",
        s(&out),
        "--sprt",
        "0,300,0.05,0.05",
        "--sprt-model",
        "logistic",
        "--jobs",
        "1",
    ]);
    assert_ok(&run, "the SPRT event");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    let sprt = &v["sprt"];
    assert_eq!(sprt["verdict"], "h1", "{sprt}");
    let decided = sprt["decided_after"].as_u64().unwrap();
    assert!(
        v["tables_played"].as_u64().unwrap() < 60,
        "stopped early: {v}"
    );
    assert!(v["rounds_played"].as_u64().unwrap() >= decided);
    assert!(!v["head_to_head"].as_array().unwrap().is_empty());
    assert!(v["standings"][0]["elo"]["los"].as_f64().unwrap() > 0.9);
    let shard = rollarena(&[
        "tournament",
        s(&file),
        "-o",
        s(&dir.path().join("x")),
        "--sprt",
        "0,5,0.05,0.05",
        "--shard",
        "1/2",
    ]);
    assert_refused(&shard, "cannot be sharded");
}

#[test]
fn swiss_pairs_round_by_round_without_rematches() {
    let (dir, file) = scratch(
        r#"name = "swiss"
schedule = "swiss"
swiss_rounds = 3
players = 2
rounds = 2
seed = 5
time = "10s"
[options]
size = 4
[[bot]]
name = "a"
command = "rollarena bot random --seed 1"
[[bot]]
name = "b"
command = "rollarena bot greedy"
[[bot]]
name = "c"
command = "rollarena bot positional"
[[bot]]
name = "d"
command = "rollarena bot random --seed 2"
[[bot]]
name = "e"
command = "rollarena bot positional --depth 2"
"#,
    );
    let out = dir.path().join("out");
    assert_ok(
        &rollarena(&["tournament", s(&file), "-o", s(&out)]),
        "the Swiss event",
    );
    let rounds = comparable_results(&out);
    assert_eq!(
        rounds.len(),
        3 * 2 * 2,
        "3 Swiss rounds of 2 tables of 2 rounds"
    );
    let mut pairs = std::collections::BTreeMap::new();
    for r in &rounds {
        let mut names: Vec<String> = r["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        pairs
            .entry(names)
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(r["table"].as_u64());
    }
    assert!(
        pairs.values().all(|tables| tables.len() == 1),
        "no rematch: {pairs:?}"
    );
    let shard = rollarena(&[
        "tournament",
        s(&file),
        "-o",
        s(&dir.path().join("x")),
        "--shard",
        "1/2",
    ]);
    assert_refused(&shard, "cannot be sharded");
}
