//! Two players: the turn's bid from an equilibrium of the game that is left (`search` plays it
//! for the last turns, where it is exact). Goofspiel with two
//! players is a zero-sum game of simultaneous moves with chance (the prize order), so every
//! turn is a matrix game: the rows are this seat's cards, the columns the opponent's (its hand
//! is public: every bid is revealed), and each cell is the value of the position the two bids
//! lead to, averaged over the next prize. Values are this seat's expected result, 1 for a win,
//! 0 for a tie, -1 for a loss (what a match scores), so the score difference so far matters.
//!
//! The values are computed by backward induction, each matrix game solved exactly
//! ([`super::matrix`]), and remembered (a position is the prizes face down, the two hands and
//! the score difference). With [`Config::exact`] or fewer prizes face down the whole rest of
//! the round is solved; before that the search looks [`Config::depth`] turns ahead and then
//! [`estimate`]s. A position whose outcome no prize left can change is decided at once.

use std::collections::HashMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::known::{Set, bit, cards, sum};
use super::matrix::Matrix;

/// The search's settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Solve exactly from this many prizes face down (after the one on show).
    pub exact: u32,
    /// Turns looked ahead before that (the current one included).
    pub depth: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config { exact: 4, depth: 2 }
    }
}

/// A position between turns: prizes face down, the two hands, the score difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    rest: Set,
    a: Set,
    b: Set,
    diff: i16,
    depth: u8,
}

/// The solver with its table of solved positions.
#[derive(Default)]
pub struct Solver {
    pub config: Config,
    table: HashMap<Key, f32>,
    /// Matrix games solved (for the log and the benchmark).
    pub games: u64,
}

/// The decision: the mixed strategy over this seat's cards (increasing) and its value.
#[derive(Clone, Debug)]
pub struct Decision {
    pub cards: Vec<u8>,
    pub strategy: Vec<f64>,
    pub value: f64,
}

impl Decision {
    /// Draws a card from the strategy.
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> u8 {
        let mut x: f64 = rng.random();
        for (c, p) in self.cards.iter().zip(&self.strategy) {
            if x < *p {
                return *c;
            }
            x -= p;
        }
        *self.cards.last().expect("a card")
    }
}

impl Solver {
    pub fn new(config: Config) -> Solver {
        Solver {
            config,
            ..Solver::default()
        }
    }

    /// The turn with `prize` on show: hands `a` (this seat) and `b`, `rest` face down, this
    /// seat `diff` points ahead.
    pub fn decide(&mut self, prize: u8, rest: Set, a: Set, b: Set, diff: i32) -> Decision {
        let depth = self.config.depth.max(1) - 1;
        let (m, mine) = self.turn_matrix(prize, rest, a, b, diff, depth);
        let s = m.solve();
        self.games += 1;
        Decision {
            cards: mine,
            strategy: s.row,
            value: s.value,
        }
    }

    /// The matrix game of one turn: this seat's cards by the opponent's.
    fn turn_matrix(
        &mut self,
        prize: u8,
        rest: Set,
        a: Set,
        b: Set,
        diff: i32,
        depth: u32,
    ) -> (Matrix, Vec<u8>) {
        let mine: Vec<u8> = cards(a).collect();
        let theirs: Vec<u8> = cards(b).collect();
        let mut m = Matrix::new(mine.len(), theirs.len());
        let p = i32::from(prize);
        for (r, &x) in mine.iter().enumerate() {
            for (c, &y) in theirs.iter().enumerate() {
                let d = diff + p * (i32::from(x > y) - i32::from(y > x));
                let v = self.value(rest, a & !bit(x), b & !bit(y), d, depth);
                m.set(r, c, f64::from(v));
            }
        }
        (m, mine)
    }

    /// The value of a position between turns to the seat holding `a`.
    fn value(&mut self, rest: Set, a: Set, b: Set, diff: i32, depth: u32) -> f32 {
        let left = sum(rest) as i32;
        if diff > left {
            return 1.0;
        }
        if diff < -left {
            return -1.0;
        }
        if rest == 0 {
            return 0.0;
        }
        let exact = rest.count_ones() <= self.config.exact;
        if !exact && depth == 0 {
            return estimate(rest, a, b, diff);
        }
        let key = Key {
            rest,
            a,
            b,
            diff: diff as i16,
            depth: if exact { u8::MAX } else { depth as u8 },
        };
        if let Some(&v) = self.table.get(&key) {
            return v;
        }
        let below = if exact { 0 } else { depth - 1 };
        let mut total = 0.0;
        for p in cards(rest) {
            let (m, _) = self.turn_matrix(p, rest & !bit(p), a, b, diff, below);
            total += m.solve().value;
            self.games += 1;
        }
        let v = (total / f64::from(rest.count_ones())) as f32;
        self.table.insert(key, v);
        v
    }
}

/// A guess at a position's value without search: the score difference plus the prizes left
/// shared in proportion to the two hands' sums, through a tanh whose scale grows with the
/// prizes left.
pub fn estimate(rest: Set, a: Set, b: Set, diff: i32) -> f32 {
    let (sa, sb) = (sum(a) as f32, sum(b) as f32);
    let share = if sa + sb > 0.0 {
        (sa - sb) / (sa + sb)
    } else {
        0.0
    };
    let spread: f32 = cards(rest).map(|p| f32::from(p) * f32::from(p)).sum();
    let expected = diff as f32 + sum(rest) as f32 * share;
    (expected / (0.6 * spread.sqrt() + 0.5)).tanh()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cs: &[u8]) -> Set {
        cs.iter().fold(0, |a, &c| a | bit(c))
    }

    #[test]
    fn the_last_card_is_forced_and_its_value_is_the_outcome() {
        let mut s = Solver::default();
        // Both hold one card; this seat's 5 beats the 3 for the prize 4, from 2 behind.
        let d = s.decide(4, 0, set(&[5]), set(&[3]), -2);
        assert_eq!(d.cards, vec![5]);
        assert!((d.value - 1.0).abs() < 1e-6, "{d:?}");
        let d = s.decide(4, 0, set(&[5]), set(&[3]), -5);
        assert!((d.value + 1.0).abs() < 1e-6, "{d:?}");
    }

    #[test]
    fn identical_hands_and_an_even_score_are_a_fair_game() {
        // Symmetric positions have value 0 for either seat.
        let mut s = Solver::default();
        let h = set(&[1, 2, 3, 4]);
        let d = s.decide(3, set(&[1, 2, 4]), h, h, 0);
        assert!(d.value.abs() < 1e-6, "{d:?}");
        let total: f64 = d.strategy.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_stronger_hand_is_worth_more() {
        let mut s = Solver::default();
        let d = s.decide(3, set(&[1, 2]), set(&[2, 3, 4]), set(&[1, 2, 3]), 0);
        assert!(d.value > 0.3, "{d:?}");
    }

    #[test]
    fn a_decided_round_is_worth_its_outcome() {
        let mut s = Solver::default();
        // 20 points ahead with 1 + 2 + 3 left: won whatever happens.
        let h = set(&[1, 2, 3]);
        let d = s.decide(3, set(&[1, 2]), h, h, 20);
        assert!((d.value - 1.0).abs() < 1e-6);
    }
}
