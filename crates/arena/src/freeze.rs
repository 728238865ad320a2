//! The closing time: the organiser sets it (a time, or now), and may take it back before it
//! passes. From then on submissions are refused ("the contest closed at ..."), the matchmaker
//! makes no ladder match (those queued or in play are still played), and every page carries a
//! banner: the closing time before it, "closed" after it. Stored in the `state` table (key
//! `closing`, Unix milliseconds), so the server and the command line see the same value.
//!
//! The last day's first step (`finals`), but a rule every part obeys (submissions, pins, the
//! matchmaker, the pages): so it sits below them all.

use rusqlite::Connection;

use crate::store::db;
use crate::store::settings::{get_json, set_json};

const KEY: &str = "closing";

/// The closing time, if one is set (Unix ms).
pub fn closing(conn: &Connection) -> Result<Option<i64>, String> {
    get_json(conn, KEY)
}

/// The closing time if it has passed: the contest is closed.
pub fn closed(conn: &Connection) -> Result<Option<i64>, String> {
    Ok(closing(conn)?.filter(|&at| at <= db::now_ms()))
}

/// What a refused submission says.
pub fn refusal(at: i64) -> String {
    format!(
        "the contest closed at {}: submissions are no longer taken (the versions that play \
         the final are those the teams had then)",
        utc(at)
    )
}

/// A time as pages and messages show it: RFC 3339, UTC, to the second.
pub fn utc(ms: i64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    humantime::format_rfc3339_seconds(t).to_string()
}

/// Sets the closing time. Refused once the contest has closed (the final plays the versions
/// of that moment), and for a time already past other than now (a typo would close the
/// contest at once: say `--now` for that).
pub fn set(conn: &Connection, at: i64, now_asked: bool) -> Result<i64, String> {
    if let Some(was) = closed(conn)? {
        return Err(format!(
            "the contest closed at {} already: a closed contest stays closed (the final plays \
             the versions of that moment)",
            utc(was)
        ));
    }
    let now = db::now_ms();
    if at < now && !now_asked {
        return Err(format!(
            "{} is in the past: give a later time, or --now to close the contest at once",
            utc(at)
        ));
    }
    set_json(conn, KEY, Some(&at))?;
    Ok(at)
}

/// Takes the closing time back, before it passes.
pub fn undo(conn: &Connection) -> Result<(), String> {
    match closing(conn)? {
        None => Err("no closing time is set: there is nothing to take back".into()),
        Some(at) if at <= db::now_ms() => Err(format!(
            "the contest closed at {} already: a closing time can be taken back only before it \
             passes",
            utc(at)
        )),
        Some(_) => set_json::<i64>(conn, KEY, None),
    }
}

/// Parses a closing time: RFC 3339 (`2026-11-26T18:00:00Z`, `2026-11-26T19:00:00+01:00`, a
/// space for the `T`, fractions of a second), in UTC when no offset is given.
pub fn parse_time(text: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "{text:?} is not a time: write it as RFC 3339, e.g. 2026-11-26T18:00:00Z (UTC) or \
             2026-11-26T19:00:00+01:00"
        )
    };
    let s = text.trim();
    let (base, offset_min) = match s.len().checked_sub(6).map(|i| (i, s.as_bytes())) {
        Some((i, b)) if (b[i] == b'+' || b[i] == b'-') && b[i + 3] == b':' && i > 10 => {
            let hours: i64 = s[i + 1..i + 3].parse().map_err(|_| bad())?;
            let minutes: i64 = s[i + 4..].parse().map_err(|_| bad())?;
            if hours > 23 || minutes > 59 {
                return Err(bad());
            }
            let sign = if b[i] == b'-' { -1 } else { 1 };
            (&s[..i], sign * (hours * 60 + minutes))
        }
        _ => (
            s.strip_suffix('Z')
                .or_else(|| s.strip_suffix('z'))
                .unwrap_or(s),
            0,
        ),
    };
    let t = humantime::parse_rfc3339_weak(&format!("{base}Z").replace(' ', "T"))
        .or_else(|_| humantime::parse_rfc3339_weak(base))
        .map_err(|_| bad())?;
    let ms = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| bad())?
        .as_millis() as i64;
    Ok(ms - offset_min * 60_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_in_utc_and_with_offsets() {
        let utc = parse_time("2026-11-26T18:00:00Z").unwrap();
        assert_eq!(parse_time("2026-11-26 18:00:00").unwrap(), utc);
        assert_eq!(parse_time("2026-11-26T19:30:00+01:30").unwrap(), utc);
        assert_eq!(parse_time("2026-11-26T13:00:00-05:00").unwrap(), utc);
        assert_eq!(parse_time("2026-11-26T18:00:00.250Z").unwrap(), utc + 250);
        assert_eq!(super::utc(utc), "2026-11-26T18:00:00Z");
        for bad in [
            "tomorrow",
            "2026-13-01T00:00:00Z",
            "2026-11-26T18:00:00+25:00",
            "",
        ] {
            let e = parse_time(bad).unwrap_err();
            assert!(e.contains("RFC 3339"), "{bad}: {e}");
        }
    }
}
