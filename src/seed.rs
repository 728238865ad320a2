//! Seeds. Every random choice the arbiter makes comes from a named, portable PRNG (ChaCha8 from
//! rand_chacha, never `StdRng`, whose algorithm may change) seeded from values derived here, so
//! a match replays identically from its seed on any machine.
//!
//! The per-round seed is a hash of (match or tournament seed, table, round) with SplitMix64's
//! finaliser, cut to 53 bits so every JSON parser (JavaScript's included) reads it exactly.

use rand::SeedableRng;
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

/// The PRNG of the arbiter's fallback moves for a seat in a round.
pub fn fallback_rng(round_seed: u64, seat: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(mix(round_seed ^ mix(seat as u64 + 1)))
}

/// A fresh match seed when the user gives none.
pub fn random_seed() -> u64 {
    rand::random::<u64>() & SEED_MASK
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
}
