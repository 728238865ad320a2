//! Run directories: where a build runs and where a seat runs its version, so that no bot's uid
//! ever needs to reach `versions/` (root's only, 0700: sources, builds, logs and check
//! reports of every team).
//!
//! Each run directory is `DIR/run/<128 random bits in hex>/`, under a `run/` owned by root with
//! mode 0711: anyone may pass through it, nobody but root may list it, and nobody can guess a
//! name in it. A seat's directory holds a copy of its version's build made for one match (or
//! one `check`), readable and runnable by any uid (the seat's uid is chosen at launch), and is
//! removed when the match ends ([`RunDir`]'s drop); a build runs in one of its own. Whatever a
//! crash left there is removed when the server starts ([`prepare`]).
//!
//! A build's run directory is a tmpfs of its own when the server is root ([`RunDir::quota`]):
//! the kernel caps its bytes and inodes (`[build] disk`, `[build] inodes`), and detaching it
//! removes whatever the build left at once, however deep. Every walk over these trees
//! (copying, removing) is [`crate::sandbox::tree`]'s, bounded and without recursion.
//!
//! A seat learns its own directory (its command names it), which is gone after its match; it
//! cannot learn another's: the other seats run in PID namespaces of their own with a `/proc`
//! of their own, and commands are recorded only in records, which bots cannot read.
//!
//! The arena's two sandboxes that run there ([`Sandboxes`]: seats and builds, each under its
//! own uids and limits) are made here too, checked against the kernel and against this tree,
//! and [`set_mode`], which every part uses to keep its files from the bots' uids.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::Arena;
use super::tokens::random_hex;
use crate::sandbox::tree::{self, Bounds};
use crate::sandbox::{Isolation, Level};

/// The name of the arena's directory of run directories.
pub const RUN: &str = "run";

/// Sets a file's or a directory's mode; the error names the path.
pub fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Makes `DIR/run/` (root's, 0711) and removes whatever is in it: run directories are per
/// match and per build, and none outlives the server that made it.
pub fn prepare(arena_dir: &Path) -> Result<(), String> {
    let run = make_run(arena_dir)?;
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    for e in std::fs::read_dir(&run).map_err(|e| io(&run, e))?.flatten() {
        let path = e.path();
        // A build's tmpfs left mounted by a crash goes first (nothing if it is not one).
        detach(&path);
        tree::remove_all(&path).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// Makes `DIR/run/` (root's, 0711) if it is not there, leaving what it holds; its path.
fn make_run(arena_dir: &Path) -> Result<PathBuf, String> {
    let run = arena_dir.join(RUN);
    let io = |e: std::io::Error| format!("{}: {e}", run.display());
    std::fs::create_dir_all(&run).map_err(io)?;
    if crate::sandbox::is_root() {
        std::os::unix::fs::lchown(&run, Some(0), Some(0)).map_err(io)?;
    }
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o711)).map_err(io)?;
    Ok(run)
}

/// A run directory, removed (with everything in it) when dropped.
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    /// A tmpfs is mounted on it ([`RunDir::quota`]).
    mounted: bool,
}

impl RunDir {
    /// A new, empty run directory (root's, 0755), for a build to run in.
    pub fn new(arena_dir: &Path) -> Result<RunDir, String> {
        let mut run = arena_dir.join(RUN);
        if !run.is_dir() {
            // Never emptied here: other run directories may be in use.
            run = make_run(arena_dir)?;
        }
        let path = run.join(random_hex(16));
        std::fs::create_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let dir = RunDir {
            path,
            mounted: false,
        };
        std::fs::set_permissions(&dir.path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("{}: {e}", dir.path.display()))?;
        Ok(dir)
    }

    /// A fresh copy of a version's sealed build, for one match's seat or one check.
    pub fn copy_of(arena_dir: &Path, build: &Path) -> Result<RunDir, String> {
        let dir = RunDir::new(arena_dir)?;
        copy_tree(build, &dir.path, Bounds::new(u64::MAX, u64::MAX)).map_err(|e| {
            format!(
                "copying {} to a run directory: {e}",
                build.strip_prefix(arena_dir).unwrap_or(build).display()
            )
        })?;
        Ok(dir)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Mounts a tmpfs of `bytes` and `inodes` on this (empty) run directory, so that the
    /// kernel caps what is written in it (a write past it fails with ENOSPC) and dropping it
    /// frees everything at once. Root only: `Ok(false)` when not root (nothing mounted).
    pub fn quota(&mut self, bytes: u64, inodes: u64) -> Result<bool, String> {
        if !crate::sandbox::is_root() {
            return Ok(false);
        }
        let c = |s: String| std::ffi::CString::new(s).map_err(|_| "a NUL byte".to_string());
        let target = c(self.path.display().to_string())?;
        let data = c(format!("mode=0755,size={bytes},nr_inodes={inodes}"))?;
        // SAFETY: mount(2) with valid C strings.
        let r = unsafe {
            libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                data.as_ptr().cast(),
            )
        };
        if r != 0 {
            return Err(format!(
                "cannot mount the build's tmpfs on {}: {}",
                self.path.display(),
                std::io::Error::last_os_error()
            ));
        }
        self.mounted = true;
        Ok(true)
    }

    /// Bytes and inodes left in a [`RunDir::quota`]'d directory.
    pub fn free(&self) -> Option<(u64, u64)> {
        self.mounted
            .then(|| tree::free_space(&self.path).ok())
            .flatten()
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        if self.mounted {
            detach(&self.path);
            if let Err(e) = std::fs::remove_dir(&self.path) {
                tracing::error!("cannot remove {}: {e}", self.path.display());
            }
            return;
        }
        match self.path.parent() {
            Some(run) => tree::discard(&self.path, run),
            None => {
                tree::remove_loudly(&self.path);
            }
        }
    }
}

/// Detaches a filesystem mounted on `path` (at once, even while busy: it goes when its last
/// user does); nothing when none is.
fn detach(path: &Path) {
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
        return;
    };
    // SAFETY: umount2 with a valid C string; EINVAL (not a mount point) is ignored.
    unsafe { libc::umount2(c.as_ptr(), libc::MNT_DETACH | libc::UMOUNT_NOFOLLOW) };
}

/// Copies a tree of directories, regular files and symbolic links (as links), within
/// `bounds`: directories 0755, files 0755 when executable and 0644 otherwise, owned by the
/// copier; files with several hard links are left out ([`tree::copy`]).
pub fn copy_tree(from: &Path, to: &Path, bounds: Bounds) -> Result<(), String> {
    tree::copy(from, to, bounds, false).map(|_| ())?;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("{}: {e}", to.display()))
}

/// The sandboxes of an arena: seats and builds, each with its own uid range and limits.
#[derive(Clone, Debug)]
pub struct Sandboxes {
    pub seats: Isolation,
    pub builds: Isolation,
}

impl Sandboxes {
    /// The strict sandbox for seats and for builds, checked against the kernel.
    pub fn new(arena: &Arena) -> Result<Sandboxes, String> {
        let c = &arena.config;
        let seats = Isolation::new(Level::Strict, None, &c.sandbox.bot_uids, c.bot_limits())?;
        let builds = Isolation::new(Level::Strict, None, &c.build.uids, c.build_limits())?;
        {
            // Probes share one directory per process: one at a time (several arenas may start
            // in one process, as the tests do).
            static PROBING: std::sync::Mutex<()> = std::sync::Mutex::new(());
            let _one = PROBING.lock().unwrap_or_else(|p| p.into_inner());
            seats.probe()?;
            builds.probe()?;
        }
        if seats.reach_user().is_some() {
            let run = arena.dir.join(RUN);
            let traversable = |d: &std::path::Path| {
                use std::os::unix::fs::PermissionsExt;
                d.metadata()
                    .is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
            };
            if !run.ancestors().all(traversable) {
                return Err(format!(
                    "the bots' uids cannot reach {}: it and every directory above it must be \
                     traversable by others (chmod o+x), since bots and builds run from there",
                    run.display()
                ));
            }
        }
        Ok(Sandboxes { seats, builds })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn a_copy_is_private_to_its_unguessable_name_and_gone_when_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let build = tmp.path().join("build");
        std::fs::create_dir_all(build.join("lib")).unwrap();
        std::fs::write(build.join("bot.py"), "print('hi')").unwrap();
        std::fs::set_permissions(build.join("bot.py"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        std::fs::write(build.join("lib/run"), "#!/bin/sh").unwrap();
        std::fs::set_permissions(
            build.join("lib/run"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::os::unix::fs::symlink("lib/run", build.join("start")).unwrap();
        let dir = RunDir::copy_of(tmp.path(), &build).unwrap();
        let path = dir.path().to_path_buf();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(name.len(), 32, "128 bits in hex: {name}");
        assert!(name.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(path.parent().unwrap(), tmp.path().join(RUN));
        let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().mode() & 0o7777;
        assert_eq!(mode(&tmp.path().join(RUN)), 0o711, "run/ cannot be listed");
        assert_eq!(mode(&path), 0o755);
        assert_eq!(mode(&path.join("bot.py")), 0o644);
        assert_eq!(mode(&path.join("lib/run")), 0o755);
        assert_eq!(
            std::fs::read_link(path.join("start")).unwrap(),
            Path::new("lib/run")
        );
        assert_eq!(
            std::fs::read_to_string(path.join("bot.py")).unwrap(),
            "print('hi')"
        );
        let other = RunDir::copy_of(tmp.path(), &build).unwrap();
        assert_ne!(other.path(), dir.path(), "each seat has a copy of its own");
        drop(dir);
        assert!(!path.exists(), "removed when dropped");
        assert!(other.path().exists());
    }

    #[test]
    fn prepare_removes_what_a_crash_left() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("build")).unwrap();
        std::fs::write(tmp.path().join("build/bot.py"), "x").unwrap();
        let left = RunDir::copy_of(tmp.path(), &tmp.path().join("build")).unwrap();
        let path = left.path().to_path_buf();
        std::mem::forget(left);
        std::fs::write(tmp.path().join(RUN).join("stray"), "x").unwrap();
        prepare(tmp.path()).unwrap();
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_dir(tmp.path().join(RUN)).unwrap().count(),
            0,
            "run/ is empty"
        );
    }
}
