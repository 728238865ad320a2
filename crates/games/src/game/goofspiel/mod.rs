//! Goofspiel above its rules: the rules (`rollarena_rules::game::goofspiel`, re-exported whole) with
//! the parts the layers above them need, which the game's registry entry ([`entry`]) hands
//! to them.

pub use rollarena_rules::game::goofspiel::*;

pub mod bots;
pub mod check;
pub mod entry;
pub mod show;
