//! Building a version: its recipe's build command run by `/bin/sh -c` in a copy of its source
//! made in a run directory of its own (`DIR/run/<random>/`, see [`crate::rundir`]:
//! the build's uid never reaches `versions/`), in the strict sandbox (no network, the
//! filesystem read-only but the build directory and private temporary directories, a PID
//! namespace of its own), under a uid of the build range (never a seat's), with a wall time,
//! memory, processes and output limit. Everything it prints (stdout and stderr, in order) goes
//! to `build.log`, up to the output limit.
//!
//! A build that exceeds a limit is killed, whole (its process group, the cgroup, and the PID
//! namespace, whose init dies with the wrapper), and fails with the limit named in its log.
//! The wrapper's parent-death signal kills it as well when the server dies, even by SIGKILL.
//!
//! Disk: as root, the build directory is a tmpfs of its own, of `[build] disk` bytes and
//! `[build] inodes` files and directories, so the kernel stops a build that writes more (ENOSPC,
//! and the verdict names the quota). A build that succeeds is copied out of it, within the same
//! bounds and [`tree::MAX_DEPTH`] levels, read-only for everyone and root's, into
//! `versions/<id>/build/` (root's only): seats run copies of it. The tmpfs is then detached,
//! which frees all it held at once. A failed build keeps its log and nothing of its tree.
//! Without root no tmpfs can be mounted: the build runs in a plain directory, and the same
//! bounds are checked when its tree is sealed and kept (a build past them fails). Every walk
//! over the tree is [`tree`]'s: iterative, on descriptors, bounded.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::Error;
use crate::arbiter::process::Group;
use crate::config::{BuildConfig, Recipe, format_size};
use crate::rundir::{RUN, RunDir, copy_tree};
use crate::sandbox::cgroup::BotCgroups;
use crate::sandbox::launch::{LaunchSpec, SETUP_FAILED, WRAPPER_ARG};
use crate::sandbox::tree::{self, Bounds};
use crate::sandbox::{Isolation, Level};

/// Why a build failed (it did not fit, ran too long, exited with an error...), in one line:
/// the build's verdict its team reads, recorded as a value, not a failure of the arena.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Failed(pub String);

/// A build's verdict: built, or why not.
pub type Verdict = Result<(), Failed>;

/// Builds the version in `dir` (a version's directory, in the arena `arena_dir`): `source/`
/// copied into a run directory, built there, then moved to `build/` (replacing any earlier
/// one), logging to `build.log`, within `limits` ([build] time and max_output; `iso` holds the
/// rest). `Ok(Err(reason))` is a build that failed (the reason in one line, also at the log's
/// end); `Err` is the arena failing, or stopping (`stop`), with the build killed.
pub fn build(
    iso: &Isolation,
    recipe: &Recipe,
    arena_dir: &Path,
    dir: &Path,
    limits: &BuildConfig,
    stop: &AtomicBool,
) -> Result<Verdict, Error> {
    let (source, build, log) = (
        &dir.join("source"),
        &dir.join("build"),
        &dir.join("build.log"),
    );
    let (max_output, time) = (limits.max_output, limits.time);
    let io = |what: &Path, e: std::io::Error| Error::io(what.display(), e);
    discard(arena_dir, dir);
    let mut work = RunDir::new(arena_dir)?;
    let quota = work.quota(limits.disk, limits.inodes)?;
    let bounds = Bounds::new(limits.inodes, limits.disk);
    let mut log_file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(log)
        .map_err(|e| io(log, e))?;
    std::fs::set_permissions(log, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| io(log, e))?;
    let started = Instant::now();
    let verdict = if let Err(e) = copy_tree(source, work.path(), bounds) {
        Err(Failed(format!(
            "its source does not fit in the build's disk: {e}"
        )))
    } else if recipe.build.trim().is_empty() {
        let _ = writeln!(log_file, "(the {} recipe has no build step)", recipe.name);
        Ok(())
    } else {
        let _ = writeln!(log_file, "$ {}", recipe.build);
        run(
            iso,
            &recipe.build,
            work.path(),
            log_file.try_clone().map_err(|e| io(log, e))?,
            max_output,
            time,
            bounds,
            stop,
        )?
    };
    let verdict = match verdict {
        Ok(()) => keep(&work, build, bounds, quota),
        Err(why) => Err(match over_quota(&work, limits) {
            Some(quota) => Failed(format!("{quota}: {why}")),
            None => why,
        }),
    };
    drop(work);
    let secs = started.elapsed().as_secs_f64();
    let _ = match &verdict {
        Ok(()) => writeln!(log_file, "\nbuild: ok in {secs:.1} s"),
        Err(why) => writeln!(log_file, "\nbuild failed after {secs:.1} s: {why}"),
    };
    Ok(verdict)
}

/// Runs a recipe's probe (`command`, by `/bin/sh -c`) as a build does: in the sandbox, under
/// a build uid, in an empty run directory, for at most `time`. `Ok(Err(why))`: it failed, with
/// the last lines it printed.
pub fn probe(
    iso: &Isolation,
    command: &str,
    arena_dir: &Path,
    time: Duration,
) -> Result<Verdict, Error> {
    let work = RunDir::new(arena_dir)?;
    let log_path = arena_dir
        .join(RUN)
        .join(format!(".probe-{}.log", crate::tokens::random_hex(8)));
    let log = std::fs::File::create(&log_path).map_err(|e| Error::io(log_path.display(), e))?;
    let bounds = Bounds::new(1 << 10, 16 << 20);
    let verdict = run(
        iso,
        command,
        work.path(),
        log,
        64 << 10,
        time,
        bounds,
        &AtomicBool::new(false),
    );
    let output = std::fs::read(&log_path).unwrap_or_default();
    let _ = std::fs::remove_file(&log_path);
    drop(work);
    let said = String::from_utf8_lossy(&output);
    let tail: Vec<&str> = said
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let tail = tail[tail.len().saturating_sub(2)..].join(" / ");
    Ok(verdict?.map_err(|Failed(why)| {
        let why = why
            .replace("the build command ", "it ")
            .replace(" (see the log)", "");
        Failed(if tail.is_empty() {
            why
        } else {
            format!("{why}: {tail}")
        })
    }))
}

/// Keeps a successful build's tree as `build` (see the module header); the reason when it
/// cannot be kept (a bound passed).
fn keep(work: &RunDir, build: &Path, bounds: Bounds, quota: bool) -> Verdict {
    let why = |e: tree::Error| Failed(format!("its build directory cannot be kept: {e}"));
    if !quota {
        tree::seal(work.path(), bounds).map_err(why)?;
        return std::fs::rename(work.path(), build)
            .map_err(|e| Failed(format!("{}: {e}", build.display())));
    }
    let staging = build.with_file_name(".build-new");
    tree::remove_loudly(&staging);
    // Hard links are kept: on the build's own tmpfs they can only name its own files.
    let copied = tree::copy(work.path(), &staging, bounds, true).map_err(why);
    let kept = copied.and_then(|_| {
        std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(0o755))
            .and_then(|()| std::fs::rename(&staging, build))
            .map_err(|e| Failed(format!("{}: {e}", build.display())))
    });
    if kept.is_err() {
        tree::remove_loudly(&staging);
    }
    kept
}

/// The quota a failed build filled, if it filled one (its tmpfs is all but full): "it filled
/// its disk quota of 512M ([build] disk)".
fn over_quota(work: &RunDir, limits: &BuildConfig) -> Option<String> {
    let (bytes, inodes) = work.free()?;
    if bytes < (limits.disk / 100).max(1 << 20) {
        Some(format!(
            "it filled its disk quota of {} ([build] disk)",
            format_size(limits.disk)
        ))
    } else if inodes < (limits.inodes / 100).max(16) {
        Some(format!(
            "it filled its quota of {} files and directories ([build] inodes)",
            limits.inodes
        ))
    } else {
        None
    }
}

/// Removes a version's build tree (moved aside at once): before it is built again, and when
/// it failed (a failed version keeps its log, not its tree).
pub fn discard(arena_dir: &Path, version_dir: &Path) {
    for name in ["build", ".build-new"] {
        let path = version_dir.join(name);
        if path.symlink_metadata().is_ok() {
            tree::discard(&path, &arena_dir.join(RUN));
        }
    }
}

/// Runs the command in the sandbox; the verdict as [`build`] gives it.
#[allow(clippy::too_many_arguments)]
fn run(
    iso: &Isolation,
    command: &str,
    dir: &Path,
    log: std::fs::File,
    max_output: u64,
    time: Duration,
    bounds: Bounds,
    stop: &AtomicBool,
) -> Result<Verdict, Error> {
    let (user, _lease) = iso.take_identity().map_err(Error::run)?;
    if let Some(u) = &user {
        tree::chown_all(dir, u.uid, u.gid, bounds)
            .map_err(|e| Error::at(dir.display(), Error::run(e)))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| Error::io(dir.display(), e))?;
    let cgroups = if iso.cgroups {
        let name = format!("build-{}", crate::tokens::random_hex(6));
        Some(
            BotCgroups::create(&name, &iso.limits)
                .map_err(|e| Error::at("cannot make the build's cgroups", Error::run(e)))?,
        )
    } else {
        None
    };
    let procs = cgroups
        .as_ref()
        .map(|c| c.procs_files())
        .unwrap_or_default();
    let spec = LaunchSpec::new(
        iso,
        user.as_ref(),
        vec!["/bin/sh".into(), "-c".into(), command.into()],
        dir.to_path_buf(),
        procs,
    );
    let (reader, writer) = std::io::pipe().map_err(|e| Error::io("pipe", e))?;
    let mut cmd = std::process::Command::new(crate::sandbox::self_exe());
    cmd.arg(WRAPPER_ARG)
        .arg(spec.to_arg())
        .stdin(Stdio::null())
        .stdout(writer.try_clone().map_err(|e| Error::io("pipe", e))?)
        .stderr(writer);
    if iso.level != Level::None {
        cmd.env_clear();
    }
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::io("cannot start the build's sandbox", e))?;
    drop(cmd);
    let mut group = Group::adopt(child.id());
    let over = Arc::new(AtomicBool::new(false));
    let copier = {
        let over = over.clone();
        std::thread::spawn(move || copy_capped(reader, log, max_output, &over))
    };
    let deadline = Instant::now() + time;
    let mut why: Option<String> = None;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(Error::internal)? {
            break status;
        }
        if over.load(Ordering::SeqCst) {
            why = Some(format!(
                "its output exceeded the limit of {} ([build] max_output)",
                format_size(max_output)
            ));
        } else if Instant::now() >= deadline {
            why = Some(format!(
                "it ran longer than the limit of {} ([build] time)",
                humantime::format_duration(time)
            ));
        }
        if stop.load(Ordering::SeqCst) {
            group.kill();
            if let Some(c) = &cgroups {
                c.kill_all();
            }
            let _ = child.wait();
            // Not the build's fault: it stays `building`, and the next start queues it again.
            return Err(Error::Refused(
                "the server is stopping: the build will run again at its next start".into(),
            ));
        }
        if why.is_some() {
            group.kill();
            if let Some(c) = &cgroups {
                c.kill_all();
            }
            break child.wait().map_err(Error::internal)?;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // Whatever the build left running dies with it.
    group.kill();
    if let Some(c) = &cgroups {
        c.kill_all();
    }
    let _ = copier.join();
    let memory_hit = cgroups.as_ref().is_some_and(|c| c.memory_report().0);
    if let Some(why) = why {
        return Ok(Err(Failed(why)));
    }
    if status.success() {
        return Ok(Ok(()));
    }
    use std::os::unix::process::ExitStatusExt;
    Ok(Err(Failed(if memory_hit {
        format!(
            "it used more memory than the limit of {} ([build] memory)",
            format_size(iso.limits.memory)
        )
    } else if status.signal() == Some(libc::SIGXCPU) {
        format!(
            "it used more CPU time than the limit of {} s",
            iso.limits.cpu_secs
        )
    } else if status.code() == Some(SETUP_FAILED) {
        "the sandbox could not start it (see the log)".to_string()
    } else if let Some(code) = status.code() {
        format!("the build command exited with status {code} (see the log)")
    } else {
        format!(
            "the build command was killed by signal {} (see the log)",
            status.signal().unwrap_or(0)
        )
    })))
}

/// Copies what the build prints into the log, up to `max` bytes; past it, sets `over` and
/// keeps reading (and dropping) until the build is killed.
fn copy_capped(mut from: impl Read, mut to: std::fs::File, max: u64, over: &AtomicBool) {
    let mut written = 0u64;
    let mut buf = [0u8; 8192];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let room = max.saturating_sub(written) as usize;
        let _ = to.write_all(&buf[..n.min(room)]);
        written += n.min(room) as u64;
        if n > room && !over.swap(true, Ordering::SeqCst) {
            let _ = writeln!(to, "\n[... output cut at {} ...]", format_size(max));
        }
    }
}
