//! Simultaneous play with the rules' own deadlines (Rock'n'Roll Robot, two seats, a 1 s
//! hourglass, 5 s to the first declaration, 1 s to prove, a 100 ms margin): declarations at
//! any time, the deadline with its margin, a line inside the margin stamped at the deadline,
//! the proof asked of the lowest declaration, refusals counted per round, forfeits with their
//! round time.

use super::*;
use rollarena::game::robots::{Board, Budget, Positions, Robots, Solution, Token, solve};
use serde_json::json;

fn robots() -> Robots {
    let mut g = Robots::new(2).expect("two players");
    g.hourglass_ms = 1000;
    g.first_declaration_ms = 5000;
    g.prove_ms = 1000;
    g
}

fn timed() -> rollarena::referee::Settings {
    rollarena::referee::Settings {
        timed: true,
        freeze: true,
        ..settings()
    }
}

/// The optimal solution of the token in the seat's `start`.
fn solution(t: &Table, seat: Seat) -> Vec<Value> {
    let state = &t.received[seat][0]["state"];
    let board = Board::from_json(&state["board"]).expect("board");
    let robots: Positions = serde_json::from_value(state["robots"].clone()).expect("robots");
    let token: Token = serde_json::from_value(state["token"].clone()).expect("token");
    match solve(&board, &robots, token, Budget::default()) {
        Solution::Optimal(path) => path
            .into_iter()
            .map(|m| serde_json::to_value(m).unwrap())
            .collect(),
        other => panic!("no optimal solution: {other:?}"),
    }
}

fn declare(n: usize) -> String {
    json!({"type": "declare", "moves": n}).to_string()
}

#[test]
fn the_lowest_declaration_proves_after_the_hourglass() {
    let mut t = Table::new(&robots(), timed(), 21);
    assert_eq!(t.referee.listening(), vec![0, 1], "everyone thinks at once");
    assert_eq!(
        t.referee.deadline(),
        Some(5100.0),
        "first declaration, with margin"
    );
    assert!(
        !t.controls.iter().any(|c| matches!(c, Output::Freeze(_))),
        "nobody is frozen in simultaneous play"
    );
    let path = solution(&t, 1);
    let n = path.len();
    t.says(100.0, 0, &declare(n + 2));
    for seat in 0..2 {
        let d = t.last(seat);
        assert_eq!(d["type"], "declared");
        assert_eq!(
            (d["seat"].clone(), d["moves"].clone()),
            (json!(0), json!(n + 2))
        );
        assert_eq!(d["at_ms"], 100.0);
        assert_eq!(d["hourglass_ends_ms"], 1100.0);
    }
    t.says(200.0, 1, &declare(n));
    assert_eq!(t.referee.deadline(), Some(1200.0));
    t.tick(1199.0);
    assert_eq!(t.referee.listening(), vec![0, 1], "still thinking");
    t.tick(1200.0);
    let prove = t.last(1).clone();
    assert_eq!(prove["type"], "prove");
    // The rules give 1000 ms from the hourglass's end (1100): the request goes at 1200, once
    // the margin for late declarations passed, and the answer is taken until 2200 (the rules'
    // deadline and its margin): time_ms tells those 1000 ms, not the 900 left before the
    // margin.
    assert_eq!(prove["time_ms"], 1000);
    assert_eq!(t.referee.deadline(), Some(2200.0));
    assert_eq!(t.referee.listening(), vec![1]);
    t.says(
        1300.0,
        1,
        &json!({"type": "solution", "moves": path, "turn_id": prove["turn_id"]}).to_string(),
    );
    assert!(t.referee.is_over());
    let play = t.referee.play();
    let kinds: Vec<_> = play
        .moves
        .iter()
        .map(|m| (m.kind.clone().unwrap(), m.seat, m.at_ms))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("declare".into(), 0, Some(100.0)),
            ("declare".into(), 1, Some(200.0)),
            ("solution".into(), 1, Some(1300.0)),
        ]
    );
    assert_eq!(play.moves[2].effects["ok"], true);
    assert_eq!(t.referee.outcome().unwrap().winners(), vec![1]);
    assert_eq!(t.last(0)["type"], "end");
}

#[test]
fn a_line_within_the_margin_is_stamped_at_the_deadline_and_one_after_it_is_late() {
    let mut t = Table::new(&robots(), timed(), 22);
    let n = solution(&t, 0).len();
    t.says(100.0, 0, &declare(n + 1));
    // The hourglass ends at 1100; 1150 is within the margin: in time, at 1100.
    t.says(1150.0, 1, &declare(n));
    let m = &t.referee.play().moves[1];
    assert_eq!((m.seat, m.at_ms), (1, Some(1100.0)));
    // Seat 1 proves; seat 0 declaring now (past the margin) is not listened to.
    let mut late = Table::new(&robots(), timed(), 22);
    late.says(100.0, 0, &declare(n + 1));
    late.says(1250.0, 1, &declare(n));
    let play = late.referee.play();
    assert_eq!(play.moves.len(), 1, "the late declaration is not taken");
    assert_eq!(
        late.referee.listening(),
        vec![0],
        "seat 0 is asked to prove"
    );
    assert_eq!(late.last(0)["type"], "prove");
}

#[test]
fn refused_lines_count_per_round_and_forfeit_past_the_limit() {
    let mut t = Table::new(&robots(), timed(), 23);
    t.says(100.0, 0, "garbage");
    let illegal = t.last(0).clone();
    assert_eq!(illegal["type"], "illegal");
    assert_eq!(illegal["turn_id"], 0, "no request is open");
    assert_eq!(illegal["retries_left"], 1);
    assert_eq!(illegal["time_ms"], 4900, "to the rules' deadline");
    t.says(200.0, 0, &declare(1));
    assert!(t.last(0)["reason"].as_str().unwrap().contains("2"));
    t.says(300.0, 0, r#"{"type":"move","move":"a1"}"#);
    let play = t.referee.play();
    assert_eq!(
        play.faults.iter().filter(|f| f.kind == "refused").count(),
        3
    );
    let f = &play.forfeits[0];
    assert_eq!(
        (f.seat, f.kind, f.at_ms),
        (0, ForfeitKind::Retries, Some(300.0))
    );
    assert!(
        f.detail
            .starts_with("3 lines refused this round; the last: no turn is asked")
    );
    assert_eq!(
        t.referee.listening(),
        vec![1],
        "the seat is out of the round"
    );
}

#[test]
fn a_missing_proof_is_the_rules_business_and_the_next_declaration_proves() {
    let mut t = Table::new(&robots(), timed(), 24);
    let path = solution(&t, 0);
    let n = path.len();
    t.says(100.0, 0, &declare(n));
    t.says(150.0, 1, &declare(n + 3));
    t.tick(1200.0);
    assert_eq!(t.last(0)["type"], "prove");
    // Seat 0 never answers: at 1100 + 1000 (+ margin) the rules close its demonstration.
    assert_eq!(t.referee.deadline(), Some(2200.0));
    t.tick(2200.0);
    let play = t.referee.play();
    let failed = &play.moves[2];
    assert_eq!((failed.seat, failed.by_arbiter), (0, true));
    assert_eq!(failed.effects["ok"], false);
    assert!(
        play.forfeits.is_empty(),
        "a failed demonstration is not a forfeit"
    );
    assert!(
        play.faults
            .iter()
            .any(|f| f.seat == 0 && f.kind == "solution")
    );
    assert_eq!(t.last(1)["type"], "prove");
    let prove = t.last(1).clone();
    // The next demonstration runs from the closed one's deadline (2100) for 1000 ms and is
    // taken until 3200: sent at 2200, the request tells the 1000 ms that are left.
    assert_eq!(t.referee.deadline(), Some(3200.0));
    assert_eq!(prove["time_ms"], 1000);
    let long: Vec<Value> = path.clone();
    t.says(
        2300.0,
        1,
        &json!({"type": "solution", "moves": long, "turn_id": prove["turn_id"]}).to_string(),
    );
    assert!(t.referee.is_over());
    assert_eq!(t.referee.outcome().unwrap().winners(), vec![1]);
}

#[test]
fn a_crash_in_the_hourglass_takes_the_seat_out_at_its_time() {
    let mut t = Table::new(&robots(), timed(), 25);
    let n = solution(&t, 1).len();
    t.says(100.0, 1, &declare(n));
    t.fails(500.0, 0, ForfeitKind::Crash);
    let f = &t.referee.play().forfeits[0];
    assert_eq!(
        (f.seat, f.kind, f.ply, f.at_ms),
        (0, ForfeitKind::Crash, 2, Some(500.0))
    );
    assert_eq!(t.referee.listening(), vec![1]);
    assert!(t.controls.contains(&Output::Kill(0)));
}

#[test]
fn a_declare_or_pass_naming_another_round_is_a_late_line() {
    let mut t = Table::new(&robots(), timed(), 21);
    // This is round 1: a `pass` meant for an earlier token, read late, is unasked.
    t.says(100.0, 0, r#"{"type":"pass","round":0}"#);
    t.says(150.0, 1, r#"{"type":"declare","moves":9,"round":7}"#);
    assert!(t.referee.play().moves.is_empty(), "{:?}", t.referee.play());
    // Naming this round, or no round (older bots), is taken as before.
    t.says(200.0, 1, r#"{"type":"declare","moves":9,"round":1}"#);
    t.says(250.0, 0, &declare(7));
    let kinds: Vec<_> = t.referee.play().moves.iter().map(|m| m.seat).collect();
    assert_eq!(kinds, vec![1, 0]);
    // The state lists the current declarations in the order they were made, not by seat.
    let state = t.referee.round().public_view();
    let seats: Vec<u64> = state["declarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, vec![1, 0], "{state}");
    while !t.referee.is_over() {
        let d = t.referee.deadline().unwrap();
        t.tick(d);
    }
    let play = t.referee.play();
    let late: Vec<_> = play
        .faults
        .iter()
        .filter(|f| f.detail.contains("answers another round"))
        .collect();
    assert_eq!(late.len(), 2, "one late line per seat: {:?}", play.faults);
}
