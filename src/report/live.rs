//! The live view: `tournament FILE --live DIR` keeps `DIR/index.html` showing the standings
//! while the tournament runs. The runner calls [`write()`] as each table is folded; the page is
//! replaced atomically (a screen never loads half of it) and reloads itself every few
//! seconds. When the tournament ends, the full report is written to `DIR` as well, and its
//! front page (which does not reload) replaces the live one.

use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

use serde_json::json;

use super::page;
use crate::tournament::aggregate::Standings;

/// Seconds between reloads of the live page.
pub const RELOAD_SECONDS: u32 = 5;

/// One live page written at a time: tables end on threads of their own, and the atomic write
/// goes through one temporary name.
static WRITING: Mutex<()> = Mutex::new(());

/// Writes the live standings page `dir/index.html`.
pub fn write(dir: &Path, standings: &Standings) -> Result<(), String> {
    let _one = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let names: Vec<&str> = standings.standings.iter().map(|r| r.bot.as_str()).collect();
    let data = json!({
        "kind": "live",
        "root": "",
        "title": standings.tournament,
        "names": names,
        "standings": standings,
        "updated": humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
    });
    page::write(
        &dir.join("index.html"),
        &page::render(&data, Some(RELOAD_SECONDS)),
    )
    .map(|_| ())
}
