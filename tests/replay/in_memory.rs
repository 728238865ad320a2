//! The verifier on Rolit rounds made in memory, as the arbiter would record them (no
//! process): a clean file verifies with its standings, and each kind of tampering (a changed
//! move, score or flip, a dropped move, fallback moves, seats, seeds and matches) is caught.

use rand::Rng;
use rollarena::game::rolit::{RULES_VERSION, Rolit};
use rollarena::game::{Game, Outcome, ToAct};
use rollarena::record::FORMAT_VERSION;
use rollarena::record::RoundRecord;
use rollarena::seed::{fallback_rng, round_seed};
use rollarena::verify::{Discrepancy, verify, verify_game};
use serde_json::{Value, json};

/// A round played in memory as the arbiter would record it: bots pick moves by a fixed
/// rule; a seat in `forfeit` (seat, ply) forfeits there and gets the seeded fallback.
fn round(
    size: u8,
    players: usize,
    round_no: u32,
    rounds: u32,
    forfeit: Option<(usize, u32)>,
) -> RoundRecord {
    let game = Rolit::new(size, players).unwrap();
    let match_seed = 42;
    let seed = round_seed(match_seed, 0, round_no - 1);
    let mut r = game.new_round(rollarena::game::RoundSetup {
        round: round_no - 1,
        match_seed,
        round_seed: seed,
        chance_seed: seed,
    });
    let mut rngs: Vec<_> = (0..players).map(|s| fallback_rng(seed, s)).collect();
    let mut moves = Vec::new();
    while let ToAct::Seat(seat, _) = r.to_act() {
        let ply = moves.len() as u32 + 1;
        let by_arbiter = forfeit.is_some_and(|(s, p)| s == seat && ply >= p);
        let mv = if by_arbiter {
            let rng = &mut rngs[seat];
            r.fallback(seat, &mut |k| rng.random_range(0..k))
        } else {
            let legal = r.legal_moves(seat).unwrap();
            legal[(ply as usize * 7) % legal.len()].clone()
        };
        let applied = r.play(seat, &mv).unwrap();
        // Built from JSON, as a reader sees it, so fields added later keep their defaults.
        let mut m = json!({
            "ply": ply,
            "seat": seat,
            "colour": applied.colour,
            "move": applied.notation,
            "ms": if by_arbiter { 0.0 } else { 1.5 },
            "by_arbiter": by_arbiter,
        });
        for (k, v) in applied.effects {
            m[k] = v;
        }
        moves.push(m);
    }
    let forfeited: Vec<bool> = (0..players)
        .map(|s| forfeit.is_some_and(|(f, _)| f == s))
        .collect();
    let raw = r.outcome().unwrap();
    let forfeits: Vec<Value> = forfeit
        .map(|(seat, ply)| {
            json!({"seat": seat, "kind": "timeout", "ply": ply, "detail": "no answer"})
        })
        .into_iter()
        .collect();
    let seats: Vec<Value> = (0..players)
        .map(|s| json!({"name": format!("bot{s}"), "command": format!("bot{s}")}))
        .collect();
    serde_json::from_value(json!({
        "format": FORMAT_VERSION,
        "arbiter": "test",
        "game": "rolit",
        "rules": RULES_VERSION,
        "options": game.options(),
        "match": "m",
        "round": round_no,
        "rounds": rounds,
        "match_seed": match_seed,
        "seed": seed,
        "settings": {"move_ms": 1000, "startup_ms": 1000, "margin_ms": 100, "retries": 2,
                     "freeze": true, "legal": true},
        "seats": seats,
        "colours": r.colours(),
        "first": r.first(),
        "moves": moves,
        "forfeits": forfeits,
        "faults": [],
        "logs": [],
        "stderr": vec![""; players],
        "result": Outcome::new(raw.scores, &raw.points, &forfeited),
        "board": r.public_view(),
        "started": "",
        "ended": "",
    }))
    .expect("a valid round record")
}

/// A whole 2-round 4x4 match whose second round has a forfeit at move 5.
fn file() -> Vec<RoundRecord> {
    vec![round(4, 2, 1, 2, None), round(4, 2, 2, 2, Some((1, 5)))]
}

fn rejected(records: &[RoundRecord]) -> Discrepancy {
    verify(records).expect_err("the tampered record must be rejected")
}

#[test]
fn a_clean_file_verifies_with_its_standings() {
    let records = file();
    let report = verify(&records).unwrap();
    assert_eq!(report.games, 2);
    assert_eq!(report.moves, 24);
    assert!(report.fallback_moves >= 4);
    assert_eq!(report.forfeits, 1);
    assert_eq!(report.matches.len(), 1);
    assert!(report.matches[0].whole());
    let big = round(8, 4, 3, 4, Some((2, 1)));
    assert_eq!(verify_game(&[big], 1).unwrap().moves, 60);
}

#[test]
fn a_changed_move_is_caught() {
    // Another legal square: the flips no longer match.
    let mut records = file();
    let original = records[0].clone();
    let game = Rolit::new(4, 2).unwrap();
    let mut r = rollarena::replay::new_round(&game, &original);
    for m in &original.moves[..6] {
        r.play(m.seat, &m.mv).unwrap();
    }
    let seat = original.moves[6].seat;
    let other = r
        .legal_moves(seat)
        .unwrap()
        .into_iter()
        .find(|m| *m != original.moves[6].mv);
    if let Some(other) = other {
        records[0].moves[6].mv = other;
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (1, Some(7)), "{d}");
    }
    // An occupied square.
    let mut records = file();
    records[1].moves[3].mv = json!("b3");
    let d = rejected(&records);
    assert_eq!((d.game, d.ply), (2, Some(4)));
    assert!(d.reason.contains("not a legal move"), "{d}");
    assert!(
        d.to_string()
            .starts_with("round 2, move 4: \"b3\" is not a legal move")
    );
}

#[test]
fn a_raised_score_is_caught() {
    let mut records = file();
    *records[0].result.scores.get_mut("red").unwrap() += 1;
    let d = rejected(&records);
    assert_eq!((d.game, d.ply), (1, None));
    assert!(d.reason.contains("red's score is recorded as"), "{d}");
    let mut records = file();
    records[0].result.points[1] += 3;
    let d = rejected(&records);
    assert!(
        d.reason.starts_with("seat 1's points are recorded as"),
        "{d}"
    );
    // The forfeited seat keeps 0 points whatever its balls.
    let mut records = file();
    let colour = records[1].colours.as_ref().unwrap()[1].clone();
    records[1].result.points[1] = records[1].result.scores[&colour];
    let d = rejected(&records);
    assert_eq!(d.game, 2);
    assert!(d.reason.contains("it forfeited"), "{d}");
    let mut records = file();
    records[0].result.ranks.reverse();
    if records[0].result.ranks != file()[0].result.ranks {
        assert!(rejected(&records).reason.contains("ranks"));
    }
}

#[test]
fn a_changed_flip_is_caught() {
    let mut records = file();
    let flipped = records[0].moves[2].effects.get_mut("flipped").unwrap();
    flipped.as_array_mut().unwrap().push(json!("a1"));
    let d = rejected(&records);
    assert_eq!((d.game, d.ply), (1, Some(3)));
    assert!(
        d.reason.contains("flipped") && d.reason.contains("but the rules give"),
        "{d}"
    );
}

#[test]
fn a_dropped_move_is_caught() {
    let mut records = file();
    records[1].moves.remove(4);
    let d = rejected(&records);
    assert_eq!((d.game, d.ply), (2, Some(5)));
    assert!(d.reason.contains("numbered 6"), "{d}");
    let mut records = file();
    records[0].moves.pop();
    let d = rejected(&records);
    assert_eq!((d.game, d.ply), (1, None));
    assert!(d.reason.contains("not over"), "{d}");
}

#[test]
fn fallback_moves_are_reproduced() {
    let mut records = file();
    let (i, m) = records[1]
        .moves
        .iter()
        .enumerate()
        .find(|(_, m)| m.by_arbiter)
        .map(|(i, m)| (i, m.clone()))
        .unwrap();
    // Forge the arbiter's move as the bot's own.
    records[1].moves[i].by_arbiter = false;
    let d = rejected(&records);
    assert_eq!((d.game, d.ply), (2, Some(m.ply)));
    assert!(d.reason.contains("forfeited at move 5"), "{d}");
    // A fallback move that is legal but not the seeded one.
    let big = round(8, 4, 1, 1, Some((0, 1)));
    let mut tampered = big.clone();
    let k = tampered.moves.iter().position(|m| m.by_arbiter).unwrap();
    let game = Rolit::new(8, 4).unwrap();
    let mut r = rollarena::replay::new_round(&game, &big);
    for m in &big.moves[..k] {
        r.play(m.seat, &m.mv).unwrap();
    }
    let legal = r.legal_moves(big.moves[k].seat).unwrap();
    tampered.moves[k].mv = legal.into_iter().find(|m| *m != big.moves[k].mv).unwrap();
    let d = verify(&[tampered]).unwrap_err();
    assert_eq!(d.ply, Some(k as u32 + 1));
    assert!(d.reason.contains("seeded fallback"), "{d}");
}

#[test]
fn seats_seeds_and_matches_are_checked() {
    let mut records = file();
    records[0].colours.as_mut().unwrap().reverse();
    assert!(rejected(&records).reason.contains("rotation"));
    let mut records = file();
    records[0].first = 1 - records[0].first;
    assert!(rejected(&records).reason.contains("moves first"));
    let mut records = file();
    records[1].seed += 1;
    assert_eq!(rejected(&records).game, 2);
    let mut records = file();
    records.push(records[0].clone());
    let d = rejected(&records);
    assert_eq!(d.game, 3);
    assert!(
        d.reason.contains("already in the file as its round 1"),
        "{d}"
    );
    let mut records = file();
    records[1].seats[0].name = "someone else".into();
    assert!(rejected(&records).reason.contains("seat names differ"));
    // Half a match verifies, without standings.
    let report = verify(&file()[1..]).unwrap();
    assert!(!report.matches[0].whole());
}
