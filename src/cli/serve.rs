//! `rollarena serve DIR`: the arena's web server (pages and JSON API) and its background work
//! (builds and checks, the matchmaker, N embedded match workers) in one process, until SIGTERM
//! or Ctrl-C stops both within [`STOP_DEADLINE`]: the server stops taking requests, ends every
//! live stream with a last event and gives requests under way [`web::STOP_GRACE`], then the
//! background work stops (matches in play and builds in progress are queued again, bots and
//! builds killed). Whatever is still running at the deadline (a check that does not end) is
//! left to the next start's recovery, and the process exits anyway.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;

use super::{EXIT_OK, UsageError};
use crate::arena::Arena;
use crate::arena::service::Service;
use crate::arena::web::{self, Site};

/// Run an arena: its web pages and JSON API, the builds and checks of submissions, the
/// matchmaker and the match workers.
///
/// Create the arena first with `rollarena arena init DIR --game G`. Put it behind a reverse
/// proxy with TLS to serve it beyond this machine (the book's docs/arena.md shows how);
/// the proxy must send `X-Forwarded-Proto: https` so that session cookies are marked Secure,
/// and `X-Forwarded-For` so that failed logins are counted per client (name the proxy in
/// arena.toml's [server] trusted_proxies: nobody else's header is believed). SIGTERM or
/// Ctrl-C stops it within 5 s (live pages told, matches in play and builds queued again); a
/// killed server loses nothing (unfinished matches and builds run again at the next start).
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The arena's directory (made by `rollarena arena init`).
    pub dir: PathBuf,
    /// The address to listen on [default: arena.toml's [server] listen, 127.0.0.1:8080].
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Match workers playing in this process [default: half the cores, at least 1]; 0 plays
    /// none here (remote `rollarena worker`s play the matches).
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
}

/// Half the cores, at least one.
pub fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get() / 2)
        .unwrap_or(1)
        .max(1)
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&args.dir).map_err(|e| UsageError(e.to_string()))?;
    let listen = args
        .listen
        .clone()
        .unwrap_or_else(|| arena.config.server.listen.clone());
    let addr: SocketAddr = listen.parse().map_err(|e| {
        UsageError(format!(
            "--listen {listen:?} is not an address and port ({e}): write it like 127.0.0.1:8080 \
             or 0.0.0.0:8080"
        ))
    })?;
    let workers = args.workers.unwrap_or_else(default_workers);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|e| {
            let why = match e.kind() {
                std::io::ErrorKind::AddrInUse => format!(
                    "the address is in use: another server listens on port {}; stop it or choose \
                 another port with --listen",
                    addr.port()
                ),
                std::io::ErrorKind::AddrNotAvailable => {
                    "this machine has no such address: use 127.0.0.1 or 0.0.0.0".into()
                }
                std::io::ErrorKind::PermissionDenied => format!(
                    "permission denied: ports below 1024 need privileges; use a port such as 8080 \
                 behind a reverse proxy ({e})"
                ),
                _ => e.to_string(),
            };
            UsageError(format!("cannot listen on {addr}: {why}"))
        })?;
    // Only the languages whose compiler the build uids can run are offered; the organiser
    // reads what is missing and how to install it.
    let mut arena = arena;
    let unavailable = {
        let _lock = crate::arena::service::lock(&arena).map_err(|e| UsageError(e.to_string()))?;
        // run/ as the service's recovery leaves it (an unpacked export has none).
        crate::arena::rundir::prepare(&arena.dir).map_err(|e| UsageError(e.to_string()))?;
        crate::arena::submissions::offer::check(&arena).map_err(|e| UsageError(e.to_string()))?
    };
    for line in crate::arena::submissions::offer::restrict(&mut arena, unavailable) {
        eprintln!("{line}");
    }
    let arena = Arc::new(arena);
    let service = Service::start(arena.clone(), workers).map_err(|e| UsageError(e.to_string()))?;
    let local = listener.local_addr().unwrap_or(addr);
    eprintln!(
        "rollarena: arena {} at http://{local}/ ({workers} match worker{}{}); Ctrl-C stops it",
        arena.dir.display(),
        if workers == 1 { "" } else { "s" },
        if workers == 0 {
            " here: remote workers play"
        } else {
            ""
        }
    );
    let served = runtime.block_on(web::serve(listener, Site::new(arena), shutdown_signal()));
    service.shutdown();
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    eprintln!("rollarena: stopped");
    served.context("the web server failed")?;
    Ok(ExitCode::from(EXIT_OK))
}

/// How long the server takes to stop at most, from the signal to the process's exit.
pub const STOP_DEADLINE: std::time::Duration = std::time::Duration::from_millis(4500);

/// SIGTERM (a service manager's stop) or SIGINT (Ctrl-C); then the stop's deadline runs.
async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM can be handled");
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    eprintln!(
        "rollarena: stopping: live pages are told, matches in play and builds are queued again"
    );
    // Nothing outlives the process: bots and builds die with it (their parent-death signal),
    // and what they held runs again at the next start (the service's recovery).
    std::thread::spawn(|| {
        std::thread::sleep(STOP_DEADLINE);
        eprintln!(
            "rollarena: still stopping after {:.1} s: exiting now; unfinished matches and \
             builds run again at the next start",
            STOP_DEADLINE.as_secs_f64()
        );
        std::process::exit(0);
    });
}
