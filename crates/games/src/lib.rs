//! What the games add above their rules, for the layers that run and show them:
//!
//! - [`game`]: the rules' `game` module, extended with the registry of games
//!   (`game::registry`: everything the rest knows of a game), the built-in bots' interface
//!   (`game::bot`), move grading (`game::grade`), and each game's parts above its rules (its
//!   built-in bots, its `check` scenarios, its renderers, its solver);
//! - [`replay`], [`show`]: reading records back and showing them (the terminal replay and the
//!   HTML viewer);
//! - [`schema`]: the JSON Schemas of the wire messages, the record and each game's own types;
//! - [`bots`]: the built-in bots, which run as real processes over the real protocol;
//! - [`error`]: this layer's [`Error`], by kind.
//!
//! Nothing outside a game's folder names a game: the rest reaches a game through its registry
//! entry. The lower crates' modules are reached as `crate::X` through the imports below.
use rollarena_rules::{clock, record, seed, standings, verify, wire};
use rollarena_run::{arbiter, check, with_talk};

pub mod bots;
mod error;
pub mod game;
pub mod replay;
pub mod schema;
pub mod show;

pub use error::Error;
