//! Rock'n'Roll Robot (`--game robots`) end to end: the real `rollarena` binary runs real bots
//! at one table, the built-in `rollarena bot solver` and `tests/bots/robots_zoo.py` (one
//! configurable misbehaviour per process: when to declare what, how to answer `prove`, when to
//! crash, and `--echo` to log every message it receives, which the record keeps). Each test
//! reads the JSON Lines record back, checks what the rules decided and its evidence, and runs
//! `rollarena replay --verify` on the record, which must pass; some also tamper with a record
//! and check that the verification rejects it.
//!
//! - `bidding`: simultaneous declarations, lowering and raising, ties by time and by CPU time;
//! - `proving`: failed demonstrations, a bot that never proves, crashes while thinking and
//!   when asked to prove;
//! - `passing`: `pass` (done declaring) ending the hourglass, or not, and its refusals;
//! - `matches`: the no-declaration timeout, the black robot, solo play, a whole match to 8
//!   tokens, usage errors;
//! - `records`: times at the record's precision, the start of every round, the final state.
//!
//! Timing: deadlines are short (hourglass 300 ms to 1 s) and the bots' schedules are far apart
//! from them; tests whose outcome depends on which bot acts first hold the arbiter tests'
//! [`timing_lock`]. Seeds are chosen for tokens the debug build's solver finishes quickly
//! (the arbiter solves each token at the end of its round, and so does the verification).

mod bidding;
mod matches;
mod passing;
mod proving;
mod records;

use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

use rollarena::record::{MoveRecord, RoundRecord};
use serde_json::Value;

pub use crate::arbiter::timing_lock;
use crate::arbiter::{PYTHON, Run, await_arbiter, rollarena, unique_tag};

/// The path of the robots zoo bot.
pub fn robots_zoo_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/robots_zoo.py")
}

/// A `rollarena match --game robots` to run. Unless told otherwise: seed 2 (its first token,
/// yellow-star, takes 5 moves) and 1 round (token).
pub struct Table {
    flags: Vec<String>,
    /// `--rounds`; `None`: as many as the rules play.
    rounds: Option<u32>,
    bots: Vec<String>,
    tag: String,
    dir: tempfile::TempDir,
}

impl Table {
    pub fn new(name: &str) -> Table {
        let dir = tempfile::Builder::new()
            .prefix("rollarena-robots-")
            .tempdir()
            .expect("a temporary directory");
        // Bots may run as another user.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777))
            .expect("chmod the temporary directory");
        Table {
            flags: Vec::new(),
            rounds: Some(1),
            bots: Vec::new(),
            tag: unique_tag(name),
            dir,
        }
    }

    pub fn flags(mut self, flags: &[&str]) -> Table {
        self.flags.extend(flags.iter().map(|s| s.to_string()));
        self
    }

    /// Caps the match at `n` rounds (tokens).
    pub fn rounds(mut self, n: u32) -> Table {
        self.rounds = Some(n);
        self
    }

    /// Plays the match to its end by the rules (no `--rounds`).
    pub fn all_rounds(mut self) -> Table {
        self.rounds = None;
        self
    }

    /// Adds a robots zoo bot with these arguments (and the test's tag).
    pub fn zoo(mut self, args: &str) -> Table {
        self.bots.push(format!(
            "{PYTHON} {} --tag {} {args}",
            shell_words::quote(&robots_zoo_path().display().to_string()),
            self.tag
        ));
        self
    }

    /// Adds the built-in solver bot (`rollarena bot solver`, then `args`).
    pub fn solver(mut self, args: &str) -> Table {
        self.bots
            .push(format!("rollarena bot solver {args}").trim().to_string());
        self
    }

    fn argv(&self, record: &Path) -> Vec<String> {
        let has = |flag: &str| self.flags.iter().any(|f| f == flag);
        // About what happens during a match, with bots that may fail at start: no pre-flight.
        let mut argv: Vec<String> = vec![
            "match".into(),
            "--no-preflight".into(),
            "--game".into(),
            "robots".into(),
        ];
        if !has("--seed") {
            argv.extend(["--seed".into(), "2".into()]);
        }
        if let Some(n) = self.rounds {
            argv.extend(["--rounds".into(), n.to_string()]);
        }
        argv.extend(["--record".into(), record.display().to_string()]);
        argv.extend(self.flags.iter().cloned());
        argv.extend(self.bots.iter().cloned());
        argv
    }

    /// Runs the match to its end, reads the record and checks that no zoo process survived.
    pub fn run(self) -> Run {
        let record = self.dir.path().join("record.jsonl");
        let out = self.dir.path().join("stdout.txt");
        let err = self.dir.path().join("stderr.txt");
        let started = Instant::now();
        let child = Command::new(rollarena())
            .args(self.argv(&record))
            .stdin(Stdio::null())
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(&err).unwrap())
            .spawn()
            .expect("rollarena starts");
        await_arbiter(child, started, self.dir, &self.tag)
    }
}

/// The record file of a run.
pub fn record_path(run: &Run) -> PathBuf {
    run.dir.path().join("record.jsonl")
}

/// Runs `rollarena` with these arguments (no stdin).
pub fn cli(args: &[&str]) -> Output {
    Command::new(rollarena())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("rollarena runs")
}

/// `replay --verify` on a record file: its exit code and output (stdout then stderr).
pub fn verify_file(path: &Path) -> (Option<i32>, String) {
    let out = cli(&["replay", "--verify", &path.display().to_string()]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// The run's record verifies, every round of it.
pub fn assert_verifies(run: &Run) {
    let (code, text) = verify_file(&record_path(run));
    assert_eq!(code, Some(0), "the record verifies:\n{text}");
    let games = format!("verified {} round", run.rounds.len());
    assert!(text.contains(&games), "{games}:\n{text}");
}

/// The run's record, changed by `tamper` (its lines as JSON values), is rejected by
/// `replay --verify` (exit 1); returns what the verification said.
pub fn assert_tamper_rejected(
    run: &Run,
    what: &str,
    tamper: impl FnOnce(&mut Vec<Value>),
) -> String {
    let original = std::fs::read_to_string(record_path(run)).unwrap();
    let mut lines: Vec<Value> = original
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    tamper(&mut lines);
    let mut text = String::new();
    for l in &lines {
        text.push_str(&serde_json::to_string(l).unwrap());
        text.push('\n');
    }
    let path = run.dir.path().join("tampered.jsonl");
    std::fs::write(&path, text).unwrap();
    let (code, said) = verify_file(&path);
    assert_eq!(
        code,
        Some(1),
        "a record with {what} is rejected by replay --verify:\n{said}"
    );
    assert!(said.contains("does not verify"), "{what}: {said}");
    said
}

// ---- reading a round's record --------------------------------------------------------------

/// The round's actions of a kind (`declare`, `solution`), in order.
pub fn actions<'r>(r: &'r RoundRecord, kind: &str) -> Vec<&'r MoveRecord> {
    r.moves
        .iter()
        .filter(|m| m.kind.as_deref() == Some(kind))
        .collect()
}

/// (seat, moves) of each accepted declaration, in order.
pub fn declared(r: &RoundRecord) -> Vec<(usize, u64)> {
    actions(r, "declare")
        .iter()
        .map(|m| (m.seat, m.mv["moves"].as_u64().expect("declared moves")))
        .collect()
}

/// The seats whose demonstrations were judged, in order.
pub fn provers(r: &RoundRecord) -> Vec<usize> {
    actions(r, "solution").iter().map(|m| m.seat).collect()
}

/// The round time of an action.
pub fn at(m: &MoveRecord) -> f64 {
    m.at_ms
        .expect("every action of a simultaneous game has its round time")
}

/// An effect of an action (`ok`, `declared`, `reason`, `hourglass_ends_ms`, `robots`).
pub fn effect<'m>(m: &'m MoveRecord, key: &str) -> &'m Value {
    m.effects.get(key).unwrap_or(&Value::Null)
}

/// The messages of a kind that a zoo bot run with `--echo` logged receiving in a round.
pub fn echoes(r: &RoundRecord, seat: usize, kind: &str) -> Vec<Value> {
    crate::arbiter::json_logs(r, seat, "got")
        .into_iter()
        .filter(|g| g["got"] == kind)
        .collect()
}

/// The faults of a kind in a round, as (seat, detail).
pub fn faults(r: &RoundRecord, kind: &str) -> Vec<(usize, String)> {
    r.faults
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| (f.seat, f.detail.clone()))
        .collect()
}

/// Two round times that should be the same number (records keep them to the microsecond).
pub fn assert_same_time(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 0.002, "{what}: {a} and {b}");
}

/// The round's result: no token won (every seat 0 points, nobody wins the round).
pub fn assert_nobody_won(r: &RoundRecord) {
    assert!(
        r.result.points.iter().all(|&p| p == 0),
        "round {}: points {:?}",
        r.round,
        r.result.points
    );
    assert!(
        r.result.wins.iter().all(|&w| w == 0.0),
        "round {}: wins {:?}",
        r.round,
        r.result.wins
    );
    assert_eq!(
        r.board["winner"],
        Value::Null,
        "round {}: no winner",
        r.round
    );
    assert_eq!(r.board["phase"], "over");
}

/// The round's token went to `seat`: 1 point, the round win, the winner in the final state.
pub fn assert_won_by(r: &RoundRecord, seat: usize) {
    let expected: Vec<u32> = (0..r.seats.len()).map(|s| u32::from(s == seat)).collect();
    assert_eq!(r.result.points, expected, "round {}: points", r.round);
    assert_eq!(r.result.wins[seat], 1.0, "round {}: wins", r.round);
    assert_eq!(r.board["winner"], seat, "round {}: winner", r.round);
}
