//! Rolit above its rules: the rules (`rollarena_rules::game::rolit`, re-exported whole) with
//! the parts the layers above them need, which the game's registry entry ([`entry`]) hands
//! to them.

pub use rollarena_rules::game::rolit::*;

pub mod bots;
pub mod check;
pub mod entry;
pub mod show;
pub mod show_html;
pub mod solver;
