//! With `--start-ahead`, a table slot starts its next table's bots while the current table
//! ends: with real bots (Python, sandboxed), the next table's bots get their `hello` before the table before them
//! has played its last round, start on their own clocks (a start-up longer than a move's time
//! costs nothing), and hear nothing of the table before; and a tournament killed by SIGKILL
//! while those bots are starting leaves no process behind. Without it (the default), a
//! table's bots start after the table before it ended.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use super::{assert_ok, rollarena, s};
use crate::arbiter::{PYTHON, assert_no_survivors, kill_tagged, tagged_pids, unique_tag};

/// A bot that sleeps before `ready` (argument 2, seconds; only while the file `slow` exists in
/// its directory when argument 3 is `if-slow`), writes to stderr the time of its `hello` and
/// every message type it hears before its first `turn`, and plays the first legal move after
/// argument 4 seconds.
const BOT: &str = r#"import json, os, sys, time
here, pause, when, delay = sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
hello = json.loads(sys.stdin.readline())
at = time.time()
if when == "always" or os.path.exists(os.path.join(here, "slow")):
    time.sleep(pause)
print(json.dumps({"type": "ready", "name": "ahead", "version": "1"}), flush=True)
heard = ["hello"]
for line in sys.stdin:
    msg = json.loads(line)
    if heard is not None:
        heard.append(msg["type"])
    if msg["type"] == "turn":
        if heard is not None:
            sys.stderr.write(json.dumps({"hello_at": at, "seats": hello["seats"], "heard": heard}) + "\n")
            sys.stderr.flush()
            heard = None
        time.sleep(delay)
        print(json.dumps({"type": "move", "move": msg["legal"][0]}), flush=True)
    elif msg["type"] == "bye":
        break
"#;

/// A world-readable directory holding the bot, and the tournament file for it: four seats of
/// four bots, `rounds` rounds a table, two tables, the bot run with `args`.
fn setup(rounds: u32, time: &str, args: &str, tag: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("rollarena-ahead-")
        .tempdir()
        .expect("a temporary directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let bot = dir.path().join("ahead.py");
    std::fs::write(&bot, BOT).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let here = dir.path().display();
    let bots: String = (1..=4)
        .map(|i| {
            format!(
                "[[bot]]\nname = \"b{i}\"\ncommand = \"{PYTHON} {here}/ahead.py {here} {args} {tag}\"\n"
            )
        })
        .collect();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"ahead\"\nplayers = 4\nrounds = {rounds}\nrepeat = 2\nseed = 5\n\
             opening_plies = 0\ntime = \"{time}\"\nstartup = \"20s\"\n[options]\nsize = 6\n{bots}"
        ),
    )
    .unwrap();
    (dir, file)
}

fn rounds_of(out: &Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole round per line"))
        .collect()
}

fn seconds(rfc3339: &Value) -> f64 {
    let t = humantime::parse_rfc3339(rfc3339.as_str().expect("a timestamp")).unwrap();
    t.duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// Plays the tournament `file` into `out` on one slot without a report (and `extra` flags);
/// its rounds.
fn play(file: &Path, out: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec![
        "tournament",
        s(file),
        "-o",
        s(out),
        "--jobs",
        "1",
        "-q",
        "--no-report",
    ];
    args.extend_from_slice(extra);
    assert_ok(&rollarena(&args), "the tournament");
    rounds_of(out)
}

/// What `seat` wrote to stderr at its first turn of `round` (the bot's last stderr line).
fn said_at_first_turn(round: &Value, seat: usize) -> Value {
    let tail = round["stderr"][seat].as_str().expect("a stderr tail");
    serde_json::from_str(tail.lines().last().expect("a line"))
        .unwrap_or_else(|e| panic!("seat {seat} wrote {tail:?}: {e}"))
}

#[test]
fn the_next_tables_bots_start_before_a_table_ends_on_their_own_clocks() {
    // Every bot takes 1.5 s to start, three times a move's time, and 10 ms a move (rounds of
    // about 0.3 s): the slot measures the start on the first table and starts the second
    // table's bots about six rounds before the first one ends.
    let tag = unique_tag("ahead");
    let (dir, file) = setup(8, "500ms", "1.5 always 0.01", &tag);
    let rounds = play(&file, &dir.path().join("out"), &["--start-ahead"]);
    assert_eq!(rounds.len(), 16, "two tables of eight rounds");
    for r in &rounds {
        assert_eq!(
            r["forfeits"],
            Value::Array(vec![]),
            "no forfeit: a start-up of 1.5 s is on the start-up clock, not a move's (table {} round {})",
            r["table"],
            r["round"]
        );
    }
    let round = |table: u64, n: u64| {
        rounds
            .iter()
            .find(|r| r["table"] == table && r["round"] == n)
            .unwrap_or_else(|| panic!("table {table} round {n}"))
    };
    let first_of_second = round(2, 1);
    let last_of_first = round(1, 8);
    for seat in 0..4 {
        let said = said_at_first_turn(first_of_second, seat);
        let hello_at = said["hello_at"].as_f64().unwrap();
        assert!(
            hello_at < seconds(&last_of_first["started"]),
            "seat {seat} of table 2 got its hello at {hello_at}, before table 1's last round \
             started at {}",
            last_of_first["started"]
        );
        // Its own `hello` and `start`, then a `played` for every move before its first turn
        // in this round: nothing of table 1 (no `end`, no `bye`, no move of it).
        let heard: Vec<&str> = said["heard"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        let before = first_of_second["moves"]
            .as_array()
            .unwrap()
            .iter()
            .position(|m| m["seat"] == seat)
            .expect("the seat moved");
        let mut expected = vec!["hello", "start"];
        expected.extend(std::iter::repeat_n("played", before));
        expected.push("turn");
        assert_eq!(heard, expected, "what seat {seat} of table 2 heard");
        assert_eq!(said["seats"].as_array().unwrap().len(), 4);
    }
    assert_no_survivors(&tag);
}

#[test]
fn by_default_a_tables_bots_start_after_the_table_before_ends() {
    let tag = unique_tag("no-ahead");
    let (dir, file) = setup(4, "500ms", "0.3 always 0.01", &tag);
    let rounds = play(&file, &dir.path().join("out"), &[]);
    assert_eq!(rounds.len(), 8, "two tables of four rounds");
    let end_of_first = rounds
        .iter()
        .filter(|r| r["table"] == 1)
        .map(|r| seconds(&r["ended"]))
        .fold(0.0, f64::max);
    let first_of_second = rounds
        .iter()
        .find(|r| r["table"] == 2 && r["round"] == 1)
        .expect("table 2 round 1");
    for seat in 0..4 {
        let said = said_at_first_turn(first_of_second, seat);
        let hello_at = said["hello_at"].as_f64().unwrap();
        assert!(
            hello_at > end_of_first,
            "seat {seat} of table 2 got its hello at {hello_at}, after table 1 ended at \
             {end_of_first}"
        );
    }
    assert_no_survivors(&tag);
}

#[test]
fn a_tournament_killed_while_the_next_tables_bots_start_leaves_no_process() {
    // The second table's bots (started once the marker exists, which the test writes as the
    // first of table 1's rounds of about 1.6 s ends) take 60 s to start: they are still
    // starting, ahead of their table, when the arbiter is killed.
    let tag = unique_tag("ahead-kill");
    let (dir, file) = setup(4, "5s", "60 if-slow 0.05", &tag);
    let out = dir.path().join("out");
    let mut child = Command::new(crate::arbiter::rollarena())
        .args(["tournament", s(&file), "-o", s(&out), "--jobs", "1", "-q"])
        .arg("--start-ahead")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        while !done() {
            if start.elapsed() > Duration::from_secs(90) {
                kill_tagged(&tag);
                panic!("timed out waiting for {what}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_for("table 1's first round", &|| !rounds_of(&out).is_empty());
    std::fs::write(dir.path().join("slow"), "").unwrap();
    wait_for("table 1's end", &|| rounds_of(&out).len() >= 4);
    // Table 1's bots exit after `bye`; table 2's, started ahead, sleep before `ready`.
    wait_for("table 2's bots", &|| tagged_pids(&tag).len() >= 4);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(rounds_of(&out).len(), 4, "table 2 has not started a round");
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_no_survivors(&tag);
}
