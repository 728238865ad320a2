//! rollarena: an arbiter for bot competitions.
//!
//! - [`game`]: the game abstraction and the games (Rolit);
//! - [`arbiter`]: bot processes, the wire protocol, clocks, faults, rounds and matches;
//! - [`record`]: the record format, its writer and reader;
//! - [`bots`]: the built-in bots, which run as real processes over the real protocol;
//! - [`cli`]: the command line.
pub mod arbiter;
pub mod bots;
pub mod check;
pub mod cli;
pub mod game;
pub mod record;
pub mod replay;
pub mod report;
pub mod sandbox;
pub mod schema;
pub mod tournament;
