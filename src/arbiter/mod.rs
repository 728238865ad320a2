//! The arbiter: bot processes, the wire protocol, clocks, faults, rounds and matches.
pub mod protocol;
