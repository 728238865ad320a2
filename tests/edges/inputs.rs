//! The inputs `match` and `tournament` share: one check each, the same answer from both, the
//! flag named when a command-line value is wrong; the word `rollarena` always this binary.

use super::{refused, run_in, shared_dir, stderr, stdout};

const FILE: &str = r#"players = 2
rounds = 2
time = "5s"
[[bot]]
name = "a"
command = "rollarena bot random --seed 1"
[[bot]]
name = "b"
command = "rollarena bot greedy"
"#;

/// Before: `match --time 0` gave bots `time_ms` 0, `match --rounds 0` played 1 round, and
/// `--jobs 0` meant 1 on the command line but every core in the file.
#[test]
fn match_and_tournament_refuse_the_same_values() {
    let dir = shared_dir();
    let d = dir.path();
    let bots = ["rollarena bot random", "rollarena bot greedy"];
    let m = |extra: &[&str]| {
        let mut args = vec!["match", bots[0], bots[1]];
        args.extend_from_slice(extra);
        run_in(d, &args)
    };
    refused(
        &m(&["--time", "0"]),
        "--time: the time per move must be more than 0",
    );
    refused(
        &m(&["--startup", "0s"]),
        "--startup: the start-up time must be more than 0",
    );
    refused(
        &m(&["--rounds", "0"]),
        "--rounds: 0 rounds would play nothing",
    );
    std::fs::write(d.join("t.toml"), FILE).unwrap();
    let t = |extra: &[&str]| {
        let mut args = vec!["tournament", "t.toml"];
        args.extend_from_slice(extra);
        run_in(d, &args)
    };
    refused(
        &t(&["--time", "0"]),
        "--time: the time per move must be more than 0",
    );
    refused(
        &t(&["--rounds", "0"]),
        "--rounds 0: 0 rounds would play nothing",
    );
    refused(
        &t(&["--jobs", "0"]),
        "--jobs 0: 0 tables at once would play nothing",
    );
    for (key, expected) in [
        ("jobs = 0", "jobs: 0 tables at once would play nothing"),
        ("rounds = 0", "rounds: 0 rounds would play nothing"),
        (
            "time = \"0s\"",
            "time: the time per move must be more than 0",
        ),
    ] {
        let (k, _) = key.split_once(" = ").unwrap();
        let text: String = FILE
            .lines()
            .filter(|l| !l.starts_with(&format!("{k} =")))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(d.join("bad.toml"), format!("{key}\n{text}")).unwrap();
        let err = refused(&run_in(d, &["tournament", "bad.toml"]), expected);
        assert!(
            err.contains("bad.toml: line 1"),
            "the file is to blame: {err}"
        );
    }
    assert!(!d.join("t-out").exists(), "nothing was written");
}

/// Before: `--rounds 3` on a two-player file said `t.toml: line 2, column 10: rounds: ...`, a
/// line that holds `rounds = 2`.
#[test]
fn a_command_line_value_is_blamed_on_its_flag() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(d.join("t.toml"), FILE).unwrap();
    for (flags, expected) in [
        (
            &["--rounds", "3"][..],
            "--rounds 3: 3 rounds per table is not a multiple of 2",
        ),
        (&["--players", "9"][..], "--players 9: "),
        (&["--repeat", "0"][..], "--repeat 0: must be at least 1"),
    ] {
        let mut args = vec!["tournament", "t.toml"];
        args.extend_from_slice(flags);
        let err = refused(&run_in(d, &args), expected);
        assert!(!err.contains("t.toml"), "the file is not to blame: {err}");
    }
}

/// Before: with a file named `bot` in the current directory, `rollarena bot greedy` became
/// `.../rollarena /tmp/x/bot greedy` and every round was a forfeit.
#[test]
fn rollarena_is_this_binary_whatever_the_directory_holds() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(d.join("bot"), "not the subcommand\n").unwrap();
    std::fs::write(d.join("greedy"), "not the bot's name either\n").unwrap();
    let out = run_in(
        d,
        &[
            "match",
            "rollarena bot greedy",
            "rollarena bot random --seed 2",
            "--rounds",
            "2",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    for s in result["standings"].as_array().unwrap() {
        assert_eq!(s["forfeits"], serde_json::json!({}), "no forfeit: {s}");
    }
}
