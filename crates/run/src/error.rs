//! The run layer's one error type: why bots cannot be run as asked (a setting refused, a
//! sandbox this machine cannot give, a bot that cannot be launched, the file system, the
//! rules). Each variant is a kind of failure; its text is the message the user sees, word for
//! word what these functions returned as a `String` before (tests match on those texts).
//!
//! A bot's misbehaviour once it runs (a crash, a timeout, an illegal move) is never an error
//! here: it is a recorded value (`record::fault`), and the match goes on.

use std::io;

/// Why bots cannot be run as asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A setting the user gave is refused (a limit, a size, the uid range, the bot user, the
    /// rounds, a time, the output group); the text says which and how to fix it.
    #[error("{0}")]
    Settings(String),
    /// The sandbox cannot be set up on this machine (the kernel refuses a level, no cgroups,
    /// landlock not enforced, a mount that fails); the text says what to install, configure
    /// or choose instead.
    #[error("{0}")]
    Sandbox(String),
    /// Landlock refused the ruleset of the strict sandbox.
    #[error(transparent)]
    Landlock(#[from] landlock::RulesetError),
    /// A bot cannot be launched: its command does not split, its program is not there or not
    /// executable, the process cannot start.
    #[error("{0}")]
    Launch(String),
    /// A script a bot command names (`python3 mine.py`) is not where the command says: the
    /// argument as it was written.
    #[error("{0}")]
    NoScript(String),
    /// The file system failed: what was being done, with its path, and the system's reason.
    /// The reason is part of the text and deliberately not the `source()`: the command line
    /// prints an error with its chain (`{:#}`), which would say it twice.
    #[error("{context}: {io}")]
    Io { context: String, io: io::Error },
    /// The rules refused (a record a resumed match cannot continue from, a game's options).
    #[error(transparent)]
    Rules(#[from] rollarena_rules::Error),
}

impl Error {
    /// A setting refused, from the refusal of whatever layer judged it (a game's options as
    /// its rules or registry refuse them), whichever type that refusal comes as.
    pub fn settings(e: impl std::fmt::Display) -> Error {
        Error::Settings(e.to_string())
    }

    /// A failure of the file system while doing `context` (which names the path).
    pub fn io(context: impl Into<String>, io: io::Error) -> Error {
        Error::Io {
            context: context.into(),
            io,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    /// The variants print the very texts the functions returned as strings before.
    #[test]
    fn the_texts_are_the_old_strings() {
        let io = Error::io(
            "cannot open /x/1.lock",
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        assert_eq!(io.to_string(), "cannot open /x/1.lock: entity not found");
        // The reason is in the text, not a `source()` the command line would print again.
        assert!(std::error::Error::source(&io).is_none());
        let rules = Error::from(rollarena_rules::Error::Mismatch(
            "the options differ".into(),
        ));
        assert_eq!(rules.to_string(), "the options differ");
        assert_eq!(
            Error::settings("--inodes 1 is too small").to_string(),
            "--inodes 1 is too small"
        );
    }
}
