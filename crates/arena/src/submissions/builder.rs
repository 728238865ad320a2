//! The builders: a claimed version is built and checked in a child process of the server
//! (`rollarena __build DIR ID`, [`child`]), so that nothing a build does — nor anything our own
//! code does with what it left (a panic, a stack overflow, an abort) — can end the server. The
//! child reports on its stdout, one JSON line per step ([`Report`]); the server ([`build_once`])
//! records each in the database. A child that dies by a signal, or exits without its verdict,
//! crashed the builder: the version is built again once, and a version whose build crashed the
//! builder twice is `failed` ("the build crashed the builder ..."), never built a third time.
//! The attempt is counted (`build_attempts`) before the child starts, so a crash that takes
//! the whole server down counts too: a version found `building` or `checking` when the server
//! starts is such a crash ([`crate::ladder::matchmaker::expire`]).
//!
//! **Fairness.** `[build] workers` builders claim versions concurrently. A team has at most one
//! version queued (a newer upload supersedes it, see [`super::accept`]), and the builders take
//! the queued version of the team whose last build started longest ago (teams never built
//! first), then the one waiting longest: teams are served round-robin, so ten slow uploads of
//! one team delay another team's build by at most one of them.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::{build, checking};
use crate::rundir::Sandboxes;
use crate::store::db;
use crate::store::{VersionId, builds};
use crate::{Arena, rundir};

/// The hidden subcommand a build's child process runs: `rollarena __build DIR ID`.
pub const CHILD_ARG: &str = "__build";

/// Builds of a version that may crash the builder before it is failed.
pub const MAX_CRASHES: i64 = 2;

/// How long a stopping server waits for a child to finish (a check under way) before it
/// kills it; the version is built again at the next start either way, without counting the
/// attempt. Short, because `serve` stops within 5 s whatever runs (protocol/ARENA.md §9):
/// the builder must put the version back in the queue before the server's own deadline.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// One step of a child's build, as a line of JSON on its stdout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "report", rename_all = "snake_case")]
pub enum Report {
    /// The build succeeded; the check starts.
    Built,
    /// The build failed (the reason in one line, also at the end of its log).
    BuildFailed { why: String },
    /// The built bot failed its check (its first failed item).
    CheckFailed { why: String },
    /// Built and checked: the version plays.
    Passed,
    /// The arena failed (its disk, the sandbox), not the team's build.
    ArenaFailed { error: String },
    /// The server is stopping: the build was killed, and runs again at the next start.
    Stopped,
}

impl Report {
    /// True for a report that ends the child's work.
    pub fn is_verdict(&self) -> bool {
        *self != Report::Built
    }
}

/// The child's work (`rollarena __build DIR ID`): builds and checks version `id` of the arena
/// at `dir`, writing each [`Report`] as a line on `out`. It changes nothing in the database
/// (the server records the reports). Its stdin's first line is the server's settings as JSON
/// (the child builds with those the server runs with, whatever `arena.toml` says by now); the
/// rest is the server's stop: at its end (the server stops, or dies) a build under way is
/// killed and the child reports [`Report::Stopped`].
pub fn child(dir: &Path, id: i64, out: &mut impl Write) -> Result<(), String> {
    let mut settings = String::new();
    let mut stdin = BufReader::new(std::io::stdin());
    stdin
        .read_line(&mut settings)
        .map_err(|e| format!("cannot read the server's settings: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut stdin, &mut std::io::sink());
            stop.store(true, Ordering::SeqCst);
        });
    }
    let mut say = |report: Report| -> Result<(), String> {
        let line = serde_json::to_string(&report).map_err(|e| e.to_string())?;
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot report to the server: {e}"))
    };
    let verdict = match build_and_check(dir, &settings, id, &stop, &mut say) {
        Ok(verdict) => verdict,
        Err(_) if stop.load(Ordering::SeqCst) => Report::Stopped,
        Err(error) => Report::ArenaFailed { error },
    };
    say(verdict)
}

/// Builds and checks version `id`; the verdict (`Err`: the arena failed).
fn build_and_check(
    dir: &Path,
    settings: &str,
    id: i64,
    stop: &AtomicBool,
    say: &mut dyn FnMut(Report) -> Result<(), String>,
) -> Result<Report, String> {
    let config = serde_json::from_str(settings)
        .map_err(|e| format!("the server's settings cannot be read: {e}"))?;
    let dir = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let arena = Arena::with_config(&dir, config)?;
    let (language, team) = builds::language_and_team(&*arena.conn()?, VersionId(id))?;
    let config = &arena.config;
    let recipe = config
        .recipe(&language)
        .ok_or_else(|| format!("the arena no longer offers the language {language:?}"))?;
    let iso = Sandboxes::new(&arena)?;
    let vdir = arena.version_dir(id);
    let verdict = build::build(&iso.builds, recipe, &arena.dir, &vdir, &config.build, stop)?;
    if let Err(why) = verdict {
        return Ok(Report::BuildFailed { why });
    }
    say(Report::Built)?;
    // The check runs a copy, as a match's seat does (see `rundir`), removed once it is done.
    let report = {
        let (argv, _run) = checking::seat(&arena.dir, &vdir.join("build"), &recipe.run)?;
        checking::check(
            config,
            &iso.seats,
            &format!("{team} #{id}"),
            argv,
            id as u64,
        )?
    };
    let json = vdir.join("check.json");
    std::fs::write(
        &json,
        serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?,
    )
    .map_err(|e| format!("{}: {e}", json.display()))?;
    rundir::set_mode(&json, 0o600)?;
    Ok(if report.passed {
        Report::Passed
    } else {
        // A failed version keeps its log and its check, not its build tree.
        build::discard(&arena.dir, &vdir);
        Report::CheckFailed {
            why: checking::first_failure(&report).unwrap_or_else(|| "check: failed".into()),
        }
    })
}

/// Claims the next version to build for `owner` (see the module header for the order).
fn claim(conn: &Connection, owner: &str, lease: Duration) -> Result<Option<builds::Claim>, String> {
    let now = db::now_ms();
    Ok(builds::claim(
        conn,
        owner,
        now,
        now + lease.as_millis() as i64,
    )?)
}

/// Builds and checks the next queued version in a child process; false when there was none.
/// `stop` ends the child's work (the version is queued again, its attempt not counted).
pub fn build_once(arena: &Arena, owner: &str, stop: &AtomicBool) -> Result<bool, String> {
    let conn = arena.conn()?;
    let config = &arena.config;
    // The lease covers the build and the check; nothing renews it.
    let lease = config.build.time + Duration::from_secs(600);
    let Some(claim) = claim(&conn, owner, lease)? else {
        return Ok(false);
    };
    let id = claim.id.0;
    let Some(recipe) = config.recipe(&claim.language) else {
        failed(
            &conn,
            id,
            &format!(
                "the arena no longer offers the language {:?}: submit again",
                claim.language
            ),
        )?;
        return Ok(true);
    };
    let (verdict, status) = match run_child(arena, id, &conn, &recipe.run, stop) {
        Ok(done) => done,
        Err(e) => {
            // The child could not even start: the arena's failure, not the team's.
            failed(
                &conn,
                id,
                &format!("the arena could not build or check it: {e}"),
            )?;
            return Ok(true);
        }
    };
    match verdict {
        Some(Report::Passed) => {
            builds::ready(&conn, VersionId(id), db::now_ms())?;
        }
        Some(Report::BuildFailed { why }) => {
            builds::set_built_at(&conn, VersionId(id), db::now_ms())?;
            failed(&conn, id, &format!("build: {why}"))?;
        }
        Some(Report::CheckFailed { why }) => {
            builds::set_checked_at(&conn, VersionId(id), db::now_ms())?;
            failed(&conn, id, &why)?;
        }
        Some(Report::ArenaFailed { error }) => {
            // The arena failed, not the team: say so rather than retry for ever.
            tracing::warn!("arena builder: version {id}: {error}");
            failed(
                &conn,
                id,
                &format!("the arena could not build or check it: {error}"),
            )?;
        }
        Some(Report::Stopped) | Some(Report::Built) | None if stop.load(Ordering::SeqCst) => {
            // Not the build's fault: queued again, this attempt not counted.
            builds::requeue(&conn, VersionId(id), true)?;
        }
        _ => crashed(&conn, id, claim.attempts, &how(status))?,
    }
    Ok(true)
}

/// Runs the child for version `id`, recording its progress (`Built`: the version is being
/// checked); its verdict, if it gave one, and how it ended.
fn run_child(
    arena: &Arena,
    id: i64,
    conn: &Connection,
    run: &str,
    stop: &AtomicBool,
) -> Result<(Option<Report>, Option<ExitStatus>), String> {
    let mut cmd = Command::new(crate::sandbox::self_exe());
    cmd.arg(CHILD_ARG)
        .arg(&arena.dir)
        .arg(id.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe; the child dies with the thread that started it
        // (a builder of the server), so no build outlives a killed server.
        unsafe {
            cmd.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the build's process: {e}"))?;
    let mut stdin = child.stdin.take();
    let settings = serde_json::to_string(&arena.config).map_err(|e| e.to_string())?;
    if let Some(pipe) = stdin.as_mut() {
        // A child that cannot read them reports so (or crashed, and is counted as such).
        let _ = writeln!(pipe, "{settings}").and_then(|()| pipe.flush());
    }
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel::<Result<Report, String>>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let report = serde_json::from_str::<Report>(&line)
                .map_err(|e| format!("the build's process said {line:?}: {e}"));
            if tx.send(report).is_err() {
                break;
            }
        }
    });
    let mut verdict = None;
    let mut stopping: Option<Instant> = None;
    let handle = |report: Result<Report, String>, verdict: &mut Option<Report>| match report {
        Ok(Report::Built) => {
            let _ = builds::built(conn, VersionId(id), db::now_ms(), run);
        }
        Ok(report) => *verdict = Some(report),
        Err(e) => tracing::warn!("arena builder: version {id}: {e}"),
    };
    let status = loop {
        while let Ok(report) = rx.try_recv() {
            handle(report, &mut verdict);
        }
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if stop.load(Ordering::SeqCst) {
            match stopping {
                None => {
                    // The end of its stdin tells the child to stop.
                    drop(stdin.take());
                    stopping = Some(Instant::now());
                }
                Some(at) if at.elapsed() > STOP_GRACE => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Some(_) => {}
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = reader.join();
    while let Ok(report) = rx.try_recv() {
        handle(report, &mut verdict);
    }
    if status.is_some_and(|s| !s.success()) {
        // A verdict, then a crash (while exiting): the verdict stands, the crash is logged.
        if verdict.is_some() {
            tracing::warn!(
                "arena builder: version {id}: its process ended badly after its verdict: {}",
                how(status)
            );
        }
    }
    Ok((verdict, status))
}

/// How a child that gave no verdict ended, in words.
fn how(status: Option<ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        None => "it was killed as the server stopped".into(),
        Some(s) => match (s.signal(), s.code()) {
            (Some(sig), _) => format!("its process was killed by signal {sig}{}", signal_name(sig)),
            (_, Some(code)) => format!("its process exited with status {code} without a verdict"),
            _ => format!("its process ended without a verdict ({s})"),
        },
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => " (SIGSEGV: a stack overflow or a memory fault)",
        libc::SIGABRT => " (SIGABRT: an abort)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGBUS => " (SIGBUS)",
        _ => "",
    }
}

/// The build of version `id` (its `attempts`-th) crashed the builder: queued again, or failed
/// once it did so [`MAX_CRASHES`] times.
fn crashed(conn: &Connection, id: i64, attempts: i64, how: &str) -> Result<(), String> {
    tracing::warn!("arena builder: version {id}: the build crashed the builder: {how}");
    if attempts >= MAX_CRASHES {
        failed(conn, id, &crash_verdict(attempts, how))
    } else {
        Ok(builds::requeue(conn, VersionId(id), false)?)
    }
}

/// The verdict of a version whose build crashed the builder `times` times, the last as `how`
/// says.
pub fn crash_verdict(times: i64, how: &str) -> String {
    format!(
        "the build crashed the builder {} (the last time {how}): it is not built again; \
         look at what the build leaves behind (a tree of files that is very deep or very \
         large), change it and submit again",
        if times == 2 {
            "twice".to_string()
        } else {
            format!("{times} times")
        }
    )
}

fn failed(conn: &Connection, id: i64, why: &str) -> Result<(), String> {
    Ok(builds::failed(conn, VersionId(id), why)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_reach_the_child_whole_and_reports_read_back() {
        let mut config =
            crate::config::Config::new(crate::game::registry::default_name(), Default::default())
                .unwrap();
        config.build.time = Duration::from_millis(3500);
        config.build.workers = 3;
        config.uploads.per_hour = 0;
        let sent = serde_json::to_string(&config).unwrap();
        assert!(!sent.contains('\n'), "one line");
        let read: crate::config::Config = serde_json::from_str(&sent).unwrap();
        assert_eq!(read, config);
        for report in [
            Report::Built,
            Report::BuildFailed { why: "x".into() },
            Report::Passed,
            Report::Stopped,
        ] {
            let line = serde_json::to_string(&report).unwrap();
            assert_eq!(serde_json::from_str::<Report>(&line).unwrap(), report);
        }
    }
}
