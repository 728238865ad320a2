//! The pre-flight: a bot that cannot start stops `tournament` and `match` before anything is
//! played or written, named with its stderr; `--no-preflight` plays anyway.

use super::{refused, run_in, shared_dir, stderr, stdout};

/// Before: a misspelt built-in bot or flag played a whole tournament of forfeits, exit 0, and
/// the cause was only on the report's bot page.
#[test]
fn a_bot_that_cannot_start_stops_the_tournament_before_anything_is_written() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(
        d.join("t.toml"),
        r#"players = 2
rounds = 2
time = "5s"
[[bot]]
name = "typo"
command = "rollarena bot positonal"
[[bot]]
name = "flag"
command = "rollarena bot greedy --depht 2"
[[bot]]
name = "fine"
command = "rollarena bot greedy"
"#,
    )
    .unwrap();
    let err = refused(
        &run_in(d, &["tournament", "t.toml"]),
        "pre-flight: 2 of 3 bots did not start",
    );
    assert!(err.contains("typo (rollarena bot positonal)"), "{err}");
    assert!(
        err.contains("unknown bot \"positonal\""),
        "its stderr: {err}"
    );
    assert!(
        err.contains("unexpected argument '--depht'"),
        "its stderr: {err}"
    );
    assert!(
        !err.contains("fine ("),
        "the bot that started is not named: {err}"
    );
    assert!(
        err.contains("Usage: rollarena bot") && !err.contains("Usage: exe"),
        "a usage line a user can type: {err}"
    );
    assert!(!d.join("t-out").exists(), "nothing was written");
    // Skipped: the run goes ahead and the bots forfeit.
    let out = run_in(
        d,
        &["tournament", "t.toml", "--no-preflight", "--jobs", "1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(d.join("t-out/results.jsonl").is_file());
}

#[test]
fn a_bot_that_cannot_start_stops_the_match_before_the_record_is_made() {
    let dir = shared_dir();
    let d = dir.path();
    let out = run_in(
        d,
        &[
            "match",
            "rollarena bot greedy",
            "rollarena bot greedy --depht 2",
            "--record",
            "r.jsonl",
        ],
    );
    let err = refused(&out, "pre-flight: 1 of 2 bots did not start");
    assert!(err.contains("--no-preflight"), "{err}");
    assert!(!d.join("r.jsonl").exists(), "no record was made");
    assert!(stdout(&out).is_empty(), "no round was played");
}

/// A bot that crashes in every round is withdrawn after N rounds in a row: not started again,
/// its rounds marked; `--recover` keeps restarting it.
#[test]
fn a_bot_that_keeps_crashing_is_withdrawn() {
    let dir = shared_dir();
    let d = dir.path();
    // Starts, says ready, crashes at its first turn; counts its starts.
    std::fs::write(
        d.join("crashy.py"),
        "import json, os, sys\n\
         open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'starts'), 'a').write('x')\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'hello':\n\
         \x20       print(json.dumps({'type': 'ready', 'name': 'crashy', 'version': '1'}), flush=True)\n\
         \x20   elif m['type'] == 'turn':\n\
         \x20       sys.exit(4)\n",
    )
    .unwrap();
    std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let crashy = format!("{} {}", super::PYTHON, d.join("crashy.py").display());
    let run = |extra: &[&str]| {
        // Each start runs under a uid of its own (one per bot process): the count is a file
        // every one of them may append to.
        std::fs::write(d.join("starts"), "").unwrap();
        std::fs::set_permissions(
            d.join("starts"),
            std::os::unix::fs::PermissionsExt::from_mode(0o666),
        )
        .unwrap();
        let mut args = vec![
            "match",
            "rollarena bot greedy",
            &crashy,
            "--no-preflight",
            "--size",
            "4",
            "--rounds",
            "6",
            "--record",
            "r.jsonl",
        ];
        args.extend_from_slice(extra);
        let _ = std::fs::remove_file(d.join("r.jsonl"));
        let out = run_in(d, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        let starts = std::fs::read_to_string(d.join("starts"))
            .unwrap_or_default()
            .len();
        let records: Vec<serde_json::Value> = std::fs::read_to_string(d.join("r.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (starts, records, stdout(&out))
    };
    let (starts, records, text) = run(&["--withdraw-after", "2"]);
    assert_eq!(starts, 2, "started for two rounds, then withdrawn");
    assert_eq!(records.len(), 6, "every round is played");
    for r in &records[2..] {
        let f = &r["forfeits"][0];
        assert_eq!(f["kind"], "startup", "{f}");
        assert!(
            f["detail"].as_str().unwrap().starts_with("withdrawn:"),
            "{f}"
        );
    }
    assert!(
        text.contains("withdrawn: the bot lost 2 rounds in a row"),
        "{text}"
    );
    let (starts, _, _) = run(&["--recover"]);
    assert_eq!(starts, 6, "--recover restarts it every round");
}
