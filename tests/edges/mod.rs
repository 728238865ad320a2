//! Issue 27's rough edges, each shown as a user meets it: the real binary run as the book
//! runs it, the wrong input or the misleading message before, the plain answer after.
//!
//! - `inputs`: the values `match` and `tournament` share, checked alike; a value from the
//!   command line blamed on its flag; the first word `rollarena` meaning this binary whatever
//!   the current directory holds; relative bot paths in a tournament file;
//! - `preflight`: a bot that cannot start stops the run before anything is written;
//! - `words`: what the terminal says (forfeit causes, warnings, plurals);
//! - `check`: `check` judging a line as the referee does, and claiming nothing it did not see;
//! - `readme`: the smallest bot of the book's "Writing a bot" passes `check`;
//! - `install`: `--version` with its commit, the completion scripts and the manual pages;
//! - `anywhere`: a bot named directly in /tmp plays (the seat's /tmp is private).

mod anywhere;
mod check;
mod inputs;
mod install;
mod preflight;
mod readme;
mod words;

use std::path::Path;
use std::process::{Command, Output};

pub use crate::arbiter::{PYTHON, rollarena};

/// Runs the binary with `args` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(rollarena())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run rollarena")
}

/// The output's stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The output's stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts exit 2 with `expected` in stderr, and returns stderr.
pub fn refused(out: &Output, expected: &str) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "exit 2 expected; stderr: {err}");
    assert!(err.contains(expected), "expected {expected:?} in: {err}");
    err
}

/// A world-readable temporary directory (bots run as the unprivileged bot user).
pub fn shared_dir() -> tempfile::TempDir {
    crate::check::shared_tempdir("rollarena-edges-")
}
