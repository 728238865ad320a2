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

/// A viewer file to write: its number, title and rounds.
type Job = (u32, String, Vec<RoundRecord>);

/// Viewer files being written, a few tables at a time. Replaying and drawing the rounds is
/// most of a report's work, so the files are made on a thread of their own while the caller
/// reads and folds the next tables (a report is written when a tournament's tables are done,
/// and its cores are free); at most two files' rounds wait for it.
pub struct Viewers {
    dir: PathBuf,
    title: String,
    pending: Vec<RoundRecord>,
    next: u32,
    /// Sends files to the writer; `None` once it was joined.
    jobs: Option<std::sync::mpsc::SyncSender<Job>>,
    /// The writer: bytes and files it wrote, or its first error.
    writer: Option<std::thread::JoinHandle<Result<(u64, u32), crate::Error>>>,
    /// Bytes and files written, once [`Viewers::flush`] waited for the writer.
    pub bytes: u64,
    pub files: u32,
}

impl Viewers {
    /// Files go in `dir`; `title` heads each viewer.
    pub fn new(dir: &Path, title: &str) -> Viewers {
        let (jobs, queue) = std::sync::mpsc::sync_channel::<Job>(2);
        let dir = dir.to_path_buf();
        let to = dir.clone();
        let writer = std::thread::Builder::new()
            .name("report-viewers".into())
            .spawn(move || {
                let (mut bytes, mut files) = (0, 0);
                for (number, title, rounds) in queue {
                    bytes += write_file(&to, number, &title, &rounds)?;
                    files += 1;
                }
                Ok((bytes, files))
            });
        let (jobs, writer) = match writer {
            Ok(w) => (Some(jobs), Some(w)),
            // No thread to be had: each file is written in place (`flush`).
            Err(_) => (None, None),
        };
        Viewers {
            dir,
            title: title.to_string(),
            pending: Vec::new(),
            next: 1,
            jobs,
            writer,
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
    pub fn table(&mut self, rounds: Vec<RoundRecord>) -> Result<(), crate::Error> {
        self.pending.extend(rounds);
        if self.pending.len() >= ROUNDS_PER_FILE {
            self.send()?;
        }
        Ok(())
    }

    /// Hands the pending rounds to the writer as the next file.
    fn send(&mut self) -> Result<(), crate::Error> {
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
        let number = self.next;
        self.next += 1;
        let job = (number, title, rounds);
        let left = match &self.jobs {
            Some(jobs) => jobs.send(job).err().map(|e| e.0),
            None => Some(job),
        };
        if let Some((number, title, rounds)) = left {
            // No writer (or it stopped at an error, which `flush` reports): in place.
            self.bytes += write_file(&self.dir, number, &title, &rounds)?;
            self.files += 1;
        }
        Ok(())
    }

    /// Writes the file of the pending rounds and waits until every file is written.
    pub fn flush(&mut self) -> Result<(), crate::Error> {
        self.send()?;
        self.jobs = None;
        if let Some(writer) = self.writer.take() {
            let (bytes, files) = writer.join().map_err(|_| {
                crate::Error::Report("the report's viewer writer panicked".into())
            })??;
            self.bytes += bytes;
            self.files += files;
        }
        Ok(())
    }
}

/// Writes viewer file `number` of `rounds`; returns its size.
fn write_file(
    dir: &Path,
    number: u32,
    title: &str,
    rounds: &[RoundRecord],
) -> Result<u64, crate::Error> {
    let html = match crate::show::html::render(title, rounds, 1, None, None) {
        Ok(html) => with_pick(&html),
        // A round the engine cannot play again: the file says so instead.
        Err(e) => page::render(
            &json!({"kind": "error", "root": "../", "title": title,
                    "text": format!("these rounds cannot be replayed: {e}")}),
            None,
        ),
    };
    page::write(&dir.join(format!("{number:04}.html")), &html)
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
