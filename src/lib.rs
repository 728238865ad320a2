//! rollarena: an arbiter for bot competitions.
//!
//! Modules, from the vocabulary everything shares up to the command line (a module uses those
//! above it in this list, never those below):
//!
//! - [`seed`], [`duration`]: the seeds every random choice comes from (a named, portable PRNG);
//!   durations as people write them, and ms figures at the precision records keep;
//! - [`game`]: the boundary between the arbiter and a game's rules, round outcomes, and the
//!   games (`game/rolit/`, `game/robots/`);
//! - [`record`]: the record format (one round per JSON line), its writer and reader, and the
//!   recorded vocabulary of misbehaviour (`record::fault`: refused attempts, faults with their
//!   kind, forfeits, exit information); it imports nothing from the arbiter;
//! - [`standings`]: the ranking key (round wins, then points, then outright wins), written once,
//!   and a match's standings, built from records;
//! - [`sandbox`]: isolation of untrusted bots (the launch wrapper, namespaces, cgroups,
//!   landlock, scratch directories);
//! - [`arbiter`]: live bots (`arbiter::bot`: launch, listening, fault diagnosis), pipes, the
//!   wire protocol, clocks, rounds and matches;
//! - [`replay`]: judging a record (`replay --verify`); [`show`]: showing one (the terminal
//!   replay and the HTML viewer);
//! - [`schema`]: the JSON Schemas of the wire messages and the record, from the serde types;
//! - [`bots`]: the built-in bots, which run as real processes over the real protocol;
//! - [`check`]: `rollarena check`, the conformance run for bot authors (each game's scenarios
//!   beside its rules, named by its registry entry);
//! - [`tournament`]: schedules, concurrent tables, resume, shards, standings and ratings (the
//!   tournament file's validation in `tournament::config`);
//! - [`cli`]: the command line, one file per subcommand.
pub mod arbiter;
pub mod bots;
pub mod check;
pub mod cli;
pub mod duration;
pub mod game;
pub mod record;
pub mod referee;
pub mod replay;
pub mod report;
pub mod sandbox;
pub mod schema;
pub mod seed;
pub mod show;
pub mod standings;
pub mod tournament;
pub mod verify;
