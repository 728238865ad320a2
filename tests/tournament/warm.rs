//! A table slot starts the launch wrappers of its next table's bots while a table plays (warm
//! wrappers: the exec of the binary and the cgroups' wait off the next table's start). With
//! real bots (Python, sandboxed as root): bots of later tables, started through such wrappers,
//! still get their own limits (a bot's own memory limit, lower than the tournament's, stops it),
//! a uid per seat, and the tournament leaves no process and no cgroup behind.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::s;
use crate::arbiter::{PYTHON, assert_no_survivors, unique_tag};

/// A bot that writes its uid to stderr at its first turn and plays the first legal move; with
/// argument `hog`, it first fills 160 MiB (its own memory limit is 64M: it is killed).
const BOT: &str = r#"import json, os, sys
hog = sys.argv[1] == "hog"
json.loads(sys.stdin.readline())
print(json.dumps({"type": "ready", "name": "warm", "version": "1"}), flush=True)
first = True
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        if first:
            sys.stderr.write(json.dumps({"uid": os.getuid()}) + "\n")
            sys.stderr.flush()
            first = False
            if hog:
                blocks = [bytearray(16 << 20) for _ in range(10)]
        print(json.dumps({"type": "move", "move": msg["legal"][0]}), flush=True)
    elif msg["type"] == "bye":
        break
"#;

#[test]
fn bots_started_through_warm_wrappers_keep_their_own_limits_and_uids_and_leave_nothing() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("SKIPPED (warm launch wrappers): not root, no cgroups or uids to check");
        return;
    }
    let tag = unique_tag("warm");
    let dir = tempfile::Builder::new()
        .prefix("rollarena-warm-")
        .tempdir()
        .expect("a temporary directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = dir.path().join("warm.py");
    std::fs::write(&bot, BOT).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let bots: String = (1..=4)
        .map(|i| {
            let (mode, own) = if i == 1 {
                ("hog", "memory = \"64M\"\n")
            } else {
                ("play", "")
            };
            format!(
                "[[bot]]\nname = \"b{i}\"\ncommand = \"{PYTHON} {} {mode} {tag}\"\n{own}",
                bot.display()
            )
        })
        .collect();
    let file = dir.path().join("t.toml");
    // Three tables, one after another on one slot: the second and third start through
    // wrappers started while the table before played. The hog crashes at every round and is
    // started again (`recover`), mid-table too.
    std::fs::write(
        &file,
        format!(
            "name = \"warm\"\nplayers = 4\nrounds = 4\nrepeat = 3\nseed = 3\nrecover = true\n\
             opening_plies = 0\ntime = \"5s\"\nstartup = \"20s\"\n\
             [options]\nsize = 6\n[sandbox]\nmemory = \"1G\"\n{bots}"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let child = Command::new(crate::arbiter::rollarena())
        .args(["tournament", s(&file), "-o", s(&out), "--jobs", "1"])
        .args(["-q", "--no-report"])
        .env("ROLLARENA_LOG", "rollarena::arbiter::bot=debug")
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("rollarena runs");
    let arbiter = child.id();
    let run = child.wait_with_output().expect("the tournament ends");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "the tournament: {said}");
    assert_no_survivors(&tag);
    for controller in ["memory", "pids", "cpuacct"] {
        let parent = Path::new("/sys/fs/cgroup")
            .join(controller)
            .join(format!("rollarena-{arbiter}"));
        assert!(
            !parent.exists(),
            "the arbiter's cgroups are gone once it exited: {}",
            parent.display()
        );
    }
    let warm = said.matches("warm launch wrapper").count();
    assert!(
        warm >= 8,
        "the bots of tables 2 and 3 (4 each) start through warm wrappers; the log says so \
         {warm} times:\n{said}"
    );
    let rounds: Vec<Value> = std::fs::read_to_string(out.join("results.jsonl"))
        .expect("results.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole round per line"))
        .collect();
    assert_eq!(rounds.len(), 12, "three tables of four rounds");
    for r in &rounds {
        let forfeits = r["forfeits"].as_array().expect("forfeits");
        assert_eq!(
            forfeits.len(),
            1,
            "the hog, and only it, forfeits (table {} round {}): {forfeits:?}",
            r["table"],
            r["round"]
        );
        let detail = forfeits[0]["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("memory limit"),
            "the hog is stopped by its own 64M, not the tournament's 1G (table {} round {}): \
             {detail}",
            r["table"],
            r["round"]
        );
        if r["round"] != 1 {
            // The players wrote their uids at their first turn, in their table's first round.
            continue;
        }
        let hog = forfeits[0]["seat"].as_u64().expect("a seat") as usize;
        let uids: Vec<u64> = (0..4)
            .filter(|&seat| seat != hog)
            .map(|seat| {
                let tail = r["stderr"][seat].as_str().expect("a stderr tail");
                let line: Value = serde_json::from_str(tail.lines().last().expect("a line"))
                    .unwrap_or_else(|e| panic!("seat {seat} wrote {tail:?}: {e}"));
                line["uid"].as_u64().expect("a uid")
            })
            .collect();
        assert!(
            uids.iter().all(|&u| u != 0),
            "no bot runs as root: {uids:?}"
        );
        let mut distinct = uids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "a uid per seat: {uids:?}");
    }
}
