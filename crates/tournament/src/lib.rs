//! Many matches: tournaments and their reports.
//!
//! - [`tournament`]: schedules, concurrent tables, resume, shards, standings and ratings (the
//!   tournament file's validation in `tournament::config`);
//! - [`report`]: a tournament's HTML report, and its live standings page;
//! - [`error`]: this layer's [`Error`], by kind.
//!
//! The lower crates' modules are reached as `crate::X` through the imports below.
use rollarena_games::{game, show};
use rollarena_rules::{clock, duration, record, seed, standings};
use rollarena_run::{arbiter, sandbox};

mod error;
pub mod report;
pub mod tournament;

pub use error::Error;
