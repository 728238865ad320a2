//! A bot's misbehaviour as plain recorded values, never as errors (`protocol/SPEC.md` §7, recorded
//! as `protocol/RECORD.md` §3.5-3.7 say).
//!
//! Three kinds: a [`Refused`] attempt (the bot may try again on the same clock), a [`Fault`]
//! that does not forfeit (an unasked line, a restart, a line refused during simultaneous play, a
//! rule of the game broken by an accepted action), and a [`Forfeit`] (the seat loses the round,
//! its bot is killed and the arbiter plays for it). Each carries the evidence an organiser needs
//! to judge it: the offending line cut to a sane length, the exit status or signal, the stderr
//! tail. These are record types: the arbiter writes them, replays and tournaments read them, and
//! this module imports nothing from either.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a process ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExitInfo {
    /// Exit status, when it exited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// Signal number, when a signal killed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
}

impl ExitInfo {
    pub fn from_status(status: std::process::ExitStatus) -> ExitInfo {
        use std::os::unix::process::ExitStatusExt;
        ExitInfo {
            code: status.code(),
            signal: status.signal(),
        }
    }
}

impl std::fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.code, self.signal) {
            (Some(c), _) => write!(f, "exited with status {c}"),
            (None, Some(s)) => write!(f, "was killed by signal {s} ({})", signal_name(s)),
            (None, None) => f.write_str("ended"),
        }
    }
}

/// The conventional name of a signal number.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => "unknown signal",
    }
}

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
    /// The reason sent back in `illegal`, in words (may be reworded between versions).
    pub reason: String,
    /// The refusal's code, sent back in `illegal` too: a stable machine name of the kind of
    /// refusal (protocol/SPEC.md §7.2 lists them). A verifier compares codes, not reasons.
    /// Absent in records made before codes were kept (their reasons are compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
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
    /// The `turn_id` of the request the seat had open when it forfeited; absent when it had
    /// none (it failed before it was asked, or between requests). A verifier feeds the failure
    /// after that request, as it happened, so that the match's request numbers run on alike.
    /// Records written before it was kept lack it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<u64>,
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

/// What kind of fault, recorded as a string (`kind`): the three the arbiter names, and those of
/// a game's own rules, named after the action that broke them.
///
/// Any string reads: a kind this arbiter does not know (from a game's rules, or from a later
/// arbiter) becomes [`FaultKind::Rule`] with the string as it was, and is written back the same,
/// so every record reads and round-trips.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// A line sent when nothing was asked, or answering another turn.
    Unasked,
    /// The seat's bot was found dead when the round began and was started again.
    Restarted,
    /// A line the rules or the protocol refused while every seat could act (simultaneous
    /// play), answered with `illegal`.
    Refused,
    /// An action the rules accepted but that counts against the seat, named after the action's
    /// kind (a demonstration that failed, say).
    Rule(String),
}

impl FaultKind {
    /// The name written in records.
    pub fn name(&self) -> &str {
        match self {
            FaultKind::Unasked => "unasked",
            FaultKind::Restarted => "restarted",
            FaultKind::Refused => "refused",
            FaultKind::Rule(kind) => kind,
        }
    }

    /// The kind a record names: one of the arbiter's, else a rule of the game.
    pub fn from_name(name: &str) -> FaultKind {
        match name {
            "unasked" => FaultKind::Unasked,
            "restarted" => FaultKind::Restarted,
            "refused" => FaultKind::Refused,
            other => FaultKind::Rule(other.to_string()),
        }
    }
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl From<&str> for FaultKind {
    fn from(name: &str) -> FaultKind {
        FaultKind::from_name(name)
    }
}

impl From<String> for FaultKind {
    fn from(name: String) -> FaultKind {
        FaultKind::from_name(&name)
    }
}

impl PartialEq<str> for FaultKind {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for FaultKind {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl Serialize for FaultKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for FaultKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FaultKind, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(FaultKind::from_name(&name))
    }
}

/// A fault that did not forfeit the round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Fault {
    pub seat: usize,
    /// `unasked` (a line sent when nothing was asked, or answering another turn),
    /// `restarted` (the bot's process was found dead between rounds and started again),
    /// `refused` (simultaneous play: a line the rules or the protocol refused, answered with
    /// `illegal`), or the kind of an action that broke a rule of the game (`solution`: a
    /// failed demonstration, say).
    #[schemars(with = "String")]
    pub kind: FaultKind,
    /// What happened.
    pub detail: String,
    /// The line, cut to a sane length, where there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

/// Bytes of an offending line the record keeps as evidence.
pub const EVIDENCE: usize = 200;
/// Characters of one `log` text the record keeps.
pub const LOG_TEXT_MAX: usize = 2000;
/// Unasked lines the record keeps as examples, per seat and round.
pub const UNASKED_EXAMPLES: usize = 5;

/// Cuts a line a bot sent to at most `max` bytes of text for evidence (lossy UTF-8).
pub fn evidence(line: &[u8], max: usize) -> String {
    let head = &line[..line.len().min(max)];
    let mut text = String::from_utf8_lossy(head).into_owned();
    if line.len() > max {
        text.push_str(&format!("... ({} bytes in all)", line.len()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_kinds_read_and_write_as_their_names() {
        for (name, kind) in [
            ("unasked", FaultKind::Unasked),
            ("restarted", FaultKind::Restarted),
            ("refused", FaultKind::Refused),
            ("solution", FaultKind::Rule("solution".into())),
        ] {
            let json = format!(r#"{{"seat":1,"kind":"{name}","detail":"d"}}"#);
            let fault: Fault = serde_json::from_str(&json).unwrap();
            assert_eq!(fault.kind, kind);
            assert_eq!(fault.kind, name);
            assert_eq!(serde_json::to_string(&fault).unwrap(), json);
        }
    }

    #[test]
    fn a_kind_this_arbiter_does_not_know_still_reads() {
        let fault: Fault =
            serde_json::from_str(r#"{"seat":0,"kind":"bid","detail":"x","line":"l"}"#).unwrap();
        assert_eq!(fault.kind, FaultKind::Rule("bid".into()));
        assert!(serde_json::from_str::<Fault>(r#"{"seat":0,"kind":3,"detail":"x"}"#).is_err());
    }
}
