//! Board knowledge shared by the searching bots ([`Mcts`](super::Mcts)'s playout policy and
//! [`Brs`](super::Brs)'s evaluation): the geometry of each board size (corners, the squares
//! next to each corner, edges, the five levels of [`values::level`]) and a phase-dependent
//! evaluation of a position for one colour.
//!
//! The evaluation counts, for each colour in play, seven features (see [`Feature`]): balls,
//! corners held, stable edge balls (runs along an edge from a corner of the same colour, and
//! balls on a full edge: nothing can turn them any more), other edge balls, X and C squares
//! held next to an empty corner (they give the corner away), and mobility (the moves that
//! would capture if the colour were to move). Each feature has an opening weight and an
//! endgame weight; the weight used is interpolated by the share of empty squares. A colour's
//! worth is the weighted sum of its features; the evaluation for `me` is its worth against the
//! average of the others' (scaled by the number of opponents to stay in integers), as in
//! `positional`.
//!
//! The weights were tuned by self-play: see `tune` in this module's tests (run it with
//! `cargo test --release --lib bots::eval::tests::tune -- --ignored --nocapture`) and the
//! history of measurements, `bench/README.md` ("brs's weights").

use crate::game::rolit::bitboard::{Squares, capture_moves};
use crate::game::rolit::values::{self, Level};
use crate::game::rolit::{Colour, Position, Square};

/// The squares that matter for strategy on one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub size: u8,
    /// Number of squares.
    pub cells: u32,
    /// The four corners.
    pub corners: u64,
    /// Each corner, with the squares next to it: the C squares (on the edges) and the X
    /// square (diagonal).
    pub corner: [u64; 4],
    pub c_squares: [u64; 4],
    pub x_square: [u64; 4],
    /// Every edge square.
    pub edges: u64,
    /// The four edge lines (corners included).
    pub lines: [u64; 4],
    /// The squares of each level, [`Level`] as index.
    pub levels: [u64; 5],
    /// From each corner, the two edge directions as (step in square numbers, length).
    walk: [[i8; 2]; 4],
}

impl Geometry {
    pub fn new(size: u8) -> Geometry {
        let last = size - 1;
        let sq = |f: u8, r: u8| Square::new(f, r).bit();
        let corner = [sq(0, 0), sq(last, 0), sq(0, last), sq(last, last)];
        let c_squares = [
            sq(1, 0) | sq(0, 1),
            sq(last - 1, 0) | sq(last, 1),
            sq(1, last) | sq(0, last - 1),
            sq(last - 1, last) | sq(last, last - 1),
        ];
        let x_square = [
            sq(1, 1),
            sq(last - 1, 1),
            sq(1, last - 1),
            sq(last - 1, last - 1),
        ];
        let mut lines = [0u64; 4];
        for i in 0..size {
            lines[0] |= sq(i, 0);
            lines[1] |= sq(i, last);
            lines[2] |= sq(0, i);
            lines[3] |= sq(last, i);
        }
        let mut levels = [0u64; 5];
        for r in 0..size {
            for f in 0..size {
                let s = Square::new(f, r);
                levels[values::level(s, size) as usize] |= s.bit();
            }
        }
        Geometry {
            size,
            cells: u32::from(size) * u32::from(size),
            corners: corner[0] | corner[1] | corner[2] | corner[3],
            corner,
            c_squares,
            x_square,
            edges: lines[0] | lines[1] | lines[2] | lines[3],
            lines,
            levels,
            walk: [[1, 8], [-1, 8], [1, -8], [-1, -8]],
        }
    }

    /// The C and X squares next to an empty corner: taking one may give the corner away.
    #[inline]
    pub fn danger(&self, empty: u64) -> u64 {
        let mut d = 0;
        for i in 0..4 {
            if empty & self.corner[i] != 0 {
                d |= self.c_squares[i] | self.x_square[i];
            }
        }
        d
    }

    /// Balls of `own` that nothing can turn any more along an edge: runs from a corner of
    /// `own`, and every ball of `own` on a full edge.
    pub fn stable_edges(&self, own: u64, empty: u64) -> u64 {
        let mut stable = 0;
        for line in self.lines {
            if line & empty == 0 {
                stable |= line & own;
            }
        }
        let n = i32::from(self.size);
        for (i, &c) in self.corner.iter().enumerate() {
            if own & c == 0 {
                continue;
            }
            let start = c.trailing_zeros() as i32;
            for step in self.walk[i] {
                let mut s = start;
                for _ in 0..n {
                    if own & (1u64 << s) == 0 {
                        break;
                    }
                    stable |= 1u64 << s;
                    s += i32::from(step);
                    if !(0..64).contains(&s) {
                        break;
                    }
                }
            }
        }
        stable
    }
}

/// The evaluation's features, in the order of [`Weights`]'s arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    Balls = 0,
    Corners = 1,
    StableEdges = 2,
    Edges = 3,
    XNearEmptyCorner = 4,
    CNearEmptyCorner = 5,
    Mobility = 6,
}

pub const FEATURES: usize = 7;

/// Opening and endgame weights of each feature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub opening: [i32; FEATURES],
    pub endgame: [i32; FEATURES],
}

/// The tuned weights (see the module's documentation): 400 steps of `tune` from
/// [`HAND_WEIGHTS`] (seed 1, 40 rounds a step, depth 3).
pub const WEIGHTS: Weights = Weights {
    opening: [-8, 68, 40, 8, -45, -11, 10],
    endgame: [3, 40, 20, 4, -24, -9, 6],
};

/// The weights for three and four players: the hand-set ones. [`WEIGHTS`] loses to them with
/// four players (19.0% +- 5.4% of the wins at depth 5, fair share 25%), and 300 steps of
/// `tune` with `TUNE_PLAYERS=4` found nothing better (21.7% +- 4.0% over 400 rounds at depth 5;
/// it ended at opening [4, 105, 58, 12, -45, -12, 4], endgame [9, 40, 19, 8, -38, -10, -2]).
pub const WEIGHTS_MULTI: Weights = HAND_WEIGHTS;

/// The weights set by hand, where the tuning started.
pub const HAND_WEIGHTS: Weights = Weights {
    opening: [2, 90, 40, 8, -45, -18, 6],
    endgame: [12, 40, 20, 4, -20, -8, 2],
};

/// Each feature of `c` in `pos`.
#[inline]
pub fn features(g: &Geometry, pos: &Position, c: Colour) -> [i32; FEATURES] {
    let own = pos.balls(c);
    let occ = pos.occupied();
    let empty = pos.mask() & !occ;
    let danger_x = {
        let mut d = 0;
        for i in 0..4 {
            if empty & g.corner[i] != 0 {
                d |= g.x_square[i];
            }
        }
        d
    };
    let danger_c = g.danger(empty) & !danger_x;
    let stable = g.stable_edges(own, empty) & !g.corners;
    [
        own.count_ones() as i32,
        (own & g.corners).count_ones() as i32,
        stable.count_ones() as i32,
        (own & g.edges & !g.corners & !stable & !danger_c).count_ones() as i32,
        (own & danger_x).count_ones() as i32,
        (own & danger_c).count_ones() as i32,
        capture_moves(own, occ & !own, empty).count_ones() as i32,
    ]
}

/// A phase-dependent evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Evaluator {
    pub geometry: Geometry,
    pub weights: Weights,
}

impl Evaluator {
    pub fn new(size: u8, weights: Weights) -> Evaluator {
        Evaluator {
            geometry: Geometry::new(size),
            weights,
        }
    }

    /// The worth of colour `c` alone, in 1/64ths of the weights.
    #[inline]
    pub fn worth(&self, pos: &Position, c: Colour) -> i32 {
        let g = &self.geometry;
        let empty = pos.empty().count_ones() as i32;
        let cells = g.cells as i32;
        let f = features(g, pos, c);
        let mut total = 0;
        for (i, v) in f.iter().enumerate() {
            let w = self.weights.endgame[i] * 64
                + (self.weights.opening[i] - self.weights.endgame[i]) * 64 * empty / cells;
            total += w * v;
        }
        total
    }

    /// The position's worth for `me` against the average of the others, scaled by the number
    /// of opponents. At the end of the round, the balls alone decide.
    pub fn evaluate(&self, pos: &Position, me: Colour) -> i32 {
        let colours = pos.colours();
        let k = colours.len() as i32 - 1;
        if pos.is_over() {
            let mut total = 0;
            for &c in colours {
                let b = pos.balls(c).count_ones() as i32 * 10_000;
                total += if c == me { b * k } else { -b };
            }
            return total;
        }
        let mut total = 0;
        for &c in colours {
            let w = self.worth(pos, c);
            total += if c == me { w * k } else { -w };
        }
        total
    }
}

/// The level of each square made dynamic: the C and X squares of a taken corner count as
/// medium, since they give nothing away any more. Playout and move-ordering tiers, best first.
#[inline]
pub fn tiers(g: &Geometry, pos: &Position, moves: u64) -> [u64; 4] {
    let empty = pos.empty();
    let danger = g.danger(empty);
    [
        moves & g.corners,
        moves & g.levels[Level::Strong as usize] & !danger,
        moves & !g.corners & !g.levels[Level::Strong as usize] & !danger,
        moves & danger,
    ]
}

/// The squares of `moves`, best tier first (for move ordering).
pub fn ordered(g: &Geometry, pos: &Position, moves: u64) -> impl Iterator<Item = u8> {
    tiers(g, pos, moves).into_iter().flat_map(Squares)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rolit::bots::tests::position;

    #[test]
    fn stable_edges_from_corners_and_full_lines() {
        let pos = position(
            &[
                "RRRGGGGG", "........", "........", "...RG...", "...GR...", "........", "R.......",
                "RRR.G...",
            ],
            "red",
            &["red", "green"],
        );
        let g = Geometry::new(8);
        let red = pos.balls(Colour::Red);
        let green = pos.balls(Colour::Green);
        let s = g.stable_edges(red, pos.empty());
        // a1 b1 c1 a2 from the a1 corner; the full top edge's a8 b8 c8.
        assert_eq!(s.count_ones(), 7, "{s:#x}");
        let s = g.stable_edges(green, pos.empty());
        // The top edge is full: d8..h8; e1 is not anchored.
        assert_eq!(s.count_ones(), 5);
        for size in [4, 6, 8] {
            let g = Geometry::new(size);
            assert_eq!(g.corners.count_ones(), 4);
            assert_eq!(g.edges.count_ones(), 4 * u32::from(size) - 4);
        }
    }

    /// Self-play tuning of [`WEIGHTS`] by a (1+1) local search: each step changes one weight
    /// (opening or endgame) by a random step, and the candidate replaces the current weights
    /// when it scores above 110% of a fair share against them over `TUNE_GAMES` 8x8 rounds of
    /// `TUNE_PLAYERS` players (2; with 4, one candidate against three current bots) of
    /// `brs --depth TUNE_DEPTH` (seats rotated, 4 random opening plies per rotation).
    /// Prints every accepted step and the final weights, to paste into [`WEIGHTS`]:
    ///
    /// `TUNE_STEPS=60 cargo test --release --lib bots::eval::tests::tune -- --ignored --nocapture`
    #[test]
    #[ignore = "tuning, minutes"]
    fn tune() {
        use crate::game::rolit::bots::arena::play;
        use crate::game::rolit::bots::brs::{self, Brs};
        use crate::game::rolit::bots::{Bot, Options};
        use rand::{Rng, SeedableRng};

        let env = |k: &str, d: u64| std::env::var(k).map_or(d, |v| v.parse().unwrap());
        let steps = env("TUNE_STEPS", 60);
        let games = env("TUNE_GAMES", 40) as u32;
        let depth = env("TUNE_DEPTH", 3) as u32;
        let players = env("TUNE_PLAYERS", 2) as usize;
        let start = if players == 2 {
            HAND_WEIGHTS
        } else {
            WEIGHTS_MULTI
        };
        let bot = |w: Weights| {
            Bot::new(
                Box::new(Brs::new(brs::Config {
                    depth: Some(depth),
                    weights: w,
                    weights_multi: w,
                    ..brs::Config::default()
                })),
                Options::default(),
            )
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(env("TUNE_SEED", 1));
        let mut current = start;
        for step in 0..steps {
            let mut cand = current;
            let f = rng.random_range(0..FEATURES);
            let w = if rng.random_bool(0.5) {
                &mut cand.opening[f]
            } else {
                &mut cand.endgame[f]
            };
            let delta = (w.abs() / 4).max(2) * if rng.random_bool(0.5) { 1 } else { -1 };
            *w += delta;
            let mut score = 0.0;
            for g in 0..games {
                let seat = g as usize % players;
                let mut bots: Vec<Bot> = (0..players)
                    .map(|i| bot(if i == seat { cand } else { current }))
                    .collect();
                let seed = step * 1000 + u64::from(g) / players as u64;
                score += play(&mut bots, 8, 4, seed, None).share[seat];
            }
            let share = score / f64::from(games);
            if share > 1.1 / players as f64 {
                current = cand;
                println!(
                    "step {step}: feature {f} by {delta:+}: {share:.3}, accepted: {current:?}"
                );
            }
        }
        println!("final: {current:?}");
    }

    /// [`WEIGHTS`] (two players) and [`WEIGHTS_MULTI`] (four) against [`HAND_WEIGHTS`] over `CMP_GAMES` rounds at `brs --depth
    /// CMP_DEPTH`, on 8x8 with two players and with four (one tuned bot against three
    /// hand-weighted ones), seats rotated; prints the tuned bot's win share with a 95% interval:
    ///
    /// `cargo test --release --lib bots::eval::tests::tuned_against_hand -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, minutes"]
    fn tuned_against_hand() {
        use crate::game::rolit::bots::arena::play;
        use crate::game::rolit::bots::brs::{self, Brs};
        use crate::game::rolit::bots::{Bot, Options};

        let env = |k: &str, d: u64| std::env::var(k).map_or(d, |v| v.parse().unwrap());
        let games = env("CMP_GAMES", 200) as u32;
        let depth = env("CMP_DEPTH", 3) as u32;
        let bot = |w: Weights| {
            Bot::new(
                Box::new(Brs::new(brs::Config {
                    depth: Some(depth),
                    weights: w,
                    weights_multi: w,
                    ..brs::Config::default()
                })),
                Options::default(),
            )
        };
        for players in [2usize, 4] {
            let mut shares = Vec::new();
            for g in 0..games {
                let seat = g as usize % players;
                let mut bots: Vec<Bot> = (0..players)
                    .map(|i| {
                        bot(if i != seat {
                            HAND_WEIGHTS
                        } else if players == 2 {
                            WEIGHTS
                        } else {
                            WEIGHTS_MULTI
                        })
                    })
                    .collect();
                let seed = 90_000 + u64::from(g) / players as u64;
                shares.push(play(&mut bots, 8, 4, seed, None).share[seat]);
            }
            let n = shares.len() as f64;
            let mean = shares.iter().sum::<f64>() / n;
            let sd = (shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            println!(
                "{players} players, depth {depth}, {games} rounds: tuned wins {:.1}% +- {:.1}% \
                 (fair share {:.0}%)",
                100.0 * mean,
                196.0 * sd / n.sqrt(),
                100.0 / players as f64
            );
        }
    }
}
