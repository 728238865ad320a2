//! The games above their rules: the rules crate's [`game`](rollarena_rules::game) module
//! (re-exported whole, so `crate::game::Round` and `crate::game::rolit::Position` read as they
//! always have) with what the layers above the rules need of a game: the [`registry`] that
//! names every game's parts, the built-in bots' interface ([`bot`]), move grading ([`grade`]),
//! and in each game's folder its built-in bots, its `check` scenarios and its renderers.

pub use rollarena_rules::game::*;

pub mod bot;
pub mod goofspiel;
pub mod grade;
pub mod registry;
pub mod robots;
pub mod rolit;
pub mod rollerball;
