//! Bot processes: spawn, freeze, resume, kill, reap.
//!
//! Every bot runs in its own process group (`setpgid(0, 0)` at spawn), so one `killpg` reaches
//! the bot and every child it started without escaping the group. The group is killed as a
//! whole with SIGKILL (SIGKILL also ends stopped processes, so a frozen bot needs no SIGCONT
//! first) and the direct child is reaped by a waiter task, which reports the exit status.
//!
//! Every live group is listed in a process-wide registry so that an interrupted arbiter
//! (Ctrl-C, SIGTERM) kills them all before it exits ([`kill_all`]), and a [`Group`] dropped
//! without being killed (an early return, a panic) kills its group too: no bot outlives the
//! arbiter. (SIGKILL of the arbiter itself is covered by the sandbox's parent-death signal.)

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::Error;

/// Every live bot: its process group and a pidfd of the group's leader (-1 if none), for
/// [`kill_all`].
static LIVE: Mutex<Option<HashMap<i32, i32>>> = Mutex::new(None);

fn registry<T>(f: impl FnOnce(&mut HashMap<i32, i32>) -> T) -> T {
    let mut guard = LIVE.lock().unwrap_or_else(|p| p.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

/// Kills every live bot group (on Ctrl-C or SIGTERM, before the arbiter exits).
pub fn kill_all() {
    registry(|live| {
        for (&pgid, &pidfd) in live.iter() {
            signal_group(pgid, libc::SIGKILL);
            signal_pidfd(pidfd, libc::SIGKILL);
        }
        live.clear();
    });
}

/// Number of bot groups alive now.
pub fn live_count() -> usize {
    registry(|live| live.len())
}

fn signal_group(pgid: i32, sig: i32) -> bool {
    // SAFETY: killpg has no memory-safety preconditions; a stale pgid only yields ESRCH.
    unsafe { libc::killpg(pgid, sig) == 0 }
}

/// A pidfd for `pid` (Linux 5.3+), or -1. A pidfd names one process for good: a signal sent
/// through it after the process was reaped fails instead of reaching whoever got its pid next.
fn open_pidfd(pid: i32) -> i32 {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) as i32 }
}

fn signal_pidfd(pidfd: i32, sig: i32) {
    if pidfd >= 0 {
        // SAFETY: pidfd_send_signal on a descriptor we own; no siginfo.
        unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                pidfd,
                sig,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
    }
}

/// A bot's process group, killed when dropped.
#[derive(Debug)]
pub struct Group {
    pgid: i32,
    /// The group leader (the process the arbiter started), through a pidfd.
    pidfd: i32,
    killed: bool,
}

impl Group {
    /// Takes ownership of a freshly spawned group leader's group. Called before the leader can
    /// have been reaped, so the pidfd names the right process.
    pub fn adopt(pid: u32) -> Group {
        let pgid = pid as i32;
        let pidfd = open_pidfd(pgid);
        registry(|live| live.insert(pgid, pidfd));
        Group {
            pgid,
            pidfd,
            killed: false,
        }
    }

    pub fn pid(&self) -> i32 {
        self.pgid
    }

    /// Stops every process of the group (SIGSTOP): an idle bot cannot think on another's time.
    pub fn freeze(&self) {
        if !self.killed {
            signal_group(self.pgid, libc::SIGSTOP);
        }
    }

    /// Resumes the group (SIGCONT).
    pub fn thaw(&self) {
        if !self.killed {
            signal_group(self.pgid, libc::SIGCONT);
        }
    }

    /// Kills the whole group at once (SIGKILL), and its leader wherever it went: under the
    /// launch wrapper the leader leaves the bot's group, and its death takes init, and with it
    /// the bot's whole PID namespace, down (parent-death signals), even for a bot that left the
    /// group itself. Idempotent.
    pub fn kill(&mut self) {
        if !self.killed {
            signal_group(self.pgid, libc::SIGKILL);
            signal_pidfd(self.pidfd, libc::SIGKILL);
            registry(|live| live.remove(&self.pgid));
            self.killed = true;
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
        if self.pidfd >= 0 {
            // SAFETY: closing the descriptor this group owns, once.
            unsafe { libc::close(self.pidfd) };
        }
    }
}

/// A bot's CPU time, read at every move: from its cgroup's `cpuacct.usage` or `cpu.stat` (the
/// whole process tree) where it has one, else from /proc (user + system, including reaped children, of
/// the bot process). The file is opened once and read with one `pread` per reading, since this
/// runs twice per move.
///
/// /proc counts in clock ticks (usually 10 ms), so short moves read as 0 there. When the bot
/// runs under the launch wrapper, the process to measure is `depth` generations below the one
/// the arbiter started; it is found (through /proc's `children` lists) on the first read, when
/// it surely exists.
#[derive(Debug)]
pub struct CpuMeter {
    source: CpuSource,
    file: Option<std::fs::File>,
}

#[derive(Debug)]
enum CpuSource {
    Proc { root: i32, depth: u32, tick_ms: f64 },
    Cgroup(crate::sandbox::cgroup::CpuFile),
}

impl CpuMeter {
    /// Reads the process `depth` generations below `root` from /proc.
    pub fn open(root: i32, depth: u32) -> CpuMeter {
        // SAFETY: sysconf is always safe to call.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        CpuMeter {
            source: CpuSource::Proc {
                root,
                depth,
                tick_ms: if ticks > 0 {
                    1000.0 / ticks as f64
                } else {
                    10.0
                },
            },
            file: None,
        }
    }

    /// Reads a cgroup's CPU time file (v1 `cpuacct.usage`, v2 `cpu.stat`).
    pub fn cgroup(usage_file: crate::sandbox::cgroup::CpuFile) -> CpuMeter {
        CpuMeter {
            source: CpuSource::Cgroup(usage_file),
            file: None,
        }
    }

    fn target(root: i32, depth: u32) -> Option<i32> {
        let mut pid = root;
        for _ in 0..depth {
            let list = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
            pid = list.split_whitespace().next()?.parse().ok()?;
        }
        Some(pid)
    }

    /// CPU time used so far in ms, or `None` where the OS does not tell.
    pub fn read(&mut self) -> Option<f64> {
        use std::os::unix::fs::FileExt;
        if self.file.is_none() {
            let path = match &self.source {
                CpuSource::Proc { root, depth, .. } => {
                    let pid = CpuMeter::target(*root, *depth)?;
                    PathBuf::from(format!("/proc/{pid}/stat"))
                }
                CpuSource::Cgroup(file) => file.path().to_path_buf(),
            };
            self.file = std::fs::File::open(path).ok();
        }
        let file = self.file.as_ref()?;
        let mut buf = [0u8; 1024];
        let n = file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        match self.source {
            CpuSource::Cgroup(ref file) => file.parse_ms(text),
            CpuSource::Proc { tick_ms, .. } => {
                // Fields after the parenthesised command name, which may itself hold spaces.
                let rest = &text[text.rfind(')')? + 2..];
                // utime, stime, cutime, cstime are fields 14-17 of stat: 12-15 after the name.
                let sum: u64 = rest
                    .split(' ')
                    .skip(11)
                    .take(4)
                    .map(|f| f.parse::<u64>().unwrap_or(0))
                    .sum();
                Some(sum as f64 * tick_ms)
            }
        }
    }
}

/// The arbiter's own peak resident memory in KiB (its bots are not counted): `VmHWM` of
/// /proc/self/status. Not `getrusage`'s `ru_maxrss`, which Linux carries over `execve`: started
/// by a large process (a Python script, a test harness), the arbiter would report that
/// process's peak instead of its own.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok();
    let hwm = status.as_deref().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    });
    hwm.or_else(|| {
        // SAFETY: getrusage fills the struct we pass.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        (unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0)
            .then_some(usage.ru_maxrss as u64)
    })
}

/// Resolves the program of a bot command: a first word `rollarena` is this very binary; a
/// word without a slash is looked up in PATH. Errors name what is wrong.
pub fn resolve_program(word: &str) -> Result<PathBuf, Error> {
    if word == "rollarena" {
        return Ok(crate::sandbox::self_exe());
    }
    if word.contains('/') {
        let path = PathBuf::from(word);
        return if is_executable(&path) {
            Ok(path)
        } else if path.exists() {
            Err(Error::Launch(format!(
                "{word} is not executable (chmod +x it, or name its interpreter first)"
            )))
        } else {
            Err(Error::Launch(format!("{word} does not exist")))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/bin:/bin"));
    std::env::split_paths(&path)
        .map(|dir| dir.join(word))
        .find(|p| is_executable(p))
        .ok_or_else(|| Error::Launch(format!("{word} is not a program found in PATH")))
}

/// Scripts a bot command may name after its interpreter, by extension: one of these that is
/// not where the command says is a mistake worth saying before any bot starts.
const SCRIPTS: &[&str] = &[
    "py", "js", "mjs", "cjs", "rb", "pl", "sh", "jar", "php", "lua", "ts",
];

/// The command with its relative paths taken from `base`: the program when it is a path
/// (`./bot`, `bots/a`), and every argument that names something there. A script argument
/// (`mine.py`) that is not there is the error, as the argument was written.
pub fn paths_from(argv: &[String], base: &Path) -> Result<Vec<String>, Error> {
    let mut out = argv.to_vec();
    let relative = |a: &str| !a.starts_with('-') && Path::new(a).is_relative();
    if out[0].contains('/') && relative(&out[0]) {
        out[0] = base.join(&out[0]).display().to_string();
    }
    for arg in out.iter_mut().skip(1) {
        if !relative(arg) {
            continue;
        }
        let there = base.join(&*arg);
        let script = Path::new(arg.as_str())
            .extension()
            .is_some_and(|e| SCRIPTS.contains(&e.to_string_lossy().as_ref()));
        if there.exists() {
            *arg = there.display().to_string();
        } else if script {
            return Err(Error::NoScript(arg.clone()));
        }
    }
    Ok(out)
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_taken_from_the_base() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bots")).unwrap();
        std::fs::write(dir.path().join("bots/a.py"), "").unwrap();
        let argv = |s: &str| shell_words::split(s).unwrap();
        let base = dir.path();
        let got = paths_from(&argv("python3 bots/a.py --depth 2 fast"), base).unwrap();
        assert_eq!(got[1], base.join("bots/a.py").display().to_string());
        assert_eq!(&got[2..], ["--depth", "2", "fast"], "flags and words stay");
        let got = paths_from(&argv("./bots/run"), base).unwrap();
        assert_eq!(got[0], base.join("./bots/run").display().to_string());
        assert!(
            matches!(
                paths_from(&argv("python3 bots/b.py"), base),
                Err(Error::NoScript(arg)) if arg == "bots/b.py"
            ),
            "a missing script is the error"
        );
        assert!(paths_from(&argv("java -jar /abs/x.jar"), base).is_ok());
    }

    #[test]
    fn resolves_programs_or_says_why_not() {
        assert!(resolve_program("sh").unwrap().ends_with("sh"));
        assert!(resolve_program("rollarena").is_ok());
        assert!(
            resolve_program("no-such-program-xyz")
                .unwrap_err()
                .to_string()
                .contains("not a program found in PATH")
        );
        let missing = resolve_program("/nonexistent/bot").unwrap_err();
        assert!(matches!(missing, Error::Launch(_)));
        assert_eq!(missing.to_string(), "/nonexistent/bot does not exist");
        assert!(
            resolve_program("/etc/passwd")
                .unwrap_err()
                .to_string()
                .contains("not executable")
        );
    }

    #[test]
    fn peak_memory_is_read() {
        let kib = peak_rss_kib().expect("a peak");
        assert!(kib > 100 && kib < 64 << 20, "{kib} KiB");
    }

    #[test]
    fn cpu_meter_reads_own_process() {
        let mut m = CpuMeter::open(std::process::id() as i32, 0);
        assert!(m.read().is_some());
    }
}
