//! The games layer's error: why a game, a bot, a record or an analysis this layer was asked
//! for cannot be had, by kind. Every variant prints exactly the text the user has always read
//! (the commands and the tests match on them), so a variant holds the finished message, or
//! the lower layer's failure as its text (the rules and the run layers' errors are shown, not
//! matched on, here).
//!
//! A built-in bot's failure to read a request is not one of these: the bot logs it and plays
//! on ([`crate::game::bot::Unreadable`]). A bot's misbehaviour in a match is a recorded value,
//! never an error.

use std::fmt::Display;

/// What went wrong in the games layer.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No game has this name (the catalog's refusal, with the names there are).
    #[error("{0}")]
    UnknownGame(String),
    /// A game's options, or the options of its `perft`, `solve` or `check`, are refused; the
    /// text says which option and how to fix it.
    #[error("{0}")]
    Options(String),
    /// A built-in bot's settings are refused (`--movetime 0`, `--noise` for a bot with no
    /// random choices).
    #[error("{0}")]
    BotSettings(String),
    /// A record that does not fit what is asked of it: another game, a round the rules do not
    /// replay, a recorded value that cannot be read.
    #[error("{0}")]
    Record(String),
    /// The rounds a user selects from a file do not exist (`--round N`).
    #[error("{0}")]
    Selection(String),
    /// The rules layer failed in a way this layer passes on as it is.
    #[error("{0}")]
    Rules(String),
}

impl Error {
    /// A game's options refused, from the rules' (or an option parser's) refusal.
    pub fn options(e: impl Display) -> Error {
        Error::Options(e.to_string())
    }

    /// A record that does not fit, from the refusal's text.
    pub fn record(e: impl Display) -> Error {
        Error::Record(e.to_string())
    }

    /// The rules layer's failure, whichever type it comes as.
    pub fn rules(e: impl Display) -> Error {
        Error::Rules(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_prints_the_text_the_user_always_read() {
        let Err(unknown) = crate::game::registry::find("chess") else {
            panic!("chess is not a game of this build")
        };
        assert!(matches!(unknown, Error::UnknownGame(_)));
        let text = unknown.to_string();
        assert!(
            text.starts_with("there is no game \"chess\": this build plays "),
            "{text}"
        );
        for entry in crate::game::registry::GAMES {
            assert!(text.contains(entry.name), "{text} names {}", entry.name);
        }
        let settings = crate::game::bot::BotSettings {
            playouts: Some(0),
            ..Default::default()
        };
        assert_eq!(
            settings.search_limits().unwrap_err().to_string(),
            "--movetime and --playouts: at least 1"
        );
        assert_eq!(
            crate::replay::select(3, Some(4)).unwrap_err().to_string(),
            "--round 4: the record holds 3 rounds"
        );
        assert_eq!(
            crate::replay::select(0, None).unwrap_err().to_string(),
            "the record holds no complete round"
        );
        assert_eq!(
            Error::options("players: 2 to 4").to_string(),
            "players: 2 to 4"
        );
    }
}
