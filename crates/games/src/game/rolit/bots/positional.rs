//! `positional`: weighs squares by the five tactical levels of `protocol/games/rolit.md` ("Square values")
//! ([`values::level`]: corners very strong, other edge squares strong, the middle medium, the
//! edge squares next to a corner weak and the squares diagonally next to one very weak), and
//! optionally looks ahead.
//!
//! The evaluation of a position for a colour is its balls, each worth [`BALL`] plus the weight
//! of its square's level. Balls never leave the board, only change colour, so the weights fade
//! as the board fills and the last moves count balls only. At depth 1 a move is judged by the
//! evaluation after it: the level of the square taken plus the balls turned, each with its own
//! square's weight.
//!
//! With `--depth D` > 1 it searches D plies with a paranoid alpha-beta: the bot maximises its
//! own evaluation and assumes every other player minimises it. That is the classic way to
//! search a multi-player game with the pruning of a two-player one (max-n cannot prune), and
//! a cautious bot is what a sparring partner should be. Children are ordered by the level of
//! their square (corners first), which makes the pruning effective: on 8x8 with four players
//! (release build) depth 3 takes tens of microseconds a move, depth 6 a few milliseconds on
//! average and tens at worst. The search is a fixed depth, never a clock, so moves are
//! reproducible.

use rand_chacha::ChaCha8Rng;

use super::{Best, Strategy};
use crate::game::rolit::bitboard::Squares;
use crate::game::rolit::values;
use crate::game::rolit::{Colour, Position, Square};

/// The worth of a ball, whatever its square.
pub const BALL: i32 = 8;

/// Extra worth of a ball by the level of its square, [`Level`](crate::game::rolit::values::Level) as index (very weak first).
pub const WEIGHTS: [i32; 5] = [-20, -8, 0, 8, 64];

/// Outside every evaluation.
const INF: i32 = i32::MAX / 2;

/// Plays by square values, with an optional paranoid look-ahead.
#[derive(Clone, Debug)]
pub struct Positional {
    depth: u32,
    /// The board size `levels` is for (0 before the first move).
    size: u8,
    /// The squares of each level, [`Level`](crate::game::rolit::values::Level) as index.
    levels: [u64; 5],
}

impl Positional {
    /// A bot searching `depth` plies (at least 1).
    pub fn new(depth: u32) -> Positional {
        Positional {
            depth: depth.max(1),
            size: 0,
            levels: [0; 5],
        }
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    fn prepare(&mut self, size: u8) {
        if self.size == size {
            return;
        }
        self.size = size;
        self.levels = level_masks(size);
    }

    /// The position's worth for `me` (higher is better): its own balls by square, against
    /// the average of the other colours in play (so a corner given away counts against it).
    /// Scaled by the number of opponents to stay in integers.
    pub fn evaluate(&self, pos: &Position, me: Colour) -> i32 {
        let cells = i32::from(self.size) * i32::from(self.size);
        let empty = pos.empty().count_ones() as i32;
        let colours = pos.colours();
        let mut total = 0;
        for &c in colours {
            let balls = pos.balls(c);
            let mut placed = 0;
            for (mask, w) in self.levels.iter().zip(WEIGHTS) {
                placed += w * (balls & mask).count_ones() as i32;
            }
            let worth = BALL * balls.count_ones() as i32 + placed * empty / cells;
            if c == me {
                total += worth * (colours.len() as i32 - 1);
            } else {
                total -= worth;
            }
        }
        total
    }

    /// Paranoid alpha-beta, fail-hard: `me` maximises, everyone else minimises. A result at
    /// or below `alpha` (at or above `beta`) only says the true value is there too.
    fn search(&self, pos: &Position, me: Colour, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if depth == 0 || pos.is_over() {
            return self.evaluate(pos, me);
        }
        let moves = pos.legal_moves();
        let maximise = pos.to_move() == me;
        for mask in self.levels.iter().rev() {
            for sq in Squares(moves & mask) {
                let mut next = *pos;
                next.play_unchecked(Square(sq));
                let v = self.search(&next, me, depth - 1, alpha, beta);
                if maximise {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    return if maximise { beta } else { alpha };
                }
            }
        }
        if maximise { alpha } else { beta }
    }
}

/// The squares of an `n`x`n` board by level, [`Level`](crate::game::rolit::values::Level) as index.
pub fn level_masks(size: u8) -> [u64; 5] {
    let mut masks = [0u64; 5];
    for rank in 0..size {
        for file in 0..size {
            let sq = Square::new(file, rank);
            masks[values::level(sq, size) as usize] |= sq.bit();
        }
    }
    masks
}

impl Strategy for Positional {
    fn name(&self) -> &'static str {
        "positional"
    }

    fn choose(&mut self, pos: &Position, legal: u64, rng: &mut ChaCha8Rng) -> Square {
        self.prepare(pos.size());
        let me = pos.to_move();
        let mut best = Best::new(Square(legal.trailing_zeros() as u8));
        for mask in self.levels.iter().rev() {
            for sq in Squares(legal & mask) {
                let mut next = *pos;
                next.play_unchecked(Square(sq));
                // A window just below the best so far: a move as good as the best gets its
                // exact value (a tie), a worse one fails low.
                let floor = best.score().unwrap_or(-INF);
                let v = self.search(&next, me, self.depth - 1, floor - 1, INF);
                best.offer(v, Square(sq), rng);
            }
        }
        best.choice()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use crate::game::rolit::values::Level;

    use rand::SeedableRng;

    use super::*;
    use crate::game::rolit::bots::tests::position;
    use crate::game::rolit::bots::{Bot, Options};

    /// a1 (a corner) turns b1 (1 ball); g5 turns 3 balls in the middle.
    fn corner_or_balls() -> Position {
        position(
            &[
                "........", "........", "........", "..RGGG..", "........", "........", "........",
                ".GR.....",
            ],
            "red",
            &["red", "green"],
        )
    }

    #[test]
    fn prefers_a_corner() {
        // Green cannot take a1 (nothing of red's to turn there), so a deeper search may take
        // the balls first and the corner later; one and two plies take the corner.
        let pos = corner_or_balls();
        for depth in 1..=2 {
            for seed in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let sq = Positional::new(depth).choose(&pos, pos.legal_moves(), &mut rng);
                assert_eq!(sq.to_string(), "a1", "depth {depth}");
            }
        }
        // Greedy takes the balls.
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let sq = crate::game::rolit::bots::Greedy.choose(&pos, pos.legal_moves(), &mut rng);
        assert_eq!(sq.to_string(), "g5");
        // Now green threatens a1 (turning a2, with a3 green): every depth takes it at once.
        let pos = position(
            &[
                "G.......", "G.......", "G.......", "G.RGGG..", "G.......", "G.......", "R.......",
                ".GR.....",
            ],
            "red",
            &["red", "green"],
        );
        for depth in 1..=5 {
            for seed in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let sq = Positional::new(depth).choose(&pos, pos.legal_moves(), &mut rng);
                assert_eq!(sq.to_string(), "a1", "depth {depth}");
            }
        }
    }

    #[test]
    fn avoids_giving_a_corner_away() {
        // Red may take b2 (very weak, next to the empty corner a1; turns b3) or d2 (turns
        // c3). After b2, green takes a1 at once (a1-b2-c3 with c3 green).
        let pos = position(
            &[
                "........", "........", "........", "........", ".R.G....", ".GG.....", "........",
                "........",
            ],
            "red",
            &["red", "green"],
        );
        let legal = pos.legal_moves();
        let b2 = Square::parse("b2", 8).unwrap();
        assert_ne!(legal & b2.bit(), 0);
        for depth in 1..=3 {
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            let sq = Positional::new(depth).choose(&pos, legal, &mut rng);
            assert_ne!(sq, b2, "depth {depth}");
        }
    }

    #[test]
    fn search_agrees_with_plain_minimax() {
        fn minimax(p: &Positional, pos: &Position, me: Colour, depth: u32) -> i32 {
            if depth == 0 || pos.is_over() {
                return p.evaluate(pos, me);
            }
            let values = Squares(pos.legal_moves()).map(|sq| {
                let mut next = *pos;
                next.play_unchecked(Square(sq));
                minimax(p, &next, me, depth - 1)
            });
            if pos.to_move() == me {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut pos = Position::start(6, 3, Colour::Red).unwrap();
        for _ in 0..12 {
            let mut p = Positional::new(3);
            p.prepare(6);
            let me = pos.to_move();
            let exact = minimax(&p, &pos, me, 3);
            assert_eq!(p.search(&pos, me, 3, -INF, INF), exact);
            // The chosen move is one of the best.
            let sq = p.choose(&pos, pos.legal_moves(), &mut rng);
            let mut next = pos;
            next.play_unchecked(sq);
            assert_eq!(minimax(&p, &next, me, 2), exact);
            pos.play_unchecked(super::super::random_square(pos.legal_moves(), &mut rng));
        }
    }

    #[test]
    fn levels_cover_the_board() {
        for size in [4, 6, 8] {
            let masks = level_masks(size);
            let all = masks.iter().fold(0, |a, m| a | m);
            assert_eq!(all.count_ones(), u32::from(size) * u32::from(size));
            assert_eq!(masks[Level::VeryStrong as usize].count_ones(), 4);
        }
    }

    /// Time per move of a whole 8x8 4-player round at each depth (run with
    /// `cargo test --release --lib bots::positional -- --ignored --nocapture`).
    #[test]
    #[ignore = "timing, prints a table"]
    fn time_per_move() {
        for depth in 1..=super::super::MAX_DEPTH {
            let mut bots: Vec<Bot> = (0..4)
                .map(|i| {
                    Bot::by_name(
                        "positional",
                        Options {
                            seed: i,
                            noise: 0.0,
                        },
                        depth,
                    )
                })
                .map(Option::unwrap)
                .collect();
            let mut worst = 0f64;
            let started = Instant::now();
            let mut pos = Position::start(8, 4, Colour::Red).unwrap();
            let mut moves = 0;
            for b in &mut bots {
                b.new_round(1);
            }
            while !pos.is_over() {
                let t = Instant::now();
                let i = pos
                    .colours()
                    .iter()
                    .position(|&c| c == pos.to_move())
                    .unwrap();
                let sq = bots[i].choose(&pos, pos.legal_moves());
                worst = worst.max(t.elapsed().as_secs_f64());
                pos.play(sq).unwrap();
                moves += 1;
            }
            let mean = started.elapsed().as_secs_f64() / moves as f64;
            println!(
                "depth {depth}: mean {:.3} ms, worst {:.3} ms per move",
                mean * 1e3,
                worst * 1e3
            );
        }
    }
}
