//! The one integration test binary (one link step, one process per suite run).
//!
//! Modules: `rolit` checks the rules engine against a naive second implementation, perft
//! tables and hand-built positions.
mod arbiter;
mod check;
mod fuzz;
mod hostile;
mod kits;
mod referee;
mod replay;
mod report;
mod robots;
mod rolit;
mod schemas;
mod slurm;
mod tournament;
