//! All chance (rules §11.6): one ChaCha8 stream per round, used for the shuffle of the deal, the
//! bid tie-break and every reshuffle, in that order of need.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::card::{Card, Cards};

/// The round's generator.
pub fn generator(chance_seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(chance_seed)
}

/// Fisher–Yates as §11.6 writes it: for `i` from the last index down to 1, swap `i` and
/// `random_range(0..=i)` (a `usize` range). Index 0 is the top of the deck.
pub fn shuffle(rng: &mut ChaCha8Rng, cards: &mut [Card]) {
    for i in (1..cards.len()).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i, j);
    }
}

/// The deck of the deal: the canonical deck, shuffled.
pub fn deal_order(rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut deck = Card::canonical_deck();
    shuffle(rng, &mut deck);
    deck
}

/// A new deck from the discards: canonical order, then shuffled.
pub fn reshuffle(rng: &mut ChaCha8Rng, discards: &Cards) -> Vec<Card> {
    let mut deck = discards.list();
    shuffle(rng, &mut deck);
    deck
}

/// The bid tie-break: an index among `k` tied seats.
pub fn tie_break(rng: &mut ChaCha8Rng, k: usize) -> usize {
    rng.random_range(0..k)
}
