//! The board of §3: tracks, corners, base squares and slots, compared with the rules' lists.

use super::super::card::{Card, Placed};
use super::super::square::{Square, ball_changer_slots, track_changer_slots, tracks};
use super::{sq, sqs};

#[test]
fn tracks_are_the_lists_of_3_2() {
    let t = tracks();
    assert_eq!(
        t[0],
        sqs("a8 b8 c8 d8 e8 f8 g8 h8 h7 h6 h5 h4 h3 h2 h1 g1 f1 e1 d1 c1 b1 a1 a2 a3 a4 a5 a6 a7")
    );
    assert_eq!(
        t[1],
        sqs("b7 c7 d7 e7 f7 g7 g6 g5 g4 g3 g2 f2 e2 d2 c2 b2 b3 b4 b5 b6")
    );
    assert_eq!(t[2], sqs("c6 d6 e6 f6 f5 f4 f3 e3 d3 c3 c4 c5"));
    for (i, track) in t.iter().enumerate() {
        for s in track {
            assert_eq!(s.track(), Some(i as u8 + 1));
        }
    }
    assert_eq!(sq("a7").next(), sq("a8"));
    assert_eq!(Square::track_squares().count(), 60);
    assert!(sqs("d4 e4 d5 e5").iter().all(|s| s.is_logo()));
}

#[test]
fn corners_and_bases() {
    let corners: Vec<Square> = Square::all().filter(|s| s.is_corner()).collect();
    let mut want = sqs("a1 h1 b2 g2 c3 f3 c6 f6 b7 g7 a8 h8");
    want.sort();
    assert_eq!(corners, want);
    let bases: Vec<Square> = Square::all().filter(|s| s.is_base_square()).collect();
    let mut want = sqs("a1 h1 b2 g2 b7 g7 a8 h8");
    want.sort();
    assert_eq!(bases, want);
    assert_eq!(Square::all().filter(|s| s.is_straight()).count(), 48);
}

#[test]
fn slots_are_the_lists_of_3_3() {
    let mut tc: Vec<String> = track_changer_slots()
        .iter()
        .map(|(o, i)| format!("{o}-{i}"))
        .collect();
    tc.sort();
    let mut want: Vec<String> =
        "c8-c7 d8-d7 e8-e7 f8-f7 h6-g6 h5-g5 h4-g4 h3-g3 f1-f2 e1-e2 d1-d2 \
         c1-c2 a3-b3 a4-b4 a5-b5 a6-b6 d7-d6 e7-e6 g5-f5 g4-f4 e2-e3 d2-d3 b4-c4 b5-c5"
            .split_whitespace()
            .map(String::from)
            .collect();
    want.sort();
    assert_eq!(tc, want);
    let mut bc: Vec<String> = ball_changer_slots()
        .iter()
        .map(|(a, b)| format!("{a}{b}"))
        .collect();
    bc.sort();
    let mut want: Vec<String> = "b8c8 c8d8 d8e8 e8f8 f8g8 h7h6 h6h5 h5h4 h4h3 h3h2 g1f1 f1e1 e1d1 \
         d1c1 c1b1 a2a3 a3a4 a4a5 a5a6 a6a7 c7d7 d7e7 e7f7 g6g5 g5g4 g4g3 f2e2 e2d2 d2c2 b3b4 \
         b4b5 b5b6 d6e6 f5f4 e3d3 c4c5"
        .split_whitespace()
        .map(String::from)
        .collect();
    want.sort();
    assert_eq!(bc, want);
}

#[test]
fn cards_take_their_canonical_squares() {
    let p = Placed::new(Card::SD, sq("d7"), sq("d8")).unwrap();
    assert_eq!(p.to_string(), "SD d8 d7");
    let p = Placed::new(Card::UM, sq("h4"), sq("g4")).unwrap();
    assert_eq!(p.to_string(), "UM g4 h4");
    let p = Placed::new(Card::EN, sq("f7"), sq("e7")).unwrap();
    assert_eq!(p.to_string(), "EN e7 f7");
    assert!(Placed::new(Card::EN, sq("g7"), sq("f7")).is_err());
    assert!(Placed::new(Card::DM, sq("b8"), sq("b7")).is_err());
    assert!(Placed::new(Card::RP, sq("c8"), sq("c7")).is_err());
    assert_eq!(Card::canonical_deck().len(), Card::DECK);
}
