//! The arena's store: every SQL statement the arena runs lives here, the schema's migrations
//! included ([`db`], with `migrations/`), one submodule per table or concern, behind typed
//! functions the rest of the arena calls. The ids are types ([`ids`]), the states enums
//! mapped to their text in one place ([`states`]), the connections pooled ([`pool`]), and
//! the failures a [`StoreError`].
//!
//! Why: a column renamed or a state added is then one module's change, and a rule (who may
//! submit, when the contest is closed) is a domain function over these, never a query written
//! again in the web layer.

pub mod builds;
pub mod changes;
pub mod db;
pub mod finals;
#[cfg(test)]
pub mod fixtures;
pub mod ids;
pub mod ladder;
pub mod leases;
pub mod matches;
pub mod pool;
pub mod ratings;
pub mod reads;
pub mod rest;
pub mod rows;
pub mod sessions;
pub mod settings;
pub mod states;
pub mod teams;
pub mod versions;
pub mod workers;

pub use ids::{MatchId, TeamId, VersionId, WorkerId};
pub use pool::{Conn, Pool};
pub use states::{MatchKind, MatchState, VersionState};

/// What went wrong in the store (defined beside the arena's error, which wraps it).
pub use crate::error::StoreError;

/// A store function's result.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Takes a copy of the database (the export's) out of WAL mode: one file that stands alone
/// until a server opens it.
pub fn standalone(copy: &rusqlite::Connection) -> rusqlite::Result<()> {
    copy.execute_batch("PRAGMA journal_mode = DELETE;")
}
