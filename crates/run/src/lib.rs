//! Running untrusted bots: everything between the rules and a process.
//!
//! - [`error`]: the one error type of running ([`Error`]), a variant per kind of failure (a
//!   setting refused, a sandbox the machine cannot give, a bot that cannot be launched, the
//!   file system, the rules), each printing the message the user sees;
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
pub mod error;
pub mod sandbox;

pub use error::Error;
