//! A bot's misbehaviour as plain recorded values, never as errors (DESIGN.md §5).
//!
//! Two levels: a [`Refused`] attempt (the bot may try again on the same clock) and a
//! [`Forfeit`] (the seat loses the round, its bot is killed and the arbiter plays for it).
//! Each carries the evidence an organiser needs to judge it: the offending line cut to a sane
//! length, the exit status or signal, the stderr tail.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::io::ExitInfo;

/// Why a seat forfeited a round.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitKind {
    /// No answer within the time allowed for the move.
    Timeout,
    /// The process exited (with any status, 0 included) or was killed by a signal mid-match,
    /// or could not be started.
    Crash,
    /// stdout was closed while the process kept running.
    ClosedStdout,
    /// Every allowed attempt at a move was refused.
    Retries,
    /// No `ready` within the start-up budget.
    Startup,
    /// A line longer than the limit.
    LineTooLong,
    /// Too many unasked lines or too many `log` bytes in one round.
    Flood,
}

impl ForfeitKind {
    pub const ALL: [ForfeitKind; 7] = [
        ForfeitKind::Timeout,
        ForfeitKind::Crash,
        ForfeitKind::ClosedStdout,
        ForfeitKind::Retries,
        ForfeitKind::Startup,
        ForfeitKind::LineTooLong,
        ForfeitKind::Flood,
    ];

    /// The name used in records, standings and tables.
    pub fn name(self) -> &'static str {
        match self {
            ForfeitKind::Timeout => "timeout",
            ForfeitKind::Crash => "crash",
            ForfeitKind::ClosedStdout => "closed_stdout",
            ForfeitKind::Retries => "retries",
            ForfeitKind::Startup => "startup",
            ForfeitKind::LineTooLong => "line_too_long",
            ForfeitKind::Flood => "flood",
        }
    }
}

impl std::fmt::Display for ForfeitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An attempt the arbiter refused; the bot was asked again on the same clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Refused {
    /// The line the bot sent, cut to a sane length.
    pub line: String,
    /// The reason sent back in `illegal`.
    pub reason: String,
    /// Milliseconds since the request when the line arrived.
    pub ms: f64,
}

/// A forfeit and its evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Forfeit {
    /// The seat that forfeited.
    pub seat: usize,
    pub kind: ForfeitKind,
    /// Number of the move (ply, from 1) being asked when it happened; 0 before the round's
    /// first move (start-up).
    pub ply: u32,
    /// Round time (ms since `start`) when it happened, in games whose rules run on a clock
    /// (simultaneous play): replays take the seat out of the round at that time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<f64>,
    /// What happened, in words.
    pub detail: String,
    /// The offending line, cut to a sane length, where there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// How the process ended, where it ended by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<ExitInfo>,
    /// The last bytes the bot wrote to stderr.
    #[serde(default)]
    pub stderr_tail: String,
}

/// Cuts a line a bot sent to at most `max` bytes of text for evidence (lossy UTF-8).
pub fn evidence(line: &[u8], max: usize) -> String {
    let head = &line[..line.len().min(max)];
    let mut text = String::from_utf8_lossy(head).into_owned();
    if line.len() > max {
        text.push_str(&format!("... ({} bytes in all)", line.len()));
    }
    text
}
