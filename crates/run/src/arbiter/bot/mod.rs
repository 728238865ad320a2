//! One live bot: its process group, its pipes, and the protocol-level operations a session
//! needs — the handshake, waiting for the answer to a request, draining lines nobody asked
//! for, freezing, killing.
//!
//! Everything a bot can do wrong comes back as a value: a [`Reply`] the session judges (a move
//! or a line to refuse), or a [`Failure`] that forfeits the round. Nothing here returns an
//! error for a bot's behaviour.
//!
//! Three concerns, one file each, all on the one [`Bot`] type: `launch` starts the process
//! (directly, or isolated through the sandbox's launch wrapper), `listen` reads what the bot
//! sends (the handshake, answers, lines nobody asked for, logs), and `diagnose` says what a
//! bot that failed did wrong (a crash and why, a closed stdout, an over-long line). This file
//! holds the types and the bot's life around them: sending, freezing, CPU time, stderr, the
//! end.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout, timeout_at};

use super::io::{BotEvent, ExitInfo, Inbox, Tail, Writer};
use super::process::{CpuMeter, Group};
use crate::Error;
use crate::sandbox::cgroup::BotCgroups;
use crate::wire::Ready;

mod diagnose;
mod launch;

pub use launch::Prepared;
mod listen;

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The seat's name: as the organiser gave it, or from the command until the bot's `ready`
    /// names it ([`crate::arbiter::names`]).
    pub name: String,
    /// The organiser gave the name (it is kept whatever the bot calls itself).
    pub named: bool,
    /// The command line, split into words.
    pub argv: Vec<String>,
    /// Working directory.
    pub cwd: Option<PathBuf>,
    /// A file that receives the bot's stderr (appended).
    pub log: Option<PathBuf>,
    /// Resource limits for this bot only, in place of the match's (tournaments give each bot
    /// its own, e.g. more memory for a JVM bot).
    pub resources: Option<crate::sandbox::ResourceLimits>,
    /// A time control for this bot only, in place of the match's (handicap events: a
    /// tournament's `[[bot]] tc`).
    pub tc: Option<crate::clock::Tc>,
}

impl BotSpec {
    /// A bot from a command line split like a shell would (no shell is started).
    pub fn parse(name: &str, command: &str) -> Result<BotSpec, Error> {
        let argv = shell_words::split(command).map_err(|e| {
            Error::Launch(format!(
                "cannot split the command {command:?} into words: {e}"
            ))
        })?;
        if argv.is_empty() {
            return Err(Error::Launch("a bot command is empty".into()));
        }
        Ok(BotSpec {
            name: name.to_string(),
            named: !name.is_empty(),
            argv,
            cwd: None,
            log: None,
            resources: None,
            tc: None,
        })
    }

    /// The command as one line, for records and messages.
    pub fn command_line(&self) -> String {
        shell_words::join(&self.argv)
    }
}

/// Bounds on what a bot may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest line accepted, in bytes.
    pub max_line: usize,
    /// Unasked lines allowed per round before the seat forfeits for flooding.
    pub max_unasked: u32,
    /// `log` bytes allowed per round before the seat forfeits for flooding.
    pub max_log_bytes: usize,
    /// Bytes of stderr kept in the record.
    pub stderr_tail: usize,
    /// Bytes of stderr written to a bot's log file at most.
    pub log_file_cap: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line: 1 << 20,
            max_unasked: 1000,
            max_log_bytes: 64 * 1024,
            stderr_tail: 4096,
            log_file_cap: 64 << 20,
        }
    }
}

/// A fault that forfeits the round (the referee's vocabulary).
pub use crate::referee::Failure;

/// What a bot did, before anyone judged it (the referee does).
#[derive(Debug)]
pub enum Heard {
    Line(Vec<u8>),
    Failed(Failure),
}

/// What a bot answered to a request.
#[derive(Debug)]
pub enum Reply {
    /// A `move` message (the value is unchecked).
    Move { mv: Value, line: Vec<u8> },
    /// A line the protocol refuses, with the reason.
    Bad { reason: String, line: Vec<u8> },
    /// A well-formed message of a type only the game may know.
    Other {
        kind: String,
        message: Value,
        line: Vec<u8>,
    },
    /// The round is lost for this bot.
    Fault(Failure),
}

/// A line the bot sent when nothing was asked, kept as an example.
#[derive(Clone, Debug, PartialEq)]
pub struct Unasked {
    pub line: String,
    pub why: &'static str,
}

/// A live bot process.
#[derive(Debug)]
pub struct Bot {
    group: Group,
    events: Inbox,
    writer: Writer,
    tasks: Vec<JoinHandle<()>>,
    stderr: Arc<Mutex<Tail>>,
    cpu: CpuMeter,
    limits: Limits,
    /// The bot's cgroups (memory, processes, CPU time), where the machine allows them.
    cgroups: Option<BotCgroups>,
    /// The bot's scratch directory, removed with the bot.
    scratch: Option<PathBuf>,
    /// The seat's uid, given back once the bot's processes are dead.
    identity: Option<crate::sandbox::identity::UidLease>,
    /// What the bot said in `ready`.
    pub ready: Option<Ready>,
    exited: Option<ExitInfo>,
    eof: bool,
    /// This round's unasked lines (count) and a few examples.
    pub unasked: u32,
    pub unasked_examples: Vec<Unasked>,
    /// This round's `log` texts and their total size.
    pub logs: Vec<String>,
    log_bytes: usize,
}

impl Bot {
    pub fn pid(&self) -> i32 {
        self.group.pid()
    }

    /// Queues a line for the bot.
    pub fn send(&self, line: Arc<[u8]>) {
        self.writer.send(line);
    }

    /// Sends bytes the caller keeps (whole lines): see [`Writer::send_slice`].
    pub fn send_slice(&self, bytes: &[u8]) {
        self.writer.send_slice(bytes);
    }

    pub fn freeze(&self) {
        self.group.freeze();
    }

    pub fn thaw(&self) {
        self.group.thaw();
    }

    /// CPU time used so far, in ms, where the OS tells: the whole process tree from its
    /// cgroup where there is one, else the bot process itself.
    pub fn cpu_ms(&mut self) -> Option<f64> {
        self.cpu.read()
    }

    /// The last bytes of stderr as text.
    pub fn stderr_tail(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .text()
            .0
    }

    /// The last bytes of stderr as text, cleared so the next round's tail is its own.
    pub fn take_stderr_tail(&self) -> String {
        let mut tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        let text = tail.text().0;
        tail.clear();
        text
    }

    /// Clears the per-round counters and returns what they held.
    pub fn take_round_notes(&mut self) -> (u32, Vec<Unasked>, Vec<String>) {
        self.log_bytes = 0;
        (
            std::mem::take(&mut self.unasked),
            std::mem::take(&mut self.unasked_examples),
            std::mem::take(&mut self.logs),
        )
    }

    /// Lets the bot exit by itself until `deadline` (after `bye`), then kills what is left.
    /// Returns how the process ended, if it exited by itself.
    pub async fn finish(mut self, deadline: Instant) -> Option<ExitInfo> {
        self.thaw();
        let mut exit = self.exited.clone();
        while exit.is_none() {
            match timeout_at(deadline, self.events.recv()).await {
                Ok(Some(BotEvent::Exited(info))) => exit = Some(info),
                Ok(Some(_)) => continue,
                Ok(None) | Err(_) => break,
            }
        }
        self.kill().await;
        exit
    }

    /// Kills the whole process group at once and waits (briefly) for the pipes to close.
    pub async fn kill(&mut self) {
        self.group.kill();
        if let Some(c) = &self.cgroups {
            c.kill_all();
        }
        if self.tasks.is_empty() {
            return;
        }
        let [writer, stderr, waiter]: [JoinHandle<()>; 3] = std::mem::take(&mut self.tasks)
            .try_into()
            .expect("three tasks");
        writer.abort();
        self.writer.close();
        // Nobody reads events any more: a waiter that reports the exit gives up at once.
        self.events.close();
        // A child that escaped the group can hold stderr open: wait briefly, then stop reading.
        let (waiter_abort, stderr_abort) = (waiter.abort_handle(), stderr.abort_handle());
        let _ = timeout(Duration::from_secs(2), waiter).await;
        let _ = timeout(Duration::from_millis(500), stderr).await;
        waiter_abort.abort();
        stderr_abort.abort();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.group.kill();
        for task in &self.tasks {
            task.abort();
        }
        // The cgroups kill what is left when dropped; then the scratch directory can go.
        self.cgroups.take();
        if let Some(dir) = self.scratch.take() {
            crate::sandbox::scratch::remove_later(dir);
        }
        self.identity.take();
    }
}
