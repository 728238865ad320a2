//! Attempts the arbiter refuses (the bot tries again on the same clock), retries running out,
//! and lines nobody asked for (ignored and counted, up to the flood limit).

use serde_json::Value;

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
fn refused_not_json() {
    refused_once("garbage", "garbage", "not JSON", "this is not json {");
}

#[test]
fn refused_not_an_object() {
    refused_once(
        "not-object",
        "not-object",
        "JSON but not an object",
        "[1, 2",
    );
}

#[test]
fn refused_move_not_a_square() {
    refused_once(
        "number-move",
        "number-move",
        "a move is a square name",
        r#""move":42"#,
    );
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
fn refused_unknown_type() {
    refused_once(
        "unknown-type",
        "unknown-type",
        "unknown message type \"dance\"",
        "dance",
    );
}

#[test]
fn refused_occupied_square() {
    refused_once("occupied", "occupied", "is occupied", r#""type":"move""#);
}

#[test]
fn refused_off_the_board() {
    refused_once("off-board", "off-board", "e1 is off the 4x4 board", "e1");
}

#[test]
fn refused_no_capture_when_one_exists() {
    refused_once(
        "no-capture",
        "no-capture",
        "a capture is possible",
        r#""type":"move""#,
    );
}

#[test]
fn refused_then_retry_succeeds() {
    refused_once("illegal-once", "illegal-once", "occupied", "move");
}

/// `--retries 2` means 3 attempts on one clock: each `illegal` tells less time left, and the
/// third refusal forfeits the round (`retries`), with every attempt kept as evidence.
#[test]
fn retries_run_out_on_one_clock() {
    let _timing = timing_lock();
    let run = Arena::new("retries")
        .flags(&["--time", "5s", "--retries", "2"])
        .zoo("")
        .zoo("--log-messages --behaviour always-illegal --at 2 --round 1 --pause 0.3")
        .run();
    let rounds = run.ok(2);
    let r = &rounds[0];
    let f = assert_forfeit(r, 1, ForfeitKind::Retries);
    assert_eq!(f.ply, ply_of_turn(r, 1, 2));
    assert!(f.detail.contains("3 attempts refused"), "{}", f.detail);
    assert!(f.detail.contains("occupied"), "{}", f.detail);
    assert!(f.line.as_deref().unwrap().contains(r#""type":"move""#));
    assert!(f.exit.is_none());

    // The refused attempts stay in the record, on the move the arbiter played instead.
    let m = &r.moves[f.ply as usize - 1];
    assert!(m.by_arbiter);
    assert_eq!(m.refused.len(), 3, "every refused attempt: {m:#?}");
    let ms: Vec<f64> = m.refused.iter().map(|a| a.ms).collect();
    assert!(ms.windows(2).all(|w| w[1] >= w[0] + 250.0), "{ms:?}");

    // What the bot was told: one turn, then two `illegal` on the same turn id, with fewer
    // retries and less time left each time.
    let got = received(rounds, 1);
    let turn_at = got
        .iter()
        .enumerate()
        .filter(|(_, g)| g["got"] == "turn")
        .nth(1)
        .map(|(i, _)| i)
        .unwrap();
    let turn = &got[turn_at];
    assert_eq!(turn["time_ms"], 5000);
    let illegal: Vec<&Value> = got[turn_at..]
        .iter()
        .take_while(|g| g["got"] != "start")
        .filter(|g| g["got"] == "illegal")
        .collect();
    assert_eq!(illegal.len(), 2, "{got:#?}");
    let left: Vec<u64> = illegal
        .iter()
        .map(|i| i["time_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(illegal[0]["retries_left"], 1);
    assert_eq!(illegal[1]["retries_left"], 0);
    for i in &illegal {
        assert_eq!(i["turn_id"], turn["turn_id"], "no new turn");
    }
    assert!(left[0] < 5000, "{left:?}");
    assert!(left[1] + 250 <= left[0], "the clock runs on: {left:?}");

    // Restarted for round 2, where it plays every move itself.
    assert_clean(&rounds[1], 1);
    assert!(got.iter().filter(|g| g["got"] == "hello").count() == 2);
}

/// `--retries 0`: the first refused attempt forfeits.
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

/// A second answer to the same turn is ignored and counted; the first one is played.
#[test]
fn answering_twice() {
    let run = Arena::new("twice")
        .flags(&["--rounds", "1"])
        .zoo("")
        .zoo("--behaviour twice --at 1")
        .run();
    let r = &run.ok(1)[0];
    assert!(r.forfeits.is_empty());
    let faults = unasked(r, 1);
    assert_eq!(faults.len(), 1, "{:#?}", r.faults);
    let ply = ply_of_turn(r, 1, 1);
    let turn_id = faults[0].line.as_deref().unwrap();
    assert!(turn_id.contains(r#""type":"move""#), "{turn_id}");
    assert!(!r.moves[ply as usize - 1].by_arbiter);
    assert!(r.moves.iter().all(|m| m.refused.is_empty()));
    assert!(r.moves.iter().all(|m| !m.by_arbiter));
}

/// A move sent with `ready`, before anything was asked, is ignored and counted.
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

/// A move sent right after `start` while another seat thinks (no freezing, so the bot can
/// send it) is ignored and counted, in the round where the bot does not move first.
#[test]
fn a_move_after_start_while_another_thinks() {
    let _timing = timing_lock();
    let run = Arena::new("early-start")
        .flags(&["--no-freeze"])
        .zoo("--behaviour slow --delay 0.3")
        .zoo("--behaviour early --when start")
        .run();
    let rounds = run.ok(2);
    for r in rounds {
        assert_complete(r);
        assert!(r.forfeits.is_empty());
        let faults = unasked(r, 1);
        if r.first == 1 {
            assert!(faults.is_empty(), "{faults:#?}");
        } else {
            assert_eq!(faults.len(), 1, "{:#?}", r.faults);
            assert_eq!(faults[0].detail, "sent when nothing was asked");
        }
        assert!(
            r.moves
                .iter()
                .all(|m| m.refused.is_empty() && !m.by_arbiter)
        );
    }
    assert!(rounds.iter().any(|r| r.first == 0), "seats rotate");
}

/// An answer naming a past turn is ignored and counted (it names an occupied square, so it
/// would have been refused had it been read as the answer); the right one is played.
#[test]
fn an_answer_naming_an_old_turn() {
    let run = Arena::new("late-turn-id")
        .flags(&["--rounds", "1"])
        .zoo("")
        .zoo("--log-messages --behaviour late-turn-id --at 2")
        .run();
    let r = &run.ok(1)[0];
    assert!(r.forfeits.is_empty());
    let faults = unasked(r, 1);
    assert_eq!(faults.len(), 1, "{:#?}", r.faults);
    assert_eq!(faults[0].detail, "answers another turn");
    let line: Value = serde_json::from_str(faults[0].line.as_deref().unwrap()).unwrap();
    let got = received(&run.rounds, 1);
    let turn = got.iter().filter(|g| g["got"] == "turn").nth(1).unwrap();
    let turn_id = turn["turn_id"].as_u64().unwrap();
    assert_eq!(line["turn_id"].as_u64(), Some(turn_id - 1));
    assert!(
        r.moves
            .iter()
            .all(|m| m.refused.is_empty() && !m.by_arbiter)
    );
}

/// `ready` in the middle of a match is ignored and counted.
#[test]
fn ready_again_mid_match() {
    let run = Arena::new("ready-again")
        .flags(&["--rounds", "1"])
        .zoo("")
        .zoo("--behaviour ready-again --at 3")
        .run();
    let r = &run.ok(1)[0];
    assert!(r.forfeits.is_empty());
    let faults = unasked(r, 1);
    assert_eq!(faults.len(), 1, "{:#?}", r.faults);
    assert_eq!(faults[0].detail, "ready sent mid-match");
    assert!(r.moves.iter().all(|m| !m.by_arbiter));
}

/// Unasked lines under the limit are counted (a few kept as examples); over it, the seat
/// forfeits for flooding.
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
