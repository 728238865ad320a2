//! Warm launch wrappers: a tournament table slot starts the launch wrappers of its next table's
//! bots while its current table plays, so that the next table's start waits neither for the
//! exec of this binary nor for the wrappers' cgroups.
//!
//! Measured on a 2-core machine with cgroup v1 (`--jobs 2 --pin`, 8-round tables): a table's
//! start and end cost its slot about 40 ms of wall time, of which about 10 ms was the launch
//! wrappers joining their cgroups (a `cgroup.procs` write waits for an RCU grace period, and
//! holds the cgroup mutex the other slot's wrappers then wait for) and about 1 ms of CPU per
//! bot the exec of this binary. A *warm* wrapper ([`crate::sandbox::launch::WARM_PREFIX`]) does
//! both early and then blocks on its stdin; when a bot starts ([`super::Prepared::spawn`]) the
//! arbiter writes the bot's launch spec there and the wrapper goes on: namespaces, limits, the
//! bot user, the bot. Nothing about the bot changes: it starts when its table does, under its own
//! uid, scratch directory, namespaces and limits (the cgroups' limits are written when the spec
//! is known), and a wrapper that waits is killed with its group and its cgroups like any bot
//! ([`crate::arbiter::process::Group`]: Ctrl-C, the arbiter's death).
//!
//! A [`WarmPool`] belongs to one table slot, and its wrappers are started on a [`Launcher`]
//! thread of the slot's (bound to the slot's CPU, as the bots must be; a wrapper's parent-death
//! signal fires when the thread that forked it ends). The slot installs the pool on its own
//! thread ([`WarmPool::install`]) and says whether another table will follow
//! ([`WarmPool::set_wanted`]); a match refills it once its bots are started ([`refill`]), and
//! the slot's bots are then taken from it ([`take`]). Elsewhere (`match`, a lineup's launcher
//! thread) no pool is installed and bots start as before.

use std::cell::RefCell;
use std::process::Stdio;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::arbiter::Launcher;
use crate::arbiter::process::Group;
use crate::sandbox::cgroup::BotCgroups;
use crate::sandbox::launch::{WARM_PREFIX, WRAPPER_ARG, WarmSpec};
use crate::sandbox::{Isolation, Level, ResourceLimits};

/// A launch wrapper started ahead, waiting for its bot's launch spec on stdin.
#[derive(Debug)]
pub struct Warm {
    /// The wrapper (taken by the bot it starts).
    pub child: Option<tokio::process::Child>,
    /// Its process group, the bot's (taken with the child).
    pub group: Option<Group>,
    pub cgroups: Option<BotCgroups>,
    /// The limits its cgroups were given.
    pub limits: ResourceLimits,
    /// The isolation level it was started for (whether its environment was cleared).
    pub level: Level,
}

impl Drop for Warm {
    fn drop(&mut self) {
        if let Some(group) = &mut self.group {
            group.kill();
        }
        if let Some(child) = &mut self.child {
            let _ = child.start_kill();
            // Reaped before its cgroups go (a zombie keeps a v1 group busy); it was killed, so
            // this is at most a few milliseconds.
            for _ in 0..200 {
                if !matches!(child.try_wait(), Ok(None)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.cgroups.take();
    }
}

/// A table slot's warm wrappers.
#[derive(Debug)]
pub struct WarmPool {
    ready: Arc<Mutex<Vec<Warm>>>,
    launcher: Launcher,
    /// Another table will follow on this slot: refilling is worth it.
    wanted: std::cell::Cell<bool>,
    /// Wrappers asked of the launcher and not yet in `ready` (or failed).
    pending: Arc<Mutex<usize>>,
}

thread_local! {
    /// The pool of the table slot running on this thread, if any.
    static POOL: RefCell<Option<Rc<WarmPool>>> = const { RefCell::new(None) };
}

impl WarmPool {
    /// A pool whose wrappers are started on a thread of its own, `name`, bound to the CPU of
    /// the calling thread (as the slot's bots are).
    pub fn new(name: String) -> std::io::Result<Rc<WarmPool>> {
        Ok(Rc::new(WarmPool {
            ready: Arc::new(Mutex::new(Vec::new())),
            launcher: Launcher::new(name)?,
            wanted: std::cell::Cell::new(false),
            pending: Arc::new(Mutex::new(0)),
        }))
    }

    /// Makes `pool` the calling thread's (`None`: none). The previous one, if any, is dropped
    /// here, its waiting wrappers killed.
    pub fn install(pool: Option<Rc<WarmPool>>) {
        let old = POOL.with(|p| std::mem::replace(&mut *p.borrow_mut(), pool));
        drop(old);
    }

    /// Whether another table will follow on this slot (so that wrappers started now are used).
    pub fn set_wanted(&self, wanted: bool) {
        self.wanted.set(wanted);
        if !wanted {
            // Those waiting would only be killed at the end: now, so that their cgroups go.
            self.ready.lock().unwrap_or_else(|p| p.into_inner()).clear();
        }
    }
}

impl Drop for WarmPool {
    fn drop(&mut self) {
        // The launcher first (it waits for a job under way), so no wrapper arrives afterwards.
        let ready = std::mem::take(&mut *self.ready.lock().unwrap_or_else(|p| p.into_inner()));
        drop(ready);
    }
}

/// A waiting wrapper for a bot isolated as `iso`, from the calling thread's pool, if it has
/// one that is still alive.
pub fn take(iso: &Isolation) -> Option<Warm> {
    POOL.with(|p| {
        let pool = p.borrow().clone()?;
        let mut ready = pool.ready.lock().unwrap_or_else(|p| p.into_inner());
        while let Some(mut warm) = ready.pop() {
            let fits = warm.level == iso.level && warm.cgroups.is_some() == iso.cgroups;
            let alive = warm
                .child
                .as_mut()
                .is_some_and(|c| matches!(c.try_wait(), Ok(None)));
            if fits && alive {
                return Some(warm);
            }
        }
        None
    })
}

/// Starts wrappers on the calling thread's pool's launcher until `count` wait or are on their
/// way, when its slot wants them (another table follows) and bots are wrapped at all.
pub fn refill(count: usize, iso: &Isolation) {
    if !iso.wraps() {
        return;
    }
    POOL.with(|p| {
        let Some(pool) = p.borrow().clone() else {
            return;
        };
        if !pool.wanted.get() {
            return;
        }
        let have = pool.ready.lock().unwrap_or_else(|p| p.into_inner()).len();
        let mut pending = pool.pending.lock().unwrap_or_else(|p| p.into_inner());
        let missing = count.saturating_sub(have + *pending);
        if missing == 0 {
            return;
        }
        *pending += missing;
        drop(pending);
        let (ready, pending) = (pool.ready.clone(), pool.pending.clone());
        let handle = tokio::runtime::Handle::current();
        let iso = iso.clone();
        pool.launcher.run(Box::new(move || {
            // The wrappers' pipes and reaping belong to the slot's runtime.
            let _runtime = handle.enter();
            for _ in 0..missing {
                let started = start(&iso);
                *pending.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
                match started {
                    Ok(warm) => ready.lock().unwrap_or_else(|p| p.into_inner()).push(warm),
                    Err(e) => {
                        tracing::debug!("no warm launch wrapper: {e}");
                        return;
                    }
                }
            }
        }));
    });
}

/// Starts one warm wrapper: its cgroups (with `iso`'s limits), then the wrapper, which joins
/// them and waits.
fn start(iso: &Isolation) -> Result<Warm, String> {
    let cgroups = if iso.cgroups {
        Some(
            BotCgroups::create(&super::launch::unique_name("warm"), &iso.limits)
                .map_err(|e| format!("cannot make the bot's cgroups: {e}"))?,
        )
    } else {
        None
    };
    let spec = WarmSpec {
        cgroups: cgroups
            .as_ref()
            .map(|c| c.procs_files())
            .unwrap_or_default(),
        parent: std::process::id(),
    };
    let arg = format!(
        "{WARM_PREFIX}{}",
        serde_json::to_string(&spec).expect("a warm spec serialises")
    );
    let mut cmd = tokio::process::Command::new(crate::sandbox::self_exe());
    cmd.arg(WRAPPER_ARG).arg(arg);
    if iso.level != Level::None {
        cmd.env_clear();
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the launch wrapper: {e}"))?;
    let pid = child.id().ok_or("the launch wrapper exited at once")?;
    Ok(Warm {
        group: Some(Group::adopt(pid)),
        child: Some(child),
        cgroups,
        limits: iso.limits,
        level: iso.level,
    })
}
