//! `rollarena worker`: a remote match worker. It leases matches from an arena's server over
//! HTTP, plays them in this machine's sandbox with the artifacts the server built (fetched
//! once by hash, cached, verified) and uploads the records, which the server verifies before
//! they count. The loop is `arena::remote::runner`; this file reads the flags and the
//! signals.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use clap::Args;

use super::{EXIT_OK, UsageError};
use crate::arena::remote::cache::{self, Cache};
use crate::arena::remote::client::Client;
use crate::arena::remote::runner::{self, Worker};
use crate::sandbox::{Isolation, Level, ResourceLimits, identity};

/// Play an arena's matches on this machine: lease them from the server, run the bots in the
/// sandbox, upload the records.
///
/// The organiser registers the worker with `rollarena arena worker DIR NAME`, which prints
/// its token. The worker retries while the server is unreachable (it outlives a server
/// restart), and stops on SIGTERM or Ctrl-C, giving back the matches it holds. Run it as root
/// so that each seat gets a uid of its own (--bot-uids); the bots' limits and time control are
/// the arena's.
#[derive(Args, Debug)]
pub struct WorkerArgs {
    /// The arena's address, e.g. https://arena.example.org or http://10.0.0.5:8080.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The worker's token (from `rollarena arena worker`); also read from
    /// ROLLARENA_WORKER_TOKEN.
    #[arg(long, env = "ROLLARENA_WORKER_TOKEN", hide_env_values = true)]
    pub token: String,
    /// Matches played at once [default: half the cores, at least 1].
    #[arg(long, value_name = "N")]
    pub jobs: Option<u32>,
    /// Where fetched artifacts are kept [default: $XDG_CACHE_HOME/rollarena, else
    /// ~/.cache/rollarena].
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// This process's name on the organiser's page [default: HOST:PID].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Sandbox level (as `match --sandbox`); a level the kernel refuses is an error.
    #[arg(
        long,
        value_enum,
        default_value = "strict",
        help_heading = "Isolation of bots"
    )]
    pub sandbox: Level,
    /// When the worker runs as root, every bot runs under a uid of its own from this range
    /// (give two workers on one machine different ranges, or let them share one: a uid is
    /// never handed to two live bots on the machine).
    #[arg(long, default_value = identity::DEFAULT_RANGE, value_name = "FIRST-LAST", help_heading = "Isolation of bots")]
    pub bot_uids: String,
    /// Bytes a bot may write in its scratch directory, /tmp, /var/tmp and /dev/shm together
    /// (one tmpfs: a write past it fails with ENOSPC), unless the arena's [sandbox] disk says
    /// otherwise for its seats.
    #[arg(long, default_value = "512M", value_parser = crate::sandbox::parse_size, value_name = "SIZE", help_heading = "Isolation of bots")]
    pub disk: u64,
    /// Files and directories a bot may make there (unless the arena's [sandbox] inodes says
    /// otherwise).
    #[arg(long, default_value_t = crate::sandbox::DEFAULT_INODES, value_name = "N", help_heading = "Isolation of bots")]
    pub inodes: u64,
}

pub fn run(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    let client = Client::new(&args.server, &args.token).map_err(|e| UsageError(e.to_string()))?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| super::serve::default_workers() as u32);
    if jobs == 0 {
        return Err(UsageError("--jobs 0 plays nothing: give at least 1".into()).into());
    }
    let cache_dir = args
        .cache
        .clone()
        .or_else(cache::default_dir)
        .ok_or_else(|| {
            UsageError("no cache directory: HOME is not set; give --cache DIR".into())
        })?;
    let cache = Cache::open(&cache_dir).map_err(|e| UsageError(e.to_string()))?;
    let iso = Isolation::new(
        args.sandbox,
        None,
        &args.bot_uids,
        ResourceLimits {
            disk: args.disk,
            inodes: args.inodes,
            ..ResourceLimits::default()
        },
    )
    .map_err(|e| UsageError(e.to_string()))?;
    iso.probe().map_err(|e| UsageError(e.to_string()))?;
    let work = WorkDir::new()?;
    let name = args.name.clone().unwrap_or_else(|| {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "worker".into());
        format!("{host}:{}", std::process::id())
    });
    let worker = Arc::new(Worker {
        client,
        name,
        jobs,
        cache,
        iso,
        work: work.0.clone(),
    });
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let signals = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the signal handler")?;
        std::thread::spawn(move || {
            signals.block_on(async {
                use tokio::signal::unix::{SignalKind, signal};
                let mut term = signal(SignalKind::terminate()).expect("SIGTERM can be handled");
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            });
            eprintln!("rollarena worker: stopping: the matches in play are given back");
            stop.store(true, Ordering::SeqCst);
        });
    }
    runner::run(worker, stop)?;
    drop(work);
    Ok(ExitCode::from(EXIT_OK))
}

/// The worker's directory of run directories and records in progress: a fresh one under the
/// system's temporary directory, traversable by the bots' uids (the cache is root's only),
/// removed when the worker stops.
struct WorkDir(PathBuf);

impl WorkDir {
    fn new() -> anyhow::Result<WorkDir> {
        let dir = std::env::temp_dir().join(format!(
            "rollarena-worker-{}",
            crate::arena::tokens::random_hex(8)
        ));
        std::fs::create_dir(&dir).with_context(|| format!("cannot make {}", dir.display()))?;
        crate::arena::rundir::set_mode(&dir, 0o711)?;
        Ok(WorkDir(dir))
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        crate::sandbox::tree::remove_loudly(&self.0);
    }
}
