//! Tournaments: many bots, many tables, in parallel, with a fair schedule, a trustworthy
//! table and nothing lost when something breaks.
//!
//! - [`config`]: the TOML tournament file, parsed and validated into a [`Tournament`];
//! - [`schedule`]: round robin, gauntlet, balanced random and Swiss, pure functions of the
//!   tournament and its seed;
//! - [`grow`]: bots added to a round robin after it started (`--add-bot`);
//! - [`book`]: openings from a file, one per rotation cycle, in order or shuffled;
//! - [`knockout`]: single and double elimination brackets, phase by phase from the results;
//! - [`openings`]: seeded random openings, one per rotation cycle of a table;
//! - [`runner`]: tables at once, the results file, resume, shards, Ctrl-C;
//! - [`summary`]: what a finished run prints after its tables;
//! - [`aggregate`]: standings and ratings folded from compact round summaries in schedule
//!   order;
//! - [`elo`], [`penta`], [`sprt`], [`wenglin`]: the statistics;
//! - [`output`]: the output directory's files;
//! - [`results`]: `results.jsonl` written a round at a time and read back a table at a time;
//! - [`merge`]: shard outputs combined into one;
//! - [`progress`]: the progress bar.
pub mod aggregate;
pub mod book;
pub mod config;
pub mod elo;
pub mod grow;
pub mod knockout;
pub mod merge;
pub mod openings;
pub mod output;
pub mod penta;
pub mod progress;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod summary;
pub mod wenglin;

pub use config::Tournament;
