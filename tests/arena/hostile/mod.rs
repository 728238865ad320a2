//! A hostile team (issue 40): each attack that no other test plays as a real upload, played
//! as one against `rollarena serve` on loopback (the `arena::web` suite's server, teams and
//! `rollarena submit`), with the verdict expected, the server still answering and the other
//! team's pages and API unaffected. The attacks already played so elsewhere (bad archives in
//! `arena::web::uploads`, another team's addresses in `arena::web::visibility`, reads through
//! /proc and the filesystem from a seat in `arena::spying` and `arena::remote::spying`, the
//! pinning API's refusals in `arena::web::pinning`, hostile team names in `arena::web::e2e`)
//! are not repeated.
//!
//! - `build_time`: Java code that runs at build time (an annotation processor that javac finds
//!   under `META-INF/services` in the upload, `tests/bots/hostile_build/`) tries to read
//!   another team's sources, the database and the records, to reach the server's port, and to
//!   signal the server; the build passes, its log shows every refusal and no secret, and its
//!   page shows the HTML the processor printed as text (the arena under /tmp and outside it);
//! - `run_time`: a Python seat (`tests/bots/hostile_seat.py` over the Python kit) tries /proc,
//!   the other seat's files, the server's port and a listener on the host's loopback, and
//!   signals to every process it can see and to the server; the match is played to its end,
//!   nothing reached, and what it printed (HTML in its stderr, a file name and a label that are
//!   HTML) shows as text on its team's pages, while the other team's secrets are in no answer it gets;
//! - `archives`: bad archives made by real tools (a folder of 6,000 files, a zip with a
//!   symbolic link, tar.gz files with a named pipe and an absolute path) sent with `rollarena
//!   submit` against the default limits: refused with their reasons, nothing stored;
//! - `forms`: every form of the site posted with a valid session and no CSRF token, or another
//!   session's, and every organiser's and worker's address asked with a team's credentials:
//!   refused, nothing changed.
//!
//! The tests that build or play have uid ranges of their own (64700-64899), so that no
//! process of theirs shares a uid with another test's.

mod archives;
mod build_time;
mod forms;
mod run_time;

use std::path::Path;

/// A test file under `tests/bots/`.
fn bot_file(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots")
        .join(name)
}
