//! The rules of play, as a library: what a game is, how a round is refereed and recorded, and
//! each game's rules. Nothing here does I/O, starts a process or reads a command line, so a
//! bot written in Rust can depend on this crate for its legal moves, and the verifier and the
//! live arbiter share one referee.
//!
//! Modules, from the vocabulary everything shares up (a module uses those above it in this
//! list, never those below):
//!
//! - [`seed`], [`duration`]: the seeds every random choice comes from (ChaCha streams keyed by
//!   the match seed, one-way, so no bot can compute the chance of a game from what it is
//!   told); durations as people write them, and ms figures at the precision records keep;
//! - [`clock`]: time controls (a per-move cap, a bank, an increment, a first-move allowance)
//!   as plain data, their notation (`2m+100ms`) and one seat's clock in integer microseconds;
//! - [`record`]: the record format (one round per JSON line), its writer and reader, and the
//!   recorded vocabulary of misbehaviour (`record::fault`) and the words every terminal line
//!   gives it (`record::notes`);
//! - [`error`]: the one error type of the rules ([`Error`]), a variant per kind of refusal
//!   (options, a text that does not parse, a record that cannot be read or disagrees with
//!   the rules), each printing the message the user sees;
//! - [`game`]: the boundary between the arbiter and a game's rules (`Game`, `Round`, requests,
//!   per-seat announcements, results), round outcomes, the catalog of rules
//!   (`game::catalog`: a game's name, rules version and options parser), and each game's
//!   rules, one folder each;
//! - [`standings`]: the ranking key (round wins, then points, then outright wins), written once,
//!   and a match's standings, built from records;
//! - [`wire`]: protocol v1's shared messages and the line parser;
//! - [`referee`]: the rules of play on top of a round, one synchronous state machine with no
//!   I/O: stamped bot lines and deadlines in; lines to send, freezes, kills and the record out;
//! - [`verify`]: `replay --verify`, one verifier for every game, feeding a record's stamped
//!   inputs back to a quiet referee and comparing everything it produces.
pub mod clock;
pub mod duration;
pub mod error;
pub mod game;
pub mod record;
pub mod referee;
pub mod seed;
pub mod standings;
pub mod verify;
pub mod wire;

pub use error::Error;
