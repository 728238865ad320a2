//! The arena's connections, opened once and reused: an [`Arena`](crate::Arena) holds a
//! [`Pool`], and [`Pool::get`] hands out an idle connection (or opens one with its PRAGMAs,
//! without the migration check, which [`Pool::open`] did once), taken back when its [`Conn`]
//! is dropped.
//!
//! Why a pool rather than one connection per call: opening SQLite, setting WAL and the busy
//! timeout and reading `user_version` cost more than most of the arena's queries. Why not one
//! shared connection: the web server's blocking threads, the ladder's workers, the builder and
//! the grader run at once, and each needs its own (a connection serves one thread at a time).
//! A connection returns to the pool only outside a transaction (a transaction left open, by a
//! panic say, ends with its connection), so every borrower starts afresh.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use super::StoreError;
use super::db;

/// At most this many idle connections are kept (more are closed when returned).
const KEEP: usize = 16;

/// The open connections of one arena's database.
pub struct Pool {
    dir: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").field("dir", &self.dir).finish()
    }
}

impl Pool {
    /// The pool of the arena at `dir`: opens its database and brings its schema up to date
    /// (once: the pool's further connections only set their PRAGMAs).
    pub fn open(dir: &Path) -> Result<Arc<Pool>, StoreError> {
        let first = db::connect(dir).map_err(StoreError::Open)?;
        Ok(Arc::new(Pool {
            dir: dir.to_path_buf(),
            idle: Mutex::new(vec![first]),
        }))
    }

    /// A connection: an idle one, or a new one.
    pub fn get(self: &Arc<Self>) -> Result<Conn, StoreError> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => db::open(&self.dir).map_err(StoreError::Open)?,
        };
        Ok(Conn {
            conn: Some(conn),
            pool: Arc::clone(self),
        })
    }
}

/// A connection borrowed from a [`Pool`]: derefs to [`rusqlite::Connection`], and returns to
/// the pool when dropped.
pub struct Conn {
    conn: Option<Connection>,
    pool: Arc<Pool>,
}

impl std::ops::Deref for Conn {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn.as_ref().expect("a connection until dropped")
    }
}

impl std::ops::DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut Connection {
        self.conn.as_mut().expect("a connection until dropped")
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        // A transaction still open (a panic mid-way): close the connection, which rolls back.
        if !conn.is_autocommit() {
            return;
        }
        let mut idle = self.pool.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < KEEP {
            idle.push(conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `conn` is the one marked `name` (temporary tables live as long as their
    /// connection).
    fn marked(conn: &Connection, name: &str) -> bool {
        conn.query_row(
            "SELECT COUNT(*) FROM temp.sqlite_master WHERE name = ?1",
            [name],
            |r| r.get::<_, i64>(0),
        )
        .unwrap()
            == 1
    }

    #[test]
    fn connections_are_reused_and_one_left_in_a_transaction_is_not() {
        let dir = tempfile::tempdir().unwrap();
        drop(db::create(dir.path()).unwrap());
        let pool = Pool::open(dir.path()).unwrap();
        let a = pool.get().unwrap();
        a.execute_batch("CREATE TEMP TABLE a (x)").unwrap();
        let b = pool.get().unwrap();
        assert!(!marked(&b, "a"), "two borrowers, two connections");
        drop(a);
        assert!(marked(&pool.get().unwrap(), "a"), "an idle one is reused");
        b.execute_batch("CREATE TEMP TABLE b (x); BEGIN").unwrap();
        drop(b);
        let (c, d) = (pool.get().unwrap(), pool.get().unwrap());
        assert!(
            !marked(&c, "b") && !marked(&d, "b"),
            "one left in a transaction is closed"
        );
        assert!(c.is_autocommit() && d.is_autocommit());
        let mode: String = c
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
}
