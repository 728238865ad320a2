//! The arena's store: every SQL statement the arena runs (but the schema's migrations, which
//! stay in [`crate::db`]) lives here, one submodule per table or concern, behind typed
//! functions the rest of the arena calls. The ids are types ([`ids`]), the states enums
//! mapped to their text in one place ([`states`]), the connections pooled ([`pool`]), and
//! the failures a [`StoreError`].
//!
//! Why: a column renamed or a state added is then one module's change, and a rule (who may
//! submit, when the contest is closed) is a domain function over these, never a query written
//! again in the web layer.

pub mod builds;
pub mod changes;
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

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A query failed (the database is locked past the busy timeout, full, corrupt...).
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The database could not be opened (the message names the file and what to do).
    #[error("{0}")]
    Open(String),
}

impl From<StoreError> for String {
    fn from(e: StoreError) -> String {
        e.to_string()
    }
}

/// A store function's result.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Takes a copy of the database (the export's) out of WAL mode: one file that stands alone
/// until a server opens it.
pub fn standalone(copy: &rusqlite::Connection) -> rusqlite::Result<()> {
    copy.execute_batch("PRAGMA journal_mode = DELETE;")
}

#[cfg(test)]
mod tests {
    use crate::{admin, views};

    /// Not a check but a figure (run with `--nocapture`): how long the leaderboard's read
    /// takes, connection included, as the web layer does it: with a connection of the pool,
    /// and (as before the pool) with a connection opened for it.
    #[test]
    fn measure_a_leaderboard_read() {
        let (_tmp, arena) = admin::fresh_arena(&["a", "b", "c"]);
        const N: u32 = 300;
        let read = |conn: &mut rusqlite::Connection| {
            let tx = conn.transaction().unwrap();
            views::leaderboard(&tx, 10).unwrap();
            tx.rollback().unwrap();
        };
        let start = std::time::Instant::now();
        for _ in 0..N {
            read(&mut arena.conn().unwrap());
        }
        let pooled = start.elapsed() / N;
        let start = std::time::Instant::now();
        for _ in 0..N {
            read(&mut crate::db::connect(&arena.dir).unwrap());
        }
        let opened = start.elapsed() / N;
        println!(
            "a leaderboard read, connection included (mean of {N}): {pooled:?} pooled, \
             {opened:?} with a connection opened for it"
        );
    }
}
