//! Running untrusted bots: everything between the rules and a process.
//!
//! - [`sandbox`]: isolation of untrusted bots (the launch wrapper, namespaces, cgroups,
//!   landlock, scratch directories);
//! - [`arbiter`]: live bots (`arbiter::bot`: launch, listening, fault diagnosis), pipes, clocks,
//!   the async driver that turns process events into referee inputs, and matches;
//! - [`check`]: `rollarena check`'s runner, the conformance run for bot authors (the scenarios
//!   are each game's, in the games crate, named by its registry entry).
//!
//! It stands on `rollarena-rules` only; the modules of that crate are reached as `crate::X`
//! through the imports below.
use rollarena_rules::{clock, game, record, referee, seed, standings, verify, wire};

pub mod arbiter;
pub mod check;
pub mod sandbox;
