//! `rollarena check --game robots` against Rock'n'Roll Robot bots that get one thing wrong:
//! `tests/bots/broken/robots_broken.py MISTAKE`, the Python starter kit (copied beside it as
//! `kit.py`) with one mistake. The check must name it (the item, the cause, words of the
//! diagnosis), fail no item the mistake does not explain, and exit with 1; the kit itself
//! passes (tests/kits/).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Instant;

use super::{PYTHON, Verdict, check, concurrently, items_with, judge, shared_tempdir};

/// One mistake and what the check must say about it.
struct Case {
    mistake: &'static str,
    item: &'static str,
    causes: &'static [&'static str],
    /// Words of the problem's what, hint or stderr.
    says: &'static str,
    /// Other items the mistake fails too.
    also: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        mistake: "declare_low",
        item: "declare",
        causes: &["illegal"],
        says: "no solution is that short",
        also: &[],
    },
    Case {
        mistake: "move_instead",
        item: "declare",
        causes: &["bad_message"],
        says: "Rock'n'Roll Robot has no turns",
        also: &[],
    },
    Case {
        mistake: "wrong_solution",
        item: "prove",
        causes: &["illegal"],
        says: "its demonstration of its declaration",
        also: &["others", "quiet", "solo"],
    },
    Case {
        mistake: "silent_on_prove",
        item: "prove",
        causes: &["no_answer"],
        says: "no solution within",
        also: &["others", "quiet", "solo"],
    },
    Case {
        mistake: "early_solution",
        item: "prove",
        causes: &["illegal"],
        says: "the rules refuse its solution",
        // Alone, the unasked solution answers the prove sent right after the declaration, and
        // the real answer arrives after the token, as junk.
        also: &["others", "pass", "quiet", "bye", "stdout"],
    },
    Case {
        mistake: "crash_on_declared",
        item: "others",
        causes: &["crash"],
        says: "did not expect another seat to declare",
        also: &["quiet"],
    },
    Case {
        mistake: "crash_on_lost",
        item: "quiet",
        causes: &["crash"],
        says: "did not expect to lose a token",
        also: &[],
    },
    Case {
        mistake: "pass_solo",
        item: "solo",
        causes: &["illegal"],
        says: "playing alone, it passed after declaring",
        also: &[],
    },
    Case {
        mistake: "no_pass",
        item: "pass",
        causes: &["no_answer"],
        says: "no pass after its declaration",
        also: &[],
    },
];

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
fn the_check_names_each_mistake_of_the_broken_robots_bots() {
    let dir = shared_tempdir("rollarena-broken-robots-");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        ("tests/bots/broken/robots_broken.py", "robots_broken.py"),
        ("examples/python/bot.py", "kit.py"),
    ] {
        let target = dir.path().join(to);
        std::fs::copy(root.join(from), &target).expect("copy a bot");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644))
            .expect("chmod a bot");
    }
    // Each case is its own check on its own clocks, and most of one is waiting (a silent
    // bot's four items wait out a second and a 2 s grace each), so three run side by side.
    let wrong: Vec<String> = concurrently(CASES, 3, |case| {
        let started = Instant::now();
        let bot = format!(
            "{PYTHON} {}/robots_broken.py {}",
            dir.path().display(),
            case.mistake
        );
        let flags = ["--game", "robots", "--startup", "3s", "--time", "1s"];
        let (code, report, output) = check(&bot, &flags);
        eprintln!(
            "{:<18} {:5.1} s  failed: {:?}",
            case.mistake,
            started.elapsed().as_secs_f64(),
            items_with(&report, "fail")
        );
        judge(&case.verdict(), code, &report).map(|why| {
            format!(
                "{}: {why}\n--- stdout\n{}\n--- stderr\n{}",
                case.mistake,
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
fn every_mistake_has_a_case() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/broken/robots_broken.py");
    let text = std::fs::read_to_string(path).expect("robots_broken.py");
    let doc = text.split("\"\"\"").nth(1).expect("a docstring");
    let listed: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("Mistakes:"))
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!listed.is_empty());
    for m in listed {
        assert!(
            CASES.iter().any(|c| c.mistake == m),
            "robots_broken.py {m} has no case"
        );
    }
}

#[test]
fn the_built_in_solver_passes_and_the_text_report_says_so() {
    let output = std::process::Command::new(super::rollarena())
        .args(["check", "rollarena bot solver", "--game", "robots"])
        .output()
        .expect("run rollarena check");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains(": robots, two seats (and one alone for solo),"),
        "{text}"
    );
    for item in [
        "handshake",
        "declare",
        "prove",
        "others",
        "pass",
        "quiet",
        "solo",
        "bye",
        "stdout",
        "flush",
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("PASS  {item} "))),
            "{item}: {text}"
        );
    }
    assert!(text.contains("10 passed, 0 failed, 0 skipped"), "{text}");
}
