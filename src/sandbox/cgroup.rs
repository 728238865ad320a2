//! Per-bot cgroups (v1 `pids`, `memory`, `cpuacct`), where the arbiter may create them.
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

const ROOT: &str = "/sys/fs/cgroup";
const CONTROLLERS: [&str; 3] = ["pids", "memory", "cpuacct"];

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

/// The directory under which this arbiter makes its bots' groups, per controller.
fn parents() -> Option<&'static [PathBuf; 3]> {
    static PARENTS: OnceLock<Option<[PathBuf; 3]>> = OnceLock::new();
    PARENTS
        .get_or_init(|| {
            if !super::is_root() {
                return None;
            }
            let mut out = Vec::new();
            for c in CONTROLLERS {
                let own = own_dir(c)?;
                remove_stale(&own);
                let dir = own.join(format!("rollarena-{}", std::process::id()));
                std::fs::create_dir_all(&dir).ok()?;
                out.push(dir);
            }
            out.try_into().ok()
        })
        .as_ref()
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

/// Removes the arbiter's (now empty) parent groups; called when the arbiter exits.
pub fn cleanup() {
    if let Some(dirs) = parents() {
        for d in dirs {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// One bot's groups.
#[derive(Debug)]
pub struct BotCgroups {
    dirs: Vec<PathBuf>,
}

impl BotCgroups {
    /// Makes the groups of one bot process tree and sets its limits.
    pub fn create(name: &str, limits: &ResourceLimits) -> io::Result<BotCgroups> {
        let parents = parents().ok_or_else(|| io::Error::other("cgroups are not available"))?;
        let dirs: Vec<PathBuf> = parents.iter().map(|p| p.join(name)).collect();
        for d in &dirs {
            std::fs::create_dir_all(d)?;
        }
        let groups = BotCgroups { dirs };
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

    fn dir(&self, controller: &str) -> &Path {
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

    /// The file that holds the whole tree's CPU time in ns (`cpuacct.usage`), for a reader
    /// that keeps it open ([`crate::arbiter::process::CpuMeter`]).
    pub fn cpu_usage_file(&self) -> PathBuf {
        self.dir("cpuacct").join("cpuacct.usage")
    }

    /// CPU time of the whole tree, in ms.
    pub fn cpu_ms(&self) -> Option<f64> {
        self.read_u64("cpuacct", "cpuacct.usage")
            .map(|ns| ns as f64 / 1e6)
    }

    /// Whether the memory limit was hit, and the peak use in bytes.
    pub fn memory_report(&self) -> (bool, Option<u64>) {
        // The OOM killer's own count is the sure sign. `failcnt` alone is not: with the
        // memory+swap limit set too, that counter fails first and neither is incremented.
        let oom_kills = std::fs::read_to_string(self.dir("memory").join("memory.oom_control"))
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|l| l.strip_prefix("oom_kill "))
                    .and_then(|n| n.trim().parse::<u64>().ok())
            })
            .unwrap_or(0);
        let failed = self.read_u64("memory", "memory.failcnt").unwrap_or(0) > 0;
        (
            oom_kills > 0 || failed,
            self.read_u64("memory", "memory.max_usage_in_bytes"),
        )
    }

    /// Kills every process in the groups, however it tried to escape, until none is left
    /// (bounded: a process stuck in the kernel is left to the kernel).
    pub fn kill_all(&self) {
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
