//! Rock'n'Roll Robot above its rules: the rules (`rollarena_rules::game::robots`, re-exported whole) with
//! the parts the layers above them need, which the game's registry entry ([`entry`]) hands
//! to them.

pub use rollarena_rules::game::robots::*;

pub mod check;
pub mod entry;
pub mod grade;
pub mod show;
pub mod show_html;
pub mod show_text;
pub mod solver_bot;
