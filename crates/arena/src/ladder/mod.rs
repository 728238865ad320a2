//! The continuous ladder: the [`matchmaker`] makes matches among the active versions (and
//! marks the ladder at rest, `store::rest`, once no match would teach anything), the
//! [`worker`]s lease and play them and count each verified record once (its ratings moved by
//! `crate::rating`), and [`evaluation`] holds each version's SPRT against the pool.
//!
//! Leases are the one mechanism for every worker, embedded or remote: a worker takes a queued
//! match by writing its name and a deadline into the row (`lease_owner`, `lease_until`),
//! renews the deadline while it plays (a heartbeat every third of the lease), and finishes
//! only if the lease is still its own. A match whose lease ran out is queued again (or failed
//! after `max_attempts`); a result that comes back after that is thrown away, so a match counts
//! once whoever played it.

pub mod evaluation;
pub mod matchmaker;
pub mod worker;
