//! The solver against plain minimax (every move of every line, no pruning, no table, the
//! engine's `Position` rather than the solver's own bitboard sides): the 4x4 start for every
//! first colour, and random positions with up to 10 empties on 6x6 and 8x8.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::game::rolit::Colour;

/// The final ball difference for the colour to move under perfect play.
fn minimax(pos: &Position) -> i32 {
    if pos.is_over() {
        let me = pos.balls(pos.to_move()).count_ones() as i32;
        let you = pos.balls(pos.next_to_move()).count_ones() as i32;
        return me - you;
    }
    Squares(pos.legal_moves())
        .map(|sq| {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            -minimax(&next)
        })
        .max()
        .expect("a position with an empty square has a legal move")
}

/// The paranoid value for `me`: its own final balls, the others minimising.
fn paranoid_minimax(pos: &Position, me: Colour) -> i32 {
    if pos.is_over() {
        return pos.balls(me).count_ones() as i32;
    }
    let values = Squares(pos.legal_moves()).map(|sq| {
        let mut next = *pos;
        next.play_unchecked(Square(sq));
        paranoid_minimax(&next, me)
    });
    if pos.to_move() == me {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Each legal move with its minimax value for the mover.
fn children(pos: &Position, value: impl Fn(&Position) -> i32) -> Vec<(Square, i32)> {
    Squares(pos.legal_moves())
        .map(|sq| {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            (Square(sq), value(&next))
        })
        .collect()
}

fn best_of(moves: &[(Square, i32)]) -> (i32, Vec<Square>) {
    let v = moves.iter().map(|m| m.1).max().unwrap();
    (v, moves.iter().filter(|m| m.1 == v).map(|m| m.0).collect())
}

/// A position `empties` squares from the end of a random game.
fn random_position(size: u8, players: usize, empties: u32, rng: &mut ChaCha8Rng) -> Position {
    let colours = Colour::for_players(players);
    let first = colours[rng.random_range(0..colours.len())];
    let mut pos = Position::start(size, players, first).unwrap();
    while pos.empty().count_ones() > empties {
        let legal: Vec<u8> = Squares(pos.legal_moves()).collect();
        pos.play_unchecked(Square(legal[rng.random_range(0..legal.len())]));
    }
    pos
}

#[test]
fn the_4x4_start_agrees_with_minimax_for_every_first_colour() {
    let mut solver = Solver::new(1 << 20);
    for first in [Colour::Red, Colour::Green] {
        let pos = Position::start(4, 2, first).unwrap();
        let (value, best) = best_of(&children(&pos, |p| -minimax(p)));
        let s = solver.solve(&pos, Limits::none()).unwrap();
        assert_eq!((s.value, &s.best), (value, &best), "{first} first");
        // The documented figure (protocol/games/rolit.md, the book's solver section).
        assert_eq!(value, -2, "{first} first");
    }
}

#[test]
fn random_endgames_agree_with_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    // One solver for every position: its table must never leak a wrong bound between them.
    let mut solver = Solver::new(1 << 20);
    for size in [6u8, 8] {
        for empties in 1..=10u32 {
            let tries = if empties >= 9 { 1 } else { 3 };
            for _ in 0..tries {
                let pos = random_position(size, 2, empties, &mut rng);
                let (value, best) = best_of(&children(&pos, |p| -minimax(p)));
                let s = solver.solve(&pos, Limits::none()).unwrap();
                assert_eq!((s.value, &s.best), (value, &best), "{:?}", pos.rows());
                assert_eq!(solver.value(&pos, Limits::none()), Some(value));
            }
        }
    }
}

#[test]
fn paranoid_agrees_with_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(45);
    for (size, players) in [(6u8, 3usize), (6, 4), (8, 3), (8, 4)] {
        for empties in [1u32, 3, 5, 7] {
            let pos = random_position(size, players, empties, &mut rng);
            let me = pos.to_move();
            let (value, best) = best_of(&children(&pos, |p| paranoid_minimax(p, me)));
            let s = paranoid::solve(&pos, Limits::none()).unwrap();
            assert_eq!((s.value, &s.best), (value, &best), "{:?}", pos.rows());
            let mut after = pos;
            after.play_unchecked(best[0]);
            assert_eq!(paranoid::value_for(&after, me, Limits::none()), Some(value));
        }
    }
}

#[test]
fn an_estimate_that_reaches_the_end_is_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    let mut solver = Solver::new(1 << 16);
    for _ in 0..5 {
        let pos = random_position(8, 2, 6, &mut rng);
        let e = solver.estimate(&pos, Limits::none());
        assert_eq!(e.depth, 6);
        assert_eq!(e.moves, children(&pos, |p| -minimax(p)));
        let pos = random_position(6, 3, 5, &mut rng);
        let e = paranoid::estimate(&pos, Limits::none());
        let me = pos.to_move();
        assert_eq!(e.moves, children(&pos, |p| paranoid_minimax(p, me)));
    }
}

#[test]
fn limits_stop_a_search_cleanly() {
    let pos = Position::start(8, 2, Colour::Red).unwrap();
    let mut solver = Solver::new(1 << 16);
    let nodes = Limits {
        deadline: None,
        nodes: Some(10_000),
    };
    assert_eq!(solver.solve(&pos, nodes), None);
    assert!(solver.nodes() <= 10_000);
    let started = Instant::now();
    assert_eq!(
        solver.value(&pos, Limits::time(Duration::from_millis(50))),
        None
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(
        paranoid::solve(&Position::start(8, 4, Colour::Red).unwrap(), nodes),
        None
    );
    // The same solver still solves what it can afterwards.
    let small = Position::start(4, 2, Colour::Green).unwrap();
    assert_eq!(solver.value(&small, Limits::none()), Some(-2));
    // An estimate always finishes its first ply, whatever the limit.
    let e = solver.estimate(&pos, Limits::time(Duration::ZERO));
    assert_eq!(
        (e.depth, e.moves.len()),
        (1, pos.legal_moves().count_ones() as usize)
    );
}

/// The endgame frontier on 8x8 with two players: for each number of empties, the time to
/// solve positions of games `brs` plays against itself at depth 2 (real endgames, not random
/// ones), with a fresh table each. Prints figures, asserts nothing about time:
/// `cargo test --lib solver::tests::frontier -- --ignored --nocapture`.
#[test]
#[ignore]
fn frontier_8x8() {
    frontier(8, 24, Duration::from_secs(5), 2000.0);
}

/// The same on 6x6, up to the start (32 empties) if it gets there: each solve given 60 s,
/// stopping once the median passes 20 s.
#[test]
#[ignore]
fn frontier_6x6() {
    frontier(6, 32, Duration::from_secs(60), 20_000.0);
}

fn frontier(size: u8, max: u32, cap: Duration, stop_ms: f64) {
    use crate::game::rolit::bots::{
        Strategy,
        brs::{self, Brs},
    };
    let mut rng = ChaCha8Rng::seed_from_u64(47);
    let mut bot = Brs::new(brs::Config {
        depth: Some(2),
        ..brs::Config::default()
    });
    let mut positions: Vec<Position> = Vec::new();
    for game in 0..6 {
        let first = [Colour::Red, Colour::Green][game % 2];
        let mut pos = Position::start(size, 2, first).unwrap();
        if pos.empty().count_ones() <= max {
            positions.push(pos);
        }
        // A few random moves first, so that the games differ.
        for _ in 0..4 {
            let legal: Vec<u8> = Squares(pos.legal_moves()).collect();
            pos.play_unchecked(Square(legal[rng.random_range(0..legal.len())]));
        }
        while pos.empty().count_ones() > 8 {
            if pos.empty().count_ones() <= max {
                positions.push(pos);
            }
            let sq = bot.choose(&pos, pos.legal_moves(), &mut rng);
            pos.play_unchecked(sq);
        }
    }
    let mut solver = Solver::default();
    println!("{size}x{size}: empties  positions  median ms  max ms  median nodes");
    for empties in 10..=max {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        for pos in positions
            .iter()
            .filter(|p| p.empty().count_ones() == empties)
        {
            solver.table.clear();
            let started = Instant::now();
            match solver.solve(pos, Limits::time(cap)) {
                None => times.push(f64::INFINITY),
                Some(s) => {
                    times.push(started.elapsed().as_secs_f64() * 1000.0);
                    if empties == 32 {
                        println!("the 6x6 start, {} first: {s:?}", pos.to_move());
                    }
                }
            }
            nodes.push(solver.nodes());
        }
        if times.is_empty() {
            continue;
        }
        times.sort_by(f64::total_cmp);
        nodes.sort();
        println!(
            "{empties:>7}  {:>9}  {:>9.1}  {:>6.1}  {:>12}",
            times.len(),
            times[times.len() / 2],
            times[times.len() - 1],
            nodes[nodes.len() / 2]
        );
        if times[times.len() / 2] > stop_ms {
            break;
        }
    }
}
