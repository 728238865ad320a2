//! One world per bot, at `basic` and `strict`: the namespaces the launch wrapper unshares and
//! the mounts init (PID 1 of the bot's PID namespace) makes before it forks the bot.
//!
//! - **PID**: the bot sees and can signal only its own processes.
//! - **mount**: a fresh `/proc` of that PID namespace (the host's processes, the arbiter's
//!   command line and environment, the other seats are not in it), and private directories on
//!   `/tmp`, `/var/tmp`, `/dev/shm` and `/run/lock` (the world-writable places bots could
//!   meet in) and on its scratch directory, all in one tmpfs of the bot's own: its size and
//!   inodes are the bot's disk quota (`disk`, `inodes` of [`super::ResourceLimits`]: a write
//!   past it fails with ENOSPC), its pages are charged to the bot's memory cgroup, and it
//!   vanishes with the bot's mount namespace, however deep a tree the bot made in it. Of the
//!   host's directories there, the bot sees only those its command names (its program, its
//!   files, its working directory), bound at the same paths; a file named directly in one of the
//!   private directories (`/tmp/mybot`) is bound alone, read-only. `/sys/fs/cgroup` is an empty
//!   read-only tmpfs: the names of the other seats' cgroups, of builds and of other arbiters
//!   are not in sight (the bot's own limits are enforced all the same).
//! - **network**: loopback only, its own: no other seat (nor anything else) is reachable over
//!   TCP, UDP or abstract unix sockets.
//! - **IPC**: System V and POSIX message queues and shared memory of its own.
//! - **cgroup**: its cgroup paths read as `/`, naming nothing of the arbiter.
//!
//! Nothing of this is done at `none`. Each step that the kernel refuses fails the launch with
//! the step named ([`super::launch`] prints it, [`super::Isolation::probe`] turns it into the
//! refusal of the level).

use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use super::Level;
use super::launch::LaunchSpec;
use crate::Error;

/// The namespaces of `basic` and `strict` (a user namespace is added when not root).
pub const NAMESPACES: libc::c_int = libc::CLONE_NEWPID
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWCGROUP;

/// The world-writable directories every bot gets a private tmpfs on, where they exist.
const PRIVATE: [&str; 4] = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock"];

/// The private directories that exist on this machine as directories of their own (a
/// symbolic link such as `/var/lock` -> `/run/lock` is covered by its target).
pub fn private_dirs() -> Vec<PathBuf> {
    PRIVATE
        .iter()
        .map(PathBuf::from)
        .filter(|p| {
            p.symlink_metadata().is_ok_and(|m| m.is_dir())
                && std::fs::canonicalize(p).is_ok_and(|c| &c == p)
        })
        .collect()
}

/// Brings the new network namespace's loopback interface up: the bot may talk to itself (a
/// JVM, a language server, a helper process) but to nothing else.
pub fn loopback_up() -> Result<(), Error> {
    // SAFETY: a socket for the ioctl, closed below; ifreq is plain data.
    unsafe {
        let sock = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if sock < 0 {
            return Err(os_err("a socket to bring loopback up"));
        }
        let mut req: libc::ifreq = std::mem::zeroed();
        for (i, b) in b"lo\0".iter().enumerate() {
            req.ifr_name[i] = *b as libc::c_char;
        }
        let ok = libc::ioctl(sock, libc::SIOCGIFFLAGS, &mut req) == 0 && {
            req.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
            libc::ioctl(sock, libc::SIOCSIFFLAGS, &req) == 0
        };
        let err = os_err("bringing the loopback interface of the bot's network namespace up");
        libc::close(sock);
        if ok { Ok(()) } else { Err(err) }
    }
}

/// Makes the bot's view of the filesystem (see the module header). Runs in init, which is in
/// the bot's PID and mount namespaces and has every capability over them.
pub fn build(spec: &LaunchSpec) -> Result<(), Error> {
    if spec.level == Level::None {
        return Ok(());
    }
    // The arbiter keeps what it writes to itself (umask 077); the mount points made below
    // must be reachable by the bot, and the bot gets the usual umask.
    // SAFETY: umask has no preconditions.
    unsafe { libc::umask(0o022) };
    // Nothing mounted here may reach the host's mount table.
    mount(None, "/", None, libc::MS_REC | libc::MS_PRIVATE, None)
        .map_err(|e| Error::Sandbox(format!("making the bot's mounts private: {e}")))?;
    let dirs = private_dirs();
    let mut kept = kept_paths(spec, &dirs)?;
    let scratch = pool(spec, &dirs)?;
    if scratch.is_some() {
        let cwd = std::fs::canonicalize(&spec.cwd).unwrap_or_else(|_| spec.cwd.clone());
        kept.retain(|k| k.path != cwd);
    }
    for Kept {
        path,
        fd,
        writable,
        file,
    } in &kept
    {
        mount_point(path, *file)?;
        let target = path.display().to_string();
        let source = format!("/proc/self/fd/{}", fd.as_raw_fd());
        mount(
            Some(&source),
            &target,
            None,
            libc::MS_BIND | libc::MS_REC,
            None,
        )
        .map_err(|e| {
            Error::Sandbox(format!(
                "binding {target} into the bot's world: {e}{}",
                if *file { FILE_WAY_OUT } else { "" }
            ))
        })?;
        if !writable {
            mount(
                None,
                &target,
                None,
                libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID,
                None,
            )
            .map_err(|e| Error::Sandbox(format!("making {target} read-only: {e}")))?;
        }
    }
    if let Some(fd) = scratch {
        bind_scratch(spec, &fd)?;
    }
    mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    )
    .map_err(|e| {
        Error::Sandbox(format!(
            "mounting a /proc of the bot's own PID namespace: {e} (in a container, the \
             container's /proc must not be partly masked, or the arbiter must run as root)"
        ))
    })?;
    hide_cgroups()
}

/// The bot's tmpfs (see the module header): mounted on the first private directory, a
/// directory of it bound on each private directory (the first covering the tmpfs's root), and
/// one made for the scratch directory when the bot has one, whose descriptor is returned for
/// [`bind_scratch`] (once the host's directories it may lie under are in place).
fn pool(spec: &LaunchSpec, dirs: &[PathBuf]) -> Result<Option<OwnedFd>, Error> {
    let Some(base) = dirs.first() else {
        return Ok(None);
    };
    let data = format!(
        "mode=0755,size={},nr_inodes={}",
        spec.limits.disk, spec.limits.inodes
    );
    let shown = base.display().to_string();
    mount(
        Some("tmpfs"),
        &shown,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some(&data),
    )
    .map_err(|e| Error::Sandbox(format!("mounting the bot's tmpfs on {shown} ({data}): {e}")))?;
    use std::os::unix::fs::PermissionsExt;
    let make = |name: &str, mode: u32| -> Result<OwnedFd, Error> {
        let path = base.join(name);
        std::fs::create_dir(&path)
            .and_then(|()| std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)))
            .map_err(|e| {
                Error::Sandbox(format!("making {} in the bot's tmpfs: {e}", path.display()))
            })?;
        open_path(&path)
    };
    let subdirs = (0..dirs.len())
        .map(|i| make(&format!("private-{i}"), 0o1777))
        .collect::<Result<Vec<_>, _>>()?;
    let scratch = if spec.scratch {
        let fd = make("scratch", 0o700)?;
        if let (Some(uid), Some(gid)) = (spec.uid, spec.gid) {
            // An O_PATH descriptor cannot be fchown()ed: through its /proc link.
            std::os::unix::fs::chown(
                format!("/proc/self/fd/{}", fd.as_raw_fd()),
                Some(uid),
                Some(gid),
            )
            .map_err(|e| Error::Sandbox(format!("giving the scratch directory to the bot: {e}")))?;
        }
        Some(fd)
    } else {
        None
    };
    for (dir, fd) in dirs.iter().zip(&subdirs) {
        let target = dir.display().to_string();
        let source = format!("/proc/self/fd/{}", fd.as_raw_fd());
        mount(Some(&source), &target, None, libc::MS_BIND, None)
            .map_err(|e| Error::Sandbox(format!("binding the bot's tmpfs on {target}: {e}")))?;
    }
    Ok(scratch)
}

/// Binds the bot's scratch directory of its tmpfs on its working directory.
fn bind_scratch(spec: &LaunchSpec, fd: &OwnedFd) -> Result<(), Error> {
    std::fs::create_dir_all(&spec.cwd)
        .map_err(|e| Error::Sandbox(format!("making {}: {e}", spec.cwd.display())))?;
    let target = spec.cwd.display().to_string();
    let source = format!("/proc/self/fd/{}", fd.as_raw_fd());
    mount(Some(&source), &target, None, libc::MS_BIND, None).map_err(|e| {
        Error::Sandbox(format!(
            "binding the bot's scratch directory on {target}: {e}"
        ))
    })
}

/// Covers `/sys/fs/cgroup` with an empty read-only tmpfs (see the module header).
fn hide_cgroups() -> Result<(), Error> {
    let cgroups = Path::new("/sys/fs/cgroup");
    if !cgroups.is_dir() {
        return Ok(());
    }
    mount(
        Some("tmpfs"),
        "/sys/fs/cgroup",
        Some("tmpfs"),
        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        Some("mode=0555,size=4k,nr_inodes=1"),
    )
    .map_err(|e| Error::Sandbox(format!("hiding /sys/fs/cgroup from the bot: {e}")))
}

/// An `O_PATH` descriptor of a directory, to bind it from `/proc/self/fd` once its path is
/// covered.
fn open_path(path: &Path) -> Result<OwnedFd, Error> {
    let c = CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| Error::Sandbox(format!("a NUL byte in {}", path.display())))?;
    // SAFETY: open with a valid C string; the descriptor is owned below.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(os_err(&format!("opening {}", path.display())));
    }
    // SAFETY: fd is a fresh descriptor we own.
    Ok(unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) })
}

/// What to do when a file named directly in a private directory cannot be bound.
const FILE_WAY_OUT: &str = " (a file directly in /tmp, /var/tmp or /dev/shm is bound alone, \
     read-only; put the bot and its files in a directory of their own, e.g. /tmp/mybot/, or \
     outside these directories, e.g. /srv or /opt)";

/// A host path the bot still sees under a private tmpfs: bound at `path` from `fd` (opened
/// before the tmpfs hides it), a directory or, for a file named directly in a private
/// directory, that file alone.
struct Kept {
    path: PathBuf,
    fd: OwnedFd,
    writable: bool,
    file: bool,
}

/// Makes the mount point of a kept path in the private tmpfs: a directory (and its parents),
/// or an empty file for a file bound alone.
fn mount_point(path: &Path, file: bool) -> Result<(), Error> {
    let made = if file {
        path.parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(path)
                    .map(drop)
            })
    } else {
        std::fs::create_dir_all(path)
    };
    made.map_err(|e| {
        Error::Sandbox(format!(
            "making {} in the private tmpfs: {e}{}",
            path.display(),
            if file { FILE_WAY_OUT } else { "" }
        ))
    })
}

/// The host paths under a private directory that the bot must still see, opened before the
/// private tmpfs hides them: its working directory (writable, its own), and the files and
/// directories its command names. A file stands for its directory (where an interpreter looks
/// for its modules), except a file directly in a private directory (`/tmp/mybot`): the
/// directory is the world-writable place itself, so that file alone is bound, read-only, at
/// the path the command names (and where a symbolic link leads). At `basic` the directories
/// keep the bot user's rights on the host (the organiser named them); at `strict` the named
/// ones are read-only.
fn kept_paths(spec: &LaunchSpec, dirs: &[PathBuf]) -> Result<Vec<Kept>, Error> {
    let under_private = |p: &Path| dirs.iter().any(|d| p.starts_with(d) && p != d);
    let in_private = |p: &Path| {
        p.parent()
            .is_some_and(|parent| dirs.iter().any(|d| d == parent))
    };
    // (where the bot sees it, what is bound there, writable, a file bound alone)
    let mut wanted: Vec<(PathBuf, PathBuf, bool, bool)> =
        vec![(spec.cwd.clone(), spec.cwd.clone(), true, false)];
    for arg in &spec.argv {
        let path = Path::new(arg);
        if !path.is_absolute() {
            continue;
        }
        let Ok(meta) = path.metadata() else {
            continue;
        };
        // A symbolic link stands for the file it names too: the program must be reachable
        // where the link leads (`DIR/arena` -> `/tmp/build/rollarena`).
        let real = std::fs::canonicalize(path).ok();
        for seen in std::iter::once(path).chain(real.as_deref()) {
            if meta.is_dir() {
                wanted.push((seen.into(), seen.into(), spec.level != Level::Strict, false));
            } else if in_private(seen) {
                let Some(real) = &real else { continue };
                wanted.push((seen.into(), real.clone(), false, true));
            } else if let Some(dir) = seen.parent() {
                wanted.push((dir.into(), dir.into(), spec.level != Level::Strict, false));
            }
        }
    }
    let mut kept: Vec<Kept> = Vec::new();
    for (seen, source, writable, file) in wanted {
        // A directory is bound where it really is; a file alone where the command names it
        // (its directory, the private one, is the tmpfs's).
        let path = if file {
            match seen.parent().and_then(|p| std::fs::canonicalize(p).ok()) {
                Some(dir) => dir.join(seen.file_name().unwrap_or_default()),
                None => continue,
            }
        } else {
            match std::fs::canonicalize(&seen) {
                Ok(p) => p,
                Err(_) => continue,
            }
        };
        if !under_private(&path) {
            continue;
        }
        if let Some(k) = kept.iter_mut().find(|k| k.path == path) {
            k.writable |= writable;
            continue;
        }
        let c = CString::new(source.as_os_str().as_encoded_bytes())
            .map_err(|_| Error::Sandbox(format!("a NUL byte in {}", source.display())))?;
        let flags = libc::O_PATH | libc::O_CLOEXEC | if file { 0 } else { libc::O_DIRECTORY };
        // SAFETY: open with a valid C string; the descriptor is owned below.
        let fd = unsafe { libc::open(c.as_ptr(), flags) };
        if fd < 0 {
            let err = os_err(&format!("opening {}", source.display()));
            return Err(if file {
                Error::Sandbox(format!("{err}{FILE_WAY_OUT}"))
            } else {
                err
            });
        }
        kept.push(Kept {
            path,
            // SAFETY: fd is a fresh descriptor we own.
            fd: unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) },
            writable,
            file,
        });
    }
    // Parents first, so that a bind inside another lands on top of it.
    kept.sort_by_key(|k| k.path.components().count());
    Ok(kept)
}

fn mount(
    source: Option<&str>,
    target: &str,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> Result<(), Error> {
    let c = |s: &str| CString::new(s).map_err(|_| Error::Sandbox(format!("a NUL byte in {s:?}")));
    let source = source.map(c).transpose()?;
    let target = c(target)?;
    let fstype = fstype.map(c).transpose()?;
    let data = data.map(c).transpose()?;
    let ptr = |s: &Option<CString>| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    // SAFETY: valid C strings or null pointers, as mount(2) takes them.
    let r = unsafe {
        libc::mount(
            ptr(&source),
            target.as_ptr(),
            ptr(&fstype),
            flags,
            ptr(&data).cast(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(Error::Sandbox(std::io::Error::last_os_error().to_string()))
    }
}

fn os_err(what: &str) -> Error {
    Error::Sandbox(format!("{what}: {}", std::io::Error::last_os_error()))
}
