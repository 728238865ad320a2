//! One live bot: its process group, its pipes, and the protocol-level operations a session
//! needs — the handshake, waiting for the answer to a request, draining lines nobody asked
//! for, freezing, killing.
//!
//! Everything a bot can do wrong comes back as a value: a [`Reply`] the session judges (a move
//! or a line to refuse), or a [`Failure`] that forfeits the round. Nothing here returns an
//! error for a bot's behaviour.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout, timeout_at};

use super::fault::{ForfeitKind, evidence};
use super::io::{self, BotEvent, ExitInfo, Inbox, Tail, Writer};
use super::process::{CpuMeter, Group, resolve_program};
use super::protocol::{FromBot, Incoming, Ready, parse_line};
use crate::sandbox::cgroup::BotCgroups;
use crate::sandbox::launch::{LaunchSpec, WRAPPER_ARG};
use crate::sandbox::{Isolation, Level, scratch};

/// How long a bot that closed its stdout has to exit before it counts as "closed stdout"
/// rather than a crash.
const EXIT_GRACE: Duration = Duration::from_secs(1);
/// Bytes of an offending line kept as evidence.
const LINE_EVIDENCE: usize = 200;
/// Characters of one `log` text kept in the record.
const LOG_TEXT_MAX: usize = 2000;
/// Unasked lines kept as examples in the record, per seat and round.
const UNASKED_EXAMPLES: usize = 5;

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The seat's name as the organiser gave it.
    pub name: String,
    /// The command line, split into words.
    pub argv: Vec<String>,
    /// Working directory.
    pub cwd: Option<PathBuf>,
    /// A file that receives the bot's stderr (appended).
    pub log: Option<PathBuf>,
    /// Resource limits for this bot only, in place of the match's (tournaments give each bot
    /// its own, e.g. more memory for a JVM bot).
    pub resources: Option<crate::sandbox::ResourceLimits>,
}

impl BotSpec {
    /// A bot from a command line split like a shell would (no shell is started).
    pub fn parse(name: &str, command: &str) -> Result<BotSpec, String> {
        let argv = shell_words::split(command)
            .map_err(|e| format!("cannot split the command {command:?} into words: {e}"))?;
        if argv.is_empty() {
            return Err("a bot command is empty".into());
        }
        Ok(BotSpec {
            name: name.to_string(),
            argv,
            cwd: None,
            log: None,
            resources: None,
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
/// What a bot did, before anyone judged it (the referee does).
#[derive(Debug)]
pub enum Heard {
    Line(Vec<u8>),
    Failed(Failure),
}

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
    /// Starts the bot in its own process group with its three pipes served, without isolation
    /// (for library users and tests that run trusted bots as themselves).
    pub fn spawn(spec: &BotSpec, limits: Limits) -> Result<Bot, String> {
        Bot::spawn_isolated(spec, limits, &Isolation::unwrapped())
    }

    /// Starts the bot in its own process group with its three pipes served, isolated as
    /// `iso` says (through the launch wrapper unless nothing needs setting up).
    pub fn spawn_isolated(spec: &BotSpec, limits: Limits, iso: &Isolation) -> Result<Bot, String> {
        let own;
        let iso = match spec.resources {
            Some(resources) => {
                own = Isolation {
                    limits: resources,
                    ..iso.clone()
                };
                &own
            }
            None => iso,
        };
        let log = match &spec.log {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?,
            ),
            None => None,
        };
        let (mut cmd, cgroups, scratch_dir, depth) = if iso.wraps() {
            let name = unique_name(&spec.name);
            let dir = iso.scratch_root.join(&name);
            scratch::make_private_dir(&dir, iso.user.as_ref())
                .map_err(|e| format!("cannot make the scratch directory {}: {e}", dir.display()))?;
            let cgroups = if iso.cgroups {
                Some(
                    BotCgroups::create(&name, &iso.limits)
                        .map_err(|e| format!("cannot make the bot's cgroups: {e}"))?,
                )
            } else {
                None
            };
            let argv = absolute_argv(spec, iso)?;
            let cwd = spec.cwd.clone().unwrap_or_else(|| dir.clone());
            let procs = cgroups
                .as_ref()
                .map(|c| c.procs_files())
                .unwrap_or_default();
            let launch = LaunchSpec::new(iso, argv, cwd, procs);
            let mut cmd = tokio::process::Command::new(crate::sandbox::self_exe());
            cmd.arg(WRAPPER_ARG).arg(launch.to_arg());
            // W, then I when there is a PID namespace, then the bot.
            let depth = if iso.level == Level::None { 1 } else { 2 };
            (cmd, cgroups, Some(dir), depth)
        } else {
            let program = resolve_program(&spec.argv[0])?;
            let mut cmd = tokio::process::Command::new(&program);
            cmd.args(&spec.argv[1..]);
            if let Some(dir) = &spec.cwd {
                cmd.current_dir(dir);
            }
            (cmd, None, None, 0)
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        // The wrapper's parent-death signal fires when the *thread* that forked it exits: this
        // runs on a runtime thread (a worker, or the thread of a current-thread runtime), which
        // lives as long as the match.
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.argv[0]))?;
        let pid = child
            .id()
            .ok_or("the bot exited before it could be watched")?;
        let group = Group::adopt(pid);
        let (stdin, stdout, stderr) = (
            child.stdin.take().expect("piped"),
            child.stdout.take().expect("piped"),
            child.stderr.take().expect("piped"),
        );
        let (tx, exit) = mpsc::channel(1);
        let events = Inbox::new(stdout, limits.max_line, exit);
        let tail = Arc::new(Mutex::new(Tail::new(limits.stderr_tail)));
        let (writer, writer_task) = io::spawn_writer(stdin);
        let stderr_task = io::spawn_stderr(stderr, tail.clone(), log, limits.log_file_cap);
        let waiter = tokio::spawn(async move {
            if let Ok(status) = child.wait().await {
                let _ = tx.send(ExitInfo::from_status(status)).await;
            }
        });
        Ok(Bot {
            cpu: match &cgroups {
                Some(c) => CpuMeter::cgroup(c.cpu_usage_file()),
                None => CpuMeter::open(group.pid(), depth),
            },
            group,
            events,
            writer,
            tasks: vec![writer_task, stderr_task, waiter],
            stderr: tail,
            limits,
            cgroups,
            scratch: scratch_dir,
            ready: None,
            exited: None,
            eof: false,
            unasked: 0,
            unasked_examples: Vec::new(),
            logs: Vec::new(),
            log_bytes: 0,
        })
    }

    pub fn pid(&self) -> i32 {
        self.group.pid()
    }

    /// Queues a line for the bot.
    pub fn send(&self, line: Arc<[u8]>) {
        self.writer.send(line);
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

    /// Waits for `ready` (after `hello` was sent) until `deadline`; `budget` is for the message.
    pub async fn await_ready(
        &mut self,
        deadline: Instant,
        budget: Duration,
    ) -> Result<(), Failure> {
        loop {
            let event = match timeout_at(deadline, self.events.recv()).await {
                Err(_) => {
                    return Err(Failure::new(
                        ForfeitKind::Startup,
                        format!("no ready within {} ms of hello", budget.as_millis()),
                    ));
                }
                Ok(event) => event,
            };
            match event {
                Some(BotEvent::Line(line)) => match parse_line(&line) {
                    Ok(Incoming::Message(FromBot::Ready(ready))) => {
                        self.ready = Some(ready);
                        return Ok(());
                    }
                    Ok(Incoming::Message(FromBot::Log(log))) => self.log(log.text)?,
                    _ => self.note_unasked(&line, "sent before ready")?,
                },
                Some(BotEvent::TooLong { head }) => return Err(self.too_long(&head)),
                Some(BotEvent::Eof) | None => return Err(self.died_waiting(deadline).await),
                Some(BotEvent::Exited(info)) => return Err(self.crashed(info)),
            }
        }
    }

    /// Waits for the answer to turn `turn_id` until `deadline`. Logs are kept, lines answering
    /// another turn and lines of types nobody asked for here are ignored and counted.
    pub async fn reply(&mut self, turn_id: u64, deadline: Instant, limit: Duration) -> Reply {
        match self.listen(Some(turn_id), Some(deadline)).await {
            Some(reply) => reply,
            None => Reply::Fault(Failure::new(
                ForfeitKind::Timeout,
                format!("no answer within {} ms", limit.as_millis()),
            )),
        }
    }

    /// Waits for the bot's next message until `deadline` (for ever without one), for a request
    /// `turn_id` or, without one, for whatever the game lets a seat send at any time
    /// (simultaneous play). `None` when the deadline passed first, which only the caller can
    /// judge. Cancel-safe: dropping the future loses no line, so the session can wait on
    /// several bots at once and keep the others' futures' lines for later.
    pub async fn listen(
        &mut self,
        turn_id: Option<u64>,
        deadline: Option<Instant>,
    ) -> Option<Reply> {
        loop {
            if self.eof {
                // Found closed earlier (a wait on several bots was cut short): judge it now.
                let grace = deadline.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
                return Some(Reply::Fault(self.died_waiting(grace).await));
            }
            let event = match deadline {
                Some(d) => match timeout_at(d, self.events.recv()).await {
                    Err(_) => return None,
                    Ok(event) => event,
                },
                None => self.events.recv().await,
            };
            let reply = match event {
                Some(BotEvent::Line(line)) => match parse_line(&line) {
                    Ok(Incoming::Message(FromBot::Move(m))) => {
                        if m.turn_id.is_some_and(|t| Some(t) != turn_id) {
                            if let Err(f) = self.note_unasked(&line, "answers another turn") {
                                return Some(Reply::Fault(f));
                            }
                            continue;
                        }
                        Reply::Move { mv: m.mv, line }
                    }
                    Ok(Incoming::Message(FromBot::Log(log))) => match self.log(log.text) {
                        Ok(()) => continue,
                        Err(f) => Reply::Fault(f),
                    },
                    Ok(Incoming::Message(FromBot::Ready(_))) => {
                        match self.note_unasked(&line, "ready sent mid-match") {
                            Ok(()) => continue,
                            Err(f) => Reply::Fault(f),
                        }
                    }
                    Ok(Incoming::Message(FromBot::Declare(_) | FromBot::Solution(_))) => {
                        unreachable!("parse_line hands game messages over as Other")
                    }
                    Ok(Incoming::Other { kind, message }) => {
                        if let (Some(asked), Some(t)) =
                            (turn_id, message.get("turn_id").and_then(Value::as_u64))
                            && t != asked
                        {
                            match self.note_unasked(&line, "answers another request") {
                                Ok(()) => continue,
                                Err(f) => return Some(Reply::Fault(f)),
                            }
                        }
                        Reply::Other {
                            kind,
                            message,
                            line,
                        }
                    }
                    Err(reason) => Reply::Bad { reason, line },
                },
                Some(BotEvent::TooLong { head }) => Reply::Fault(self.too_long(&head)),
                Some(BotEvent::Eof) | None => {
                    let grace = deadline.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
                    Reply::Fault(self.died_waiting(grace).await)
                }
                Some(BotEvent::Exited(info)) => Reply::Fault(self.crashed(info)),
            };
            return Some(reply);
        }
    }

    pub async fn drain_before_request(&mut self) -> Result<(), Failure> {
        self.drain_and(true).await
    }

    /// Takes every line that arrived while nothing was asked (without waiting): logs are kept,
    /// anything else is counted as unasked. A bot found dead or flooding fails.
    pub async fn drain(&mut self) -> Result<(), Failure> {
        self.drain_and(false).await
    }

    async fn drain_and(&mut self, resume_to_watch: bool) -> Result<(), Failure> {
        while let Some(event) = self.events.try_recv() {
            match event {
                BotEvent::Line(line) => match parse_line(&line) {
                    Ok(Incoming::Message(FromBot::Log(log))) => self.log(log.text)?,
                    _ => self.note_unasked(&line, "sent when nothing was asked")?,
                },
                BotEvent::TooLong { head } => return Err(self.too_long(&head)),
                BotEvent::Eof => self.eof = true,
                BotEvent::Exited(info) => return Err(self.crashed(info)),
            }
        }
        if self.eof {
            if resume_to_watch {
                self.thaw();
            }
            let deadline = Instant::now() + EXIT_GRACE;
            return Err(self.died_waiting(deadline).await);
        }
        Ok(())
    }

    fn note_unasked(&mut self, line: &[u8], why: &'static str) -> Result<(), Failure> {
        self.unasked += 1;
        if self.unasked_examples.len() < UNASKED_EXAMPLES {
            self.unasked_examples.push(Unasked {
                line: evidence(line, LINE_EVIDENCE),
                why,
            });
        }
        if self.unasked > self.limits.max_unasked {
            let mut f = Failure::new(
                ForfeitKind::Flood,
                format!(
                    "more than {} unasked lines in one round",
                    self.limits.max_unasked
                ),
            );
            f.line = Some(evidence(line, LINE_EVIDENCE));
            return Err(f);
        }
        Ok(())
    }

    fn log(&mut self, text: String) -> Result<(), Failure> {
        self.log_bytes += text.len();
        if self.log_bytes > self.limits.max_log_bytes {
            return Err(Failure::new(
                ForfeitKind::Flood,
                format!(
                    "more than {} bytes of log messages in one round",
                    self.limits.max_log_bytes
                ),
            ));
        }
        self.logs.push(crate::game::cut(&text, LOG_TEXT_MAX));
        Ok(())
    }

    fn too_long(&self, head: &[u8]) -> Failure {
        let mut f = Failure::new(
            ForfeitKind::LineTooLong,
            format!("a line longer than {} bytes", self.limits.max_line),
        );
        f.line = Some(evidence(head, LINE_EVIDENCE));
        f
    }

    fn crashed(&mut self, info: ExitInfo) -> Failure {
        self.exited = Some(info.clone());
        let mut detail = format!("the bot {info}");
        if let Some(c) = &self.cgroups {
            let (hit, peak) = c.memory_report();
            if hit {
                detail.push_str(&format!(
                    ": it reached its memory limit ({} MiB used at the peak)",
                    peak.unwrap_or(0) >> 20
                ));
            }
        }
        if info.signal == Some(libc::SIGXCPU) {
            detail.push_str(": it used up its CPU time limit");
        }
        if info.signal == Some(libc::SIGXFSZ) {
            detail.push_str(": it wrote a file larger than its file size limit");
        }
        let mut f = Failure::new(ForfeitKind::Crash, detail);
        f.exit = Some(info);
        f
    }

    /// stdout closed: a crash if the process exits soon, else "closed stdout".
    async fn died_waiting(&mut self, deadline: Instant) -> Failure {
        self.eof = true;
        let grace = deadline.min(Instant::now() + EXIT_GRACE);
        loop {
            match timeout_at(grace, self.events.recv()).await {
                Ok(Some(BotEvent::Exited(info))) => return self.crashed(info),
                Ok(Some(_)) => continue,
                Ok(None) | Err(_) => {
                    return Failure::new(
                        ForfeitKind::ClosedStdout,
                        "the bot closed its stdout but kept running",
                    );
                }
            }
        }
    }

    /// The next thing the bot does, raw, for the referee to judge: a line, or a failure (an
    /// over-long line, a crash, a closed stdout); `None` once `until` passes first.
    pub async fn hear(&mut self, until: Option<Instant>) -> Option<Heard> {
        if self.eof {
            // Found closed earlier (a wait on several bots was cut short): judge it now.
            let grace = until.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
            return Some(Heard::Failed(self.died_waiting(grace).await));
        }
        let event = match until {
            Some(d) => timeout_at(d, self.events.recv()).await.ok()?,
            None => self.events.recv().await,
        };
        Some(match event {
            Some(BotEvent::Line(line)) => Heard::Line(line),
            Some(BotEvent::TooLong { head }) => Heard::Failed(self.too_long(&head)),
            Some(BotEvent::Eof) | None => {
                let grace = until.unwrap_or_else(|| Instant::now() + EXIT_GRACE);
                Heard::Failed(self.died_waiting(grace).await)
            }
            Some(BotEvent::Exited(info)) => Heard::Failed(self.crashed(info)),
        })
    }

    /// Everything the bot sent so far without waiting, and its failure if it is found dead
    /// (a bot whose stdout closed is resumed, so that its exit can be seen).
    pub async fn drain_heard(&mut self) -> (Vec<Vec<u8>>, Option<Failure>) {
        let mut lines = Vec::new();
        while let Some(event) = self.events.try_recv() {
            match event {
                BotEvent::Line(line) => lines.push(line),
                BotEvent::TooLong { head } => return (lines, Some(self.too_long(&head))),
                BotEvent::Eof => self.eof = true,
                BotEvent::Exited(info) => return (lines, Some(self.crashed(info))),
            }
        }
        if self.eof {
            self.thaw();
            let deadline = Instant::now() + EXIT_GRACE;
            return (lines, Some(self.died_waiting(deadline).await));
        }
        (lines, None)
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
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A name for a bot's scratch directory and cgroups, unique within this arbiter.
fn unique_name(seat_name: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let safe: String = seat_name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(24)
        .collect();
    format!("bot{}-{safe}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The command with its program as an absolute path (this binary, made reachable by the bot
/// user, for `rollarena`) and relative arguments that name existing files made absolute, since
/// the bot runs in its scratch directory.
fn absolute_argv(spec: &BotSpec, iso: &Isolation) -> Result<Vec<String>, String> {
    let program = if spec.argv[0] == "rollarena" {
        match &iso.user {
            Some(user) => scratch::exe_for(user).map_err(|e| e.to_string())?,
            None => resolve_program("rollarena")?,
        }
    } else {
        resolve_program(&spec.argv[0])?
    };
    let base = match &spec.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?,
    };
    let program = if program.is_relative() {
        base.join(program)
    } else {
        program
    };
    let mut argv = vec![program.display().to_string()];
    for arg in &spec.argv[1..] {
        let path = std::path::Path::new(arg);
        if spec.cwd.is_none()
            && path.is_relative()
            && !arg.starts_with('-')
            && base.join(path).exists()
        {
            argv.push(base.join(path).display().to_string());
        } else {
            argv.push(arg.clone());
        }
    }
    Ok(argv)
}
