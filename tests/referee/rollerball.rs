//! Rollerball through the referee: every line every bot received in a 4-player round, read
//! and checked for anything of another seat's hand, an unrevealed bid or the deck order; and
//! a sealed bid changed must not change one byte another seat receives before the reveal.

use super::*;
use rollarena::game::rollerball::RollerballGame;
use serde_json::json;

fn game(players: usize) -> RollerballGame {
    RollerballGame::new(players, 60).expect("options")
}

fn mv(text: &str) -> String {
    json!({"type": "move", "move": text}).to_string()
}

/// Plays a round to its end, each asked seat taking the listed move at index `pick(seat, n)`.
fn play_out(t: &mut Table, mut pick: impl FnMut(Seat, usize) -> usize) {
    let mut at = 0.0;
    let mut guard = 0;
    while !t.referee.is_over() {
        guard += 1;
        assert!(guard < 20_000, "the round ends");
        for seat in t.referee.listening() {
            let legal = t.request(seat)["legal"].as_array().unwrap().clone();
            let i = pick(seat, legal.len());
            at += 1.0;
            t.says(at, seat, &mv(legal[i].as_str().unwrap()));
        }
    }
}

/// Every key anywhere in a value, with the value under it.
fn walk<'a>(v: &'a Value, out: &mut Vec<(&'a str, &'a Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push((k, x));
                walk(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
        _ => {}
    }
}

#[test]
fn no_bot_receives_another_seats_cards_a_sealed_bid_or_the_deck() {
    let mut t = Table::new(&game(4), settings(), 2024);
    let mut n = 0u64;
    play_out(&mut t, |seat, len| {
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(seat as u64 + 1);
        (n >> 33) as usize % len
    });
    assert!(t.referee.is_over());
    let mut revealed = false;
    for seat in 0..4 {
        let mut bids_seen = false;
        for msg in &t.received[seat] {
            let mut keys = Vec::new();
            walk(msg, &mut keys);
            for (k, v) in &keys {
                assert!(
                    !["secrets", "deal", "hands", "secret"].contains(k),
                    "seat {seat} was sent {k}: {msg}"
                );
                if *k == "deck" {
                    assert!(v.is_number(), "seat {seat} was sent a deck order: {msg}");
                }
            }
            if let Some(state) = msg.get("state") {
                assert_eq!(state["seat"], seat, "a state for another seat: {msg}");
                if let Some(pending) = state.get("pending").filter(|p| !p.is_null())
                    && pending["seat"] != seat
                {
                    assert!(pending.get("card").is_none(), "another seat's card: {msg}");
                }
                if !bids_seen {
                    for (i, p) in state["players"].as_array().unwrap().iter().enumerate() {
                        if i != seat {
                            assert!(
                                p["bid"].is_null() || p["bid"] == "sealed",
                                "seat {seat} saw seat {i}'s bid before the reveal: {msg}"
                            );
                        }
                    }
                }
            }
            if msg["type"] == "played" {
                let events = msg.get("events").cloned().unwrap_or(json!([]));
                if events
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["event"] == "bids")
                {
                    bids_seen = true;
                    revealed = true;
                } else if msg["seat"] != seat && !bids_seen {
                    assert_eq!(msg["move"], "bid (sealed)", "a bid shown: {msg}");
                    assert!(msg.get("events").is_none(), "events of a sealed bid: {msg}");
                }
                if let Some(events) = msg.get("events") {
                    for e in events.as_array().unwrap() {
                        if e["event"] == "draw" {
                            assert!(e.get("card").is_none(), "a drawn card announced: {msg}");
                        }
                    }
                }
            }
        }
    }
    assert!(revealed, "the bids were revealed");
    // The record keeps what the bots were not told.
    let play = t.referee.play();
    assert!(play.moves[0].effects.contains_key("deal"));
    assert!(play.moves.iter().any(|m| m.effects.contains_key("secrets")));
}

/// The first turn's lines each seat received, where seat 0 bids its `k`-th listed bid.
fn before_reveal(k: usize) -> Vec<Vec<Value>> {
    let mut t = Table::new(&game(3), settings(), 77);
    let legal = t.request(0)["legal"].as_array().unwrap().clone();
    t.says(1.0, 0, &mv(legal[k % legal.len()].as_str().unwrap()));
    t.says(2.0, 1, &mv("bid"));
    t.received.clone()
}

#[test]
fn a_sealed_bid_changes_nothing_another_seat_receives_before_the_reveal() {
    let a = before_reveal(0);
    let b = before_reveal(3);
    assert_ne!(a[0], b[0]);
    assert_eq!(a[1], b[1], "seat 1 learnt something of seat 0's bid");
    assert_eq!(a[2], b[2], "seat 2 learnt something of seat 0's bid");
}
