//! Building a version: its recipe's build command run by `/bin/sh -c` in a copy of its source
//! made in a run directory of its own (`DIR/run/<random>/`, see [`crate::arena::rundir`]:
//! the build's uid never reaches `versions/`), in the strict sandbox (no network, the
//! filesystem read-only but the build directory and private temporary directories, a PID
//! namespace of its own), under a uid of the build range (never a seat's), with a wall time,
//! memory, processes and output limit. Everything it prints (stdout and stderr, in order) goes
//! to `build.log`, up to the output limit.
//!
//! A build that exceeds a limit is killed, whole (its process group, the cgroup, and the PID
//! namespace, whose init dies with the wrapper), and fails with the limit named in its log.
//! The wrapper's parent-death signal kills it as well when the server dies, even by SIGKILL.
//! Afterwards the build directory belongs to root again and is read-only for everyone, and
//! it is moved to `versions/<id>/build/` (root's only): seats run copies of it.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::arbiter::process::Group;
use crate::arena::config::{BuildConfig, Recipe, format_size};
use crate::arena::rundir::{RunDir, copy_tree};
use crate::sandbox::cgroup::BotCgroups;
use crate::sandbox::launch::{LaunchSpec, SETUP_FAILED, WRAPPER_ARG};
use crate::sandbox::{Isolation, Level};

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
) -> Result<Result<(), String>, String> {
    let (source, build, log) = (
        &dir.join("source"),
        &dir.join("build"),
        &dir.join("build.log"),
    );
    let (max_output, time) = (limits.max_output, limits.time);
    let io = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    if build.exists() {
        std::fs::remove_dir_all(build).map_err(|e| io(build, e))?;
    }
    let work = RunDir::new(arena_dir)?;
    copy_tree(source, work.path()).map_err(|e| io(work.path(), e))?;
    let mut log_file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(log)
        .map_err(|e| io(log, e))?;
    std::fs::set_permissions(log, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| io(log, e))?;
    let started = Instant::now();
    let verdict = if recipe.build.trim().is_empty() {
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
            stop,
        )?
    };
    seal(work.path()).map_err(|e| io(work.path(), e))?;
    std::fs::rename(work.path(), build).map_err(|e| io(build, e))?;
    let secs = started.elapsed().as_secs_f64();
    let _ = match &verdict {
        Ok(()) => writeln!(log_file, "\nbuild: ok in {secs:.1} s"),
        Err(why) => writeln!(log_file, "\nbuild failed after {secs:.1} s: {why}"),
    };
    Ok(verdict)
}

/// Runs the command in the sandbox; the verdict as [`build`] gives it.
fn run(
    iso: &Isolation,
    command: &str,
    dir: &Path,
    log: std::fs::File,
    max_output: u64,
    time: Duration,
    stop: &AtomicBool,
) -> Result<Result<(), String>, String> {
    let (user, _lease) = iso.take_identity()?;
    if let Some(u) = &user {
        chown_all(dir, u.uid, u.gid).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let cgroups = if iso.cgroups {
        let name = format!("build-{}", crate::arena::tokens::random_hex(6));
        Some(
            BotCgroups::create(&name, &iso.limits)
                .map_err(|e| format!("cannot make the build's cgroups: {e}"))?,
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
    let (reader, writer) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
    let mut cmd = std::process::Command::new(crate::sandbox::self_exe());
    cmd.arg(WRAPPER_ARG)
        .arg(spec.to_arg())
        .stdin(Stdio::null())
        .stdout(writer.try_clone().map_err(|e| format!("pipe: {e}"))?)
        .stderr(writer);
    if iso.level != Level::None {
        cmd.env_clear();
    }
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the build's sandbox: {e}"))?;
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
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
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
            return Err(
                "the server is stopping: the build will run again at its next start".into(),
            );
        }
        if why.is_some() {
            group.kill();
            if let Some(c) = &cgroups {
                c.kill_all();
            }
            break child.wait().map_err(|e| e.to_string())?;
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
        return Ok(Err(why));
    }
    if status.success() {
        return Ok(Ok(()));
    }
    use std::os::unix::process::ExitStatusExt;
    Ok(Err(if memory_hit {
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
    }))
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

fn chown_all(dir: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(gid))?;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if e.file_type()?.is_dir() {
            chown_all(&e.path(), uid, gid)?;
        } else {
            std::os::unix::fs::lchown(e.path(), Some(uid), Some(gid))?;
        }
    }
    Ok(())
}

/// Gives the build back to root, read-only for everyone (executables stay executable), with
/// nothing setuid: the seats run it, and nothing of theirs can change it.
fn seal(dir: &Path) -> std::io::Result<()> {
    if crate::sandbox::is_root() {
        std::os::unix::fs::lchown(dir, Some(0), Some(0))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let kind = e.file_type()?;
        if kind.is_dir() {
            seal(&e.path())?;
        } else if kind.is_symlink() {
            if crate::sandbox::is_root() {
                std::os::unix::fs::lchown(e.path(), Some(0), Some(0))?;
            }
        } else {
            let path = e.path();
            use std::os::unix::fs::MetadataExt;
            if e.metadata()?.nlink() > 1 {
                // A hard link the build made: it may name a file outside the build, whose
                // owner and mode must not change.
                std::fs::remove_file(&path)?;
                continue;
            }
            if crate::sandbox::is_root() {
                std::os::unix::fs::lchown(&path, Some(0), Some(0))?;
            }
            let exec = e.metadata()?.permissions().mode() & 0o111 != 0;
            std::fs::set_permissions(
                &path,
                std::fs::Permissions::from_mode(if exec { 0o755 } else { 0o644 }),
            )?;
        }
    }
    Ok(())
}
