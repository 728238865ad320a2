//! The replay viewer for every round, split into files of a few tables each
//! (`replays/0001.html`, ...), so a 10,000-round tournament never makes one huge page: a
//! round's link is its file and its place in it, `replays/0007.html#round=3`.
//!
//! Each file is the existing viewer ([`crate::show::html::render`]) for its tables' rounds,
//! unchanged but for one small script placed before the viewer's own: it reads `#round=N` (or
//! the old `#game=N`) from the address and sets the viewer's documented `initial` round to N
//! before the viewer starts, and reloads the page when the address's round changes. The page's Content-Security-Policy
//! gets that script's hash beside the viewer's; nothing else in the page changes.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::page;
use crate::record::RoundRecord;

/// Rounds per viewer file: tables are added to a file until it holds at least this many.
pub const ROUNDS_PER_FILE: usize = 24;

/// Picks the round from the address; the data element and its `"initial":N` are the
/// viewer's (the first `"initial":` of the data is the page's own: strings in the data are
/// JSON strings, whose quotes are escaped).
const PICK: &str = r#"(function(){var m=/^#(?:round|game)=(\d+)$/.exec(location.hash);var e=document.getElementById('replay-data');if(m&&e){e.textContent=e.textContent.replace(/"initial":\d+/,'"initial":'+m[1]);}window.addEventListener('hashchange',function(){location.reload();});})();"#;

/// Where a round is: its viewer file (from 1) and its place in it (from 1).
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub file: u32,
    pub game: usize,
}

impl Link {
    /// The address, relative to the report's directory (as `report.js` makes it).
    pub fn href(&self) -> String {
        format!("replays/{:04}.html#round={}", self.file, self.game)
    }
}

/// Viewer files being written, a few tables at a time.
pub struct Viewers {
    dir: PathBuf,
    title: String,
    pending: Vec<RoundRecord>,
    next: u32,
    /// Bytes and files written so far.
    pub bytes: u64,
    pub files: u32,
}

impl Viewers {
    /// Files go in `dir`; `title` heads each viewer.
    pub fn new(dir: &Path, title: &str) -> Viewers {
        Viewers {
            dir: dir.to_path_buf(),
            title: title.to_string(),
            pending: Vec::new(),
            next: 1,
            bytes: 0,
            files: 0,
        }
    }

    /// The links the next `n` rounds will have, relative to the report's directory.
    pub fn links(&self, n: usize) -> Vec<Link> {
        (0..n)
            .map(|i| Link {
                file: self.next,
                game: self.pending.len() + i + 1,
            })
            .collect()
    }

    /// A table's rounds, in round order (their links were [`Viewers::links`]).
    pub fn table(&mut self, rounds: Vec<RoundRecord>) -> Result<(), String> {
        self.pending.extend(rounds);
        if self.pending.len() >= ROUNDS_PER_FILE {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the file of the pending rounds.
    pub fn flush(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let rounds = std::mem::take(&mut self.pending);
        let first = rounds.first().and_then(|r| r.table).unwrap_or(0);
        let last = rounds.last().and_then(|r| r.table).unwrap_or(0);
        let title = if first == last {
            format!("{}: table {first}", self.title)
        } else {
            format!("{}: tables {first} to {last}", self.title)
        };
        let html = match crate::show::html::render(&title, &rounds, 1, None, None) {
            Ok(html) => with_pick(&html),
            // A round the engine cannot play again: the file says so instead.
            Err(e) => page::render(
                &json!({"kind": "error", "root": "../", "title": title,
                        "text": format!("these rounds cannot be replayed: {e}")}),
                None,
            ),
        };
        let path = self.dir.join(format!("{:04}.html", self.next));
        self.bytes += page::write(&path, &html)?;
        self.files += 1;
        self.next += 1;
        Ok(())
    }
}

/// A way back to the report, first in the viewer's header (fixed text: nothing from the data).
const BACK: &str = r#"<a href="../index.html" style="font-weight:600">&larr; report</a> <a href="../tables.html">tables</a>"#;

/// The viewer's page with the round-picking script before its own and allowed by its CSP,
/// and links back to the report.
fn with_pick(html: &str) -> String {
    let hash = page::csp_hash(PICK);
    // The template's header comes before the data, so the first `<header>` is it.
    let html = html.replacen("<header>", &format!("<header>\n  {BACK}"), 1);
    // The viewer's script is the first bare `<script>`: the data element has a type, and the
    // data holds no `<` at all.
    let Some(at) = html.find("<script>") else {
        return html;
    };
    let mut out = String::with_capacity(html.len() + PICK.len() + 80);
    out.push_str(&html[..at]);
    out.push_str("<script>");
    out.push_str(PICK);
    out.push_str("</script>\n");
    out.push_str(&html[at..]);
    out.replacen("script-src '", &format!("script-src '{hash}' '"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pick_script_goes_before_the_viewers_and_into_the_csp() {
        let html = "<meta content=\"script-src 'sha256-X'\"><script type=\"application/json\" id=\"replay-data\">{}</script>\n<script>viewer()</script>";
        let out = with_pick(html);
        let pick = out.find(PICK).unwrap();
        assert!(pick < out.find("viewer()").unwrap());
        assert!(out.contains(&format!("script-src '{}' 'sha256-X'", page::csp_hash(PICK))));
    }
}
