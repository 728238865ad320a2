//! What only a real bot process shows of refusals and unasked lines: bytes that are not UTF-8
//! and empty lines through a pipe, a retry after a refusal, no retries at all, a move sent with
//! `ready`, and a flood of lines. Every refusal reason, retries on one clock, the margin and
//! each kind of unasked line are tested as data on the referee (tests/referee/sequential.rs).

use super::*;
use rollarena::record::ForfeitKind;

/// Seat 1 misbehaves once on its second turn with `behaviour`, then plays a legal move: the
/// move is the bot's own, with exactly one refused attempt whose reason and line are kept.
fn refused_once(name: &str, behaviour: &str, reason: &str, line: &str) {
    let run = Arena::new(name)
        .flags(&["--rounds", "1"])
        .zoo("")
        .zoo(&format!("--behaviour {behaviour} --at 2"))
        .run();
    let r = &run.ok(1)[0];
    assert_complete(r);
    assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
    assert!(r.faults.is_empty(), "{:#?}", r.faults);
    let refused: Vec<_> = r.moves.iter().filter(|m| !m.refused.is_empty()).collect();
    assert_eq!(refused.len(), 1, "one move with a refused attempt");
    let m = refused[0];
    assert_eq!(m.seat, 1);
    assert!(!m.by_arbiter, "the retry succeeded");
    assert_eq!(m.ply, ply_of_turn(r, 1, 2), "on the bot's second turn");
    assert_eq!(m.refused.len(), 1);
    let attempt = &m.refused[0];
    assert!(
        attempt.reason.contains(reason),
        "{behaviour}: reason {:?} should contain {reason:?}",
        attempt.reason
    );
    assert!(
        attempt.line.contains(line),
        "{behaviour}: line {:?} should contain {line:?}",
        attempt.line
    );
    assert!(attempt.ms <= m.ms, "the refusal came before the move");
    assert_eq!(r.result.points.iter().filter(|&&p| p > 0).count(), 2);
}

#[test]
fn refused_empty_line() {
    refused_once("empty-line", "empty-line", "the line is empty", "");
}

#[test]
fn refused_bad_utf8() {
    // The evidence is kept lossily (U+FFFD for the bad bytes).
    refused_once("bad-utf8", "bad-utf8", "not valid UTF-8", "\u{fffd}");
}

#[test]
fn refused_then_retry_succeeds() {
    refused_once("illegal-once", "illegal-once", "occupied", "move");
}

#[test]
fn no_retries_means_one_attempt() {
    let run = Arena::new("retries0")
        .flags(&["--rounds", "1", "--retries", "0"])
        .zoo("")
        .zoo("--behaviour illegal-once --at 1")
        .run();
    let r = &run.ok(1)[0];
    let f = assert_forfeit(r, 1, ForfeitKind::Retries);
    assert_eq!(f.ply, ply_of_turn(r, 1, 1));
    assert_eq!(r.moves[f.ply as usize - 1].refused.len(), 1);
    assert_eq!(r.settings.retries, 0);
}

/// The unasked faults of a seat in a round.
fn unasked(r: &RoundRecord, seat: usize) -> Vec<&rollarena::record::Fault> {
    r.faults
        .iter()
        .filter(|f| f.seat == seat && f.kind == "unasked")
        .collect()
}

#[test]
fn a_move_before_being_asked() {
    let run = Arena::new("early")
        .flags(&["--rounds", "1"])
        .zoo("")
        .zoo("--behaviour early --when ready")
        .run();
    let r = &run.ok(1)[0];
    assert!(r.forfeits.is_empty());
    let faults = unasked(r, 1);
    assert_eq!(faults.len(), 1, "{:#?}", r.faults);
    assert_eq!(faults[0].detail, "sent when nothing was asked");
    assert_eq!(
        faults[0].line.as_deref(),
        Some(r#"{"type":"move","move":"a1"}"#)
    );
    assert!(
        r.moves
            .iter()
            .all(|m| m.refused.is_empty() && !m.by_arbiter)
    );
}

#[test]
fn unasked_lines_counted_then_flood() {
    let run = Arena::new("unasked-5")
        .flags(&["--rounds", "1", "--max-unasked", "10"])
        .zoo("")
        .zoo("--behaviour flood-stdout --count 5 --at 2")
        .run();
    let r = &run.ok(1)[0];
    assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
    let faults = unasked(r, 1);
    assert_eq!(faults.len(), 5, "five examples kept");
    assert!(
        faults[0].detail.contains("(5 unasked lines this round)"),
        "{}",
        faults[0].detail
    );
    assert!(r.moves.iter().all(|m| !m.by_arbiter));

    let run = Arena::new("unasked-50")
        .flags(&["--max-unasked", "10"])
        .zoo("")
        .zoo("--behaviour flood-stdout --count 50 --at 2 --round 1")
        .run();
    let rounds = run.ok(2);
    let r = &rounds[0];
    let f = assert_forfeit(r, 1, ForfeitKind::Flood);
    assert_eq!(f.ply, ply_of_turn(r, 1, 2));
    assert!(
        f.detail.contains("more than 10 unasked lines"),
        "{}",
        f.detail
    );
    assert!(f.line.as_deref().unwrap().contains(r#""turn_id":0"#));
    let faults = unasked(r, 1);
    assert!(faults.len() <= 5, "at most five examples: {faults:#?}");
    assert!(faults[0].detail.contains("(11 unasked lines this round)"));
    assert_clean(&rounds[1], 1);
}
