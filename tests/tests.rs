//! The one integration test binary (one link step, one process per suite run).
//!
//! Modules: `rolit` checks the rules engine against a naive second implementation, perft
//! tables and hand-built positions.
mod arbiter;
mod bots_strength;
mod check;
mod fuzz;
mod hostile;
mod kits;
mod replay;
mod robots;
mod rolit;
mod schemas;
mod slurm;
mod tournament;
