//! rollarena: an arbiter for bot competitions.
//!
//! Modules, from the vocabulary everything shares up to the command line (a module uses those
//! above it in this list, never those below). A game's folder under `src/game/` is the one
//! exception by design: it holds the whole game, so beside its rules it holds its parts for the
//! layers above (its renderers for [`show`], its scenarios for [`check`], its built-in bots),
//! which its registry entry hands to those layers; nothing outside `src/game/` names a game.
//!
//! - [`seed`], [`duration`]: the seeds every random choice comes from (ChaCha streams keyed by
//!   the match seed, one-way, so no bot can compute the chance of a game from what it is
//!   told); durations as people write them, and ms figures at the precision records keep;
//! - [`clock`]: time controls (a per-move cap, a bank, an increment, a first-move allowance)
//!   as plain data, their notation (`2m+100ms`) and one seat's clock in integer microseconds;
//! - [`record`]: the record format (one round per JSON line), its writer and reader, and the
//!   recorded vocabulary of misbehaviour (`record::fault`: refused attempts, faults with their
//!   kind, forfeits, exit information) and the words every terminal line gives it
//!   (`record::notes`);
//! - [`game`]: the boundary between the arbiter and a game's rules (`Game`, `Round`, requests,
//!   per-seat announcements, results), round outcomes, the registry of games
//!   (`game::registry`: everything the rest knows of a game), and the games, one folder each;
//! - [`standings`]: the ranking key (round wins, then points, then outright wins), written once,
//!   and a match's standings, built from records;
//! - [`wire`]: protocol v1's shared messages and the line parser;
//! - [`referee`]: the rules of play on top of a round, one synchronous state machine with no
//!   I/O: stamped bot lines and deadlines in; lines to send, freezes, kills and the record out;
//! - [`verify`]: `replay --verify`, one verifier for every game, feeding a record's stamped
//!   inputs back to a quiet referee and comparing everything it produces;
//! - [`sandbox`]: isolation of untrusted bots (the launch wrapper, namespaces, cgroups,
//!   landlock, scratch directories);
//! - [`arbiter`]: live bots (`arbiter::bot`: launch, listening, fault diagnosis), pipes, clocks,
//!   the async driver that turns process events into referee inputs, and matches;
//! - [`replay`], [`show`]: reading records back and showing them (the terminal replay and the
//!   HTML viewer);
//! - [`schema`]: the JSON Schemas of the wire messages, the record and each game's own types;
//! - [`bots`]: the built-in bots, which run as real processes over the real protocol;
//! - [`check`]: `rollarena check`, the conformance run for bot authors (each game's scenarios
//!   beside its rules, named by its registry entry);
//! - [`tournament`]: schedules, concurrent tables, resume, shards, standings and ratings (the
//!   tournament file's validation in `tournament::config`);
//! - [`report`]: a tournament's HTML report, and its live standings page;
//! - [`arena`]: the arena server (`rollarena serve`): its database, submissions, builds and
//!   checks, the ladder's matchmaker and workers, and its pages;
//! - [`cli`]: the command line, one file per subcommand.
pub mod arbiter;
pub mod arena;
pub mod bots;
pub mod check;
pub mod cli;
pub mod clock;
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
pub mod wire;
