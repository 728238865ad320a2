//! The arbiter: bot processes, clocks, rounds and matches with live bots.
//!
//! Layers, lowest first: [`process`] (process groups, signals, CPU time), [`io`] (the pipes:
//! lines read and written in place, a task where a pipe could block), [`bot`] (a live bot and
//! the protocol operations on it), [`driver`] (one round: process events in, the
//! [`crate::referee`]'s outputs carried out), [`matches`](mod@matches) (rounds, restarts, records,
//! standings), [`lineup`] (a match's bots started ahead of it), [`names`] (the seats' names), [`preflight`] (every bot started once before
//! anything is played), [`resume`] (a match going on after its kept rounds), [`settings`] (one check of a match's rounds and
//! clock for `match` and tournaments alike). [`fault`] re-exports a bot's misbehaviour as data
//! (from [`crate::record::fault`]), [`events`] is the one event stream per match; the wire
//! types are [`crate::wire`]'s.
pub mod bot;
pub mod clock;
pub mod cpu_marks;
pub mod driver;
pub mod events;
pub mod fault;
pub mod io;
pub mod lineup;
pub mod matches;
pub mod names;
pub mod outbox;
pub mod preflight;
pub mod process;
pub mod resume;
pub mod settings;

pub use bot::{BotSpec, Limits};
pub use clock::TimeControl;
pub use lineup::{Launcher, Lineup};
pub use matches::{MatchConfig, run_match, run_match_from, run_match_with};
pub use resume::Resume;
