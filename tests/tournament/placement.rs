//! Where a tournament's bots may run: with `--pin` each table (its thread and its bots) is bound
//! to one CPU; without it, with several slots, the slots' threads are placed on CPUs of their
//! own and their bots only start there: a bot may run on every CPU the arbiter may (a bot of
//! several threads keeps them all). Real Python bots, sandboxed, report their
//! `Cpus_allowed_list` at their first turn.

use std::os::unix::fs::PermissionsExt;

use serde_json::Value;

use super::{assert_ok, rollarena, s};
use crate::arbiter::PYTHON;

const BOT: &str = r#"import json, sys
hello = json.loads(sys.stdin.readline())
print(json.dumps({"type": "ready", "name": "where", "version": "1"}), flush=True)
told = False
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        if not told:
            cpus = [l.split(":")[1].strip() for l in open("/proc/self/status") if l.startswith("Cpus_allowed_list")]
            sys.stderr.write(cpus[0] + "\n")
            sys.stderr.flush()
            told = True
        print(json.dumps({"type": "move", "move": msg["legal"][0]}), flush=True)
    elif msg["type"] == "bye":
        break
"#;

fn own_cpus() -> String {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_string()
}

/// The CPU lists the bots of every round reported, playing with `flags`.
fn reported(flags: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = dir.path().join("where.py");
    std::fs::write(&bot, BOT).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let bots: String = (1..=2)
        .map(|i| {
            format!(
                "[[bot]]\nname = \"w{i}\"\ncommand = \"{PYTHON} {}\"\n",
                bot.display()
            )
        })
        .collect();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!("players = 2\nrounds = 2\nrepeat = 4\n[options]\nsize = 4\n{bots}"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let mut args = vec!["tournament", s(&file), "-o", s(&out), "-q", "--no-report"];
    args.extend_from_slice(flags);
    assert_ok(&rollarena(&args), "the tournament");
    let text = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let mut lists = Vec::new();
    for line in text.lines() {
        let round: Value = serde_json::from_str(line).unwrap();
        for tail in round["stderr"].as_array().unwrap() {
            if let Some(l) = tail.as_str().and_then(|t| t.lines().last()) {
                lists.push(l.to_string());
            }
        }
    }
    assert!(
        !lists.is_empty(),
        "the bots told where they may run: {text}"
    );
    lists
}

#[test]
fn pinned_bots_are_bound_and_placed_bots_are_free() {
    let all = own_cpus();
    if !all.contains('-') && !all.contains(',') {
        eprintln!("skipped: one CPU ({all})");
        return;
    }
    for list in reported(&["--jobs", "2"]) {
        assert_eq!(
            list, all,
            "unpinned, a bot may run on every CPU the arbiter may"
        );
    }
    for list in reported(&["--jobs", "2", "--pin"]) {
        assert!(
            !list.contains('-') && !list.contains(','),
            "with --pin a bot is bound to its table's CPU, not {list}"
        );
    }
}
