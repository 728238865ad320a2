//! Secrets that identify the organiser, a team or a worker: made here, shown once, stored only
//! as a SHA-256, and compared by looking the hash up.
//!
//! A token is 32 random bytes from the operating system's generator, written as 64 hex digits
//! after a prefix that says whose it is (`org_`, `team_`, `worker_`), so a token pasted in the
//! wrong place is recognised in the error message. A SHA-256 is enough (no argon2 here): the
//! tokens are long random strings, not passwords a person chose.

use rand::TryRngCore;
use rand::rngs::OsRng;

use crate::tournament::config::{hex, sha256_hex};

/// Whose token it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Organiser,
    Team,
    Worker,
}

impl Kind {
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Organiser => "org_",
            Kind::Team => "team_",
            Kind::Worker => "worker_",
        }
    }

    /// The kind a token claims by its prefix.
    pub fn of(token: &str) -> Option<Kind> {
        [Kind::Organiser, Kind::Team, Kind::Worker]
            .into_iter()
            .find(|k| token.starts_with(k.prefix()))
    }
}

/// A fresh token of `kind`.
pub fn generate(kind: Kind) -> String {
    let mut bytes = [0u8; 32];
    OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random generator failed");
    format!("{}{}", kind.prefix(), hex(&bytes))
}

/// What the database stores of a token (or of any other secret id, such as a session's).
pub fn hash(token: &str) -> String {
    sha256_hex(token.trim().as_bytes())
}

/// Random hex digits (`bytes` random bytes), for session ids and CSRF tokens.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    OsRng
        .try_fill_bytes(&mut buf)
        .expect("the operating system's random generator failed");
    hex(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_distinct_prefixed_and_hash_stably() {
        let a = generate(Kind::Team);
        let b = generate(Kind::Team);
        assert_ne!(a, b);
        assert_eq!(Kind::of(&a), Some(Kind::Team));
        assert_eq!(a.len(), "team_".len() + 64);
        assert_eq!(hash(&a), hash(&format!(" {a}\n")));
        assert_ne!(hash(&a), hash(&b));
        assert_eq!(Kind::of("nonsense"), None);
    }
}
