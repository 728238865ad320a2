//! `random`: a legal move chosen uniformly. The weakest built-in bot, a baseline, and the
//! source of every bot's `--noise` moves.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Strategy;
use crate::game::rolit::{Position, Square};

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl Strategy for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _pos: &Position, legal: u64, rng: &mut ChaCha8Rng) -> Square {
        random_square(legal, rng)
    }
}

/// A square of the non-empty bitboard `legal`, uniformly.
pub fn random_square(legal: u64, rng: &mut ChaCha8Rng) -> Square {
    assert!(legal != 0, "no square to choose from");
    let mut rest = legal;
    for _ in 0..rng.random_range(0..legal.count_ones()) {
        rest &= rest - 1;
    }
    Square(rest.trailing_zeros() as u8)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn every_square_comes_up() {
        let legal = 0b1011_0000_0001u64 | (1 << 63);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = 0;
        for _ in 0..200 {
            let sq = random_square(legal, &mut rng);
            assert_ne!(sq.bit() & legal, 0);
            seen |= sq.bit();
        }
        assert_eq!(seen, legal);
    }
}
