//! rollarena: an arbiter for bot competitions.
//!
//! - [`game`]: the game abstraction and the games (Rolit);
//! - [`arbiter`]: bot processes, the wire protocol, clocks, faults, rounds and matches;
//! - [`record`]: the record format, its writer and reader, and the recorded vocabulary of
//!   misbehaviour (faults, forfeits, refused attempts);
//! - [`seed`], [`standings`], [`duration`]: vocabulary below every user: the seeds every random
//!   choice comes from, the ranking key and a match's standings, durations as people write them;
//! - [`bots`]: the built-in bots, which run as real processes over the real protocol;
//! - [`cli`]: the command line.
pub mod arbiter;
pub mod bots;
pub mod check;
pub mod cli;
pub mod duration;
pub mod game;
pub mod record;
pub mod replay;
pub mod sandbox;
pub mod schema;
pub mod seed;
pub mod show;
pub mod standings;
pub mod tournament;
