//! Time controls beyond the per-move cap, as data (Rolit on 4x4, two seats, a 100 ms margin):
//! the bank told in `turn` and `illegal`, spent by each answer and recorded after it, the cap
//! bounding an answer the bank could pay, the increment added after an accepted move (and the
//! flag fall it saves), a flag fall during a retry, the first-move allowance, and seats on
//! time controls of their own.

use super::*;
use rollarena::record::fault::Forfeit;

fn tc(move_ms: u64, bank: Option<u64>, increment_ms: u64, first_move_ms: u64) -> Tc {
    Tc {
        move_ms,
        bank_ms: bank,
        increment_ms,
        first_move_ms,
    }
}

/// A table whose two seats both play on `clock`; the seat asked first and the other one.
fn table(clock: Tc, seed: u64) -> (Table, Seat, Seat) {
    let t = Table::with_clocks(&rolit_4x4(), settings(), seed, &[clock, clock]);
    let a = t.asked();
    (t, a, 1 - a)
}

/// The seat plays its first legal move at `at`.
fn plays(t: &mut Table, at: f64, seat: Seat) {
    let m = t.first_legal(seat);
    t.says(at, seat, &mv(&m));
}

fn forfeits(t: &Table) -> &[Forfeit] {
    &t.referee.play().forfeits
}

#[test]
fn the_bank_is_told_spent_by_each_answer_and_recorded_after_it() {
    let (mut t, a, b) = table(tc(1000, Some(1500), 0, 0), 1);
    assert_eq!(t.request(a)["time_ms"], 1000, "the cap bounds one answer");
    assert_eq!(t.request(a)["bank_ms"], 1500);
    plays(&mut t, 800.0, a);
    assert_eq!(t.referee.play().moves[0].bank_ms, Some(700.0));
    assert_eq!(t.request(b)["bank_ms"], 1500, "each seat has its own bank");
    plays(&mut t, 1000.25, b);
    assert_eq!(t.referee.play().moves[1].bank_ms, Some(1299.75));
    assert_eq!(t.request(a)["time_ms"], 700, "now the bank bounds");
    assert_eq!(t.request(a)["bank_ms"], 700);
    // The flag falls at the bank's end and the margin, not before.
    assert_eq!(t.referee.deadline(), Some(1000.25 + 700.0 + 100.0));
    t.tick(1800.0);
    assert!(forfeits(&t).is_empty());
    t.tick(1800.25);
    let f = &forfeits(&t)[0];
    assert_eq!((f.seat, f.kind, f.ply), (a, ForfeitKind::Timeout, 3));
    assert_eq!(
        f.detail,
        "no answer within 700 ms: its time bank ran out (flag fall)"
    );
    let fallback = &t.referee.play().moves[2];
    assert!(fallback.by_arbiter);
    assert_eq!(fallback.bank_ms, None, "the arbiter's moves spend no clock");
}

#[test]
fn the_cap_bounds_an_answer_the_bank_could_pay() {
    let (mut t, a, _) = table(tc(1000, Some(5000), 0, 0), 2);
    t.tick(1099.0);
    assert!(forfeits(&t).is_empty());
    t.tick(1100.0);
    let f = &forfeits(&t)[0];
    assert_eq!((f.seat, f.kind), (a, ForfeitKind::Timeout));
    assert_eq!(
        f.detail, "no answer within 1000 ms",
        "the cap, not the bank"
    );
}

#[test]
fn a_flag_falls_during_a_retry() {
    let (mut t, a, _) = table(tc(60_000, Some(1200), 0, 0), 3);
    let turn_id = t.request(a)["turn_id"].as_u64().unwrap();
    assert_eq!(t.request(a)["time_ms"], 1200);
    t.says(500.0, a, "not a move");
    let illegal = t.last(a).clone();
    assert_eq!(illegal["type"], "illegal");
    assert_eq!(
        (illegal["time_ms"].as_u64(), illegal["bank_ms"].as_u64()),
        (Some(700), Some(700))
    );
    t.says(1000.0, a, &mv("z9"));
    let illegal = t.last(a).clone();
    assert_eq!(illegal["retries_left"], 0);
    assert_eq!(
        (illegal["time_ms"].as_u64(), illegal["bank_ms"].as_u64()),
        (Some(200), Some(200)),
        "retries stay on the same clock"
    );
    t.tick(1299.0);
    assert!(forfeits(&t).is_empty(), "the margin is the arbiter's slack");
    t.tick(1300.0);
    let f = &forfeits(&t)[0];
    assert_eq!(
        (f.seat, f.kind, f.turn_id),
        (a, ForfeitKind::Timeout, Some(turn_id))
    );
    let fallback = &t.referee.play().moves[0];
    assert!(fallback.by_arbiter);
    assert_eq!(
        fallback.refused.len(),
        2,
        "the attempts are kept with the fallback"
    );
}

/// Seat `a` spends 900 ms of a 1 s bank, the other seat answers at once, then `a` answers
/// 500 ms after it is asked again: the forfeits, and `a`'s second move if it played one.
fn second_answer(increment_ms: u64) -> (Vec<Forfeit>, Option<f64>) {
    let (mut t, a, b) = table(tc(60_000, Some(1000), increment_ms, 0), 4);
    plays(&mut t, 900.0, a);
    plays(&mut t, 901.0, b);
    // The driver ticks when the deadline passes before the line comes.
    t.tick(1401.0);
    if !t.referee.forfeited()[a] {
        plays(&mut t, 1401.0, a);
    }
    let second = t.referee.play().moves[2].clone();
    let bank = (!second.by_arbiter).then_some(second.bank_ms).flatten();
    (forfeits(&t).to_vec(), bank)
}

#[test]
fn an_increment_saves_a_bot() {
    let (lost, _) = second_answer(0);
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].kind, ForfeitKind::Timeout);
    assert_eq!(
        lost[0].detail,
        "no answer within 100 ms: its time bank ran out (flag fall)"
    );
    let (saved, bank) = second_answer(500);
    assert!(saved.is_empty(), "100 ms left and 500 ms added: {saved:?}");
    // 1000 - 900 + 500 = 600 before the answer; 600 - 500 + 500 after it.
    assert_eq!(bank, Some(600.0));
}

#[test]
fn an_answer_inside_the_margin_empties_the_bank() {
    let (mut t, a, b) = table(tc(60_000, Some(500), 0, 0), 5);
    plays(&mut t, 550.0, a);
    assert!(forfeits(&t).is_empty());
    assert_eq!(t.referee.play().moves[0].bank_ms, Some(0.0));
    plays(&mut t, 560.0, b);
    assert_eq!(t.request(a)["time_ms"], 0);
    assert_eq!(t.request(a)["bank_ms"], 0);
}

#[test]
fn the_first_answer_of_a_round_gets_its_allowance() {
    // No bank: the first answer may take the allowance, the others the cap.
    let (mut t, a, b) = table(tc(100, None, 0, 2000), 6);
    assert_eq!(t.request(a)["time_ms"], 2000);
    assert!(t.request(a).get("bank_ms").is_none(), "no bank, no bank_ms");
    plays(&mut t, 1500.0, a);
    assert!(forfeits(&t).is_empty());
    assert_eq!(t.request(b)["time_ms"], 2000, "every seat's first answer");
    plays(&mut t, 1600.0, b);
    assert_eq!(t.request(a)["time_ms"], 100);
    assert_eq!(t.referee.play().moves[0].bank_ms, None);

    // With a bank: the allowance comes on top of it and is spent first.
    let (mut t, a, _) = table(tc(60_000, Some(1000), 0, 2000), 6);
    assert_eq!(t.request(a)["time_ms"], 3000);
    assert_eq!(t.request(a)["bank_ms"], 1000);
    plays(&mut t, 2500.0, a);
    assert_eq!(t.referee.play().moves[0].bank_ms, Some(500.0));
}

#[test]
fn seats_may_play_on_time_controls_of_their_own() {
    let short = tc(60_000, Some(1000), 0, 0);
    let long = tc(60_000, Some(3000), 100, 0);
    let mut t = Table::with_clocks(&rolit_4x4(), settings(), 7, &[short, long]);
    let a = t.asked();
    let want = |s: Seat| if s == 0 { 1000 } else { 3000 };
    assert_eq!(t.request(a)["bank_ms"], want(a));
    plays(&mut t, 10.0, a);
    assert_eq!(t.request(1 - a)["bank_ms"], want(1 - a));
}

#[test]
fn a_plain_cap_says_nothing_of_banks() {
    let mut t = Table::new(&rolit_4x4(), settings(), 8);
    let a = t.asked();
    assert!(t.request(a).get("bank_ms").is_none());
    t.says(10.0, a, "nope");
    assert!(t.last(a).get("bank_ms").is_none());
    plays(&mut t, 20.0, a);
    assert_eq!(t.referee.play().moves[0].bank_ms, None);
}
