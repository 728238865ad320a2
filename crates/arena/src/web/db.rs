//! The database in a handler: the [`Db`] extractor hands a handler the site's store, whose
//! [`read`](Db::read) and [`write`](Db::write) run a closure over a pooled connection on
//! tokio's blocking threads (SQLite blocks), a read in one transaction. It replaces the
//! `blocking(move || ... site.conn()? ...)` each handler used to write out; the store's
//! failures become an HTTP 500 here ([`From<StoreError>`](StoreError) for [`WebError`]).

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use rusqlite::Connection;

use super::{Site, WebError, blocking};
use crate::Arena;
use crate::store::StoreError;

impl From<StoreError> for WebError {
    fn from(e: StoreError) -> Self {
        WebError::Internal(e.to_string())
    }
}

/// The site's database, for a handler (`Db(db): Db` never fails to extract).
#[derive(Clone)]
pub struct Db(pub Site);

impl FromRequestParts<Site> for Db {
    type Rejection = Infallible;

    async fn from_request_parts(_: &mut Parts, site: &Site) -> Result<Self, Self::Rejection> {
        Ok(Db(site.clone()))
    }
}

impl Db {
    /// The open arena.
    pub fn arena(&self) -> &Arena {
        &self.0.arena
    }

    /// Runs `read` in one read transaction on a blocking thread (see [`Site::snapshot`]): what
    /// a page or an answer shows is the database at one moment.
    pub async fn read<T: Send + 'static>(
        self,
        read: impl FnOnce(&Connection, &Arena) -> Result<T, WebError> + Send + 'static,
    ) -> Result<T, WebError> {
        let site = self.0;
        blocking(move || site.snapshot(|conn| read(conn, &site.arena))).await
    }

    /// Runs `work` with a connection of its own on a blocking thread (for writes, and for
    /// reads that need no snapshot).
    pub async fn run<T: Send + 'static>(
        self,
        work: impl FnOnce(&mut Connection, &Arena) -> Result<T, WebError> + Send + 'static,
    ) -> Result<T, WebError> {
        let site = self.0;
        blocking(move || work(&mut *site.conn()?, &site.arena)).await
    }
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
            read(&mut crate::store::db::connect(&arena.dir).unwrap());
        }
        let opened = start.elapsed() / N;
        println!(
            "a leaderboard read, connection included (mean of {N}): {pooled:?} pooled, \
             {opened:?} with a connection opened for it"
        );
    }
}
