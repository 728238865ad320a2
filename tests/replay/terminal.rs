//! The terminal replay, plain (stdout is a pipe here): snapshots of a 4x4 game with the
//! timings and the match id redacted, and the paces (`--to`, `--step`, `--delay`).
//!
//! Snapshots live in `tests/replay/snapshots/`; `UPDATE_SNAPSHOTS=1 cargo test --test tests
//! replay` rewrites them.

use std::path::Path;

use super::{lines, records, rollarena, text};

/// Replaces the numbers of durations ("0.156 ms", "1.24 s") with "T".
fn redact_times(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if starts {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let rest: String = chars[j..chars.len().min(j + 4)].iter().collect();
            let unit = rest.starts_with(" ms")
                || (rest.starts_with(" s") && !rest[2..].starts_with(|c: char| c.is_alphabetic()));
            if unit {
                out.push('T');
            } else {
                out.extend(&chars[i..j]);
            }
            i = j;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The output with what differs between runs (timings, the match id) and between releases
/// (the built-in bots' version, which is rollarena's) redacted; CPU times are left out (the OS
/// may not tell them).
pub(super) fn redact(out: &str, record: &Path) -> String {
    let id = lines(record)[0]["match"].as_str().unwrap().to_string();
    redact_times(&out.replace(&id, "<match>"))
        .replace(", CPU T ms", "")
        .replace(concat!(" ", env!("CARGO_PKG_VERSION"), ")"), " VERSION)")
}

/// Compares with a stored snapshot (or rewrites it with UPDATE_SNAPSHOTS=1).
pub(super) fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/replay/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot {}; run UPDATE_SNAPSHOTS=1 cargo test --test tests replay",
            path.display()
        )
    });
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "snapshot {name} differs from line {}:\n--- expected\n{}\n--- actual\n{}\n\
             (UPDATE_SNAPSHOTS=1 rewrites it)",
            first + 1,
            expected
                .lines()
                .skip(first)
                .take(8)
                .collect::<Vec<_>>()
                .join("\n"),
            actual
                .lines()
                .skip(first)
                .take(8)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
}

fn replay(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let out = rollarena(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

#[test]
fn redaction_keeps_everything_but_durations() {
    assert_eq!(
        redact_times("move 3/12: red d1 in 0.131 ms, CPU 10 ms; 1.24 s; red 3, 2 seats"),
        "move 3/12: red d1 in T ms, CPU T ms; T s; red 3, 2 seats"
    );
}

#[test]
fn a_whole_game_plain() {
    let r = records();
    let file = r.small.to_str().unwrap();
    let (code, out, err) = replay(&["replay", file, "--round", "2"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    assert_eq!(out.matches("scores:").count(), 13, "the start and 12 moves");
    snapshot("small-game-2", &redact(&out, &r.small));
}

#[test]
fn faults_show_where_they_happened() {
    let r = records();
    let (code, out, err) = replay(
        &["replay", r.faults.to_str().unwrap(), "--round", "1"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("forfeits (crash)"), "{out}");
    assert!(out.contains("played by the arbiter"), "{out}");
    assert!(out.contains("refused attempt 1 at"), "{out}");
    assert!(out.contains("is occupied"), "{out}");
    assert!(out.contains("result:"), "{out}");
}

#[test]
fn paces() {
    let r = records();
    let file = r.small.to_str().unwrap();
    // --to alone: that position only.
    let (code, out, _) = replay(&["replay", file, "--round", "1", "--to", "5"], None);
    assert_eq!(code, 0);
    assert_eq!(out.matches("scores:").count(), 1);
    assert!(out.contains("move 5/12:"), "{out}");
    snapshot("small-game-1-to-5", &redact(&out, &r.small));
    // --step: Enter twice then q: the start and two moves.
    let (code, out, err) = replay(&["replay", file, "--round", "1", "--step"], Some("\n\nq\n"));
    assert_eq!(code, 0);
    assert_eq!(out.matches("scores:").count(), 3, "{out}");
    assert!(
        err.contains("[Enter: next move"),
        "the prompt goes to stderr: {err}"
    );
    // --step from --to, to the end of the input: stops when the input ends.
    let (_, out, _) = replay(
        &["replay", file, "--round", "1", "--to", "10", "--step"],
        Some("\n\n\n\n"),
    );
    assert!(
        out.contains("move 12/12") && out.contains("result:"),
        "{out}"
    );
    // --delay plays everything, pausing.
    let started = std::time::Instant::now();
    let (code, out, _) = replay(&["replay", file, "--round", "1", "--delay", "20ms"], None);
    assert_eq!(code, 0);
    assert_eq!(out.matches("scores:").count(), 13);
    assert!(started.elapsed().as_millis() >= 12 * 20);
    // All games without --game.
    let (_, out, _) = replay(&["replay", file], None);
    assert!(out.contains("round 1 of 2") && out.contains("round 2 of 2"));
    // Bad paces are usage errors.
    assert_eq!(
        replay(&["replay", file, "--round", "1", "--to", "13"], None).0,
        2
    );
    assert_eq!(
        replay(&["replay", file, "--step", "--delay", "1s"], None).0,
        2
    );
    assert_eq!(
        replay(&["replay", file, "--verify", "--to", "3"], None).0,
        2
    );
}
