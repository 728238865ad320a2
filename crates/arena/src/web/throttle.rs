//! Failed logins slowed, never locked out. A token that is refused (the login form's, or a
//! bearer token on the API, the worker API's included) counts as a failure of the address it
//! came from ([`super::proxies`]) in `login_attempts`. Past [`FREE_FAILURES`] within
//! [`WINDOW_MS`], each further failure's answer waits: 50 ms, doubling, at most
//! [`MAX_DELAY`]; and one address's failures wait in one line, one at a time, so that
//! asking in parallel gains nothing (at most one guess per [`MAX_DELAY`] per address).
//!
//! A correct token is never counted, slowed or refused, whatever its address did: a class
//! behind one school's NAT logs in while someone there guesses tokens (a lockout per address
//! would shut it out). Tokens are 256 random bits; this only keeps guessing slow and visible.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;

use super::db::Db;
use super::{Site, WebError};
use crate::store::db;
use crate::store::sessions;

/// Failures an address may make in [`WINDOW_MS`] before its answers are slowed.
pub const FREE_FAILURES: i64 = 10;
/// How long a failure counts.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// The delay of the first slowed failure; each next one's doubles.
pub const FIRST_DELAY: Duration = Duration::from_millis(50);
/// The longest a failure's answer waits.
pub const MAX_DELAY: Duration = Duration::from_secs(1);

/// How long the answer to an address's `failures`-th failure in the window waits.
pub fn delay_after(failures: i64) -> Duration {
    if failures <= FREE_FAILURES {
        return Duration::ZERO;
    }
    let doublings = (failures - FREE_FAILURES - 1).min(20) as u32;
    (FIRST_DELAY * 2u32.pow(doublings)).min(MAX_DELAY)
}

/// Counts a failure of `address`; the delay its answer must wait.
pub fn record(conn: &Connection, address: &str) -> Result<Duration, WebError> {
    let now = db::now_ms();
    let failures = sessions::count_failed_login(conn, address, now, now - WINDOW_MS)?;
    Ok(delay_after(failures))
}

/// Each address's line of slowed failures.
static LINES: Mutex<Option<HashMap<String, Arc<tokio::sync::Mutex<()>>>>> = Mutex::new(None);

/// Waits `delay` in `address`'s line: the address's slowed failures are answered one after
/// the other.
pub async fn wait(address: &str, delay: Duration) {
    if delay.is_zero() {
        return;
    }
    let line = {
        let mut lines = LINES.lock().unwrap_or_else(|p| p.into_inner());
        lines
            .get_or_insert_with(HashMap::new)
            .entry(address.to_string())
            .or_default()
            .clone()
    };
    {
        let _turn = line.lock().await;
        tokio::time::sleep(delay).await;
    }
    let mut lines = LINES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(map) = lines.as_mut()
        && Arc::strong_count(&line) == 2
    {
        // Nobody else waits in it: forget the line.
        map.remove(address);
    }
}

/// Counts a failure of `address` and waits as long as its answer must.
pub async fn failed(site: &Site, address: &str) -> Result<(), WebError> {
    let (s, a) = (site.clone(), address.to_string());
    let delay = Db(s).run(move |conn, _| record(conn, &a)).await?;
    wait(address, delay).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_free_then_slowed_up_to_the_cap() {
        assert_eq!(delay_after(1), Duration::ZERO);
        assert_eq!(delay_after(FREE_FAILURES), Duration::ZERO);
        assert_eq!(delay_after(FREE_FAILURES + 1), FIRST_DELAY);
        assert_eq!(delay_after(FREE_FAILURES + 2), FIRST_DELAY * 2);
        assert_eq!(delay_after(FREE_FAILURES + 5), FIRST_DELAY * 16);
        assert_eq!(delay_after(FREE_FAILURES + 6), MAX_DELAY);
        assert_eq!(delay_after(i64::MAX), MAX_DELAY);
    }
}
