//! The fast engine and the naive implementation play the same random games and must agree at
//! every step: the board, the colour to move, the ply, the JSON state, the capturing and legal
//! move sets, the balls every legal move turns, the refusal of every illegal square, and the
//! final scores. Every variant (8x8 and 6x6 with 2, 3 and 4 players, 4x4 with 2) and every first
//! colour is played, first through the engine's [`Position`] and then through the [`Round`]
//! trait the arbiter uses (JSON moves, seats, rotation, outcome).
//!
//! A deterministic coverage test then checks that random games do reach what the rules single
//! out (the no-capture fallback, a colour vanishing, corners, mixed-colour runs, balls of a
//! colour nobody plays being captured, five lines at once), so the agreement means something.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::rolit::bitboard::Squares;
use rollarena::game::rolit::{Colour, Position, Rolit, Square, State};
use rollarena::game::{Game, Request, RoundSetup, ToAct};
use serde_json::json;

use super::naive::{self, NAMES, Naive, Sq};

/// The variants of the rules: (board size, players).
pub const VARIANTS: [(usize, usize); 7] = [(8, 2), (8, 3), (8, 4), (6, 2), (6, 3), (6, 4), (4, 2)];

/// The engine's colour for a naive colour number.
pub fn engine_colour(c: u8) -> Colour {
    Colour::from_name(NAMES[c as usize]).unwrap()
}

/// Sorted square names of a bitboard.
pub fn bit_names(bits: u64) -> Vec<String> {
    let mut v: Vec<String> = Squares(bits).map(|s| Square(s).to_string()).collect();
    v.sort();
    v
}

/// The engine's square for a naive square.
fn engine_sq(sq: Sq) -> Square {
    Square::new(sq.0 as u8, sq.1 as u8)
}

/// What the random games went through, to show they reach the situations the rules describe.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    pub games: u64,
    pub moves: u64,
    /// Moves made where no capture was possible.
    pub fallbacks: u64,
    /// Moves made by a colour with no ball on the board.
    pub vanished: u64,
    pub corners: u64,
    /// Captures along a run of two or more colours.
    pub mixed_runs: u64,
    /// Balls of a colour nobody plays that were turned.
    pub unplayed_turned: u64,
    /// Moves that turned five lines or more at once.
    pub five_lines: u64,
    /// The longest run turned.
    pub longest_run: usize,
}

/// Checks that the engine's position is the naive one, including every legal and illegal move
/// from it. Panics with the board on the first difference.
fn check_position(pos: &Position, nv: &Naive) {
    assert_eq!(pos.rows(), nv.rows(), "boards differ\n{nv:?}");
    assert_eq!(pos.to_move().name(), nv.to_move_name(), "to move\n{nv:?}");
    assert_eq!(pos.ply(), nv.ply(), "ply\n{nv:?}");
    assert_eq!(pos.is_over(), nv.is_over(), "over\n{nv:?}");
    let engine_counts = pos.counts();
    assert_eq!(engine_counts, nv.counts(), "counts\n{nv:?}");
    assert_eq!(
        serde_json::to_value(State::of(pos)).unwrap(),
        nv.state_json(),
        "JSON state\n{nv:?}"
    );
    assert_eq!(
        bit_names(pos.capture_moves()),
        naive::names(&nv.captures()),
        "capturing moves\n{nv:?}"
    );
    let legal = nv.legal();
    assert_eq!(
        bit_names(pos.legal_moves()),
        naive::names(&legal),
        "legal moves\n{nv:?}"
    );
    for sq in nv.squares() {
        let mut copy = *pos;
        let result = copy.play(engine_sq(sq));
        if legal.contains(&sq) {
            let turned =
                result.unwrap_or_else(|r| panic!("{} refused: {r}\n{nv:?}", naive::name(sq)));
            assert_eq!(
                bit_names(turned),
                naive::names(&nv.flips(sq)),
                "balls turned by {}\n{nv:?}",
                naive::name(sq)
            );
        } else {
            let reason = result
                .map(|_| ())
                .expect_err(&format!("{} is illegal\n{nv:?}", naive::name(sq)))
                .to_string();
            let expected = if nv.at(sq).is_some() {
                "is occupied"
            } else if !nv.touches_ball(sq) {
                "touches no ball"
            } else {
                "a capture is possible"
            };
            assert!(
                reason.contains(expected),
                "{}: {reason:?} should say {expected:?}\n{nv:?}",
                naive::name(sq)
            );
            assert_eq!(copy, *pos, "a refused move changed the position");
        }
    }
}

/// Plays one random game in both implementations (`choices[i]` picks the i-th move among the
/// legal ones) and checks them against each other at every step.
pub fn play_both(size: usize, players: usize, first: u8, choices: &[u32], seen: &mut Seen) {
    let mut pos = Position::start(size as u8, players, engine_colour(first)).unwrap();
    let mut nv = Naive::start(size, players, first);
    let unplayed: Vec<u8> = (0..4).filter(|c| !nv.order.contains(c)).collect();
    for (i, &choice) in choices.iter().enumerate() {
        check_position(&pos, &nv);
        if nv.is_over() {
            assert_eq!(i, size * size - 4, "a round lasts n*n-4 moves");
            break;
        }
        let legal = nv.legal();
        let sq = legal[choice as usize % legal.len()];
        // What this move shows about coverage.
        seen.moves += 1;
        if nv.captures().is_empty() {
            seen.fallbacks += 1;
        }
        if nv.counts()[nv.to_move() as usize] == 0 {
            seen.vanished += 1;
        }
        let edge = |v: usize| v == 0 || v == size - 1;
        if edge(sq.0) && edge(sq.1) {
            seen.corners += 1;
        }
        let lines = nv.lines_for(sq, nv.to_move());
        if lines.len() >= 5 {
            seen.five_lines += 1;
        }
        for line in &lines {
            seen.longest_run = seen.longest_run.max(line.len());
            let first_colour = nv.at(line[0]);
            if line.iter().any(|&s| nv.at(s) != first_colour) {
                seen.mixed_runs += 1;
            }
            seen.unplayed_turned += line
                .iter()
                .filter(|&&s| unplayed.contains(&nv.at(s).unwrap()))
                .count() as u64;
        }
        let turned_naive = nv.play(sq).unwrap();
        let turned = pos.play(engine_sq(sq)).unwrap();
        assert_eq!(bit_names(turned), naive::names(&turned_naive));
    }
    check_position(&pos, &nv);
    assert!(nv.is_over(), "60 choices are enough for any board");
    assert_eq!(pos.legal_moves(), 0, "no move on a full board");
    seen.games += 1;
}

/// The colours in play, the first colour drawn from the match seed, and the seat rotation,
/// computed here from the rules rather than asked of the engine.
fn expected_seating(players: usize, match_seed: u64, round: u32) -> (u8, Vec<u8>) {
    let order = naive::colours_for(players);
    let k = order.len();
    let mut rng = ChaCha8Rng::seed_from_u64(match_seed);
    let first = order[rng.random_range(0..k)];
    let seats = (0..k).map(|i| order[(i + round as usize) % k]).collect();
    (first, seats)
}

/// Ranks (1, 1, 3) and shares of the round win, computed here from the rules.
fn expected_ranks(points: &[u32]) -> (Vec<u32>, Vec<f64>) {
    let ranks: Vec<u32> = points
        .iter()
        .map(|p| 1 + points.iter().filter(|q| *q > p).count() as u32)
        .collect();
    let k = ranks.iter().filter(|&&r| r == 1).count();
    let wins = ranks
        .iter()
        .map(|&r| if r == 1 { 1.0 / k as f64 } else { 0.0 })
        .collect();
    (ranks, wins)
}

/// Plays one random round through the [`Round`] trait, as the arbiter does, against the naive
/// implementation. `noise` drives refused attempts (a wrong seat, an illegal square, a square
/// in upper case) mixed into the game.
fn play_round(size: usize, players: usize, match_seed: u64, round: u32, choices: &[(u32, u8)]) {
    let game = Rolit::new(size as u8, players).unwrap();
    assert_eq!(game.seats(), players);
    assert_eq!(game.options(), json!({"size": size, "players": players}));
    let mut r = game.new_round(RoundSetup {
        round,
        match_seed,
        round_seed: 0,
        chance_seed: 0,
    });
    let (first, seats) = expected_seating(players, match_seed, round);
    let seat_names: Vec<String> = seats
        .iter()
        .map(|&c| NAMES[c as usize].to_string())
        .collect();
    assert_eq!(r.colours(), Some(seat_names));
    let seat_of = |c: u8| seats.iter().position(|&x| x == c).unwrap();
    assert_eq!(r.first(), seat_of(first));
    let mut nv = Naive::start(size, players, first);
    for &(choice, noise) in choices {
        assert_eq!(r.view(0), nv.state_json());
        assert_eq!(r.public_view(), nv.state_json());
        if nv.is_over() {
            break;
        }
        let seat = seat_of(nv.to_move());
        assert_eq!(r.to_act(), ToAct::Seat(seat, Request::TURN));
        let legal = nv.legal();
        let listed: Vec<String> = r
            .legal_moves(seat)
            .unwrap()
            .into_iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(sorted, naive::names(&legal));
        assert!(listed.len() == sorted.len() && !listed.is_empty());
        let other = (seat + 1) % players;
        assert_eq!(r.legal_moves(other), None);
        let before = r.public_view();
        match noise % 8 {
            0 => {
                let e = r.play(other, &json!(listed[0])).unwrap_err();
                assert_eq!(e.reason, "it is not your turn");
            }
            1 => {
                if let Some(&bad) = nv.squares().iter().find(|s| !legal.contains(s)) {
                    let e = r.play(seat, &json!(naive::name(bad))).unwrap_err();
                    let mut copy = nv.clone();
                    let why = copy.play(bad).unwrap_err();
                    let why = if why == "occupied" {
                        "is occupied".into()
                    } else {
                        why
                    };
                    assert!(e.reason.contains(&why), "{:?} vs {why:?}", e.reason);
                }
            }
            2 => {
                let e = r.play(seat, &json!(["d3"])).unwrap_err();
                assert!(e.reason.contains("square name in a string"), "{}", e.reason);
            }
            _ => {}
        }
        assert_eq!(r.public_view(), before, "a refused move changed the state");
        let sq = legal[choice as usize % legal.len()];
        let mut text = naive::name(sq);
        if noise % 8 == 3 {
            text = text.to_uppercase();
        }
        let turned = nv.play(sq).unwrap();
        let applied = r.play(seat, &json!(text)).unwrap();
        assert_eq!(applied.seat, seat);
        assert_eq!(applied.colour.as_deref(), Some(NAMES[seats[seat] as usize]));
        assert_eq!(applied.notation, json!(naive::name(sq)));
        let mut flipped: Vec<String> = applied.effects["flipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        flipped.sort();
        assert_eq!(flipped, naive::names(&turned));
    }
    assert!(nv.is_over());
    assert_eq!(r.to_act(), ToAct::Over);
    for s in 0..players {
        assert_eq!(r.legal_moves(s), None);
        assert!(r.play(s, &json!("a1")).is_err());
    }
    let o = r.outcome().expect("the round is over");
    let counts = nv.counts();
    for (c, &name) in NAMES.iter().enumerate() {
        assert_eq!(o.scores[name], counts[c], "score of {name}");
    }
    assert_eq!(o.scores.len(), 4);
    let points: Vec<u32> = seats.iter().map(|&c| counts[c as usize]).collect();
    assert_eq!(o.points, points);
    let (ranks, wins) = expected_ranks(&points);
    assert_eq!(o.ranks, ranks);
    assert_eq!(o.wins, wins);
    let winners: Vec<usize> = (0..players).filter(|&s| ranks[s] == 1).collect();
    assert_eq!(o.winners(), winners);
    assert_eq!(
        counts.iter().sum::<u32>(),
        (size * size) as u32,
        "the board is full"
    );
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Random games: a first colour among those in play and 60 move choices.
fn game(players: usize) -> impl Strategy<Value = (u8, Vec<u32>)> {
    (
        prop::sample::select(naive::colours_for(players)),
        prop::collection::vec(any::<u32>(), 60),
    )
}

proptest! {
    #![proptest_config(config(250))]

    #[test]
    fn engine_agrees_8x8_2_players((first, choices) in game(2)) {
        play_both(8, 2, first, &choices, &mut Seen::default());
    }

    #[test]
    fn engine_agrees_8x8_3_players((first, choices) in game(3)) {
        play_both(8, 3, first, &choices, &mut Seen::default());
    }

    #[test]
    fn engine_agrees_8x8_4_players((first, choices) in game(4)) {
        play_both(8, 4, first, &choices, &mut Seen::default());
    }

}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn engine_agrees_6x6_2_players((first, choices) in game(2)) {
        play_both(6, 2, first, &choices, &mut Seen::default());
    }

    #[test]
    fn engine_agrees_6x6_3_players((first, choices) in game(3)) {
        play_both(6, 3, first, &choices, &mut Seen::default());
    }

    #[test]
    fn engine_agrees_6x6_4_players((first, choices) in game(4)) {
        play_both(6, 4, first, &choices, &mut Seen::default());
    }

    #[test]
    fn engine_agrees_4x4_2_players((first, choices) in game(2)) {
        play_both(4, 2, first, &choices, &mut Seen::default());
    }
}

proptest! {
    #![proptest_config(config(150))]

    /// The arbiter's view: every variant, any match seed (so any first colour) and any round
    /// of the rotation.
    #[test]
    fn rounds_agree(
        variant in 0..VARIANTS.len(),
        match_seed in any::<u64>(),
        round in 0u32..8,
        choices in prop::collection::vec((any::<u32>(), any::<u8>()), 60),
    ) {
        let (size, players) = VARIANTS[variant];
        play_round(size, players, match_seed, round, &choices);
    }
}

/// Seeded random games in every variant and with every first colour reach the situations the
/// rules single out; otherwise agreeing on them would prove little.
#[test]
fn random_games_reach_the_rules_corners() {
    let mut rng = ChaCha8Rng::seed_from_u64(2019);
    for (size, players) in VARIANTS {
        let mut seen = Seen::default();
        for &first in &naive::colours_for(players) {
            for _ in 0..24 {
                let choices: Vec<u32> = (0..60).map(|_| rng.random()).collect();
                play_both(size, players, first, &choices, &mut seen);
            }
        }
        let what = format!("{size}x{size}, {players} players: {seen:?}");
        assert!(seen.fallbacks > 0, "no fallback move: {what}");
        assert!(seen.corners > 0, "no corner: {what}");
        assert!(seen.mixed_runs > 0, "no mixed run: {what}");
        assert!(
            seen.unplayed_turned > 0 || players == 4,
            "no unplayed colour turned: {what}"
        );
        assert!(seen.longest_run >= size - 3, "no long run: {what}");
        if size == 8 {
            assert!(seen.vanished > 0, "no vanished colour: {what}");
        }
        eprintln!("{what}");
    }
}
