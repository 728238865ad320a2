//! Isolation of untrusted bots: identity, resource limits and the sandbox levels described in
//! the book, `docs/sandbox.md` (which `protocol/SPEC.md` §1 points bot authors to).
//!
//! Contest bots are untrusted code. Everything that must hold for a bot is set up *before* the
//! bot's own code runs, by a small re-exec wrapper inside this binary (`rollarena __launch`,
//! see [`launch`]): the arbiter is multi-threaded, and between `fork` and `exec` in a threaded
//! program only async-signal-safe calls are allowed, so the wrapper does the work in a fresh,
//! single-threaded process instead. The wrapper joins the bot's cgroups, unshares namespaces,
//! forks the bot, and in the bot sets rlimits, drops to the bot user, arms the parent-death
//! signal, applies landlock, and execs.
//!
//! - **Identity.** When the arbiter runs as root, every bot runs under a uid of its own from a
//!   range ([`identity`]), or all under one named user (`--bot-user`, warned against), in a
//!   scratch directory it owns: that is what keeps seats out of each other's memory, files and
//!   processes, makes a process-count limit real and keeps a bot from signalling or tracing the
//!   arbiter. Not root: bots run as the arbiter's user.
//! - **Limits.** Memory, CPU seconds, open files, processes, file size, no core dumps. Memory
//!   and processes are per-bot cgroups (v1 `memory`, `pids`) where the arbiter may create
//!   them (or their v2 equivalents), which limit what a bot *uses* (a JVM or Node reserves far
//!   more address space than it touches); otherwise `RLIMIT_DATA` and `RLIMIT_NPROC` stand in.
//! - **Levels.** `none`: process group only (debugging). `basic` (default): the above plus a
//!   world of its own ([`world`]: PID, mount, network, IPC and cgroup namespaces, a fresh
//!   `/proc`, private `/tmp`), so a bot sees no other seat and dies with its match and with the
//!   arbiter however it forks. `strict`: adds landlock (the filesystem is read-only except the
//!   bot's scratch and private temporary directories).
//! - **Output.** What the arbiter writes is owner-only while bots run ([`output`]). A level the
//!   kernel refuses is an error, never a silent downgrade: [`Isolation::probe`] checks it
//!   before any match starts.

pub mod cgroup;
pub mod identity;
pub mod launch;
pub mod output;
pub mod scratch;
pub mod tree;
pub mod world;

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::Error;

/// How strongly bots are isolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Process group only (for debugging).
    None,
    /// Limits, cleared environment, scratch directory, and a world of its own: PID, mount,
    /// IPC and loopback-only network namespaces, a fresh /proc, private /tmp.
    Basic,
    /// Basic plus a read-only filesystem except the bot's own directories (landlock).
    Strict,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Basic => "basic",
            Level::Strict => "strict",
        }
    }
}

/// Resource limits per bot process tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceLimits {
    /// Memory the bot may use, in bytes.
    pub memory: u64,
    /// CPU seconds over the bot's life (one match).
    pub cpu_secs: u64,
    /// Open files per process.
    pub open_files: u64,
    /// Processes and threads.
    pub processes: u64,
    /// Largest file the bot may write, in bytes.
    pub file_size: u64,
    /// Bytes the bot may write in its scratch directory and private temporary directories
    /// together (one tmpfs, [`world`]).
    #[serde(default = "default_disk")]
    pub disk: u64,
    /// Files and directories it may make there.
    #[serde(default = "default_inodes")]
    pub inodes: u64,
}

/// The default disk quota of a seat or a build: 512M.
pub const DEFAULT_DISK: u64 = 512 << 20;
/// The default quota of files and directories of a seat or a build.
pub const DEFAULT_INODES: u64 = 100_000;

fn default_disk() -> u64 {
    DEFAULT_DISK
}

fn default_inodes() -> u64 {
    DEFAULT_INODES
}

/// The smallest memory limit a bot can start under: the launch wrapper (this binary) runs
/// inside the bot's limit until it execs the bot, and a small compiled bot then plays in it
/// (measured: the built-in bots start under 1M, under 512K nothing does; Python needs about
/// 8M, a JVM far more).
pub const MIN_MEMORY: u64 = 4 << 20;

impl ResourceLimits {
    /// Refuses limits no bot can start under, naming the smallest that works, rather than let
    /// every bot crash at start-up.
    pub fn check(&self) -> Result<(), Error> {
        if self.memory < MIN_MEMORY {
            return Err(Error::Settings(format!(
                "a memory limit of {} bytes (--memory, or memory in a tournament file) is too \
                 small for a bot to start: the smallest that works is 4M (the sandbox and a \
                 small compiled bot); a Python bot needs 8M or more, a Java or Node bot 256M \
                 or more",
                self.memory
            )));
        }
        for (what, flag, value, least) in [
            ("open files", "--max-open-files", self.open_files, 16),
            ("processes", "--max-processes", self.processes, 3),
            ("bytes of disk", "--disk", self.disk, 1 << 20),
            ("files and directories", "--inodes", self.inodes, 64),
        ] {
            if value < least {
                return Err(Error::Settings(format!(
                    "{flag} {value} is too small for any bot to start: the smallest that works \
                     is {least} {what}"
                )));
            }
        }
        Ok(())
    }
}

impl Default for ResourceLimits {
    fn default() -> Self {
        ResourceLimits {
            memory: 2 << 30,
            cpu_secs: 3600,
            open_files: 256,
            processes: 128,
            file_size: 64 << 20,
            disk: DEFAULT_DISK,
            inodes: DEFAULT_INODES,
        }
    }
}

/// Parses a size such as 512M, 2G, 65536 (bytes) or 64K: the command line's `--memory` and
/// `--max-file-size`, and the same settings in tournament files.
pub fn parse_size(s: &str) -> Result<u64, Error> {
    let s = s.trim();
    let (num, mult) = match s.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&s[..s.len() - 1], 1u64 << 10),
        Some('M') => (&s[..s.len() - 1], 1 << 20),
        Some('G') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    let n: u64 = num.parse().map_err(|_| {
        Error::Settings(format!(
            "{s:?} is not a size: use e.g. 512M, 2G or a number of bytes"
        ))
    })?;
    n.checked_mul(mult)
        .filter(|&v| v > 0)
        .ok_or_else(|| Error::Settings(format!("{s:?} is out of range")))
}

/// The bot user: who bots run as when the arbiter is root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotUser {
    pub name: String,
    pub uid: u32,
    pub gid: u32,
}

impl BotUser {
    /// Looks a user up by name (or numeric id) in the system's user database.
    pub fn lookup(name: &str) -> Result<BotUser, Error> {
        let cname = std::ffi::CString::new(name)
            .map_err(|_| Error::Settings(format!("bad user name {name:?}")))?;
        // SAFETY: getpwnam/getpwuid return a pointer to static storage or null; we copy the
        // fields out at once and this runs before any bot is started.
        let pw = unsafe {
            let by_name = libc::getpwnam(cname.as_ptr());
            if by_name.is_null() {
                match name.parse::<u32>() {
                    Ok(uid) => libc::getpwuid(uid),
                    Err(_) => by_name,
                }
            } else {
                by_name
            }
        };
        if pw.is_null() {
            return Err(Error::Settings(format!(
                "the bot user {name:?} does not exist (choose one with --bot-user)"
            )));
        }
        // SAFETY: pw is non-null and points to a valid passwd entry.
        let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
        if uid == 0 {
            return Err(Error::Settings(
                "bots must not run as root: choose another --bot-user".into(),
            ));
        }
        Ok(BotUser {
            name: name.to_string(),
            uid,
            gid,
        })
    }
}

/// How bots are started: the level, the user, the limits and where scratch directories go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    pub level: Level,
    /// The one user every bot runs as (`--bot-user`), when the arbiter is root and the
    /// organiser named one; `None` otherwise.
    pub user: Option<BotUser>,
    /// The uids seats are given one each (`--bot-uids`), when the arbiter is root and no
    /// `--bot-user` was named; `None` otherwise (not root: bots run as the arbiter's user).
    pub uids: Option<identity::UidRange>,
    pub limits: ResourceLimits,
    /// Where each bot's scratch directory is made.
    pub scratch_root: PathBuf,
    /// Per-bot cgroups are used for memory, processes and CPU time.
    pub cgroups: bool,
}

/// The rollarena binary named by [`use_binary`], if any.
static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Names the rollarena binary that runs the launch wrapper and the built-in bots, for a
/// program that uses the library without being rollarena itself (the integration tests run
/// arena matches in-process): its own binary does not understand `__launch` or `bot`. Only the
/// first call counts.
pub fn use_binary(path: PathBuf) {
    let _ = BINARY.set(path);
}

/// This very binary, to run again (the launch wrapper, the built-in bots): `/proc/self/exe`,
/// which names the running binary's own file even after it was replaced on disk (a rebuild, an
/// upgrade in the middle of a tournament), where the path it was started from would then name
/// another program or none.
pub fn self_exe() -> PathBuf {
    if let Some(path) = BINARY.get() {
        return path.clone();
    }
    let proc = PathBuf::from("/proc/self/exe");
    if proc.exists() {
        proc
    } else {
        std::env::current_exe().unwrap_or(proc)
    }
}

/// True when the arbiter runs as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

impl Isolation {
    /// Isolation as configured. As root, bots run under a uid of the range each, or all as
    /// `user` when one is named (with a warning: seats then share an identity). Not root, bots
    /// run as the arbiter's user and neither is used.
    pub fn new(
        level: Level,
        user: Option<&str>,
        uids: &str,
        limits: ResourceLimits,
    ) -> Result<Isolation, Error> {
        limits.check()?;
        let range = identity::UidRange::parse(uids)?;
        let (user, uids) = match (is_root(), user) {
            (false, _) => (None, None),
            (true, Some(name)) => {
                let user = BotUser::lookup(name)?;
                eprintln!(
                    "warning: every bot runs as the one user {name:?} (--bot-user): seats then \
                     share an identity, so a bot can read another's memory, files and \
                     processes. Leave --bot-user out to give each seat a uid of its own \
                     (--bot-uids)."
                );
                (Some(user), None)
            }
            (true, None) => (None, Some(range)),
        };
        remove_stale_scratch();
        Ok(Isolation {
            level,
            user,
            uids,
            limits,
            scratch_root: scratch_root(),
            cgroups: cgroup::available(),
        })
    }

    /// No isolation beyond a process group: bots run as the arbiter's user, unwrapped. For the
    /// library's own unit tests and for `--sandbox none` when not root.
    pub fn unwrapped() -> Isolation {
        Isolation {
            level: Level::None,
            user: None,
            uids: None,
            limits: ResourceLimits::default(),
            scratch_root: std::env::temp_dir(),
            cgroups: false,
        }
    }

    /// Bots go through the wrapper unless nothing needs setting up.
    pub fn wraps(&self) -> bool {
        self.level != Level::None || self.user.is_some() || self.uids.is_some() || self.cgroups
    }

    /// The user whose rights decide what a bot can reach (the named user, or any uid of the
    /// range); `None` when bots run as the arbiter's user.
    pub fn reach_user(&self) -> Option<BotUser> {
        self.user
            .clone()
            .or_else(|| self.uids.map(|r| r.representative()))
    }

    /// How bots are identified, for messages: `as nobody`, `as uids 60000-60999`, or nothing.
    pub fn identity_text(&self) -> String {
        match (&self.user, &self.uids) {
            (Some(u), _) => format!(" as {}", u.name),
            (None, Some(r)) => format!(" as uids {}-{}, one per seat", r.first, r.last),
            _ => String::new(),
        }
    }

    /// The identity of one bot about to start: a lease on a uid of the range (held by the bot
    /// until its processes are dead), the named user, or none.
    pub fn take_identity(&self) -> Result<(Option<BotUser>, Option<identity::UidLease>), Error> {
        match (&self.user, &self.uids) {
            (Some(u), _) => Ok((Some(u.clone()), None)),
            (None, Some(r)) => {
                let lease = r.acquire()?;
                Ok((Some(lease.user()), Some(lease)))
            }
            _ => Ok((None, None)),
        }
    }

    /// Checks that the kernel grants this level by launching a trivial program through it.
    /// Refuses (with the kernel's reason) rather than running bots less protected than asked.
    pub fn probe(&self) -> Result<(), Error> {
        if !self.wraps() {
            return Ok(());
        }
        let exe = self_exe();
        let (user, _lease) = self.take_identity()?;
        let tmp = tempdir_for_probe(&self.scratch_root, user.as_ref())?;
        let spec = launch::LaunchSpec::new(
            self,
            user.as_ref(),
            vec![scratch::bin_true().to_string()],
            tmp.clone(),
            Vec::new(),
        );
        let mut cmd = std::process::Command::new(exe);
        if self.level != Level::None {
            cmd.env_clear();
        }
        let output = cmd
            .arg(launch::WRAPPER_ARG)
            .arg(spec.to_arg())
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| Error::io("cannot run the sandbox wrapper", e))?;
        tree::remove_loudly(&tmp);
        if output.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
        if said.is_empty() {
            // Not the kernel's refusal: the wrapper died without a word.
            return Err(Error::Sandbox(format!(
                "the {} sandbox could not start a trivial program: the launch wrapper {} \
                 without saying why{}",
                self.level.name(),
                describe_status(&output.status),
                if output.status.signal() == Some(libc::SIGKILL) {
                    " (killed, most likely by the memory limit: raise --memory)"
                } else {
                    ""
                }
            )));
        }
        Err(Error::Sandbox(format!(
            "the kernel refused the {} sandbox: {said}. Choose a lower --sandbox level on this \
             machine, knowing what it gives up (see the book, docs/sandbox.md).",
            self.level.name(),
        )))
    }
}

/// "exited with status 3", "was killed by signal 9".
fn describe_status(status: &std::process::ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => format!("was killed by signal {sig}"),
        _ => "ended".into(),
    }
}

/// Where this arbiter process makes its bots' scratch directories.
pub fn scratch_root() -> PathBuf {
    std::env::temp_dir().join(format!("rollarena-{}", std::process::id()))
}

/// Entries `rollarena-<pid>` and `rollarena-bin-<pid>` of `dir` whose arbiter process is gone.
pub fn stale_entries(dir: &std::path::Path) -> Vec<(u32, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let rest = name.strip_prefix("rollarena-")?;
            let pid: u32 = rest.strip_prefix("bin-").unwrap_or(rest).parse().ok()?;
            let alive = PathBuf::from(format!("/proc/{pid}")).exists();
            (!alive && pid != std::process::id()).then(|| (pid, e.path()))
        })
        .collect()
}

/// Removes the scratch directories left by arbiters that were killed (SIGKILL gives no chance
/// to clean up). Called when isolation is set up.
fn remove_stale_scratch() {
    for (_, dir) in stale_entries(&std::env::temp_dir()) {
        tree::remove_loudly(&dir);
    }
}

/// Removes what this arbiter process made for its bots (scratch root, binary copy, cgroup
/// parents). Called once when the arbiter exits.
pub fn cleanup() {
    // Twice: a bot's directory that the reaper removes meanwhile can fail the first pass.
    if tree::remove_all(&scratch_root()).is_err() {
        tree::remove_loudly(&scratch_root());
    }
    tree::remove_loudly(&scratch::copy_dir());
    cgroup::cleanup();
}

fn tempdir_for_probe(root: &std::path::Path, user: Option<&BotUser>) -> Result<PathBuf, Error> {
    let dir = root.join("probe");
    scratch::make_private_dir(&dir, user).map_err(|e| Error::io(dir.display().to_string(), e))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M").ok(), Some(512 << 20));
        assert_eq!(parse_size("2g").ok(), Some(2 << 30));
        assert_eq!(parse_size("100").ok(), Some(100));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn absurd_limits_are_refused_naming_the_smallest_that_works() {
        let tiny = ResourceLimits {
            memory: 1 << 10,
            ..ResourceLimits::default()
        };
        let e = tiny.check().unwrap_err().to_string();
        assert!(e.contains("the smallest that works is 4M"), "{e}");
        assert!(ResourceLimits::default().check().is_ok());
        let one = ResourceLimits {
            processes: 1,
            ..ResourceLimits::default()
        };
        assert!(
            one.check()
                .unwrap_err()
                .to_string()
                .contains("--max-processes 1")
        );
    }
}
