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

/// Before: `command = "python3 bots/mine.py"` was looked for in the shell's directory, while
/// `output` and `cwd` were the file's.
#[test]
fn relative_bot_paths_are_the_files_directory() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::create_dir_all(d.join("league/bots")).unwrap();
    std::fs::set_permissions(
        d.join("league"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::fs::set_permissions(
        d.join("league/bots"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::fs::write(
        d.join("league/bots/first.py"),
        super::readme::smallest_bot(),
    )
    .unwrap();
    let file = format!(
        "players = 2\nrounds = 2\ntime = \"5s\"\n[options]\nsize = 4\n[[bot]]\nname = \"first\"\n\
         command = \"{PYTHON} bots/first.py\"\n[[bot]]\nname = \"g\"\ncommand = \"rollarena bot greedy\"\n",
        PYTHON = super::PYTHON
    );
    std::fs::write(d.join("league/t.toml"), &file).unwrap();
    // Run from elsewhere: the file's directory decides.
    let out = run_in(d, &["tournament", "league/t.toml", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let standings: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let text = standings.to_string();
    assert!(!text.contains("\"crash\""), "no forfeit: {text}");
    // A script that is not there is named with the directory it was looked for in.
    std::fs::write(
        d.join("league/t.toml"),
        file.replace("bots/first.py", "bots/missing.py"),
    )
    .unwrap();
    let err = refused(
        &run_in(d, &["tournament", "league/t.toml"]),
        "bots/missing.py is not in",
    );
    assert!(
        err.contains(
            "league (a relative path in a tournament file is taken from the file's directory"
        ),
        "{err}"
    );
}

/// Before: `--record -` made a file named `-`, and a pipe failed after one round with
/// `Invalid argument (os error 22)` (a pipe cannot be synced).
#[test]
fn the_record_goes_to_standard_output_or_a_pipe() {
    let dir = shared_dir();
    let d = dir.path();
    let bots = ["rollarena bot greedy", "rollarena bot random"];
    let out = run_in(
        d,
        &[
            "match", bots[0], bots[1], "--size", "4", "--rounds", "2", "--record", "-",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!d.join("-").exists(), "no file named -");
    let records: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("stdout holds only the record"))
        .collect();
    assert_eq!(records.len(), 2);
    assert!(stderr(&out).contains("round 2/2"), "the rounds on stderr");
    // A pipe given as a path.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} match '{}' '{}' --size 4 --rounds 2 --record /dev/stdout | grep -c '\"round\"'",
            super::rollarena().display(),
            bots[0],
            bots[1]
        ))
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(stdout(&out).trim(), "2", "{}", stderr(&out));
    refused(
        &run_in(d, &["match", bots[0], bots[1], "--record", "-", "--json"]),
        "--record - writes the record to standard output",
    );
}

/// Before: "the resolved configurations hash to 3f2a9c... there and 8b01de... now".
#[test]
fn a_refused_resume_names_the_settings_that_differ() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(
        d.join("t.toml"),
        FILE.replace("time = \"5s\"", "time = \"5s\"\n[options]\nsize = 4"),
    )
    .unwrap();
    let first = run_in(d, &["tournament", "t.toml"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let err = refused(
        &run_in(
            d,
            &[
                "tournament",
                "t.toml",
                "--resume",
                "--time",
                "2s",
                "--retries",
                "1",
            ],
        ),
        "cannot resume",
    );
    assert!(err.contains("time_ms: 5000 there, 2000 now"), "{err}");
    assert!(err.contains("retries: 2 there, 1 now"), "{err}");
}

/// A file edited between the run and its resume: the refusal says which settings changed.
#[test]
fn a_resume_of_an_edited_file_names_what_changed() {
    let dir = shared_dir();
    let d = dir.path();
    let file = FILE.replace("time = \"5s\"", "time = \"5s\"\n[options]\nsize = 4");
    std::fs::write(d.join("t.toml"), &file).unwrap();
    let first = run_in(d, &["tournament", "t.toml"]);
    assert!(first.status.success(), "{}", stderr(&first));
    std::fs::write(d.join("t.toml"), file.replace("rounds = 2", "rounds = 4")).unwrap();
    let err = refused(
        &run_in(d, &["tournament", "t.toml", "--resume"]),
        "from a different file",
    );
    assert!(err.contains("rounds: 2 there, 4 now"), "{err}");
}

/// Before: a script missing from the current directory reached the bot's scratch directory and
/// failed there ("can't open file '/tmp/rollarena-1/bot2-missingpy/missing.py'").
#[test]
fn a_missing_script_is_named_with_the_directory_it_was_looked_for_in() {
    let dir = shared_dir();
    let d = dir.path();
    let bot = format!("{} missing.py", super::PYTHON);
    let err = refused(
        &run_in(d, &["match", "rollarena bot greedy", &bot]),
        "missing.py is not in the current directory",
    );
    assert!(err.contains(&d.display().to_string()), "{err}");
}

/// Before: a bot in a directory only root may enter was refused with "cannot be run by the bot
/// user uid 60000 ... (or choose another --bot-user)", advice that no longer fits seats with
/// uids of their own. Now the message says who runs bots and what to do.
#[test]
fn a_bot_the_seats_cannot_reach_is_refused_with_the_way_out() {
    if !rollarena::sandbox::is_root() {
        eprintln!("SKIPPED: only root runs bots under uids of their own");
        return;
    }
    let dir = shared_dir();
    let private = dir.path().join("private");
    std::fs::create_dir(&private).unwrap();
    std::fs::set_permissions(
        &private,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    std::fs::write(private.join("bot.py"), "print('never')\n").unwrap();
    let bot = format!("{} {}", super::PYTHON, private.join("bot.py").display());
    let out = run_in(dir.path(), &["match", &bot, "rollarena bot random"]);
    let err = refused(&out, "cannot be read by the bots");
    assert!(err.contains("a uid of its own from --bot-uids"), "{err}");
    assert!(err.contains("/usr/bin/python3"), "{err}");
    assert!(!err.contains("choose another --bot-user"), "{err}");
}
