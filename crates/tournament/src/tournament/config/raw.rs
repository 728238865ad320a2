//! The tournament file as TOML gives it (every value with its place in the file), and the
//! [`Checker`] that turns a place into a line and column for errors.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::ConfigError;

/// Where errors are reported: the file's text (for lines and columns) and its name.
pub(super) struct Checker<'a> {
    pub(super) src: &'a str,
    pub(super) file: &'a str,
}

impl Checker<'_> {
    /// An error at `span` of the file (or about the file as a whole).
    pub(super) fn err(&self, span: Option<Range<usize>>, message: String) -> ConfigError {
        ConfigError {
            file: self.file.to_string(),
            at: span.map(|s| line_col(self.src, s.start)),
            message,
        }
    }
}

impl Checker<'_> {
    /// An error about a value given on the command line (`flag` and the value as typed), which
    /// overrides the file's: the flag is to blame, not the file.
    pub(super) fn flag_err(&self, flag: &str, message: String) -> ConfigError {
        ConfigError {
            file: String::new(),
            at: None,
            message: format!("{flag}: {message}"),
        }
    }
}

/// Line and column (from 1) of a byte offset.
pub(super) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) name: Option<String>,
    pub(super) game: Option<Spanned<String>>,
    pub(super) options: Option<Spanned<toml::Table>>,
    pub(super) players: Option<Spanned<i64>>,
    pub(super) rounds: Option<Spanned<i64>>,
    pub(super) schedule: Option<Spanned<String>>,
    pub(super) challengers: Option<Spanned<Vec<Spanned<String>>>>,
    pub(super) tables_per_bot: Option<Spanned<i64>>,
    pub(super) swiss_rounds: Option<Spanned<i64>>,
    pub(super) elimination: Option<Spanned<String>>,
    pub(super) advance: Option<Spanned<i64>>,
    pub(super) tiebreak: Option<Spanned<String>>,
    pub(super) seeding: Option<Spanned<String>>,
    pub(super) seeds: Option<Spanned<Vec<Spanned<String>>>>,
    pub(super) repeat: Option<Spanned<i64>>,
    pub(super) seed: Option<Spanned<i64>>,
    pub(super) time: Option<Spanned<String>>,
    pub(super) tc: Option<Spanned<String>>,
    pub(super) first_move: Option<Spanned<String>>,
    pub(super) startup: Option<Spanned<String>>,
    pub(super) margin: Option<Spanned<String>>,
    pub(super) retries: Option<Spanned<i64>>,
    pub(super) opening_plies: Option<Spanned<i64>>,
    pub(super) openings: Option<Spanned<String>>,
    pub(super) openings_order: Option<Spanned<String>>,
    pub(super) jobs: Option<Spanned<i64>>,
    pub(super) output: Option<String>,
    pub(super) freeze: Option<bool>,
    pub(super) hide_legal: Option<bool>,
    pub(super) withdraw_after: Option<Spanned<i64>>,
    pub(super) recover: Option<Spanned<bool>>,
    pub(super) sandbox: Option<Spanned<RawSandbox>>,
    #[serde(default)]
    pub(super) bot: Vec<Spanned<RawBot>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLimits {
    // Plain values: `flatten` loses spans, so errors point at the enclosing table.
    pub(super) memory: Option<String>,
    pub(super) cpu_limit: Option<String>,
    pub(super) max_processes: Option<i64>,
    pub(super) max_open_files: Option<i64>,
    pub(super) max_file_size: Option<String>,
    pub(super) disk: Option<String>,
    pub(super) inodes: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSandbox {
    pub(super) level: Option<String>,
    pub(super) user: Option<String>,
    pub(super) uids: Option<String>,
    #[serde(flatten)]
    pub(super) limits: RawLimits,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBot {
    pub(super) name: Spanned<String>,
    pub(super) command: Spanned<String>,
    pub(super) cwd: Option<Spanned<String>>,
    /// Knockouts seeded by rating: the bot's rating (higher is seeded first).
    pub(super) rating: Option<Spanned<f64>>,
    pub(super) tc: Option<Spanned<String>>,
    #[serde(flatten)]
    pub(super) limits: RawLimits,
}
