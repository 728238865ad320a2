//! The rules layer's one error type: why the rules refuse something a caller asked of them
//! (options, a text to parse, a record to read or to verify, an opening). Each variant is a
//! kind of failure; its text is the message the user sees, word for word what these functions
//! returned as a `String` before, since tests, records and golden files hold those texts.
//!
//! A bot's misbehaviour is never an error here: an illegal move from a bot, a timeout, a crash
//! are recorded values (`record::fault`), not failures of the rules.

use crate::duration::BadDuration;
use crate::record::reader::ReadError;

/// Why the rules refuse what they were asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A game's options are refused; the text says which option was wrong and how.
    #[error("{0}")]
    Options(String),
    /// No game of that name in this build.
    #[error("there is no game {name:?}: this build plays {known}")]
    UnknownGame {
        name: String,
        /// The names this build plays, comma-separated.
        known: String,
    },
    /// A text that does not parse: a board, a position, a cell or a piece named in it.
    #[error("{0}")]
    Parse(String),
    /// A duration or a time control written wrong.
    #[error(transparent)]
    Duration(#[from] BadDuration),
    /// A record file that cannot be read.
    #[error(transparent)]
    Record(#[from] ReadError),
    /// A record this build cannot play: rules it does not know, a state it cannot start from.
    #[error("{0}")]
    Unplayable(String),
    /// A record that disagrees with the rules (verification, or a resumed match's rounds).
    #[error("{0}")]
    Mismatch(String),
    /// A move refused where that is the caller's failure and not a recorded value (a set
    /// opening is drawn from legal moves, so a refused one is the arbiter's fault).
    #[error("{0}")]
    Illegal(String),
}

#[cfg(test)]
mod tests {
    use super::Error;
    use crate::duration::BadDuration;

    /// The variants print the very texts the functions returned as strings before.
    #[test]
    fn the_texts_are_the_old_strings() {
        let unknown = Error::UnknownGame {
            name: "chess".into(),
            known: "a, b".into(),
        };
        assert_eq!(
            unknown.to_string(),
            "there is no game \"chess\": this build plays a, b"
        );
        let duration = Error::from(BadDuration(
            "\"5h\": unknown unit \"h\"; use ms, s or m".into(),
        ));
        assert_eq!(
            duration.to_string(),
            "\"5h\": unknown unit \"h\"; use ms, s or m"
        );
        let options = Error::Options("size: \"big\" is not a whole number".into());
        assert_eq!(options.to_string(), "size: \"big\" is not a whole number");
        assert_eq!(
            Error::Mismatch("the options differ".into()).to_string(),
            "the options differ"
        );
    }
}
