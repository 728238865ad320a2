//! The worker API's messages, as serde types shared by the server and `rollarena worker`.
//! A change that an older worker would misread bumps [`PROTOCOL`]; the server refuses a
//! worker of another rollarena version outright (its built-in bots, its records and its
//! referee must be the server's).

use serde::{Deserialize, Serialize};

use crate::ladder::worker::Rules;

/// The worker API's version.
pub const PROTOCOL: u32 = 1;

/// This rollarena's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest record a worker may upload (the records of long matches measure well under a
/// megabyte).
pub const MAX_RECORD: usize = 64 << 20;

/// What a worker says of itself with every lease (and once, at start, to `hello`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    /// The process's own name (`--name`, by default the host's name and the process id).
    pub name: String,
    /// Its rollarena version.
    pub version: String,
    pub protocol: u32,
    /// Its CPU architecture (`std::env::consts::ARCH`).
    pub arch: String,
    /// Matches it plays at once (`--jobs`), and how many of them are free now.
    pub jobs: u32,
    #[serde(default)]
    pub free: u32,
}

impl Hello {
    /// This process.
    pub fn this(name: &str, jobs: u32, free: u32) -> Hello {
        Hello {
            name: name.to_string(),
            version: VERSION.to_string(),
            protocol: PROTOCOL,
            arch: std::env::consts::ARCH.to_string(),
            jobs,
            free,
        }
    }
}

/// The server's answer to `hello`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Welcome {
    /// The worker's registered name (`arena worker DIR NAME`).
    pub worker: String,
    pub version: String,
    pub protocol: u32,
    pub arch: String,
    /// The arena's lease, in milliseconds.
    pub lease_ms: u64,
}

/// A leased match: everything needed to play it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lease {
    #[serde(rename = "match")]
    pub match_id: i64,
    /// The lease's id, given back with every call about this match.
    pub lease: String,
    /// When the lease runs out unless renewed (Unix ms), and the lease's length.
    pub lease_until: i64,
    pub lease_ms: u64,
    pub seed: u64,
    pub rounds: u32,
    pub rules: Rules,
    /// The seats, in order.
    pub seats: Vec<LeaseSeat>,
}

/// One seat of a leased match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaseSeat {
    /// The name the record must give it.
    pub name: String,
    /// Its run command, relative to its artifact's directory (`rollarena bot NAME` for a
    /// built-in anchor, which has no artifact).
    pub run: String,
    pub artifact: Option<Artifact>,
}

/// A version's packed build.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    pub sha256: String,
    pub bytes: u64,
    /// The architecture it was built on.
    pub arch: String,
}

/// The answer to a heartbeat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Renewed {
    pub lease_until: i64,
}

/// The answer to an accepted upload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counted {
    #[serde(rename = "match")]
    pub match_id: i64,
    /// Each seat's points and rank, as the verified record says.
    pub points: Vec<f64>,
    pub ranks: Vec<u32>,
}

/// A worker giving a match back: with `error` when it could not play it (an artifact that did
/// not match its hash, an architecture it cannot run, a seat that did not start).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Release {
    #[serde(default)]
    pub error: Option<String>,
}
