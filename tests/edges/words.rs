//! What the terminal says: a forfeit's cause on its round's line, faults in the table, a
//! warning as one plain line, counts with their right noun.

use super::{PYTHON, run_in, shared_dir, stderr, stdout};

/// Before: `[quiet forfeited: startup at move 0]`, with no cause and no hint.
#[test]
fn a_forfeit_line_says_why() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(
        d.join("quiet.py"),
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n",
    )
    .unwrap();
    std::fs::write(
        d.join("dies.py"),
        "import sys\nsys.stdin.readline()\nprint('ModuleNotFoundError: numpy', file=sys.stderr)\nsys.exit(3)\n",
    )
    .unwrap();
    let quiet = format!("{PYTHON} {}", d.join("quiet.py").display());
    let dies = format!("{PYTHON} {}", d.join("dies.py").display());
    let out = run_in(
        d,
        &[
            "match",
            &quiet,
            &dies,
            "--no-preflight",
            "--rounds",
            "2",
            "--size",
            "4",
            "--startup",
            "1s",
            "--time",
            "1s",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("quiet.py forfeited before its first move: startup: no ready within 1000 ms"),
        "{text}"
    );
    assert!(text.contains("Did you flush?"), "the flush hint: {text}");
    assert!(
        text.contains(
            "dies.py forfeited before its first move: crash: the bot exited with status 3"
        ),
        "{text}"
    );
    assert!(
        text.contains("last stderr line: ModuleNotFoundError: numpy"),
        "{text}"
    );
}

/// Before: `2026-11-26T05:00:00Z  WARN rollarena::cli::matches: 3 rounds is ...`, with ANSI
/// codes even into a file.
#[test]
fn a_warning_is_one_plain_line() {
    let dir = shared_dir();
    let out = run_in(
        dir.path(),
        &[
            "match",
            "rollarena bot greedy",
            "rollarena bot random",
            "--rounds",
            "1",
            "--size",
            "4",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.lines()
            .any(|l| l.starts_with("warning: 1 round is not a multiple of 2")),
        "{err:?}"
    );
    assert!(!err.contains("WARN"), "{err:?}");
    assert!(!err.contains("rollarena::"), "{err:?}");
    assert!(!err.contains('\x1b'), "no colour into a pipe: {err:?}");
}

/// Before: "1 tables of 2 players x 2 rounds, 2 at once" for a single table.
#[test]
fn counts_have_their_nouns() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(
        d.join("t.toml"),
        r#"players = 2
rounds = 2
[options]
size = 4
[[bot]]
name = "a"
command = "rollarena bot random"
[[bot]]
name = "b"
command = "rollarena bot greedy"
"#,
    )
    .unwrap();
    let out = run_in(d, &["tournament", "t.toml", "--jobs", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("2 bots, round-robin schedule, 1 table of 2 players x 2 rounds, 1 at once"),
        "{err}"
    );
}

/// Before: `seat-0-rolit_bot_py.log`, named from the command, while the tables said `mybot`.
#[test]
fn bot_logs_are_named_as_the_tables_name_the_seats() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(d.join("rolit_bot.py"), super::readme::smallest_bot()).unwrap();
    std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let bot = format!("{PYTHON} {}", d.join("rolit_bot.py").display());
    let out = run_in(
        d,
        &[
            "match",
            &bot,
            "rollarena bot greedy",
            "--size",
            "4",
            "--bot-logs",
            "logs",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("first (red)") || stdout(&out).contains("first (green)"),
        "{}",
        stdout(&out)
    );
    let mut files: Vec<String> = std::fs::read_dir(d.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["seat-0-first.log", "seat-1-greedy.log"]);
}

/// Before: a timeout after a move naming another turn said only "timeout"; the line the
/// arbiter ignored is now named on the round's line.
#[test]
fn a_timeout_names_the_lines_it_ignored() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(
        d.join("wrongid.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'hello':\n\
         \x20       print(json.dumps({'type': 'ready', 'name': 'wrongid', 'version': '1'}), flush=True)\n\
         \x20   elif m['type'] == 'turn':\n\
         \x20       print(json.dumps({'type': 'move', 'move': m['legal'][0], 'turn_id': m['turn_id'] + 1}), flush=True)\n",
    )
    .unwrap();
    let bot = format!("{PYTHON} {}", d.join("wrongid.py").display());
    let out = run_in(
        d,
        &[
            "match",
            &bot,
            "rollarena bot greedy",
            "--rounds",
            "1",
            "--size",
            "4",
            "--time",
            "1s",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("timeout: no answer within 1000 ms; 1 line ignored before it: turn_id"),
        "{text}"
    );
    assert!(
        text.contains("is not the turn asked (answers another turn)"),
        "{text}"
    );
}

/// Before: `table 1 round 1: dies forfeited (crash at move 1): the bot exited with status 3`,
/// the detail alone; now the tournament's progress lines say what `match` says.
#[test]
fn a_tournament_forfeit_line_says_why_as_match_does() {
    let dir = shared_dir();
    let d = dir.path();
    std::fs::write(
        d.join("dies.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'hello':\n\
         \x20       print(json.dumps({'type': 'ready', 'name': 'dies', 'version': '1'}), flush=True)\n\
         \x20   elif m['type'] == 'turn':\n\
         \x20       print('ModuleNotFoundError: numpy', file=sys.stderr, flush=True)\n\
         \x20       sys.exit(3)\n",
    )
    .unwrap();
    std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    std::fs::write(
        d.join("t.toml"),
        format!(
            "players = 2\nrounds = 2\ntime = \"5s\"\n[options]\nsize = 4\n\
             [[bot]]\nname = \"greedy\"\ncommand = \"rollarena bot greedy\"\n\
             [[bot]]\nname = \"dies\"\ncommand = \"{PYTHON} {}\"\n",
            d.join("dies.py").display()
        ),
    )
    .unwrap();
    let out = run_in(d, &["tournament", "t.toml", "--jobs", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.contains("dies forfeited"))
        .unwrap_or_else(|| panic!("a forfeit line: {err}"));
    assert!(
        line.starts_with("table 1 round ") && line.contains(": dies forfeited "),
        "{line}"
    );
    assert!(
        line.contains(": crash: the bot exited with status 3"),
        "the exit status: {line}"
    );
    assert!(
        line.ends_with("; last stderr line: ModuleNotFoundError: numpy"),
        "the last stderr line: {line}"
    );
}
