//! `greedy`: the move that turns the most balls right now, ties broken at random. No
//! look-ahead and no sense of position: it walks into corners for others.

use rand_chacha::ChaCha8Rng;

use super::{Best, Strategy};
use crate::game::rolit::{Position, Square, bitboard::Squares};

/// Plays the move that turns the most balls.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Strategy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, pos: &Position, legal: u64, rng: &mut ChaCha8Rng) -> Square {
        let mut best = Best::new(Square(legal.trailing_zeros() as u8));
        for sq in Squares(legal) {
            let mut next = *pos;
            let turned = next.play_unchecked(Square(sq)).count_ones();
            best.offer(turned, Square(sq), rng);
        }
        best.choice()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::game::rolit::bots::tests::position;

    #[test]
    fn takes_the_most_balls() {
        // g5 turns d5 e5 f5 (3), d4 turns d3 (1), a1 turns b1 (1).
        let pos = position(
            &[
                "........", "........", "........", "..RGGG..", "........", "...G....", "...R....",
                ".GR.....",
            ],
            "red",
            &["red", "green"],
        );
        let legal = pos.legal_moves();
        for s in ["g5", "d4", "a1"] {
            assert_ne!(legal & Square::parse(s, 8).unwrap().bit(), 0, "{s}");
        }
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let sq = Greedy.choose(&pos, legal, &mut rng);
            assert_eq!(sq.to_string(), "g5");
        }
        // Restricted to the others (after a refusal), a one-ball move.
        let g5 = Square::parse("g5", 8).unwrap().bit();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let sq = Greedy.choose(&pos, legal & !g5, &mut rng);
        assert!(["d4", "a1"].contains(&sq.to_string().as_str()), "{sq}");
    }

    #[test]
    fn ties_are_broken_at_random() {
        // From the start every capture turns one ball.
        let pos = position(
            &[
                "........", "........", "........", "...RY...", "...BG...", "........", "........",
                "........",
            ],
            "red",
            &["red", "yellow", "green", "blue"],
        );
        let legal = pos.legal_moves();
        let mut seen = 0;
        for seed in 0..64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            seen |= Greedy.choose(&pos, legal, &mut rng).bit();
        }
        assert_eq!(seen, legal);
    }
}
