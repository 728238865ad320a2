//! The one integration test binary (one link step, one process per suite run).
//!
//! Suites (each module's own header says more):
//!
//! - `rolit`: the Rolit engine against a naive second implementation, perft tables and
//!   hand-built positions;
//! - `fuzz`: property tests of the parsers and the engine;
//! - `schemas`: the files of `protocol/schemas/` against the types and against real data,
//!   and every message of every game's live traffic against them;
//! - `docs`: the documents' links, cross-references and lists of games;
//! - `arbiter`: the real binary with misbehaving bots (`tests/bots/zoo.py`): messages,
//!   refusals, forfeits, processes, the library API;
//! - `hostile`: every hostile behaviour of issue 4, with the same four promises each;
//! - `robots`: Rock'n'Roll Robot end to end (`tests/bots/robots_zoo.py`, the built-in solver):
//!   bidding, proving, whole matches, and what its records keep;
//! - `replay`: `replay --verify` on clean and tampered records, the terminal replay, the HTML
//!   viewer (and in headless Chromium);
//! - `check`: `rollarena check` against deliberately broken bots of every game, and the
//!   built-in bots of every game passing it;
//! - `tournament`: schedules, the file's errors, statistics, and runs resumed, sharded, merged;
//! - `kits`: the starter kits of `examples/`, built and played;
//! - `edges`: issue 27's rough edges of the command line, each before and after;
//! - `layout`: the source tree's shape (the layer crates in order, the rules crate without the
//!   layers above, no game named outside the games' folders, modules in order);
//! - `solve`: `rollarena solve` and `analyse` against an independent minimax on 4x4, and
//!   `analyse` of robots demonstrations against a breadth-first search;
//! - `slurm`: a sharded tournament on a real single-node Slurm cluster;
//! - `arena`: the arena, every suite of it in one folder: its core through the library (bad
//!   uploads, builds past their limits, the kits through the ladder, recovery after a crash,
//!   a hostile team's attacks as real uploads to the real server), and
//!   - `arena::web`: `rollarena serve` end to end (kits submitted, the browser's form, the
//!     ladder, pages and API), who sees what, a server killed mid-match, bad uploads, and a
//!     bounded fuzz of every route;
//!   - `arena::finals`: the contest's last day: closing time, re-judging, the final tournament
//!     (round robin and Swiss) on the workers, its report served, the arena exported and
//!     served;
//!   - `arena::remote`: remote `rollarena worker`s on loopback: tokens, lost leases, late and
//!     tampered uploads, bad artifacts, a worker killed, a server restarted, a Slurm job array;
//!   - `arena::live`: live matches: the public projection as data, and a match watched in
//!     Chromium on its live board and over its event stream to its end.
//!
//! Tests that need what `.ci/run` installs print a loud SKIP without it, unless `CI` is set.
mod arbiter;
mod arena;
mod bots_strength;
mod check;
mod chromium;
mod docs;
mod edges;
mod fuzz;
mod hostile;
mod kits;
mod layout;
mod referee;
mod replay;
mod report;
mod robots;
mod rolit;
mod rollerball;
mod schemas;
mod slurm;
mod solve;
mod tournament;
