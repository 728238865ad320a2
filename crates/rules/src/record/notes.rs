//! What a terminal says about a round's forfeits and faults: the cause a record holds (the
//! limit reached, the exit status or signal, the last line of stderr, the lines the arbiter
//! ignored before a timeout), on the line of the round, so that nobody has to open the record
//! to learn why a bot lost a round. The words are `check`'s where `check` has them (the flush
//! hint lives here, the lowest layer, and `check::hints` names it). It sits beside the fault
//! types so that every layer that prints rounds (`match`, a tournament's progress lines) says
//! the same.

use std::collections::BTreeMap;

use super::fault::{Fault, Forfeit, ForfeitKind};

/// Nothing arrived at all, even after a grace period.
pub const SILENT: &str = "Nothing arrived. The usual cause: the answer is stuck in your \
program's output buffer, because stdout is a pipe, not a terminal, and is flushed only when the \
buffer fills. Did you flush? Flush after every line: Python print(..., flush=True); C \
fflush(stdout); C++ std::endl or std::flush; Java System.out.flush() (or a PrintStream with \
autoflush and println); Rust out.flush() on a locked stdout. Otherwise the bot is stuck: reading \
more than one line before answering (read a line at a time, not the whole input), or thinking \
longer than the time limit.";

/// Longest stderr line shown on a round's line, in characters.
const STDERR_SHOWN: usize = 120;

/// `[name forfeited at move N: cause]`, with the evidence the record holds. `faults` are the
/// round's faults (the seat's own are picked out).
pub fn forfeit_note(name: &str, f: &Forfeit, faults: &[Fault]) -> String {
    format!("[{}]", forfeit_cause(name, f, faults))
}

/// `name forfeited at move N: cause`: [`forfeit_note`] without its brackets, for a line of its
/// own.
pub fn forfeit_cause(name: &str, f: &Forfeit, faults: &[Fault]) -> String {
    let at = if f.ply == 0 {
        "before its first move".to_string()
    } else {
        format!("at move {}", f.ply)
    };
    let mut note = format!("{name} forfeited {at}: {}: {}", f.kind, f.detail);
    if let Some(exit) = &f.exit
        && !f.detail.contains(&exit.to_string())
    {
        note.push_str(&format!(" (it {exit})"));
    }
    let ignored: Vec<&Fault> = faults
        .iter()
        .filter(|x| x.seat == f.seat && x.kind.name() == "unasked")
        .collect();
    if !ignored.is_empty() && matches!(f.kind, ForfeitKind::Timeout | ForfeitKind::Startup) {
        note.push_str(&format!("; {}", ignored_lines(&ignored)));
    } else if f.kind == ForfeitKind::Startup && f.line.is_none() && f.stderr_tail.trim().is_empty()
    {
        // Nothing arrived at all: the usual cause is an unflushed `ready`.
        note.push_str(&format!(". {}", SILENT));
    }
    if let Some(line) = &f.line {
        note.push_str(&format!("; the line: {}", cut(line)));
    }
    if let Some(last) = f.stderr_tail.lines().rev().find(|l| !l.trim().is_empty()) {
        note.push_str(&format!("; last stderr line: {}", cut(last.trim())));
    }
    note
}

/// "1 line ignored: turn_id 2 is not the turn's (answers another turn)", from the seat's
/// `unasked` faults (the first one's detail holds the round's count where it is over one).
fn ignored_lines(ignored: &[&Fault]) -> String {
    let count = ignored
        .first()
        .and_then(|f| {
            let open = f.detail.rfind('(')?;
            f.detail[open + 1..]
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .unwrap_or(ignored.len());
    let examples: Vec<String> = ignored
        .iter()
        .take(2)
        .map(|f| {
            let why = f.detail.split(" (").next().unwrap_or(&f.detail);
            let line = f.line.as_deref().unwrap_or("");
            let turn = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("turn_id").and_then(serde_json::Value::as_u64));
            match turn {
                Some(t) if why.contains("another") => {
                    format!("turn_id {t} is not the turn asked ({why}): {}", cut(line))
                }
                _ => format!("{why}: {}", cut(line)),
            }
        })
        .collect();
    format!(
        "{} before it: {}",
        plural(count, "line ignored", "lines ignored"),
        examples.join("; ")
    )
}

/// The round's faults that are not part of a forfeit, one short note per seat and kind.
pub fn fault_notes(names: &[String], faults: &[Fault]) -> Vec<String> {
    let mut by: BTreeMap<(usize, String), Vec<&Fault>> = BTreeMap::new();
    for f in faults {
        by.entry((f.seat, f.kind.name().to_string()))
            .or_default()
            .push(f);
    }
    by.into_iter()
        .map(|((seat, kind), list)| {
            let name = names.get(seat).map(String::as_str).unwrap_or("?");
            let first = list[0];
            let line = first
                .line
                .as_deref()
                .map(|l| format!(": {}", cut(l)))
                .unwrap_or_default();
            format!("[{name}: {kind}: {}{line}]", first.detail)
        })
        .collect()
}

/// "1 table", "2 tables": a count with its noun.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= STDERR_SHOWN {
        text.to_string()
    } else {
        let head: String = text.chars().take(STDERR_SHOWN).collect();
        format!("{head}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::ExitInfo;

    fn forfeit(kind: ForfeitKind, ply: u32, detail: &str) -> Forfeit {
        Forfeit {
            seat: 1,
            kind,
            ply,
            at_ms: None,
            turn_id: None,
            detail: detail.into(),
            line: None,
            exit: None,
            stderr_tail: String::new(),
        }
    }

    /// Before: `[hog forfeited: crash at move 1]`, whatever the record knew.
    #[test]
    fn a_crash_names_its_limit_its_signal_and_its_last_words() {
        let mut f = forfeit(
            ForfeitKind::Crash,
            1,
            "the bot was killed by signal 9 (SIGKILL): it reached its memory limit (100 MiB used \
             at the peak)",
        );
        f.exit = Some(ExitInfo {
            code: None,
            signal: Some(9),
        });
        f.stderr_tail = "Traceback...\n  big = [0] * 10**9\nMemoryError\n\n".into();
        let note = forfeit_note("hog", &f, &[]);
        assert!(note.starts_with("[hog forfeited at move 1: crash: the bot was killed"));
        assert!(note.contains("memory limit (100 MiB"), "{note}");
        assert!(!note.contains("(it was killed"), "said once: {note}");
        assert!(note.ends_with("; last stderr line: MemoryError]"), "{note}");
        let mut exit = forfeit(ForfeitKind::ClosedStdout, 3, "the bot closed its stdout");
        exit.exit = Some(ExitInfo {
            code: Some(2),
            signal: None,
        });
        assert!(forfeit_note("x", &exit, &[]).contains("(it exited with status 2)"));
    }

    /// Before: a timeout said only `timeout`, though the bot had answered with a wrong turn_id.
    #[test]
    fn a_timeout_names_the_lines_it_ignored() {
        let f = forfeit(ForfeitKind::Timeout, 2, "no answer within 1000 ms");
        let faults = [Fault {
            seat: 1,
            kind: "unasked".into(),
            detail: "answers another turn".into(),
            line: Some(r#"{"type":"move","move":"c4","turn_id":2}"#.into()),
        }];
        let note = forfeit_note("late", &f, &faults);
        assert!(
            note.contains("1 line ignored before it: turn_id 2 is not the turn asked"),
            "{note}"
        );
        // Another seat's faults are not this seat's.
        let other = [Fault {
            seat: 0,
            ..faults[0].clone()
        }];
        assert!(!forfeit_note("late", &f, &other).contains("ignored"));
    }

    /// Before: a bot that never flushed `ready` got `startup at move 0` and no hint.
    #[test]
    fn a_silent_start_gets_the_flush_hint() {
        let f = forfeit(ForfeitKind::Startup, 0, "no ready within 10000 ms of hello");
        let note = forfeit_note("quiet", &f, &[]);
        assert!(note.contains("before its first move"), "{note}");
        assert!(note.contains("Did you flush?"), "{note}");
        let mut spoke = f.clone();
        spoke.stderr_tail = "loading weights\n".into();
        assert!(!forfeit_note("quiet", &spoke, &[]).contains("Did you flush?"));
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "table", "tables"), "1 table");
        assert_eq!(plural(0, "table", "tables"), "0 tables");
        assert_eq!(plural(2, "round", "rounds"), "2 rounds");
    }
}
