//! The built-in bots (`rollarena bot NAME`): ordinary bots that happen to live in this binary.
//! The arbiter knows nothing special about them: it starts them as processes like any other,
//! and they speak protocol v1 over stdin/stdout exactly as a bot written in any other language
//! would.
//!
//! The bots themselves live in their games' folders and are listed in the registry entries
//! ([`crate::game::bot`]); `random` plays every game. This module owns what they share:
//!
//! - [`serve`](mod@serve): the protocol loop. It reads the match's first line (`hello`) to learn the game,
//!   then either hands the whole match to the game's bot of that name when it runs its own
//!   loop (a [`ServeBot`](crate::game::bot::ServeBot)), or answers every `turn` itself from
//!   the listed moves ([`legal`]), asking the game's [`GameBot`](crate::game::bot::GameBot)
//!   which one, or choosing uniformly (`random`, or a bot the game does not have, with a `log`
//!   line saying so: protocol/SPEC.md §14);
//! - [`round_rng`]: every bot's random numbers (ChaCha8, reseeded at every `start` from the
//!   round's seed and the bot's own `--seed`, so a match replays exactly);
//! - [`Logs`]: the bounds on a bot's `log` lines;
//! - [`all_names`]: every built-in bot's name.

pub mod legal;
pub mod logs;
pub mod serve;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use crate::game::bot::Options;
use crate::game::bot::RANDOM;
use crate::game::registry;
pub use logs::Logs;
pub use serve::serve;

/// Every built-in bot's name: `random`, then each game's own, in registry order.
pub fn all_names() -> Vec<&'static str> {
    let mut names = vec![RANDOM];
    for entry in registry::GAMES {
        for b in entry.bots {
            if !names.contains(&b.name) {
                names.push(b.name);
            }
        }
    }
    names
}

/// The generator for one round: ChaCha8 keyed by the round's seed and the bot's seed side by
/// side, so distinct pairs never share a stream.
pub fn round_rng(round_seed: u64, bot_seed: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&round_seed.to_le_bytes());
    key[8..16].copy_from_slice(&bot_seed.to_le_bytes());
    key[16..24].copy_from_slice(b"rollbot1");
    ChaCha8Rng::from_seed(key)
}
