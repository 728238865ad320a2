//! Starting a bot: its process in its own group with its three pipes served, run directly or
//! through the sandbox's launch wrapper (scratch directory, cgroups, the bot user).

use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::{Bot, BotSpec, Limits};
use crate::Error;
use crate::arbiter::io::{self, ExitInfo, Inbox, Tail};
use crate::arbiter::process::{CpuMeter, Group, resolve_program};
use crate::sandbox::cgroup::BotCgroups;
use crate::sandbox::launch::{LaunchSpec, WRAPPER_ARG};
use crate::sandbox::{Isolation, Level, scratch};

impl Bot {
    /// Starts the bot in its own process group with its three pipes served, without isolation
    /// (for library users and tests that run trusted bots as themselves).
    pub fn spawn(spec: &BotSpec, limits: Limits) -> Result<Bot, Error> {
        Bot::spawn_isolated(spec, limits, &Isolation::unwrapped())
    }

    /// Starts the bot in its own process group with its three pipes served, isolated as
    /// `iso` says (through the launch wrapper unless nothing needs setting up).
    pub fn spawn_isolated(spec: &BotSpec, limits: Limits, iso: &Isolation) -> Result<Bot, Error> {
        Bot::prepare(spec, limits, iso)?.spawn()
    }

    /// Everything of [`Bot::spawn_isolated`] before the process starts: the log file, the
    /// scratch directory, the uid, the cgroups and the command. Several bots that start
    /// together are prepared first and then spawned one after another ([`Prepared::spawn`]):
    /// a launch wrapper joining its cgroups makes the kernel wait for an RCU grace period, during
    /// which every fork and every cgroup creation on the machine waits too; wrappers forked
    /// back to back join theirs in one such wait instead of one each.
    pub fn prepare(spec: &BotSpec, limits: Limits, iso: &Isolation) -> Result<Prepared, Error> {
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
                    .map_err(|e| {
                        Error::io(format!("cannot open the log file {}", path.display()), e)
                    })?,
            ),
            None => None,
        };
        let (mut cmd, cgroups, scratch_dir, depth, identity) = if iso.wraps() {
            let name = unique_name(&spec.name);
            let dir = iso.scratch_root.join(&name);
            let (user, lease) = iso.take_identity()?;
            scratch::make_private_dir(&dir, user.as_ref()).map_err(|e| {
                Error::io(
                    format!("cannot make the scratch directory {}", dir.display()),
                    e,
                )
            })?;
            let cgroups = if iso.cgroups {
                Some(
                    BotCgroups::create(&name, &iso.limits)
                        .map_err(|e| Error::io("cannot make the bot's cgroups", e))?,
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
            let launch = LaunchSpec::new(iso, user.as_ref(), argv, cwd, procs);
            let mut cmd = tokio::process::Command::new(crate::sandbox::self_exe());
            cmd.arg(WRAPPER_ARG).arg(launch.to_arg());
            if iso.level != Level::None {
                // The bot gets the environment of the spec; the wrapper and init, whose
                // command line and environment the bot may see, nothing of the arbiter's.
                cmd.env_clear();
            }
            // W, then I when there is a PID namespace, then the bot.
            let depth = if iso.level == Level::None { 1 } else { 2 };
            (cmd, cgroups, Some(dir), depth, lease)
        } else {
            let program = resolve_program(&spec.argv[0])?;
            let mut cmd = tokio::process::Command::new(&program);
            cmd.args(&spec.argv[1..]);
            // SAFETY: the closure makes system calls only (see close_inherited_on_exec).
            unsafe {
                cmd.pre_exec(|| {
                    crate::sandbox::launch::close_inherited_on_exec();
                    Ok(())
                });
            }
            if let Some(dir) = &spec.cwd {
                cmd.current_dir(dir);
            }
            (cmd, None, None, 0, None)
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        Ok(Prepared {
            program: spec.argv[0].clone(),
            cmd,
            log,
            cgroups,
            scratch: scratch_dir,
            depth,
            identity,
            limits,
        })
    }
}

/// A bot ready to start: see [`Bot::prepare`]. Dropped unstarted, it removes its cgroups and
/// scratch directory and gives its uid back.
#[derive(Debug)]
pub struct Prepared {
    program: String,
    cmd: tokio::process::Command,
    log: Option<std::fs::File>,
    cgroups: Option<BotCgroups>,
    scratch: Option<std::path::PathBuf>,
    depth: u32,
    identity: Option<crate::sandbox::identity::UidLease>,
    limits: Limits,
}

impl Drop for Prepared {
    fn drop(&mut self) {
        self.cgroups.take();
        if let Some(dir) = self.scratch.take() {
            scratch::remove_later(dir);
        }
        self.identity.take();
    }
}

impl Prepared {
    /// Starts the prepared bot, with its three pipes served.
    pub fn spawn(mut self) -> Result<Bot, Error> {
        let (cgroups, scratch_dir, identity, log) = (
            self.cgroups.take(),
            self.scratch.take(),
            self.identity.take(),
            self.log.take(),
        );
        let (depth, limits) = (self.depth, self.limits);
        let cmd = &mut self.cmd;
        // The wrapper's parent-death signal fires when the *thread* that forked it exits: this
        // runs on a runtime thread (a worker, or the thread of a current-thread runtime), which
        // lives as long as the match.
        let mut child = cmd
            .spawn()
            .map_err(|e| Error::Launch(format!("cannot start {}: {e}", self.program)))?;
        let pid = child
            .id()
            .ok_or_else(|| Error::Launch("the bot exited before it could be watched".into()))?;
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
                Some(c) => CpuMeter::cgroup(c.cpu_file()),
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
            identity,
            ready: None,
            exited: None,
            eof: false,
            unasked: 0,
            unasked_examples: Vec::new(),
            logs: Vec::new(),
            log_bytes: 0,
        })
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
fn absolute_argv(spec: &BotSpec, iso: &Isolation) -> Result<Vec<String>, Error> {
    let program = if spec.argv[0] == "rollarena" {
        match &iso.reach_user() {
            Some(user) => scratch::exe_for(user).map_err(|e| Error::Launch(e.to_string()))?,
            None => resolve_program("rollarena")?,
        }
    } else {
        resolve_program(&spec.argv[0])?
    };
    let base = match &spec.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| Error::io("no current directory", e))?,
    };
    let program = if program.is_relative() {
        base.join(program)
    } else {
        program
    };
    let mut argv = vec![program.display().to_string()];
    // This binary's own arguments (`rollarena bot greedy`) are words, never files, whatever
    // the current directory holds: a file named `bot` there must not become the subcommand.
    let own_binary = spec.argv[0] == "rollarena";
    for arg in &spec.argv[1..] {
        let path = std::path::Path::new(arg);
        if !own_binary
            && spec.cwd.is_none()
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
