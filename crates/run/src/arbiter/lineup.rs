//! A match's bots started ahead of the match: what lets a tournament table slot start its next
//! table's bots while the current table's last rounds play, so that the next table does not
//! wait for their launches and handshakes (a table's start is mostly waiting on the kernel:
//! the launch wrapper's exec, namespaces, cgroups, four `ready`s).
//!
//! [`Lineup::start`] launches every seat's bot and sends its `hello` on a thread of its own (a
//! [`Launcher`]), then awaits the `ready`s in a task of the current runtime, which makes
//! progress whenever the table playing meanwhile waits for a bot. Each bot's start-up clock runs from its own `hello`, exactly as at a
//! match's start. A bot that is ready is frozen when the match freezes idle bots, so that it
//! cannot use the CPU of the bots on the clock at the table still playing; the match that
//! takes the lineup over ([`super::matches::run_match_with`]) thaws it before its first
//! request.
//!
//! The lineup is all or nothing: if any bot cannot be started or fails its handshake, every bot
//! of it is killed and the match starts its bots the ordinary way, where the failure is recorded
//! as it always is (a lineup changes when bots start, never what a round records).

use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::bot::Bot;
use super::matches::{MatchConfig, ready_deadline, start_seats};

/// Bots of a match, started before it (see the module header).
#[derive(Debug)]
pub struct Lineup {
    /// Awaits the `ready`s; `None` when a bot failed (the others are killed by then).
    task: JoinHandle<Option<Vec<Bot>>>,
    /// When the launches began.
    started: Instant,
}

/// What a launch job hands back: the bots with their `ready` deadline, or those started
/// before one could not be.
type Launched = Result<(Vec<Bot>, Instant), Vec<Bot>>;

impl Lineup {
    /// Launches the bots of `config`'s seats and sends their `hello`s on `launcher`'s thread,
    /// and awaits their `ready`s in a task of the current runtime (a table slot's), whose
    /// thread never waits on a launch.
    pub fn start(config: &MatchConfig, launcher: &Launcher) -> Lineup {
        let started = Instant::now();
        let handle = tokio::runtime::Handle::current();
        let (tx, rx) = tokio::sync::oneshot::channel::<Launched>();
        let config = config.clone();
        let budget = config.time.startup;
        let freeze = config.settings().freeze;
        launcher.run(Box::new(move || {
            // The bots' pipes and tasks belong to the slot's runtime.
            let _runtime = handle.enter();
            let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
            let seats: Vec<usize> = (0..config.bots.len()).collect();
            let started = start_seats(&config, &config.bots, &seats, &names);
            let deadline = ready_deadline(&config);
            let failed = started.iter().any(|(_, b)| b.is_err());
            let bots: Vec<Bot> = started.into_iter().filter_map(|(_, b)| b.ok()).collect();
            // If a bot could not start, the match starts its bots itself and records why.
            let _ = tx.send(if failed {
                Err(bots)
            } else {
                Ok((bots, deadline))
            });
        }));
        let task = tokio::spawn(async move {
            let (mut bots, deadline) = match rx.await {
                Ok(Ok(launched)) => launched,
                Ok(Err(bots)) => return retire(bots).await,
                Err(_) => return None,
            };
            for i in 0..bots.len() {
                if bots[i].await_ready(deadline, budget).await.is_err() {
                    return retire(bots).await;
                }
                if freeze {
                    bots[i].freeze();
                }
            }
            Some(bots)
        });
        Lineup { task, started }
    }

    /// Whether every bot has answered (or one failed): taking the lineup over will not wait.
    pub fn settled(&self) -> bool {
        self.task.is_finished()
    }

    /// How long the lineup has been starting (until it settled, if it did).
    pub fn age(&self) -> Duration {
        self.started.elapsed()
    }

    /// The ready bots, in seat order and thawed, once every `ready` is in; `None` when a bot
    /// failed (they are all dead then).
    pub async fn take_over(self) -> Option<Vec<Bot>> {
        let bots = self.task.await.ok().flatten()?;
        for bot in &bots {
            bot.thaw();
        }
        Some(bots)
    }

    /// Kills every bot of the lineup (its table is not played: the run stops).
    pub async fn discard(self) {
        self.task.abort();
        if let Ok(Some(bots)) = self.task.await {
            retire(bots).await;
        }
    }
}

/// Kills bots that will not play and waits for their ends.
async fn retire(bots: Vec<Bot>) -> Option<Vec<Bot>> {
    for mut bot in bots {
        bot.kill().await;
    }
    None
}

/// A job for a [`Launcher`].
type Job = Box<dyn FnOnce() + Send>;

/// A thread that launches lineups' bots, so that the thread playing a table never waits on a
/// launch: creating a bot's cgroups and forking the launch wrapper can each wait for the kernel
/// (for an RCU grace period while another wrapper joins its cgroups: milliseconds). Bound to the
/// CPU of the thread that makes it, as its bots are. The launch wrapper's parent-death signal
/// fires when this *thread* ends, so a launcher must outlive the bots it launched: a table
/// slot keeps its own until its last table is over. Dropping it waits for the job under way.
#[derive(Debug)]
pub struct Launcher {
    jobs: Option<std::sync::mpsc::Sender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Launcher {
    pub fn new(name: String) -> std::io::Result<Launcher> {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            for job in queue {
                job();
            }
        })?;
        Ok(Launcher {
            jobs: Some(jobs),
            thread: Some(thread),
        })
    }

    /// Runs `job` on the launcher's thread (dropped if the thread is gone: its lineup then
    /// fails, and the match starts its bots itself).
    fn run(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
