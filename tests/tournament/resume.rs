//! Resume by round, with the real binary: a tournament table and a match killed with SIGKILL
//! in the middle go on from their last finished round (the rounds before it are kept as they
//! were written, not played again) and end as an uninterrupted run does; a Rock'n'Roll Robot
//! match, whose rounds carry state, verifies across the resume; an interrupted match prints
//! its standings so far; `--resume` refuses a record of another match. A bot added to a
//! finished round robin plays only the new pairings, every round before it kept.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{assert_ok, comparable_results, comparable_standings, rollarena, s};

/// 2 bots, 1 table of 200 rounds, twice: a kill after 20 rounds lands inside table 1.
const LONG_TABLES: &str = r#"name = "long tables"
players = 2
rounds = 200
repeat = 2
seed = 3
opening_plies = 2
[options]
size = 6
[[bot]]
name = "greedy"
command = "rollarena bot greedy --noise 0.2 --seed 4"
[[bot]]
name = "positional"
command = "rollarena bot positional"
"#;

const MATCH: [&str; 9] = [
    "match",
    "rollarena bot greedy --noise 0.2 --seed 1",
    "rollarena bot positional",
    "--size",
    "6",
    "--rounds",
    "300",
    "--time",
    "10s",
];

fn file_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Starts the binary with its output thrown away.
fn spawn(args: &[&str]) -> Child {
    Command::new(crate::arbiter::rollarena())
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("rollarena starts")
}

/// Waits until `path` holds at least `n` lines, then kills the child with `signal`.
fn kill_after(child: &mut Child, path: &Path, n: usize, signal: i32) {
    let start = Instant::now();
    while file_lines(path).len() < n {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no {n} rounds in {} after two minutes",
            path.display()
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: the pid is our own child's, not yet reaped.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// A record's rounds without their timing fields and match id.
fn comparable_record(path: &Path) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(path, dir.path().join("results.jsonl")).unwrap();
    let mut rounds = comparable_results(dir.path());
    for r in &mut rounds {
        r.as_object_mut().unwrap().remove("match");
    }
    rounds
}

#[test]
fn a_table_killed_in_its_middle_goes_on_from_its_last_finished_round() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(&file, LONG_TABLES).unwrap();
    let (out, reference) = (dir.path().join("out"), dir.path().join("ref"));
    let results = out.join("results.jsonl");
    let mut child = spawn(&["tournament", s(&file), "-o", s(&out), "--jobs", "1"]);
    kill_after(&mut child, &results, 20, libc::SIGKILL);
    child.wait().unwrap();
    let kept = file_lines(&results);
    assert!(
        kept.len() < 200,
        "the kill landed inside table 1 ({} rounds)",
        kept.len()
    );

    let resumed = rollarena(&["tournament", s(&file), "-o", s(&out), "--resume"]);
    assert_ok(&resumed, "--resume");
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        err.contains(&format!(
            "unfinished tables going on from their last finished round: 1 ({} rounds kept)",
            kept.len()
        )),
        "{err}"
    );
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        stdout.contains(&format!("{} rounds played", 400 - kept.len())),
        "only the rest is played:\n{stdout}"
    );
    // The finished rounds are the very lines written before the kill (their times included):
    // kept, not played again.
    let after = file_lines(&results);
    assert_eq!(after.len(), 400);
    assert_eq!(
        after[..kept.len()],
        kept[..],
        "the kept rounds come first, unchanged"
    );

    let uninterrupted = rollarena(&["tournament", s(&file), "-o", s(&reference), "--jobs", "1"]);
    assert_ok(&uninterrupted, "the uninterrupted run");
    assert!(
        comparable_results(&out) == comparable_results(&reference),
        "the resumed table differs from an uninterrupted one"
    );
    assert_eq!(comparable_standings(&out), comparable_standings(&reference));
    let verify = rollarena(&["replay", "--verify", s(&results)]);
    assert_ok(&verify, "replay --verify of the resumed results");
}

#[test]
fn a_match_killed_in_its_middle_resumes_from_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let (record, reference) = (dir.path().join("r.jsonl"), dir.path().join("ref.jsonl"));
    let mut args = MATCH.to_vec();
    args.extend(["--record", s(&record)]);
    let mut child = spawn(&args);
    kill_after(&mut child, &record, 20, libc::SIGKILL);
    child.wait().unwrap();
    let kept = file_lines(&record);
    assert!(kept.len() < 300, "killed before its end ({})", kept.len());
    // As if the kill had landed inside a write: half a line with no newline.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&record)
        .unwrap();
    std::io::Write::write_all(&mut f, b"{\"format\":1,\"arb").unwrap();
    drop(f);

    // No --seed: the record's is used.
    args.push("--resume");
    let resumed = rollarena(&args);
    assert_ok(&resumed, "match --resume");
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        stdout.contains(&format!(
            "rounds 1-{} kept from {}, playing rounds {}-300",
            kept.len(),
            record.display(),
            kept.len() + 1
        )),
        "{stdout}"
    );
    assert!(
        !stdout.contains(&format!("round {}/300:", kept.len())),
        "a kept round is not played again:\n{stdout}"
    );
    let after = file_lines(&record);
    assert_eq!(after.len(), 300, "every round once, the torn line cut");
    assert_eq!(after[..kept.len()], kept[..]);
    let seed = serde_json::from_str::<Value>(&kept[0]).unwrap()["match_seed"].to_string();

    let mut again = MATCH.to_vec();
    again.extend(["--record", s(&reference), "--seed", &seed]);
    assert_ok(&rollarena(&again), "the uninterrupted match");
    assert!(
        comparable_record(&record) == comparable_record(&reference),
        "the resumed match differs from an uninterrupted one"
    );
    let verify = rollarena(&["replay", "--verify", s(&record)]);
    assert_ok(&verify, "replay --verify");
    assert!(
        String::from_utf8_lossy(&verify.stdout).contains("positional"),
        "the whole match's standings"
    );

    // A finished match is not played again; another match's arguments are refused.
    let done = rollarena(&args);
    assert_ok(&done, "resuming a finished match");
    assert!(String::from_utf8_lossy(&done.stdout).contains("is finished (300 rounds)"));
    let mut other = args.clone();
    other[1] = "rollarena bot random";
    let refused = rollarena(&other);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("was not played with these arguments: its bots were"),
        "{err}"
    );
    let mut seeded = args.clone();
    seeded.extend(["--seed", "1"]);
    let refused = rollarena(&seeded);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("leave --seed out"));
}

#[test]
fn a_robots_match_resumes_with_the_state_its_rounds_carry() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("r.jsonl");
    let args = [
        "match",
        "--game",
        "robots",
        "rollarena bot solver",
        "rollarena bot solver --strength 6",
        "--hourglass",
        "1s",
        "--seed",
        "9",
        "--record",
        s(&record),
    ];
    let mut child = spawn(&args);
    kill_after(&mut child, &record, 3, libc::SIGKILL);
    child.wait().unwrap();
    let kept = file_lines(&record);
    let mut resume = args.to_vec();
    resume.push("--resume");
    assert_ok(&rollarena(&resume), "robots --resume");
    let after = file_lines(&record);
    assert!(after.len() > kept.len(), "the match went on");
    assert_eq!(after[..kept.len()], kept[..]);
    // The verifier checks that each round starts from the state the one before ended with
    // and numbers its requests on from it: across the resume too.
    let verify = rollarena(&["replay", "--verify", s(&record)]);
    assert_ok(&verify, "replay --verify across the resume");
}

#[test]
fn an_interrupted_match_prints_its_standings_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("r.jsonl");
    let mut args = MATCH.to_vec();
    args.extend(["--record", s(&record), "--json"]);
    let mut child = Command::new(crate::arbiter::rollarena())
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    kill_after(&mut child, &record, 10, libc::SIGTERM);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the same command with --resume plays the rest"),
        "{err}"
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("the standings as JSON");
    assert_eq!(json["interrupted"], true);
    let rounds = file_lines(&record).len() as u64;
    for row in json["standings"].as_array().unwrap() {
        assert_eq!(
            row["rounds"], rounds,
            "standings over the finished rounds: {json}"
        );
    }
}

/// 3 bots, 2 per table: 3 tables of 2 rounds. No seed: the one drawn at the first run (kept in
/// tournament.json) is the one the grown event must keep.
const SMALL_FIELD: &str = r#"name = "growing"
players = 2
rounds = 2
[options]
size = 6
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "positional"
command = "rollarena bot positional"
[[bot]]
name = "random"
command = "rollarena bot random --seed 2"
"#;

const LATE_BOT: &str = r#"[[bot]]
name = "late"
command = "rollarena bot positional --depth 2"
"#;

#[test]
fn a_bot_added_to_a_finished_round_robin_plays_only_the_new_pairings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let out = dir.path().join("out");
    let results = out.join("results.jsonl");
    std::fs::write(&file, SMALL_FIELD).unwrap();
    assert_ok(
        &rollarena(&["tournament", s(&file), "-o", s(&out)]),
        "the first field",
    );
    let before = file_lines(&results);
    assert_eq!(before.len(), 6);

    // Without --add-bot, a longer file is another tournament (and the refusal says the way).
    std::fs::write(&file, format!("{SMALL_FIELD}{LATE_BOT}")).unwrap();
    let plain = rollarena(&["tournament", s(&file), "-o", s(&out), "--resume"]);
    assert_eq!(plain.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&plain.stderr).contains("--add-bot"));

    let added = rollarena(&["tournament", s(&file), "-o", s(&out), "--add-bot"]);
    assert_ok(&added, "--add-bot");
    let err = String::from_utf8_lossy(&added.stderr);
    assert!(
        err.contains("adding late to the round robin: 3 new tables"),
        "{err}"
    );
    let stdout = String::from_utf8_lossy(&added.stdout);
    assert!(
        stdout.contains("6 rounds played"),
        "only the new tables:\n{stdout}"
    );
    let after = file_lines(&results);
    assert_eq!(after.len(), 12);
    assert_eq!(
        after[..6],
        before[..],
        "the rounds played before stay as they were"
    );
    for line in &after[6..] {
        let r: Value = serde_json::from_str(line).unwrap();
        assert!(
            r["table"].as_u64().unwrap() > 3,
            "numbered after the old tables"
        );
        let seats: Vec<&str> = r["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert!(
            seats.contains(&"late"),
            "every new table seats the new bot: {seats:?}"
        );
    }
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    assert_eq!(standings["standings"].as_array().unwrap().len(), 4);
    assert_ok(
        &rollarena(&["replay", "--verify", s(&results)]),
        "replay --verify",
    );
    // The grown event resumes with its new file like any other.
    let again = rollarena(&["tournament", s(&file), "-o", s(&out), "--resume"]);
    assert_ok(&again, "--resume of the grown event");
    assert_eq!(file_lines(&results).len(), 12, "nothing played twice");

    // Anything but bots appended is refused, naming what differs.
    std::fs::write(
        &file,
        format!(
            "{}{LATE_BOT}[[bot]]\nname = \"later\"\ncommand = \"rollarena bot greedy\"\n",
            SMALL_FIELD.replace("rounds = 2", "rounds = 4")
        ),
    )
    .unwrap();
    let other = rollarena(&["tournament", s(&file), "-o", s(&out), "--add-bot"]);
    assert_eq!(other.status.code(), Some(2));
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(
        err.contains("other settings differ: rounds: 2 there, 4 now"),
        "{err}"
    );
    std::fs::write(
        &file,
        format!(
            "{}{LATE_BOT}",
            SMALL_FIELD.replace("\"random\"", "\"renamed\"")
        ),
    )
    .unwrap();
    let renamed = rollarena(&["tournament", s(&file), "-o", s(&out), "--add-bot"]);
    assert_eq!(renamed.status.code(), Some(2));
    let err = String::from_utf8_lossy(&renamed.stderr);
    assert!(err.contains("bot 3 is \"renamed\""), "{err}");
}
