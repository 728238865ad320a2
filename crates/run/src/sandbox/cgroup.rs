//! Per-bot cgroups, where the arbiter may create them: v1 (`pids`, `memory`, `cpuacct`) or v2,
//! the unified hierarchy (`pids.max`, `memory.max`, `memory.swap.max`, `cgroup.kill`,
//! `cpu.stat`, `memory.events`), with the same behaviour and verdicts.
//!
//! A cgroup limits a bot's whole process tree together — processes it forks, threads, memory
//! it actually touches — and cannot be left by `setsid` or double-forking, so it is also the
//! surest way to find and kill every process of a bot ([`BotCgroups::kill_all`]) and to measure
//! its CPU time exactly. Each bot's groups sit under the arbiter's own groups, so whatever
//! limits the arbiter lives under still apply to its bots.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use super::ResourceLimits;
use crate::Error;

const ROOT: &str = "/sys/fs/cgroup";
const CONTROLLERS: [&str; 3] = ["pids", "memory", "cpuacct"];

/// Where this arbiter makes its bots' groups.
#[derive(Debug)]
enum Parents {
    /// cgroup v1: one directory per controller of [`CONTROLLERS`].
    V1([PathBuf; 3]),
    /// cgroup v2 (the unified hierarchy): one directory, with `memory` and `pids` enabled for
    /// its children.
    V2(PathBuf),
}

/// The arbiter's own directory for a v1 controller, from /proc/self/cgroup.
fn own_dir(controller: &str) -> Option<PathBuf> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
        if names.split(',').any(|n| n == controller) {
            let base = Path::new(ROOT).join(controller);
            return Some(base.join(path.trim_start_matches('/')));
        }
    }
    None
}

/// The arbiter's own v2 group (the `0::PATH` line of /proc/self/cgroup), where /sys/fs/cgroup
/// is the unified hierarchy.
fn own_v2_dir() -> Option<PathBuf> {
    if !Path::new(ROOT).join("cgroup.controllers").exists() {
        return None;
    }
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = text.lines().find_map(|l| l.strip_prefix("0::"))?;
    Some(Path::new(ROOT).join(path.trim_start_matches('/')))
}

/// Why per-bot cgroups are not available, when they are not (for `--verbose` and the tests).
static WHY_NOT: OnceLock<String> = OnceLock::new();

/// The directory under which this arbiter makes its bots' groups.
/// The parents, once a bot needed them (`None` inside: none could be made).
static PARENTS: OnceLock<Option<Parents>> = OnceLock::new();

fn parents() -> Option<&'static Parents> {
    PARENTS
        .get_or_init(|| {
            if !super::is_root() {
                let _ = WHY_NOT.set("the arbiter is not root".into());
                return None;
            }
            match v1_parents() {
                Some(p) => Some(Parents::V1(p)),
                None => match v2_parent() {
                    Ok(p) => Some(Parents::V2(p)),
                    Err(e) => {
                        tracing::debug!("no per-bot cgroups: {e}");
                        let _ = WHY_NOT.set(e.to_string());
                        None
                    }
                },
            }
        })
        .as_ref()
}

/// Why per-bot cgroups are not used here (empty when they are).
pub fn why_not() -> String {
    let _ = parents();
    WHY_NOT.get().cloned().unwrap_or_default()
}

fn v1_parents() -> Option<[PathBuf; 3]> {
    let mut out = Vec::new();
    for c in CONTROLLERS {
        let own = own_dir(c)?;
        remove_stale(&own);
        let dir = own.join(format!("rollarena-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        out.push(dir);
    }
    out.try_into().ok()
}

/// Sets up the v2 parent: the arbiter's own group must offer `memory` and `pids` and pass them
/// on to its children, which the kernel refuses while the group itself holds processes (the
/// "no internal processes" rule); when the arbiter is alone in it, it moves itself into a leaf
/// of its own first.
fn v2_parent() -> Result<PathBuf, Error> {
    let own = own_v2_dir().ok_or_else(|| {
        Error::Sandbox(
            "no cgroup v1 memory, pids and cpuacct controllers, and no cgroup v2 hierarchy at \
             /sys/fs/cgroup"
                .into(),
        )
    })?;
    let offered = std::fs::read_to_string(own.join("cgroup.controllers")).unwrap_or_default();
    for c in ["memory", "pids"] {
        if !offered.split_whitespace().any(|o| o == c) {
            return Err(Error::Sandbox(format!(
                "cgroup v2: the {c} controller is not delegated to the arbiter's group {} \
                 (run rollarena in a group that has it, e.g. systemd-run --scope -p \
                 Delegate=yes)",
                own.display()
            )));
        }
    }
    remove_stale(&own);
    let enable = |dir: &Path| std::fs::write(dir.join("cgroup.subtree_control"), "+memory +pids");
    if enable(&own).is_err() {
        let me = std::process::id().to_string();
        let procs = std::fs::read_to_string(own.join("cgroup.procs")).unwrap_or_default();
        if procs.split_whitespace().any(|p| p != me) {
            return Err(Error::Sandbox(format!(
                "cgroup v2: cannot pass the memory and pids controllers on below {}: other \
                 processes share the arbiter's group (run rollarena in a group of its own, \
                 e.g. systemd-run --scope -p Delegate=yes)",
                own.display()
            )));
        }
        let leaf = own.join(format!("rollarena-{me}-arbiter"));
        std::fs::create_dir_all(&leaf)
            .and_then(|()| std::fs::write(leaf.join("cgroup.procs"), &me))
            .and_then(|()| enable(&own))
            .map_err(|e| {
                Error::Sandbox(format!(
                    "cgroup v2: moving the arbiter to {}: {e}",
                    leaf.display()
                ))
            })?;
    }
    let dir = own.join(format!("rollarena-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .and_then(|()| enable(&dir))
        .map_err(|e| Error::Sandbox(format!("cgroup v2: making {}: {e}", dir.display())))?;
    Ok(dir)
}

/// Removes the empty groups left by arbiters that died without cleaning up (SIGKILL): their
/// bots are dead (parent-death signal, PID namespaces), so only empty directories remain.
fn remove_stale(own: &Path) {
    for (_, dir) in super::stale_entries(own) {
        if let Ok(children) = std::fs::read_dir(&dir) {
            for child in children.flatten() {
                if child.path().is_dir() {
                    let _ = std::fs::remove_dir(child.path());
                }
            }
        }
        let _ = std::fs::remove_dir(&dir);
    }
}

/// Whether per-bot cgroups can be made here.
pub fn available() -> bool {
    parents().is_some()
}

/// Which hierarchy the bots' groups are in: "v1", "v2", or "" when none.
pub fn version() -> &'static str {
    match parents() {
        Some(Parents::V1(_)) => "v1",
        Some(Parents::V2(_)) => "v2",
        None => "",
    }
}

/// Removes the arbiter's (now empty) parent groups; called when the arbiter exits. Only groups
/// this run made: a command that started no bot (`replay`, `report`, `perft`) neither looks for
/// stale groups nor creates parents just to remove them (a few ms of cgroupfs work at every
/// exit, a fifth of a `replay --verify` of a 100,000-move record).
pub fn cleanup() {
    match PARENTS.get().and_then(Option::as_ref) {
        Some(Parents::V1(dirs)) => {
            for d in dirs {
                let _ = std::fs::remove_dir(d);
            }
        }
        Some(Parents::V2(dir)) => {
            let _ = std::fs::remove_dir(dir);
        }
        None => {}
    }
}

/// A value of a flat keyed file (`cpu.stat`, `memory.events`, `memory.oom_control`).
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// One bot's groups.
#[derive(Debug)]
pub struct BotCgroups {
    dirs: Vec<PathBuf>,
    v2: bool,
}

/// The file of a bot's CPU time, as [`crate::arbiter::process::CpuMeter`] reads it.
#[derive(Clone, Debug)]
pub enum CpuFile {
    /// v1 `cpuacct.usage`: nanoseconds.
    Nanos(PathBuf),
    /// v2 `cpu.stat`: its `usage_usec` line.
    Stat(PathBuf),
}

impl CpuFile {
    /// The CPU time in ms this file's text says.
    pub fn parse_ms(&self, text: &str) -> Option<f64> {
        match self {
            CpuFile::Nanos(_) => text.trim().parse::<u64>().ok().map(|ns| ns as f64 / 1e6),
            CpuFile::Stat(_) => keyed(text, "usage_usec").map(|us| us as f64 / 1e3),
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            CpuFile::Nanos(p) | CpuFile::Stat(p) => p,
        }
    }
}

impl BotCgroups {
    /// Makes the groups of one bot process tree and sets its limits.
    pub fn create(name: &str, limits: &ResourceLimits) -> io::Result<BotCgroups> {
        match parents().ok_or_else(|| io::Error::other("cgroups are not available"))? {
            Parents::V1(parents) => {
                let dirs: Vec<PathBuf> = parents.iter().map(|p| p.join(name)).collect();
                for d in &dirs {
                    std::fs::create_dir_all(d)?;
                }
                let groups = BotCgroups { dirs, v2: false };
                groups.write("pids", "pids.max", &limits.processes.to_string())?;
                groups.write(
                    "memory",
                    "memory.limit_in_bytes",
                    &limits.memory.to_string(),
                )?;
                // No swap beyond the limit where the kernel accounts for it.
                let _ = groups.write(
                    "memory",
                    "memory.memsw.limit_in_bytes",
                    &limits.memory.to_string(),
                );
                Ok(groups)
            }
            Parents::V2(parent) => BotCgroups::create_v2(&parent.join(name), limits),
        }
    }

    /// A v2 group at `dir` with the limits: `pids.max`, `memory.max`, and no swap
    /// (`memory.swap.max` 0, where swap is accounted), as v1's memory+swap limit.
    pub fn create_v2(dir: &Path, limits: &ResourceLimits) -> io::Result<BotCgroups> {
        let groups = BotCgroups::open_v2(dir)?;
        groups.write("pids", "pids.max", &limits.processes.to_string())?;
        groups.write("memory", "memory.max", &limits.memory.to_string())?;
        let _ = groups.write("memory", "memory.swap.max", "0");
        Ok(groups)
    }

    /// A v2 group at `dir`, without limits (what needs no controller: joining, `cpu.stat`,
    /// `cgroup.kill`).
    pub fn open_v2(dir: &Path) -> io::Result<BotCgroups> {
        std::fs::create_dir_all(dir)?;
        Ok(BotCgroups {
            dirs: vec![dir.to_path_buf()],
            v2: true,
        })
    }

    fn dir(&self, controller: &str) -> &Path {
        if self.v2 {
            return &self.dirs[0];
        }
        let i = CONTROLLERS
            .iter()
            .position(|&c| c == controller)
            .expect("a known controller");
        &self.dirs[i]
    }

    fn write(&self, controller: &str, file: &str, value: &str) -> io::Result<()> {
        std::fs::write(self.dir(controller).join(file), value)
    }

    fn read_u64(&self, controller: &str, file: &str) -> Option<u64> {
        std::fs::read_to_string(self.dir(controller).join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// The `cgroup.procs` files a process writes itself into to join the groups.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    /// The file that holds the whole tree's CPU time, for a reader that keeps it open
    /// ([`crate::arbiter::process::CpuMeter`]).
    pub fn cpu_file(&self) -> CpuFile {
        if self.v2 {
            CpuFile::Stat(self.dirs[0].join("cpu.stat"))
        } else {
            CpuFile::Nanos(self.dir("cpuacct").join("cpuacct.usage"))
        }
    }

    /// CPU time of the whole tree, in ms.
    pub fn cpu_ms(&self) -> Option<f64> {
        let file = self.cpu_file();
        file.parse_ms(&std::fs::read_to_string(file.path()).ok()?)
    }

    /// Whether the memory limit was hit, and the peak use in bytes.
    pub fn memory_report(&self) -> (bool, Option<u64>) {
        let read = |file: &str| std::fs::read_to_string(self.dir("memory").join(file)).ok();
        if self.v2 {
            // `memory.events` counts the OOM kills in the group (`oom_kill`) and the times an
            // allocation failed at the limit (`oom`); `max` alone is reclaim, not a failure.
            let events = read("memory.events").unwrap_or_default();
            let hit = keyed(&events, "oom_kill").unwrap_or(0) > 0
                || keyed(&events, "oom").unwrap_or(0) > 0;
            return (hit, self.read_u64("memory", "memory.peak"));
        }
        // The OOM killer's own count is the sure sign. `failcnt` alone is not: with the
        // memory+swap limit set too, that counter fails first and neither is incremented.
        let oom_kills = read("memory.oom_control")
            .and_then(|text| keyed(&text, "oom_kill"))
            .unwrap_or(0);
        let failed = self.read_u64("memory", "memory.failcnt").unwrap_or(0) > 0;
        (
            oom_kills > 0 || failed,
            self.read_u64("memory", "memory.max_usage_in_bytes"),
        )
    }

    /// Kills every process in the groups, however it tried to escape, until none is left
    /// (bounded: a process stuck in the kernel is left to the kernel). v2 has `cgroup.kill`,
    /// which kills the whole tree at once, new forks included.
    pub fn kill_all(&self) {
        if self.v2 {
            let _ = self.write("pids", "cgroup.kill", "1");
        }
        let procs = self.dir("pids").join("cgroup.procs");
        for _ in 0..200 {
            let Ok(text) = std::fs::read_to_string(&procs) else {
                return;
            };
            let pids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for BotCgroups {
    fn drop(&mut self) {
        self.kill_all();
        for d in &self.dirs {
            // Fails while a zombie is still accounted; the parent group is removed at exit.
            for _ in 0..20 {
                if std::fs::remove_dir(d).is_ok() || !d.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_files() {
        let stat = "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n";
        assert_eq!(keyed(stat, "usage_usec"), Some(1500));
        assert_eq!(CpuFile::Stat("x".into()).parse_ms(stat), Some(1.5));
        assert_eq!(CpuFile::Nanos("x".into()).parse_ms("2500000\n"), Some(2.5));
        let events = "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(keyed(events, "oom_kill"), Some(1));
        assert_eq!(keyed(events, "oom"), Some(1));
        assert_eq!(keyed(events, "nothing"), None);
    }

    /// What of v2 runs on a machine whose memory and pids controllers are bound to v1 (this
    /// project's own): a cgroup2 hierarchy mounted in a private mount namespace has no
    /// controllers, but joining a group, `cpu.stat` and `cgroup.kill` work in it. A process
    /// tree burns CPU in a group (its child forked after it joined), the group's CPU time
    /// counts it, and `kill_all` kills the whole tree through `cgroup.kill`. The limits
    /// (`memory.max`, `pids.max`) and `memory.events` need the controllers: the integration
    /// test `hostile::cgroup2` runs them where they are delegated.
    #[test]
    fn v2_join_cpu_stat_and_kill_on_a_mounted_cgroup2() {
        use std::io::Write;
        if !super::super::is_root() {
            eprintln!("SKIPPED (cgroup v2 join/cpu.stat/cgroup.kill): not root");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap().to_string();
        // SAFETY: unshare and mount on this test's own thread; nothing reaches the host.
        let mounted = unsafe {
            libc::unshare(libc::CLONE_NEWNS) == 0
                && libc::mount(
                    c"none".as_ptr(),
                    c"/".as_ptr(),
                    std::ptr::null(),
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ) == 0
                && {
                    let target = std::ffi::CString::new(root.clone()).unwrap();
                    libc::mount(
                        c"none".as_ptr(),
                        target.as_ptr(),
                        c"cgroup2".as_ptr(),
                        0,
                        std::ptr::null(),
                    ) == 0
                }
        };
        if !mounted || !dir.path().join("cgroup.procs").exists() {
            eprintln!(
                "SKIPPED (cgroup v2 join/cpu.stat/cgroup.kill): cannot mount cgroup2 here: {}",
                std::io::Error::last_os_error()
            );
            return;
        }
        let group_dir = dir
            .path()
            .join(format!("rollarena-test-{}", std::process::id()));
        let group = BotCgroups::open_v2(&group_dir).unwrap();
        if !group_dir.join("cgroup.kill").exists() {
            eprintln!(
                "SKIPPED (cgroup v2 join/cpu.stat/cgroup.kill): no cgroup.kill (Linux < 5.14)"
            );
            return;
        }
        let mut tree = std::process::Command::new("/bin/sh")
            .args(["-c", "read x; (while :; do :; done) & while :; do :; done"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        for procs in group.procs_files() {
            std::fs::write(procs, tree.id().to_string()).unwrap();
        }
        tree.stdin.take().unwrap().write_all(b"go\n").unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let members = std::fs::read_to_string(&group.procs_files()[0]).unwrap();
        assert_eq!(
            members.lines().count(),
            2,
            "the shell and its child: {members}"
        );
        let cpu = group.cpu_ms().expect("cpu.stat reads");
        assert!(cpu > 100.0, "two busy loops for 1.5 s used {cpu} ms of CPU");
        group.kill_all();
        let status = tree.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        let left = std::fs::read_to_string(&group.procs_files()[0]).unwrap();
        assert!(
            left.trim().is_empty(),
            "cgroup.kill killed the tree: {left}"
        );
        drop(group);
        // SAFETY: unmounting what this test mounted, in its own mount namespace.
        unsafe {
            libc::umount2(
                std::ffi::CString::new(root).unwrap().as_ptr(),
                libc::MNT_DETACH,
            )
        };
    }
}
