//! Remote workers: `rollarena worker` processes on other machines that lease matches from the
//! server over HTTP, run the bots' artifacts in their own sandbox and upload the records,
//! which the server verifies with the referee before they count.
//!
//! The parts:
//! - [`wire`]: the JSON the worker API exchanges (the one definition both sides use);
//! - [`artifact`]: a version's build packed deterministically, addressed by its SHA-256;
//! - [`registry`]: workers' tokens, their refusal, and what the organiser's page lists;
//! - [`server`]: the server's side of every endpoint, as plain functions over the arena
//!   (`web::workers` is the thin HTTP layer over them);
//! - [`client`], [`cache`], [`runner`]: the worker process: its HTTP client, its cache of
//!   artifacts, and its loop of lease, play, upload.
//!
//! Leases are the ladder's own ([`crate::ladder::worker`]): a remote worker's lease is
//! `lease_owner = "worker:NAME:LEASE"`, with LEASE random per lease, so a record that comes back
//! after its lease ran out is refused even when the same worker leased the match again.
//! protocol/ARENA.md ("Remote workers") documents the API and the rules.

pub mod artifact;
pub mod cache;
pub mod client;
pub mod registry;
pub mod runner;
pub mod server;
pub mod wire;
