//! The round times the rules make (the hourglass's end, their deadlines) are at the precision a
//! record keeps, so a replay that feeds a record back finds exactly what it recorded.

use serde_json::json;

use crate::game::robots::Robots;
use crate::game::{Game, RoundSetup, Stamp};

#[test]
fn the_hourglass_ends_at_a_time_a_record_holds_exactly() {
    let mut game = Robots::new(2).unwrap();
    game.hourglass_ms = 2000;
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: 2,
        round_seed: 7,
        chance_seed: 7,
    });
    let stamp = Stamp {
        ms: 68.019,
        cpu_ms: None,
    };
    let applied = round
        .act(0, "declare", &json!({"moves": 9}), stamp)
        .unwrap();
    // The sum in floating point is past the record's precision: the rules must not record it.
    assert_ne!(68.019 + 2000.0, 2068.019);
    assert_eq!(applied[0].effects["hourglass_ends_ms"], json!(2068.019));
    assert_eq!(
        serde_json::to_string(&applied[0].effects).unwrap(),
        r#"{"hourglass_ends_ms":2068.019}"#
    );
    assert_eq!(round.deadline_ms(), Some(2068.019));
    assert_eq!(round.public_view()["hourglass_ends_ms"], json!(2068.019));
}

/// Before: alone at the table, lowering a declaration a second after making it was refused with
/// "declarations are closed: the hourglass has run out" (a 5 s hourglass), and a pass with
/// "there is nothing to pass now": the true reason is that solo verifies at once.
#[test]
fn a_solo_refusal_gives_the_true_reason() {
    let mut game = Robots::new(1).unwrap();
    game.hourglass_ms = 5000;
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: 2,
        round_seed: 7,
        chance_seed: 7,
    });
    let at = |ms: f64| Stamp { ms, cpu_ms: None };
    round
        .act(0, "declare", &json!({"moves": 9}), at(1000.0))
        .unwrap();
    let lower = round
        .act(0, "declare", &json!({"moves": 7}), at(1500.0))
        .unwrap_err()
        .to_string();
    assert!(!lower.contains("hourglass"), "{lower}");
    assert!(lower.contains("solo"), "{lower}");
    assert!(lower.contains("verified at once"), "{lower}");
    assert!(lower.contains("9 moves are being verified now"), "{lower}");
    let pass = round
        .act(0, "pass", &json!({}), at(1600.0))
        .unwrap_err()
        .to_string();
    assert!(pass.contains("verified at once"), "{pass}");
}
