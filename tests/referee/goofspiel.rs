//! Goofspiel through the referee: sealed bids asked of every seat at once, the reveal, the
//! score; and secrecy: nothing a seat receives before the last bid of a turn depends on
//! another seat's bid, checked by playing the same script with a different bid and comparing
//! every byte each other seat was sent.

use super::*;
use rollarena::game::goofspiel::Goofspiel;

fn game(players: usize, cards: u8) -> Goofspiel {
    Goofspiel::new(players, cards).expect("options")
}

fn bid(card: u8) -> String {
    format!(r#"{{"type":"move","move":"{card}"}}"#)
}

#[test]
fn every_seat_bids_at_once_and_the_highest_takes_the_prize() {
    let mut t = Table::new(&game(3, 5), settings(), 31);
    assert_eq!(t.referee.listening(), vec![0, 1, 2], "everyone is asked");
    let prize = t.request(0)["state"]["prize"].as_u64().unwrap();
    for seat in 0..3 {
        let turn = t.request(seat);
        assert_eq!(turn["legal"], serde_json::json!(["1", "2", "3", "4", "5"]));
        assert_eq!(turn["state"]["hand"], turn["legal"]);
        assert!(
            turn["state"].get("deck").is_none(),
            "the deck order is secret"
        );
    }
    t.says(10.0, 1, &bid(5));
    // Seat 1 is frozen while the others still think; nobody else is.
    assert!(t.controls.contains(&rollarena::referee::Output::Freeze(1)));
    assert_eq!(t.referee.listening(), vec![0, 2]);
    for seat in [0, 2] {
        let played = t.last(seat);
        assert_eq!(played["type"], "played");
        assert_eq!(played["move"], "sealed");
        assert_eq!(played["seat"], 1);
    }
    assert_eq!(t.last(1)["move"], "5", "the bidder is told its own bid");
    t.says(20.0, 0, &bid(3));
    t.says(30.0, 2, &bid(3));
    // The last bid reveals every bid: 5 beats 3 and 3.
    for seat in 0..3 {
        let reveal = t.received[seat]
            .iter()
            .rev()
            .find(|m| m["type"] == "played")
            .unwrap();
        assert_eq!(reveal["move"], "3");
        assert_eq!(reveal["bids"], serde_json::json!([3, 5, 3]));
        assert_eq!(reveal["winner"], 1);
        assert_eq!(reveal["prize"], prize);
    }
    // A tie for the highest bid discards the prize.
    t.says(40.0, 0, &bid(4));
    t.says(41.0, 1, &bid(4));
    t.says(42.0, 2, &bid(1));
    let last = t.referee.play().moves.last().unwrap();
    assert_eq!(last.effects["winner"], serde_json::Value::Null);
    // A card already played is refused with the hand named.
    t.says(50.0, 0, &bid(3));
    let illegal = t.last(0);
    assert_eq!(illegal["type"], "illegal");
    assert!(
        illegal["reason"]
            .as_str()
            .unwrap()
            .contains("you do not hold the 3")
    );
}

#[test]
fn a_whole_round_scores_the_prizes_won() {
    let mut t = Table::new(&game(2, 13), settings(), 32);
    let mut at = 0.0;
    while !t.referee.is_over() {
        for seat in t.referee.listening() {
            at += 1.0;
            let card = t.first_legal(seat);
            t.says(at, seat, &format!(r#"{{"type":"move","move":"{card}"}}"#));
        }
    }
    // Both bid their lowest card every turn: every prize is tied and discarded.
    let o = t.referee.outcome().unwrap();
    assert_eq!(o.points, vec![0, 0]);
    assert_eq!(t.referee.play().moves.len(), 26);
}

/// Plays turn 1 of a 3-seat game where seat 0 bids `first` (then seats 1 and 2 bid), and
/// returns every line each seat received up to seat 2's bid, the last one (exclusive).
fn before_reveal(first: u8) -> Vec<Vec<serde_json::Value>> {
    let mut t = Table::new(&game(3, 6), settings(), 33);
    t.says(10.0, 0, &bid(first));
    t.says(20.0, 1, &bid(2));
    t.received.clone()
}

#[test]
fn no_seat_learns_a_bid_before_every_bid_is_in() {
    let a = before_reveal(6);
    let b = before_reveal(1);
    assert_ne!(a[0], b[0], "seat 0 itself knows its bid");
    for seat in [1, 2] {
        assert_eq!(
            a[seat], b[seat],
            "seat {seat} received something that depends on seat 0's sealed bid"
        );
    }
    // And after the reveal it is public.
    let mut t = Table::new(&game(3, 6), settings(), 33);
    t.says(10.0, 0, &bid(6));
    t.says(20.0, 1, &bid(2));
    t.says(30.0, 2, &bid(1));
    let reveal = t.received[2]
        .iter()
        .rev()
        .find(|m| m["type"] == "played")
        .unwrap();
    assert_eq!(reveal["bids"], serde_json::json!([6, 2, 1]));
}

#[test]
fn the_deal_comes_from_the_chance_seed_alone() {
    use rollarena::game::goofspiel::GoofspielRound;
    let g = game(2, 13);
    let deck = |seed| GoofspielRound::deal(g, seed).deck().to_vec();
    assert_eq!(deck(5), deck(5));
    assert_ne!(deck(5), deck(6));
    let mut sorted = deck(5);
    sorted.sort_unstable();
    assert_eq!(sorted, (1..=13).collect::<Vec<u8>>());
}
