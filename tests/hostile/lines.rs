//! What a bot writes on its stdout: lines the arbiter refuses (the bot tries again on the same
//! clock), lines nobody asked for (ignored and counted), and lines that forfeit (too long, a
//! flood).

use rollarena::record::ForfeitKind::{Flood, LineTooLong};

use super::{
    Outcome, Row,
    Verdict::{Forfeit, Refused, Unasked},
};
use crate::arbiter::ply_of_turn;

/// The refused line kept as evidence contains `text`.
fn refused_line(o: &Outcome, text: &str) {
    let m = o.round().moves.iter().find(|m| !m.refused.is_empty());
    let line = &m.expect("a refused attempt").refused[0].line;
    assert!(line.contains(text), "{line:?} should contain {text:?}");
}

rows! {
    prints_garbage: Row {
        issue: "prints garbage",
        zoo: "--behaviour garbage --at 2",
        verdict: Refused("the line is not JSON"),
        check: |o| refused_line(o, "this is not json {"),
        ..Row::BASE
    };
    prints_invalid_utf8: Row {
        issue: "prints invalid UTF-8",
        zoo: "--behaviour bad-utf8 --at 2",
        verdict: Refused("the line is not valid UTF-8"),
        check: |o| refused_line(o, "\u{fffd}"),
        ..Row::BASE
    };
    prints_an_empty_line: Row {
        issue: "prints an empty line",
        zoo: "--behaviour empty-line --at 2",
        verdict: Refused("the line is empty"),
        ..Row::BASE
    };
    prints_json_that_is_not_an_object: Row {
        issue: "prints JSON that is not an object",
        zoo: "--behaviour not-object --at 2",
        verdict: Refused("the line is JSON but not an object"),
        check: |o| refused_line(o, "[1, 2"),
        ..Row::BASE
    };
    prints_a_number_for_a_square: Row {
        issue: "prints a move with a number instead of a square",
        zoo: "--behaviour number-move --at 2",
        verdict: Refused("a move is a square name in a string"),
        check: |o| refused_line(o, r#""move":42"#),
        ..Row::BASE
    };
    plays_an_occupied_square: Row {
        issue: "plays an occupied square",
        zoo: "--behaviour occupied --at 2",
        verdict: Refused("is occupied"),
        ..Row::BASE
    };
    plays_off_the_board: Row {
        issue: "plays a square off the board",
        zoo: "--behaviour off-board --at 2",
        verdict: Refused("e1 is off the 4x4 board"),
        ..Row::BASE
    };
    plays_no_capture_when_one_exists: Row {
        issue: "plays a non-capturing square when a capture exists",
        zoo: "--behaviour no-capture --at 2",
        verdict: Refused("a capture is possible"),
        ..Row::BASE
    };
    /// 100 MiB with no newline, written 1 MiB at a time: the arbiter keeps at most the line
    /// limit (1 MiB by default) of it, forfeits the bot, stops reading and kills it (blocked
    /// on its full pipe).
    prints_a_100_mb_line: Row {
        issue: "prints a 100 MB line with no newline",
        zoo: "--behaviour huge-line --at 2",
        verdict: Forfeit(LineTooLong, "a line longer than 1048576 bytes"),
        serial: true,
        check: |o| {
            let f = o.forfeit();
            assert_eq!(f.ply, ply_of_turn(o.round(), 1, 2));
            let line = f.line.as_deref().expect("the line's head is evidence");
            assert!(line.starts_with("xxxx") && line.len() <= 300, "{} bytes", line.len());
            assert!(f.exit.is_none(), "it was blocked writing, still alive");
        },
        ..Row::BASE
    };
    /// 5,000 well-formed moves naming another turn, in one write: over the 1,000 unasked lines
    /// allowed per round.
    floods_stdout_with_moves: Row {
        issue: "floods stdout with valid-looking lines",
        zoo: "--behaviour flood-stdout --count 5000 --at 2",
        verdict: Forfeit(Flood, "more than 1000 unasked lines in one round"),
        serial: true,
        check: |o| {
            assert_eq!(o.forfeit().ply, ply_of_turn(o.round(), 1, 2));
            let line = o.forfeit().line.as_deref().unwrap();
            assert!(line.contains(r#""turn_id":0"#), "{line}");
            let examples = o.round().faults.iter().filter(|f| f.kind == "unasked").count();
            assert!(examples <= 5, "at most 5 examples kept: {examples}");
        },
        ..Row::BASE
    };
    /// Valid `log` messages, 80 kB of them in one turn: over the 64 KiB allowed per round.
    floods_stdout_with_logs: Row {
        issue: "floods stdout with valid-looking lines",
        zoo: "--behaviour log-flood --at 2",
        verdict: Forfeit(Flood, "more than 65536 bytes of log messages in one round"),
        check: |o| {
            let kept: usize = o.round().logs.iter().map(|l| l.text.len()).sum();
            assert!(kept <= 64 * 1024, "logs kept within the limit: {kept}");
        },
        ..Row::BASE
    };
    /// Both answers in one write; the first (without `turn_id`) is played, the second is
    /// unasked: read after the move was accepted ("sent when nothing was asked"), or after
    /// the next `turn` was sent ("answers another turn", as it names the old `turn_id`).
    answers_twice: Row {
        issue: "answers twice",
        zoo: "--behaviour twice --at 1",
        verdict: Unasked(""),
        check: |o| {
            let faults: Vec<_> = o.round().faults.iter().filter(|f| f.seat == 1).collect();
            assert_eq!(faults.len(), 1, "{faults:#?}");
            assert!(
                ["sent when nothing was asked", "answers another turn"]
                    .iter()
                    .any(|d| faults[0].detail.starts_with(d)),
                "{faults:#?}"
            );
        },
        ..Row::BASE
    };
    answers_before_it_is_asked: Row {
        issue: "answers before it is asked",
        zoo: "--behaviour early --when ready",
        verdict: Unasked("sent when nothing was asked"),
        check: |o| {
            let f = o.round().faults.iter().find(|f| f.seat == 1).unwrap();
            assert_eq!(f.line.as_deref(), Some(r#"{"type":"move","move":"a1"}"#));
        },
        ..Row::BASE
    };
}
