//! rollarena: an arbiter for bot competitions.
//!
//! The layers are crates (README, "Development", draws them), each using only those below it:
//!
//! - `rollarena-rules` (`crates/rules`): the record format, the game trait, the referee,
//!   verification, each game's rules and its wire values; no I/O, processes or command line;
//! - `rollarena-run` (`crates/run`): the sandbox, the arbiter (live bots, pipes, clocks,
//!   matches) and the conformance check's runner;
//! - `rollarena-games` (`crates/games`): what the games add above their rules (built-in bots,
//!   check scenarios, renderers, analysis, the registry), the replay and the HTML viewer, the
//!   JSON Schemas;
//! - `rollarena-tournament` (`crates/tournament`): tournaments and their reports;
//! - `rollarena-arena` (`crates/arena`): the arena server;
//! - this crate: [`cli`], the command line (one file per subcommand), and the binary.
//!
//! The layers' modules are re-exported here under the names they have always had
//! (`rollarena::game`, `rollarena::arbiter`, ...), for the tests, the benchmarks and the
//! command line.
pub use rollarena_arena as arena;
pub use rollarena_games::{bots, game, replay, schema, show};
pub use rollarena_rules::{clock, duration, record, referee, seed, standings, verify, wire};
pub use rollarena_run::{arbiter, check, sandbox};
pub use rollarena_tournament::{report, tournament};
// The layers' error types, named after their layers.
pub use rollarena_games::Error as GamesError;
pub use rollarena_tournament::Error as TournamentError;

pub mod cli;
