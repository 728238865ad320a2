//! The evaluation read as an expected result: what [`Mcts`](super::Mcts) takes for a position
//! where a playout stops before the end of the round (early playout termination, after
//! Lorentz, "Using evaluation functions in Monte-Carlo Tree Search", 2016).
//!
//! Each colour's [`worth`](super::eval::Evaluator::worth) becomes its expected win share by a
//! softmax: `exp(worth_c / scale) / sum_j exp(worth_j / scale)`. With two players that is the
//! logistic function of the evaluation, and the shares always add up to one, as a round's win
//! shares do. The scale was fitted to self-play (see `calibrate` in this module's tests): the
//! one that predicts the winners of `brs --depth 2` rounds best, by log-loss.

use super::eval::{Evaluator, Weights};
use crate::game::rolit::Position;

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rolit::Colour;
    use crate::game::rolit::bots::eval::{WEIGHTS, WEIGHTS_MULTI};

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

    /// Fits [`SCALE`] and [`SCALE_MULTI`]: plays `CAL_GAMES` rounds of `brs --depth 2`
    /// self-play on 8x8 (4 random opening plies), with 2 and with 4 players, and prints the
    /// log-loss of the predicted win shares against the rounds' real ones for a range of
    /// scales, over every position of every round after the opening:
    ///
    /// `cargo test --release --lib bots::estimate::tests::calibrate -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, a minute"]
    fn calibrate() {
        use crate::game::rolit::Square;
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
