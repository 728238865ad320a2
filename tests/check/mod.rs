//! `rollarena check` against deliberately broken bots: `tests/bots/broken/`, each a small
//! Python bot that gets exactly one thing wrong. The check must name the mistake (the item,
//! the cause, words of the hint), fail no item the mistake does not explain, and exit with 1.
//!
//! The bots are copied into a world-readable directory and run with the system interpreter,
//! since the check starts them as the unprivileged bot user when the tests run as root.
//! Timeouts are cut to a second with `--startup` and `--time`; the slow bots sleep two, and
//! the check waits two more before it calls an answer missing, so the margins are wide.

mod cards;
mod robots;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use serde_json::Value;

/// The system interpreter: bots may run as `nobody`, who cannot reach one under /root.
pub const PYTHON: &str = "/usr/bin/python3";

/// The binary under test, through a hard link of its own: a `cargo build` elsewhere replaces
/// the file, and the sandbox re-executes the arbiter's own binary for every bot it starts.
pub fn rollarena() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let original = PathBuf::from(env!("CARGO_BIN_EXE_rollarena"));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        // Links of test runs that are over (their process is gone) are removed.
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some(pid) = name.strip_prefix("rollarena-bin-")
                    && !Path::new("/proc").join(pid).exists()
                {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        let link = dir.join(format!("rollarena-bin-{}", std::process::id()));
        let _ = std::fs::remove_file(&link);
        match std::fs::hard_link(&original, &link) {
            Ok(()) => link,
            Err(_) => original,
        }
    })
}

/// A temporary directory the bot user can read and enter.
pub fn shared_tempdir(prefix: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .expect("make a temporary directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
        .expect("chmod the temporary directory");
    dir
}

/// Runs `rollarena check BOT FLAGS... --json`; returns the exit code and the report.
pub fn check(bot: &str, flags: &[&str]) -> (i32, Value, Output) {
    let output = Command::new(rollarena())
        .arg("check")
        .arg(bot)
        .args(flags)
        .arg("--json")
        .output()
        .expect("run rollarena check");
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code().unwrap_or(-1), report, output)
}

/// `f` of every item, run `width` at a time on threads of their own; the results in the items'
/// order. For checks that wait more than they compute (a bot that sleeps past its limit, the
/// grace for a late answer, a bot searching to its own clock): each run is its own processes
/// on its own clocks, so running a few side by side shortens the test, not a margin.
pub fn concurrently<T: Sync, R: Send>(
    items: &[T],
    width: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..width.min(items.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = f(item);
                    done.lock().expect("a result lock").push((i, result));
                }
            });
        }
    });
    let mut done = done.into_inner().expect("the results");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The items of a report with the given status.
pub fn items_with(report: &Value, status: &str) -> Vec<String> {
    report["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter(|i| i["status"] == status)
                .map(|i| i["item"].as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// One broken bot and what the check must say about it.
struct Case {
    /// The file in tests/bots/broken/ (without .py).
    bot: &'static str,
    /// The item that names the mistake.
    item: &'static str,
    /// Its cause (any of these; a race may decide which way a mistake shows).
    causes: &'static [&'static str],
    /// Words the problem's hint (or stderr) holds.
    says: &'static str,
    /// Other items the mistake fails too (every other item passes or is skipped).
    also: &'static [&'static str],
    /// Time limits for the check.
    flags: &'static [&'static str],
}

const QUICK: &[&str] = &["--startup", "1s", "--time", "1s"];
const EASY: &[&str] = &["--startup", "3s", "--time", "1s"];

const CASES: &[Case] = &[
    Case {
        bot: "no_flush",
        item: "handshake",
        causes: &["silent"],
        says: "Did you flush?",
        also: &["flush"],
        flags: QUICK,
    },
    Case {
        bot: "no_newline",
        item: "handshake",
        causes: &["no_newline"],
        says: "without a newline",
        also: &["flush"],
        flags: QUICK,
    },
    Case {
        bot: "slow_handshake",
        item: "handshake",
        causes: &["late"],
        says: "over the limit of 1000 ms",
        also: &[],
        flags: QUICK,
    },
    Case {
        bot: "ready_without_name",
        item: "handshake",
        causes: &["bad_message"],
        says: "\"name\" is a non-empty string",
        also: &[],
        flags: QUICK,
    },
    Case {
        bot: "illegal_move",
        item: "turn",
        causes: &["illegal"],
        says: "a1 touches no ball",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "slow_move",
        item: "turn",
        causes: &["late"],
        says: "over the limit of 1000 ms",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "move_without_type",
        item: "turn",
        causes: &["bad_message"],
        says: "the object has no \"type\" field",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "wrong_turn_id",
        item: "turn",
        causes: &["wrong_turn_id"],
        says: "Echo the turn_id",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "wrong_colour",
        item: "colours",
        causes: &["illegal"],
        says: "would be legal for red",
        also: &["rounds"],
        flags: EASY,
    },
    Case {
        bot: "ignores_illegal",
        item: "illegal",
        causes: &["no_answer"],
        says: "itself the request for another move",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "crash_on_played",
        item: "played",
        causes: &["crash"],
        says: "KeyError: 'player'",
        also: &["colours", "illegal", "rounds", "bank", "bye"],
        flags: EASY,
    },
    Case {
        bot: "answers_played",
        item: "played",
        causes: &["unasked", "illegal"],
        says: "never answer it",
        also: &["colours", "illegal", "rounds", "bank", "bye"],
        flags: EASY,
    },
    Case {
        bot: "stale_colour",
        item: "rounds",
        causes: &["illegal"],
        says: "take your colour from the new start",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "exit_after_end",
        item: "rounds",
        causes: &["crash"],
        says: "before bye",
        also: &["bye"],
        flags: EASY,
    },
    Case {
        bot: "ignores_bank",
        item: "bank",
        causes: &["late"],
        says: "plan each answer from bank_ms",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "no_exit_after_bye",
        item: "bye",
        causes: &["no_exit"],
        says: "exit as soon as you read bye",
        also: &[],
        flags: EASY,
    },
    Case {
        bot: "junk_stdout",
        item: "stdout",
        causes: &["junk"],
        says: "Log to stderr",
        also: &[],
        flags: EASY,
    },
];

/// The broken bots, copied where the bot user can read them.
fn broken_bots() -> (tempfile::TempDir, PathBuf) {
    let dir = shared_tempdir("rollarena-broken-");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/broken");
    for entry in std::fs::read_dir(&source).expect("tests/bots/broken") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "py") {
            let to = dir.path().join(path.file_name().expect("a file name"));
            std::fs::copy(&path, &to).expect("copy a broken bot");
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755))
                .expect("chmod a broken bot");
        }
    }
    let path = dir.path().to_path_buf();
    (dir, path)
}

/// What a broken bot's mistake must make the check say: the item that fails, its cause (any
/// of these; a race may decide which way a mistake shows), words of its what, hint or stderr,
/// and the other items it fails too (every other item passes or is skipped).
pub struct Verdict {
    pub item: &'static str,
    pub causes: &'static [&'static str],
    pub says: &'static str,
    pub also: &'static [&'static str],
}

/// What is wrong with the check's exit `code` and `report` on one broken bot, if anything.
pub fn judge(case: &Verdict, code: i32, report: &Value) -> Option<String> {
    if code != 1 {
        return Some(format!("exit code {code}, not 1"));
    }
    let Some(item) = report["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["item"] == case.item))
    else {
        return Some(format!("no item {} in the report", case.item));
    };
    if item["status"] != "fail" {
        return Some(format!("{} is {}, not fail", case.item, item["status"]));
    }
    let problem = &item["problem"];
    let cause = problem["cause"].as_str().unwrap_or("");
    if !case.causes.contains(&cause) {
        return Some(format!(
            "{}: cause {cause}, not {:?}",
            case.item, case.causes
        ));
    }
    let text: Vec<&str> = ["what", "hint", "stderr"]
        .iter()
        .filter_map(|k| problem[*k].as_str())
        .collect();
    let text = text.join("\n");
    if !text.contains(case.says) {
        return Some(format!(
            "{}: {:?} not found in {text}",
            case.item, case.says
        ));
    }
    if problem["exchange"].as_array().is_none_or(|e| e.is_empty()) {
        return Some(format!("{}: no exchange shown", case.item));
    }
    let mut failed = items_with(report, "fail");
    failed.sort();
    let mut expected: Vec<String> = std::iter::once(case.item)
        .chain(case.also.iter().copied())
        .map(String::from)
        .collect();
    expected.sort();
    if failed != expected {
        return Some(format!("failed items {failed:?}, expected {expected:?}"));
    }
    None
}

impl Case {
    fn verdict(&self) -> Verdict {
        Verdict {
            item: self.item,
            causes: self.causes,
            says: self.says,
            also: self.also,
        }
    }
}

#[test]
fn the_check_names_each_mistake_of_the_broken_bots() {
    let (_dir, path) = broken_bots();
    // Most of a case is waiting (a bot sleeping past its limit, the grace for a late answer),
    // so four run side by side; each case keeps its own clocks and margins.
    let wrong: Vec<String> = concurrently(CASES, 4, |case| {
        let started = Instant::now();
        let bot = format!("{PYTHON} {}/{}.py", path.display(), case.bot);
        let (code, report, output) = check(&bot, case.flags);
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "{:<18} {secs:5.1} s  failed: {:?}",
            case.bot,
            items_with(&report, "fail")
        );
        judge(&case.verdict(), code, &report).map(|why| {
            format!(
                "{}: {why}\n--- stdout\n{}\n--- stderr\n{}",
                case.bot,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn every_broken_bot_has_a_case() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/broken");
    for entry in std::fs::read_dir(&source).expect("tests/bots/broken") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(bot) = name.strip_suffix(".py")
            && bot != "common"
            && bot != "robots_broken"
            && bot != "cards_broken"
        {
            assert!(
                CASES.iter().any(|c| c.bot == bot),
                "tests/bots/broken/{name} has no case"
            );
        }
    }
}

#[test]
fn a_good_bot_passes_and_the_text_report_says_so() {
    // The built-in greedy bot is a good bot; the text report has one line per item.
    let output = Command::new(rollarena())
        .args([
            "check",
            "rollarena bot greedy",
            "--players",
            "2,4",
            "--size",
            "6",
        ])
        .output()
        .expect("run rollarena check");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let passes = text.lines().filter(|l| l.starts_with("PASS  ")).count();
    assert_eq!(passes, 10, "{text}");
    assert!(text.contains("10 passed, 0 failed, 0 skipped"), "{text}");
}

#[test]
fn bad_usage_exits_with_2() {
    for args in [
        &["check", "/no/such/bot"][..],
        &["check", "/bin/true", "--size", "4", "--players", "3"],
        &["check", "/bin/true", "--size", "5"],
        &[
            "check",
            "/bin/true",
            "--game",
            "goofspiel",
            "--players",
            "5",
        ],
        &["check", "/bin/true", "--game", "goofspiel", "--size", "6"],
        &[
            "check",
            "/bin/true",
            "--game",
            "rollerball",
            "--turn-limit",
            "x",
        ],
        &["check", "/bin/true", "--game", "robots", "--players", "3"],
        &["check", "/bin/true", "--game", "chess"],
    ] {
        let output = Command::new(rollarena())
            .args(args)
            .output()
            .expect("run rollarena check");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
