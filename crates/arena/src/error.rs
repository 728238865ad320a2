//! The arena's error: why an arena function failed, by kind, with the message its user reads.
//!
//! The kinds, and who must act:
//! - [`Error::Invalid`]: the caller's input is wrong (a team name, a setting of `arena.toml`,
//!   an option, a time): they must fix it, and the message says what and how;
//! - [`Error::NotFound`]: no such thing (team, version, match, worker);
//! - [`Error::Refused`]: the arena's state forbids it now (the contest has closed, the final
//!   has started, the ladder is paused);
//! - [`Error::Conflict`]: it exists already (a team of that name, an arena in that directory);
//! - [`Error::Io`]: the file system failed, on the path its context names;
//! - [`Error::At`]: another error, on what its context names (a file, a step), of its kind;
//! - [`Error::Store`]: the database failed ([`StoreError`], defined here and used by the store);
//! - [`Error::Unverified`]: a match's record does not verify, or is not that match's;
//! - [`Error::Rules`], [`Error::Run`], [`Error::Games`], [`Error::Tournament`]: a lower
//!   layer's failure, kept as its text (so that it reads the same whatever type the layer
//!   gives it);
//! - [`Error::Remote`]: a call to the arena's server from a remote worker failed;
//! - [`Error::Internal`]: the arena's own machinery failed (a thread or a child process died,
//!   a file the arena wrote is not as it left it): no user can fix it, the log says what.
//!
//! The message holds the whole story (an I/O error's context and the error itself), so no
//! variant gives a `source()` as well: `anyhow`'s `{:#}` prints it once, as it always read.
//!
//! Why: the web layer answers each kind with its HTTP status in one place
//! ([`crate::web::WebError`]'s `From<Error>`), and the command line prints the message as it
//! always read (`Display` is the text alone).

use std::fmt::Display;

/// What went wrong in the store ([`crate::store`]).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A query failed (the database is locked past the busy timeout, full, corrupt...).
    #[error("database: {0}")]
    Sql(rusqlite::Error),
    /// The database could not be opened (the message names the file and what to do).
    #[error("{0}")]
    Open(String),
}

/// Not a `#[from]`: the message holds the SQLite error, which is then not its `source()` as
/// well (`anyhow`'s `{:#}` would print it twice).
impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sql(e)
    }
}

/// What went wrong in the arena.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The file system failed: `context` names the path (and what was being done to it).
    #[error("{context}: {io}")]
    Io { context: String, io: std::io::Error },
    /// Another error, on what `context` names (a file, a step): reads `"{context}: {inner}"`
    /// and is of its inner error's kind.
    #[error("{context}: {inner}")]
    At { context: String, inner: Box<Error> },
    /// The caller's input is wrong; the message says what and how to fix it.
    #[error("{0}")]
    Invalid(String),
    /// No such team, version, match or worker.
    #[error("{0}")]
    NotFound(String),
    /// The arena's state forbids it now (closed, started, paused).
    #[error("{0}")]
    Refused(String),
    /// It exists already.
    #[error("{0}")]
    Conflict(String),
    /// A match's record does not verify, or is not the match's (the worker API answers 422).
    #[error("{0}")]
    Unverified(String),
    /// The rules layer failed (a record, a seed, a verification).
    #[error("{0}")]
    Rules(String),
    /// The run layer failed (the sandbox, the arbiter, a check).
    #[error("{0}")]
    Run(String),
    /// The games layer failed (a game's registry entry, a built-in bot, a renderer).
    #[error("{0}")]
    Games(String),
    /// The tournament layer failed (a tournament's set-up or run, a report).
    #[error("{0}")]
    Tournament(String),
    /// A remote worker's call to the server failed (a `remote::client::CallError`, as its
    /// text: this module sits below `remote`).
    #[error("{0}")]
    Remote(String),
    /// The arena's own machinery failed (a thread, a child process, its own files).
    #[error("{0}")]
    Internal(String),
}

/// An arena function's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A file-system failure on what `context` names: reads `"{context}: {io}"`.
    pub fn io(context: impl Display, io: std::io::Error) -> Error {
        Error::Io {
            context: context.to_string(),
            io,
        }
    }

    /// `inner`, on what `context` names: reads `"{context}: {inner}"`.
    pub fn at(context: impl Display, inner: impl Into<Error>) -> Error {
        Error::At {
            context: context.to_string(),
            inner: Box::new(inner.into()),
        }
    }

    /// The error itself, past the contexts [`Error::at`] added: what its kind is.
    pub fn kind(&self) -> &Error {
        match self {
            Error::At { inner, .. } => inner.kind(),
            e => e,
        }
    }

    /// The caller's input is wrong, as this text (a lower layer's refusal of it) says.
    pub fn invalid(e: impl Display) -> Error {
        Error::Invalid(e.to_string())
    }

    /// A failure of the rules layer, whatever its type.
    pub fn rules(e: impl Display) -> Error {
        Error::Rules(e.to_string())
    }

    /// A failure of the run layer, whatever its type.
    pub fn run(e: impl Display) -> Error {
        Error::Run(e.to_string())
    }

    /// A failure of the games layer, whatever its type.
    pub fn games(e: impl Display) -> Error {
        Error::Games(e.to_string())
    }

    /// A failure of the tournament layer, whatever its type.
    pub fn tournament(e: impl Display) -> Error {
        Error::Tournament(e.to_string())
    }

    /// The arena's own failure.
    pub fn internal(e: impl Display) -> Error {
        Error::Internal(e.to_string())
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Store(StoreError::Sql(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_read_as_before() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = Error::io(format_args!("cannot create {}", "/a/b"), io);
        assert!(e.to_string().starts_with("cannot create /a/b: "), "{e}");
        let e = Error::from(rusqlite::Error::InvalidQuery);
        assert!(e.to_string().starts_with("database: "), "{e}");
        assert_eq!(Error::games("no game x").to_string(), "no game x");
        // The message holds it all: nothing printed twice by a `{:#}` of the chain.
        let e = Error::at("a step", Error::from(rusqlite::Error::InvalidQuery));
        assert!(std::error::Error::source(&e).is_none());
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert!(std::error::Error::source(&Error::io("x", io)).is_none());
    }
}
