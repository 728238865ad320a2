//! The evaluation read as an expected result: what [`Mcts`](super::Mcts) takes for a position
//! where a playout stops before the end of the round (early playout termination, after
//! Lorentz, "Using evaluation functions in Monte-Carlo Tree Search", 2016).
//!
//! Each colour's [`worth`](super::eval::Evaluator::worth) becomes its expected win share by a
//! softmax: `exp(worth_c / scale) / sum_j exp(worth_j / scale)`. With two players that is the
//! logistic function of the evaluation, and the shares always add up to one, as a round's win
//! shares do. The scale was fitted to self-play (see `calibrate` in this module's tests): the
//! one that predicts the winners of `brs --depth 2` rounds best, by log-loss.
//!
//! With two players the estimate can also look a few plies ahead ([`Estimator::searched`]):
//! an alpha-beta search of the evaluation, read through the same logistic. This is the
//! minimax-informed prior of Baier & Winands ("MCTS-Minimax Hybrids", 2015), which `mcts` uses
//! at depth 1: a new child's prior is the evaluation after the opponent's best reply.

use super::eval::{Evaluator, Weights, ordered};
use crate::game::rolit::{Position, Square};

/// A decided round in [`Estimator::searched`]'s units: far beyond any evaluation, so that its
/// logistic is 0 or 1 exactly.
const DECIDED: f32 = 1.0e7;

/// The fitted scales, in the evaluation's units (see the module's documentation).
pub const SCALE: f32 = 6000.0;
pub const SCALE_MULTI: f32 = 6000.0;

/// Expected win shares from the evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Estimator {
    pub eval: Evaluator,
    pub scale: f32,
}

impl Estimator {
    pub fn new(size: u8, weights: Weights, scale: f32) -> Estimator {
        Estimator {
            eval: Evaluator::new(size, weights),
            scale,
        }
    }

    /// Each colour's expected win share in `pos` (by `Colour as usize`; 0 for colours not in
    /// play).
    #[inline]
    pub fn shares(&self, pos: &Position) -> [f32; 4] {
        let colours = pos.colours();
        let mut w = [0f32; 4];
        let mut top = f32::NEG_INFINITY;
        for &c in colours {
            let v = self.eval.worth(pos, c) as f32 / self.scale;
            w[c as usize] = v;
            top = top.max(v);
        }
        let mut total = 0.0;
        let mut out = [0f32; 4];
        for &c in colours {
            let e = (w[c as usize] - top).exp();
            out[c as usize] = e;
            total += e;
        }
        for &c in colours {
            out[c as usize] /= total;
        }
        out
    }

    /// Like [`shares`](Self::shares), after an alpha-beta search of `depth` plies with two
    /// players: the mover's share is the logistic of the best evaluation difference it can
    /// force, a decided round counting as a sure win, loss or half (a draw). With depth 0 or
    /// more than two players, the plain shares.
    pub fn searched(&self, pos: &Position, depth: u32) -> [f32; 4] {
        let colours = pos.colours();
        if depth == 0 || colours.len() != 2 {
            return self.shares(pos);
        }
        let me = pos.to_move();
        let v = self.negamax(pos, depth, f32::NEG_INFINITY, f32::INFINITY);
        let p = 1.0 / (1.0 + (-v / self.scale).exp());
        let mut out = [0f32; 4];
        for &c in colours {
            out[c as usize] = if c == me { p } else { 1.0 - p };
        }
        out
    }

    /// The mover's evaluation difference after `depth` plies of best play by both sides.
    fn negamax(&self, pos: &Position, depth: u32, mut alpha: f32, beta: f32) -> f32 {
        let me = pos.to_move();
        let other = *pos
            .colours()
            .iter()
            .find(|&&c| c != me)
            .expect("two players");
        if pos.is_over() {
            let counts = pos.counts();
            let margin = counts[me as usize] as i32 - counts[other as usize] as i32;
            return DECIDED * margin.signum() as f32;
        }
        if depth == 0 {
            return (self.eval.worth(pos, me) - self.eval.worth(pos, other)) as f32;
        }
        let mut best = f32::NEG_INFINITY;
        for sq in ordered(&self.eval.geometry, pos, pos.legal_moves()) {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            let v = -self.negamax(&next, depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rolit::bots::eval::{WEIGHTS, WEIGHTS_MULTI};
    use crate::game::rolit::{Colour, Square};

    #[test]
    fn shares_add_up_and_follow_the_evaluation() {
        for players in [2, 3, 4] {
            let mut pos = Position::start(8, players, Colour::Red).unwrap();
            let est = Estimator::new(8, WEIGHTS, SCALE);
            let s = est.shares(&pos);
            let sum: f32 = pos.colours().iter().map(|&c| s[c as usize]).sum();
            assert!((sum - 1.0).abs() < 1e-5, "{s:?}");
            // Take a corner-free lead for red by playing greedy moves for red only.
            for _ in 0..12 {
                if pos.is_over() {
                    break;
                }
                let sq = crate::game::rolit::bitboard::Squares(pos.legal_moves())
                    .next()
                    .unwrap();
                pos.play_unchecked(crate::game::rolit::Square(sq));
            }
            let s = est.shares(&pos);
            let worths: Vec<i32> = pos
                .colours()
                .iter()
                .map(|&c| est.eval.worth(&pos, c))
                .collect();
            // The order of the shares is the order of the worths.
            for (i, &a) in pos.colours().iter().enumerate() {
                for (j, &b) in pos.colours().iter().enumerate() {
                    if worths[i] > worths[j] {
                        assert!(s[a as usize] > s[b as usize], "{worths:?} {s:?}");
                    }
                }
            }
        }
    }

    /// Plain minimax of the same leaves, without pruning or ordering.
    fn minimax(est: &Estimator, pos: &Position, depth: u32) -> f32 {
        let me = pos.to_move();
        let other = *pos.colours().iter().find(|&&c| c != me).unwrap();
        if pos.is_over() {
            let counts = pos.counts();
            let m = counts[me as usize] as i32 - counts[other as usize] as i32;
            return DECIDED * m.signum() as f32;
        }
        if depth == 0 {
            return (est.eval.worth(pos, me) - est.eval.worth(pos, other)) as f32;
        }
        crate::game::rolit::bitboard::Squares(pos.legal_moves())
            .map(|sq| {
                let mut next = *pos;
                next.play_unchecked(Square(sq));
                -minimax(est, &next, depth - 1)
            })
            .fold(f32::NEG_INFINITY, f32::max)
    }

    #[test]
    fn searched_shares_are_the_minimax_of_the_evaluation() {
        use rand::{Rng, SeedableRng};
        let est = Estimator::new(6, WEIGHTS, SCALE);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..12 {
            let mut pos = Position::start(6, 2, Colour::Red).unwrap();
            // Random positions through the whole round, the end included.
            let plies = rng.random_range(0..40);
            for _ in 0..plies {
                if pos.is_over() {
                    break;
                }
                let moves: Vec<u8> =
                    crate::game::rolit::bitboard::Squares(pos.legal_moves()).collect();
                pos.play_unchecked(Square(moves[rng.random_range(0..moves.len())]));
            }
            if pos.is_over() {
                continue;
            }
            let me = pos.to_move() as usize;
            assert_eq!(est.searched(&pos, 0), est.shares(&pos));
            for depth in 1..=3 {
                let s = est.searched(&pos, depth);
                let v = minimax(&est, &pos, depth);
                let p = 1.0 / (1.0 + (-v / SCALE).exp());
                assert!((s[me] - p).abs() < 1e-6, "depth {depth}: {s:?} against {p}");
                let sum: f32 = pos.colours().iter().map(|&c| s[c as usize]).sum();
                assert!((sum - 1.0).abs() < 1e-6, "{s:?}");
            }
            // Depth 1 is the mover's best child as the child's own shares see it.
            let best = crate::game::rolit::bitboard::Squares(pos.legal_moves())
                .map(|sq| {
                    let mut next = pos;
                    next.play_unchecked(Square(sq));
                    if next.is_over() {
                        // The mover's win share: a win, a loss or a draw.
                        let counts = next.counts();
                        let theirs = counts[next.to_move() as usize];
                        match counts[me].cmp(&theirs) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Less => 0.0,
                            std::cmp::Ordering::Equal => 0.5,
                        }
                    } else {
                        est.shares(&next)[me]
                    }
                })
                .fold(f32::NEG_INFINITY, f32::max);
            let s = est.searched(&pos, 1)[me];
            assert!(
                (s - best).abs() < 1e-5,
                "{s} against the best child's {best}"
            );
            checked += 1;
        }
        assert!(checked >= 6, "only {checked} positions checked");
    }

    /// Fits [`SCALE`] and [`SCALE_MULTI`]: plays `CAL_GAMES` rounds of `brs --depth 2`
    /// self-play on 8x8 (4 random opening plies), with 2 and with 4 players, and prints the
    /// log-loss of the predicted win shares against the rounds' real ones for a range of
    /// scales, over every position of every round after the opening:
    ///
    /// `cargo test --release --lib bots::estimate::tests::calibrate -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, a minute"]
    fn calibrate() {
        use crate::game::rolit::bots::arena::play;
        use crate::game::rolit::bots::brs::{self, Brs};
        use crate::game::rolit::bots::{Bot, Options};

        let env = |k: &str, d: u64| std::env::var(k).map_or(d, |v| v.parse().unwrap());
        let games = env("CAL_GAMES", 400);
        for (players, weights) in [(2usize, WEIGHTS), (4, WEIGHTS_MULTI)] {
            let est = Estimator::new(8, weights, 1.0);
            // (worths of the colours in play, real shares), per position.
            let mut samples: Vec<(Vec<f32>, Vec<f64>)> = Vec::new();
            for g in 0..games {
                let mut bots: Vec<Bot> = (0..players)
                    .map(|_| {
                        Bot::new(
                            Box::new(Brs::new(brs::Config {
                                depth: Some(2),
                                ..brs::Config::default()
                            })),
                            Options::default(),
                        )
                    })
                    .collect();
                let round = play(&mut bots, 8, 4, 50_000 + g, None);
                let mut pos = Position::start(8, players, Colour::Red).unwrap();
                for (i, &m) in round.moves.iter().enumerate() {
                    if i >= 4 {
                        let w = pos
                            .colours()
                            .iter()
                            .map(|&c| est.eval.worth(&pos, c) as f32)
                            .collect();
                        samples.push((w, round.share.clone()));
                    }
                    pos.play_unchecked(Square(m));
                }
            }
            let mut best = (f64::INFINITY, 0.0);
            for scale in [
                250.0, 500.0, 750.0, 1000.0, 1500.0, 2000.0, 3000.0, 4000.0, 6000.0, 8000.0,
            ] {
                let mut loss = 0.0;
                for (w, share) in &samples {
                    let top = w.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                    let e: Vec<f64> = w
                        .iter()
                        .map(|v| f64::from((v - top) / scale).exp())
                        .collect();
                    let total: f64 = e.iter().sum();
                    for (p, s) in e.iter().zip(share) {
                        loss -= s * (p / total).max(1e-9).ln();
                    }
                }
                let loss = loss / samples.len() as f64;
                println!("{players} players, scale {scale}: log-loss {loss:.4}");
                if loss < best.0 {
                    best = (loss, scale);
                }
            }
            println!(
                "{players} players: best scale {} over {} positions of {games} rounds",
                best.1,
                samples.len()
            );
        }
    }
}
