//! The arena's database: one SQLite file (`DIR/arena.db`) in WAL mode, opened by every part
//! of the server (web handlers, the matchmaker, workers) through the pool of [`super::pool`]
//! ([`connect`] once, [`open`] for the pool's further connections), upgraded in place by
//! numbered migrations, and the time it stores ([`now_ms`]). Every query is one of the
//! store's other submodules'.
//!
//! Why SQLite through `rusqlite` (with SQLite compiled in): an arena runs on a laptop as one
//! binary with no setup, and one file is what an organiser backs up. WAL lets the pages read
//! while a worker writes; `busy_timeout` makes concurrent writers wait instead of failing.
//!
//! Migrations are SQL files in `migrations/`, applied in order, each in one transaction with
//! the new `PRAGMA user_version`, so an arena created by an older rollarena is upgraded when a
//! newer one opens it, and a crash mid-migration leaves the old schema whole. An arena newer
//! than this binary is refused rather than misread.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// The migrations, in order: migration `i` (0-based) brings `user_version` from `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_init.sql"),
    include_str!("migrations/0002_workers.sql"),
    include_str!("migrations/0003_finals.sql"),
    include_str!("migrations/0004_fair_builds.sql"),
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// The database's file name inside an arena directory.
pub const FILE: &str = "arena.db";

/// Opens the database of the arena at `dir` (which must exist and hold one) and brings its
/// schema up to date.
pub fn connect(dir: &Path) -> Result<Connection, String> {
    let path = dir.join(FILE);
    if !path.exists() {
        return Err(format!(
            "{} is not an arena (no {FILE}): create one with `rollarena arena init {} --game G`",
            dir.display(),
            dir.display()
        ));
    }
    let conn = open(dir)?;
    migrate(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(conn)
}

/// Opens the database of the arena at `dir` with its settings, without the migration check
/// (for the connections after the first: see `store::pool`).
pub fn open(dir: &Path) -> Result<Connection, String> {
    let path = dir.join(FILE);
    let conn = Connection::open_with_flags(
        &path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    configure(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(conn)
}

/// Creates the database file of a new arena at `dir` with the current schema.
pub fn create(dir: &Path) -> Result<Connection, String> {
    let path = dir.join(FILE);
    if path.exists() {
        return Err(format!(
            "{} already holds an arena ({FILE} exists)",
            dir.display()
        ));
    }
    let conn =
        Connection::open(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    configure(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    migrate(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(conn)
}

fn configure(conn: &Connection) -> Result<(), String> {
    conn.busy_timeout(Duration::from_secs(30))
        .map_err(|e| e.to_string())?;
    // WAL: readers never block the writer; NORMAL sync is durable across a process crash (the
    // SIGKILL case) and loses at most the last transactions on a power cut.
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
    )
    .map_err(|e| e.to_string())
}

/// Applies every migration the database has not had yet.
pub fn migrate(conn: &Connection) -> Result<(), String> {
    let version: u32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "the arena's schema is version {version}, newer than this rollarena knows \
             ({SCHEMA_VERSION}): run the rollarena that created it, or a newer one"
        ));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let next = i + 1;
        // The schema's version is bumped as well, so that every connection reloads the schema
        // (a migration may edit a table's definition in place: see 0004).
        let applied = conn
            .execute_batch(&format!("BEGIN IMMEDIATE; {sql}"))
            .and_then(|()| conn.query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0)))
            .and_then(|schema| {
                conn.execute_batch(&format!(
                    "PRAGMA schema_version = {}; PRAGMA user_version = {next}; COMMIT;",
                    schema + 1
                ))
            });
        if let Err(e) = applied {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(format!("migration {next} failed: {e}"));
        }
    }
    Ok(())
}

/// Now, as the database stores times: Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_database_has_every_migration_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        drop(create(dir.path()).unwrap());
        let conn = connect(dir.path()).unwrap();
        let v: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        assert!(create(dir.path()).is_err(), "a second create must refuse");
    }

    #[test]
    fn the_superseded_state_is_added_to_an_older_arena_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let old = Connection::open(&path).unwrap();
        configure(&old).unwrap();
        for (i, sql) in MIGRATIONS[..3].iter().enumerate() {
            old.execute_batch(&format!(
                "BEGIN; {sql}\nPRAGMA user_version = {}; COMMIT;",
                i + 1
            ))
            .unwrap();
        }
        old.execute_batch(
            "INSERT INTO teams (name, token_hash, created_at) VALUES ('a', 'h', 0);
             INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
                 submitted_at, state, mu, sigma) VALUES (1, 'v', 'python', 's', 1, 7, 'ready', 25, 8);",
        )
        .unwrap();
        let refused = old.execute("UPDATE versions SET state = 'superseded'", []);
        assert!(refused.is_err(), "schema 3 has no superseded state");
        // Migrated by another connection while this one stays open: both see the new state.
        let conn = connect(dir.path()).unwrap();
        for c in [&conn, &old] {
            c.execute("UPDATE versions SET state = 'superseded'", [])
                .unwrap();
            let bad = c.execute("UPDATE versions SET state = 'bogus'", []);
            assert!(bad.is_err(), "the check still holds");
        }
        let (waiting, attempts): (i64, i64) = conn
            .query_row(
                "SELECT waiting_since, build_attempts FROM versions",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((waiting, attempts), (7, 0));
        let ok: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let conn = create(dir.path()).unwrap();
        conn.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 1))
            .unwrap();
        drop(conn);
        let err = connect(dir.path()).unwrap_err();
        assert!(err.contains("newer than this rollarena"), "{err}");
    }

    #[test]
    fn a_missing_arena_says_how_to_create_one() {
        let dir = tempfile::tempdir().unwrap();
        let err = connect(dir.path()).unwrap_err();
        assert!(err.contains("rollarena arena init"), "{err}");
    }
}
