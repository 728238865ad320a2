//! Turn-based play (Rolit on 4x4, two seats, a 1 s clock with a 100 ms margin): retries on
//! one clock, the margin, unasked and late lines, flooding, logs, every forfeit kind with the
//! arbiter's fallback moves and the forfeit ranking, freezing.

use super::*;
use rollarena::referee::Output;

/// Seat asked first and the other one.
fn seats(t: &Table) -> (Seat, Seat) {
    let first = t.asked();
    (first, 1 - first)
}

#[test]
fn refused_attempts_share_one_clock() {
    let mut t = Table::new(&rolit_4x4(), settings(), 1);
    let (a, _) = seats(&t);
    let turn_id = t.request(a)["turn_id"].as_u64().unwrap();
    assert_eq!(t.request(a)["time_ms"], 1000);
    t.says(100.0, a, "this is not json {");
    let illegal = t.last(a).clone();
    assert_eq!(illegal["type"], "illegal");
    assert_eq!(illegal["turn_id"], turn_id);
    assert_eq!(illegal["retries_left"], 1);
    assert_eq!(illegal["time_ms"], 900, "the clock did not restart");
    assert!(illegal["reason"].as_str().unwrap().contains("not JSON"));
    t.says(250.0, a, &mv("z9"));
    assert_eq!(t.last(a)["retries_left"], 0);
    assert_eq!(t.last(a)["time_ms"], 750);
    let legal = t.first_legal(a);
    t.says(400.0, a, &mv(&legal));
    let m = &t.referee.play().moves[0];
    assert_eq!((m.seat, m.by_arbiter, m.ms), (a, false, 400.0));
    assert_eq!(m.cpu_ms, Some(1.5));
    let reasons: Vec<_> = m.refused.iter().map(|r| (r.ms, r.reason.clone())).collect();
    assert_eq!(reasons.len(), 2);
    assert_eq!(reasons[0].0, 100.0);
    assert_eq!(reasons[1].0, 250.0);
    assert!(m.refused[1].line.contains("z9"));
    assert!(t.referee.play().forfeits.is_empty());
    // Every seat heard of the move, the mover included; then the other seat is asked.
    for seat in 0..2 {
        let played: Vec<_> = t.received[seat]
            .iter()
            .filter(|m| m["type"] == "played")
            .collect();
        assert_eq!(played.len(), 1);
        assert_eq!(played[0]["move"], legal.as_str());
        assert_eq!(played[0]["by_arbiter"], false);
    }
    assert_eq!(t.last(1 - a)["type"], "turn");
}

#[test]
fn retries_run_out_and_the_arbiter_plays_with_the_attempts_kept() {
    let mut t = Table::new(&rolit_4x4(), settings(), 2);
    let (a, b) = seats(&t);
    t.says(10.0, a, "[1,2]");
    t.says(20.0, a, r#"{"type":"dance"}"#);
    t.says(30.0, a, "");
    let f = &t.referee.play().forfeits[0];
    assert_eq!((f.seat, f.kind, f.ply), (a, ForfeitKind::Retries, 1));
    assert!(
        f.detail.starts_with("3 attempts refused; the last: "),
        "{}",
        f.detail
    );
    assert!(f.detail.contains("empty"), "{}", f.detail);
    assert!(t.controls.contains(&Output::Kill(a)));
    let m = &t.referee.play().moves[0];
    assert!(m.by_arbiter);
    assert_eq!(m.seat, a);
    assert_eq!(m.refused.len(), 3);
    assert!(
        m.refused[1]
            .reason
            .contains("unknown message type \"dance\"")
    );
    // The forfeited seat hears nothing more; the other plays the round to its end.
    let heard = t.received[a].len();
    t.play_out(100.0);
    assert_eq!(t.received[a].len(), heard);
    let play = t.referee.play();
    assert_eq!(play.moves.len(), 12);
    assert!(play.moves.iter().all(|m| m.seat == b || m.by_arbiter));
    let o = t.referee.outcome().unwrap();
    assert_eq!(o.points[a], 0);
    assert_eq!(o.ranks[a], 2);
    assert_eq!(o.ranks[b], 1);
    assert_eq!(o.winners(), vec![b]);
    assert_eq!(t.last(b)["type"], "end");
    assert_eq!(t.last(b)["forfeits"], serde_json::json!([a]));
}

#[test]
fn an_answer_inside_the_margin_counts_and_one_after_it_is_a_timeout() {
    let mut t = Table::new(&rolit_4x4(), settings(), 3);
    let (a, b) = seats(&t);
    assert_eq!(t.referee.deadline(), Some(1100.0), "clock plus margin");
    let legal = t.first_legal(a);
    t.tick(1099.0);
    assert!(t.referee.play().forfeits.is_empty(), "not yet");
    t.says(1099.5, a, &mv(&legal));
    assert_eq!(t.referee.play().moves[0].ms, 1099.5);
    // Now b is asked at 1099.5: its clock runs out at 2199.5.
    assert_eq!(t.asked(), b);
    assert_eq!(t.referee.deadline(), Some(2199.5));
    t.tick(2199.5);
    let f = &t.referee.play().forfeits[0];
    assert_eq!((f.seat, f.kind, f.ply), (b, ForfeitKind::Timeout, 2));
    assert_eq!(f.detail, "no answer within 1000 ms");
    let m = &t.referee.play().moves[1];
    assert!(m.by_arbiter && m.seat == b && m.ms == 0.0);
    // A late answer from the forfeited seat changes nothing.
    let before = t.referee.play().moves.len();
    t.says(2300.0, b, &mv("a1"));
    assert_eq!(t.referee.play().moves.len(), before);
}

#[test]
fn unasked_lines_are_counted_not_answered() {
    let mut t = Table::new(&rolit_4x4(), settings(), 4);
    let (a, b) = seats(&t);
    let legal = t.first_legal(a);
    // b speaks while a is asked (b is frozen: read when b is next drained).
    t.queue(b, &mv("a1"));
    t.queue(b, r#"{"type":"ready","name":"again"}"#);
    // a answers another turn first, then says ready, then moves.
    let heard = t.received[a].len();
    t.says(5.0, a, r#"{"type":"move","move":"a1","turn_id":999}"#);
    t.says(6.0, a, r#"{"type":"ready","name":"x"}"#);
    assert_eq!(t.received[a].len(), heard, "nothing answered");
    t.says(7.0, a, &mv(&legal));
    assert_eq!(t.referee.play().moves.len(), 1);
    assert_eq!(t.asked(), b, "b's early move did not answer its turn");
    t.play_out(10.0);
    let faults = &t.referee.play().faults;
    let of = |seat: Seat| -> Vec<(String, String)> {
        faults
            .iter()
            .filter(|f| f.seat == seat)
            .map(|f| (f.kind.to_string(), f.detail.clone()))
            .collect()
    };
    assert_eq!(
        of(a),
        vec![
            (
                "unasked".into(),
                "answers another turn (2 unasked lines this round)".into()
            ),
            ("unasked".into(), "ready sent mid-match".into()),
        ]
    );
    assert_eq!(of(b).len(), 2);
    assert!(
        of(b)
            .iter()
            .all(|(_, d)| d.starts_with("sent when nothing was asked"))
    );
    assert!(t.referee.play().forfeits.is_empty());
}

#[test]
fn flooding_forfeits() {
    let s = rollarena::referee::Settings {
        max_unasked: 3,
        ..settings()
    };
    let mut t = Table::new(&rolit_4x4(), s, 5);
    let (a, b) = seats(&t);
    for _ in 0..4 {
        t.queue(b, "noise");
    }
    let legal = t.first_legal(a);
    t.says(5.0, a, &mv(&legal));
    let f = &t.referee.play().forfeits[0];
    assert_eq!((f.seat, f.kind), (b, ForfeitKind::Flood));
    assert_eq!(f.detail, "more than 3 unasked lines in one round");
    assert_eq!(f.line.as_deref(), Some("noise"));

    let s = rollarena::referee::Settings {
        max_log_bytes: 10,
        ..settings()
    };
    let mut t = Table::new(&rolit_4x4(), s, 5);
    let (a, _) = seats(&t);
    t.says(1.0, a, r#"{"type":"log","text":"short"}"#);
    t.says(2.0, a, r#"{"type":"log","text":"too long now"}"#);
    let f = &t.referee.play().forfeits[0];
    assert_eq!((f.seat, f.kind), (a, ForfeitKind::Flood));
    assert_eq!(f.detail, "more than 10 bytes of log messages in one round");
    assert_eq!(t.referee.play().logs.len(), 1, "the first log is kept");
    assert_eq!(t.referee.play().logs[0].ply, 0);
}

#[test]
fn logs_keep_the_ply_at_which_they_were_read() {
    let mut t = Table::new(&rolit_4x4(), settings(), 6);
    let (a, b) = seats(&t);
    let legal = t.first_legal(a);
    t.says(1.0, a, r#"{"type":"log","text":"thinking"}"#);
    t.says(2.0, a, &mv(&legal));
    t.queue(a, r#"{"type":"log","text":"after my move"}"#);
    let legal = t.first_legal(b);
    t.says(3.0, b, &mv(&legal));
    let logs: Vec<_> = t
        .referee
        .play()
        .logs
        .iter()
        .map(|l| (l.seat, l.ply, l.text.clone()))
        .collect();
    assert_eq!(
        logs,
        vec![(a, 0, "thinking".into()), (a, 2, "after my move".into())]
    );
}

/// Every way a bot can fail: the seat forfeits at the ply it was asked (0 at start-up), the
/// arbiter plays all its moves, the round ends with it last on 0 points.
#[test]
fn every_forfeit_kind_ends_with_fallback_moves_and_the_seat_last() {
    let kinds = [
        ForfeitKind::Crash,
        ForfeitKind::ClosedStdout,
        ForfeitKind::LineTooLong,
        ForfeitKind::Timeout,
        ForfeitKind::Retries,
        ForfeitKind::Flood,
        ForfeitKind::Startup,
    ];
    for kind in kinds {
        let game = rolit_4x4();
        let startup = kind == ForfeitKind::Startup;
        let failures = if startup {
            vec![(1, Failure::new(kind, "no ready within 10000 ms of hello"))]
        } else {
            Vec::new()
        };
        let mut t = Table::with_failures(&game, settings(), 8, &failures);
        let bad = 1;
        let mut plies_before = 0;
        if !startup {
            // Play until the bad seat is asked, then fail.
            while t.asked() != bad {
                let seat = t.asked();
                let legal = t.first_legal(seat);
                t.says(1.0, seat, &mv(&legal));
            }
            plies_before = t.referee.play().moves.len() as u32;
            match kind {
                ForfeitKind::Timeout => {
                    let d = t.referee.deadline().unwrap();
                    t.tick(d);
                }
                ForfeitKind::Retries => {
                    for _ in 0..3 {
                        t.says(2.0, bad, "x");
                    }
                }
                ForfeitKind::Flood => {
                    for _ in 0..1001 {
                        t.says(2.0, bad, r#"{"type":"move","move":"a1","turn_id":999999}"#);
                    }
                }
                _ => {
                    t.fails(2.0, bad, kind);
                }
            }
        }
        t.play_out(10.0);
        let play = t.referee.play();
        assert_eq!(play.forfeits.len(), 1, "{kind}");
        let f = &play.forfeits[0];
        assert_eq!((f.seat, f.kind), (bad, kind), "{kind}");
        assert_eq!(f.ply, if startup { 0 } else { plies_before + 1 }, "{kind}");
        assert_eq!(
            play.moves.len(),
            12,
            "{kind}: the round is played to its end"
        );
        assert!(
            play.moves
                .iter()
                .filter(|m| m.seat == bad && m.ply > f.ply)
                .all(|m| m.by_arbiter),
            "{kind}"
        );
        let o = t.referee.outcome().unwrap();
        assert_eq!((o.points[bad], o.ranks[bad]), (0, 2), "{kind}");
        assert_eq!(o.winners(), vec![0], "{kind}");
        assert!(t.controls.contains(&Output::Kill(bad)), "{kind}");
    }
}

#[test]
fn fallback_moves_are_seeded() {
    let play = |seed| {
        let failures = vec![(0, Failure::new(ForfeitKind::Startup, "no ready"))];
        let mut t = Table::with_failures(&rolit_4x4(), settings(), seed, &failures);
        t.play_out(1.0);
        let p = t.referee.play().clone();
        p.moves.into_iter().map(|m| m.mv).collect::<Vec<_>>()
    };
    assert_eq!(play(11), play(11));
}

#[test]
fn idle_bots_are_frozen_and_the_asked_one_thawed_after_its_request() {
    let mut t = Table::new(&rolit_4x4(), settings(), 9);
    let (a, b) = seats(&t);
    assert_eq!(
        t.controls,
        vec![
            Output::Freeze(0),
            Output::Freeze(1),
            Output::Drain(a),
            Output::Thaw(a)
        ]
    );
    t.controls.clear();
    let legal = t.first_legal(a);
    t.says(1.0, a, &mv(&legal));
    assert_eq!(
        t.controls,
        vec![Output::Freeze(a), Output::Drain(b), Output::Thaw(b)]
    );
    t.play_out(2.0);
    let tail = &t.controls[t.controls.len() - 2..];
    assert!(tail.contains(&Output::Thaw(a)) && tail.contains(&Output::Thaw(b)));

    let s = rollarena::referee::Settings {
        freeze: false,
        ..settings()
    };
    let mut t = Table::new(&rolit_4x4(), s, 9);
    t.play_out(1.0);
    assert!(!t.controls.iter().any(|c| matches!(c, Output::Freeze(_))));
}

#[test]
fn hidden_legal_moves_are_left_out() {
    let s = rollarena::referee::Settings {
        hide_legal: true,
        ..settings()
    };
    let t = Table::new(&rolit_4x4(), s, 10);
    let a = t.asked();
    let turn = t.request(a);
    assert_eq!(turn["type"], "turn");
    assert!(turn.get("legal").is_none());
    assert!(turn.get("state").is_some());
}

#[test]
fn a_whole_round_ends_with_the_same_end_for_everyone() {
    let mut t = Table::new(&rolit_4x4(), settings(), 12);
    t.play_out(0.0);
    let o = t.referee.outcome().unwrap().clone();
    assert_eq!(o.points.iter().sum::<u32>(), 16, "every square filled");
    for seat in 0..t.seats() {
        let end = t.last(seat);
        assert_eq!(end["type"], "end");
        assert_eq!(end["points"], serde_json::json!(o.points));
        assert_eq!(end["ranks"], serde_json::json!(o.ranks));
    }
    let ids: Vec<u64> = t.received[0]
        .iter()
        .chain(&t.received[1])
        .filter(|m| m["type"] == "turn")
        .map(|m| m["turn_id"].as_u64().unwrap())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 12, "one turn_id per request");
}

/// A log read once the round is over (it came with or right after the last move) is the
/// round's, at the last move's ply; past the round's log bytes it is dropped, and nobody
/// forfeits a round that is over.
#[test]
fn a_log_read_after_the_last_move_is_the_rounds() {
    let mut t = Table::new(&rolit_4x4(), settings(), 6);
    t.play_out(1.0);
    assert!(t.referee.is_over());
    let plies = t.referee.play().moves.len() as u32;
    t.referee.add_log_after_end(1, "gg");
    t.referee
        .add_log_after_end(0, &"x".repeat(settings().max_log_bytes + 1));
    let logs: Vec<_> = t
        .referee
        .play()
        .logs
        .iter()
        .map(|l| (l.seat, l.ply, l.text.clone()))
        .collect();
    assert_eq!(logs, vec![(1, plies, "gg".into())]);
    assert!(t.referee.play().forfeits.is_empty(), "no forfeit once over");
    assert!(t.referee.forfeited().iter().all(|f| !f));
}

/// Every reason an answer is refused, as data: each bad line is refused with its reason on the
/// same clock (`illegal` tells the time left), kept as the move's refused attempt with its
/// line, and the retry that follows is the bot's own move. (Bytes that are not UTF-8 and empty
/// lines, which only a real pipe carries, are tested with a process in tests/arbiter.)
#[test]
fn every_refusal_reason_is_told_and_kept() {
    // The 4x4 start: b2, c2, b3, c3 hold balls; a1 touches only b2 diagonally.
    let rows: &[(&str, &str)] = &[
        ("this is not json {", "not JSON"),
        ("[1, 2]", "JSON but not an object"),
        (r#"{"type":"move","move":42}"#, "a move is a square name"),
        (r#"{"type":"dance"}"#, "unknown message type \"dance\""),
        (r#"{"type":"move","move":"b2"}"#, "is occupied"),
        (r#"{"type":"move","move":"e1"}"#, "e1 is off the 4x4 board"),
        (r#"{"type":"move"}"#, "bad \"move\" message"),
    ];
    for (i, (line, reason)) in rows.iter().enumerate() {
        let mut t = Table::new(&rolit_4x4(), settings(), 20 + i as u64);
        let (a, _) = seats(&t);
        t.says(100.0, a, line);
        let illegal = t.last(a).clone();
        assert_eq!(illegal["type"], "illegal", "{line}");
        let told = illegal["reason"].as_str().unwrap();
        assert!(
            told.contains(reason),
            "{line}: told {told:?}, not {reason:?}"
        );
        assert_eq!(illegal["time_ms"], 900, "{line}: one clock");
        let legal = t.first_legal(a);
        t.says(200.0, a, &mv(&legal));
        let m = &t.referee.play().moves[0];
        assert_eq!((m.seat, m.by_arbiter), (a, false), "{line}");
        assert_eq!(m.refused.len(), 1, "{line}");
        assert_eq!(m.refused[0].line, *line, "{line}: the evidence is the line");
        assert!(m.refused[0].reason.contains(reason), "{line}");
        assert!(t.referee.play().forfeits.is_empty(), "{line}");
    }
}

/// A square the rules refuse while a capture exists: the reason says so.
#[test]
fn a_non_capture_is_refused_while_a_capture_exists() {
    let mut t = Table::new(&rolit_4x4(), settings(), 30);
    let (a, _) = seats(&t);
    let legal: Vec<String> = t.request(a)["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    // An empty square next to a ball that is not among the legal (capturing) moves.
    let empty_next_to_a_ball = ["a1", "d1", "a4", "d4", "a2", "b1", "c1", "d2"]
        .into_iter()
        .find(|s| !legal.iter().any(|l| l == s))
        .expect("a square next to the centre that captures nothing");
    t.says(50.0, a, &mv(empty_next_to_a_ball));
    let told = t.last(a)["reason"].as_str().unwrap().to_string();
    assert!(told.contains("a capture is possible"), "{told}");
}

#[test]
fn a_refusal_carries_its_code_to_the_bot_and_the_record() {
    let game = rolit_4x4();
    let mut t = Table::new(&game, settings(), 3);
    let seat = t.asked();
    t.says(10.0, seat, &mv("z9"));
    assert_eq!(t.last(seat)["type"], "illegal");
    assert_eq!(t.last(seat)["code"], "off_board");
    t.says(20.0, seat, "not json");
    assert_eq!(t.last(seat)["code"], "not_json");
    let legal = t.first_legal(seat);
    t.says(30.0, seat, &mv(&legal));
    let m = &t.referee.play().moves[0];
    let codes: Vec<_> = m.refused.iter().map(|r| r.code.as_deref()).collect();
    assert_eq!(codes, vec![Some("off_board"), Some("not_json")]);
}
