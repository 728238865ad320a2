//! The tournament layer's error: why a tournament, its output directory, its results or its
//! report cannot be had, by kind. Every variant prints exactly the text the user has always
//! read (the command line prints it, tests match on it), so a variant holds the finished
//! message, or nests the error it comes from: the tournament file's [`ConfigError`], a run's
//! [`RunError`] (which says the exit status), the games layer's error. The rules and run
//! layers' failures are passed on as their text, whichever type they come as.

use std::fmt::Display;

use crate::tournament::config::ConfigError;
use crate::tournament::runner::RunError;

/// What went wrong in the tournament layer.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The tournament file does not parse or validate.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A run failed, as the user's fault or the arbiter's.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The games layer refused (an unknown game, options, a record that does not fit).
    #[error(transparent)]
    Games(#[from] rollarena_games::Error),
    /// A value the user gave does not fit: a `--shard`, an `--sprt`, a field the format
    /// cannot seat, an openings file.
    #[error("{0}")]
    Invalid(String),
    /// An output directory refuses what is asked of it: not empty, another tournament's,
    /// another shard's, not a tournament's at all.
    #[error("{0}")]
    Output(String),
    /// A results file whose contents cannot be read back (a line that is not a record, a
    /// round of another tournament).
    #[error("{0}")]
    Results(String),
    /// A report cannot be finished for a reason of its own (its writer thread died).
    #[error("{0}")]
    Report(String),
    /// A file-system failure: what was being done, with its path, and why. The OS error is
    /// part of the text and deliberately not the `source()`: the command line prints an
    /// error's chain (`{:#}`), which would say it twice.
    #[error("{context}: {error}")]
    Io {
        context: String,
        error: std::io::Error,
    },
    /// A lower layer (rules, run) failed; its text as it is.
    #[error("{0}")]
    Lower(String),
}

impl Error {
    /// A file-system failure while doing `context` (which names the path).
    pub fn io(context: impl Into<String>, error: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            error,
        }
    }

    /// A lower layer's failure, whichever type it comes as.
    pub fn lower(e: impl Display) -> Error {
        Error::Lower(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::output::Shard;

    #[test]
    fn each_kind_prints_the_text_the_user_always_read() {
        assert_eq!(
            Shard::parse("3/2").unwrap_err().to_string(),
            "--shard \"3/2\": write i/n with 1 <= i <= n, e.g. 2/4"
        );
        let missing = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        assert_eq!(
            Error::io("cannot read /x/results.jsonl", missing).to_string(),
            "cannot read /x/results.jsonl: No such file"
        );
        let missing = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let io = Error::io("cannot read /x/results.jsonl", missing);
        assert!(
            std::error::Error::source(&io).is_none(),
            "printed as a chain, the OS error would be said twice"
        );
        let config = ConfigError {
            file: "t.toml".into(),
            at: Some((3, 1)),
            message: "unknown field".into(),
        };
        assert_eq!(
            Error::from(config).to_string(),
            "t.toml: line 3, column 1: unknown field"
        );
        assert_eq!(
            Error::from(RunError::Usage("no bots".into())).to_string(),
            "no bots"
        );
        let games = rollarena_games::Error::Options("players: 2 to 4".into());
        assert_eq!(Error::from(games).to_string(), "players: 2 to 4");
    }
}
