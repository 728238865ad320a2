//! Seeds. Every random choice the arbiter makes comes from a named, portable PRNG (ChaCha8 from
//! rand_chacha, never `StdRng`, whose algorithm may change) seeded from values derived here, so
//! a match replays identically from its seed on any machine.
//!
//! The per-round seed is a hash of (match or tournament seed, table, round) with SplitMix64's
//! finaliser, cut to 53 bits so every JSON parser (JavaScript's included) reads it exactly. It
//! is recorded, seeds the arbiter's fallback moves, and is invertible: games whose chance must
//! stay secret (a shuffled deck) draw it from [`chance_seed`] instead, and their bots get
//! [`start_seed`] in `start`; both come out of a ChaCha8 stream keyed by the match seed, so no
//! bot can compute one from the other or from anything it is told (protocol/SPEC.md §9).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeds are below 2^53 so that they survive JSON numbers as doubles.
pub const SEED_MASK: u64 = (1 << 53) - 1;

/// SplitMix64's finaliser: a bijective mix of 64 bits.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of round `round` (0-based) of table `table` (0 for a lone match).
pub fn round_seed(match_seed: u64, table: u32, round: u32) -> u64 {
    mix(mix(mix(match_seed) ^ table as u64) ^ round as u64) & SEED_MASK
}

/// One word of the ChaCha8 stream `stream` keyed by the match seed, at the block of
/// (table, round): a one-way function of the match seed.
fn keyed(match_seed: u64, stream: u64, table: u32, round: u32) -> u64 {
    let mut key = ChaCha8Rng::seed_from_u64(match_seed);
    key.set_stream(stream);
    key.set_word_pos(16 * ((u128::from(table) << 20) + u128::from(round)));
    key.next_u64()
}

/// The seed of a round's chance (a deck's shuffles, tie-breaks) in games with hidden
/// information: never sent to a bot, never recorded (a replay derives it from the match seed).
pub fn chance_seed(match_seed: u64, table: u32, round: u32) -> u64 {
    keyed(match_seed, 1, table, round)
}

/// The seed a bot is given in `start` in games with hidden information (below 2^53).
pub fn start_seed(match_seed: u64, table: u32, round: u32) -> u64 {
    keyed(match_seed, 2, table, round) & SEED_MASK
}

/// Match seeds below this are few enough for a bot to try them all and rebuild the chance of
/// a game with hidden information from what it is told.
pub const SHORT_SEED: u64 = 1 << 40;

/// The PRNG of the arbiter's fallback moves for a seat in a round.
pub fn fallback_rng(round_seed: u64, seat: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(mix(round_seed ^ mix(seat as u64 + 1)))
}

/// A fresh seed when the user gives none (a `match` without `--seed`, a tournament file
/// without `seed`, every ladder match, every table of the arena's final): the full 53 bits,
/// straight from the operating system's random source (getrandom), so nothing a participant
/// sees or can compute (a file's hash, a clock, a counter, another match's seed) leads to it.
/// A bot that wants the chance of its round must try the 2^53 keys (protocol/SPEC.md §9).
pub fn random_seed() -> u64 {
    use rand::TryRngCore;
    let word = rand::rngs::OsRng
        .try_next_u64()
        .unwrap_or_else(|e| panic!("the operating system's random source failed: {e}"));
    word & SEED_MASK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_stable_and_distinct() {
        // Pinned: changing the derivation would change every recorded round's seed.
        assert_eq!(round_seed(1, 0, 0), round_seed(1, 0, 0));
        assert_ne!(round_seed(1, 0, 0), round_seed(1, 0, 1));
        assert_ne!(round_seed(1, 0, 0), round_seed(1, 1, 0));
        assert!(round_seed(u64::MAX, 7, 9) <= SEED_MASK);
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn chance_and_start_seeds_are_apart_per_round_and_stream() {
        let c = chance_seed(42, 0, 0);
        assert_eq!(c, chance_seed(42, 0, 0));
        assert_ne!(c, chance_seed(42, 0, 1));
        assert_ne!(c, chance_seed(42, 1, 0));
        assert_ne!(c, chance_seed(43, 0, 0));
        assert_ne!(c & SEED_MASK, start_seed(42, 0, 0));
        assert_ne!(c & SEED_MASK, round_seed(42, 0, 0));
        assert!(start_seed(u64::MAX, 9, 9) <= SEED_MASK);
    }

    #[test]
    fn random_seeds_use_all_53_bits() {
        // 64 draws: each has its top 21 bits all clear with p = 2^-21, so the OR of them
        // misses bit 52 with p = 2^-64 only if the source is sound.
        let all = (0..64).map(|_| random_seed()).fold(0, |a, s| a | s);
        assert!(all <= SEED_MASK);
        assert_ne!(all >> 52, 0, "no draw reached bit 52: {all:#x}");
        assert_ne!(random_seed(), random_seed());
    }
}
