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
    /// A text that does not parse: a board, a robot, a move, a solution.
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

/// Bridge while the layers above still speak `String`: the error's text, unchanged.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Error;
    use crate::clock::parse_bank;
    use crate::duration::parse_duration;
    use crate::game::catalog::{find, whole};

    /// The variants print the very texts the functions returned as strings before.
    #[test]
    fn the_texts_are_the_old_strings() {
        let unknown = find("chess").err().expect("no such game");
        assert!(matches!(unknown, Error::UnknownGame { .. }));
        assert!(
            unknown
                .to_string()
                .starts_with("there is no game \"chess\": this build plays "),
            "{unknown}"
        );
        let options = whole("size", &json!("big")).unwrap_err();
        assert!(matches!(options, Error::Options(_)));
        assert_eq!(options.to_string(), "size: \"big\" is not a whole number");
        let duration = Error::from(parse_duration("5h").unwrap_err());
        assert_eq!(
            duration.to_string(),
            "\"5h\": unknown unit \"h\"; use ms, s or m"
        );
        assert_eq!(
            parse_bank("0+1s").unwrap_err().to_string(),
            "\"0+1s\": the bank must be more than 0 (like 2m, or 2m+100ms)"
        );
        assert_eq!(
            String::from(Error::Mismatch("the options differ".into())),
            "the options differ"
        );
    }
}
