//! Every walk over a tree that a team's code wrote: a build's directory, a seat's scratch
//! directory, a version's build, an artifact being packed or unpacked.
//!
//! Such a tree is hostile. A build or a bot can leave a directory 100,000 levels deep (its
//! paths far past `PATH_MAX`, so no path-based call reaches its bottom, and a walk that
//! recurses once per level overflows the thread's stack and kills the server), or a million
//! entries, or gigabytes. So nothing here recurses or builds long paths: every walk works on
//! directory descriptors (`openat`, `unlinkat`, `fchownat`, `fstatat`) with an explicit stack.
//!
//! - [`remove_all`] removes any tree whatever its size, holding one directory open at a time
//!   (going back up through `..`, checked against the device and inode it came from). It is
//!   the only walk without bounds: a tree must always go, completely.
//! - [`discard`] moves a tree aside at once (a rename into a trash directory on the same
//!   filesystem) and removes it on a thread of its own ([`remove_all`]); a removal that fails
//!   is logged as an error, with the path left behind.
//! - [`walk`] visits a tree within [`Bounds`] on depth, entries and bytes, in name order (so
//!   that packing is deterministic); past a bound it stops with [`Error::Bound`], whose message
//!   names the bound. [`copy`], [`chown_all`] and [`seal`] are built on it, and
//!   `arena::remote::artifact` packs with it.

use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

/// The deepest a kept tree may be (a build, an artifact): far beyond any real build (a Java
/// package tree, `node_modules`, a Rust `target/` are tens of levels deep).
pub const MAX_DEPTH: usize = 128;

/// Bounds of a walk: directory levels below the root, entries (files, directories, links),
/// and bytes of regular files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub depth: usize,
    pub entries: u64,
    pub bytes: u64,
}

impl Bounds {
    /// At most `entries` entries and `bytes` bytes, [`MAX_DEPTH`] levels deep.
    pub const fn new(entries: u64, bytes: u64) -> Bounds {
        Bounds {
            depth: MAX_DEPTH,
            entries,
            bytes,
        }
    }
}

/// Why a walk stopped.
#[derive(Debug)]
pub enum Error {
    /// The tree passed a bound: which one (`"depth"`, `"entries"`, `"bytes"`), its value, and
    /// where (relative to the root, cut short).
    Bound {
        what: &'static str,
        limit: u64,
        at: String,
    },
    /// The filesystem failed at `at` (relative to the root).
    Io { at: String, err: io::Error },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Bound {
                what: "depth",
                limit,
                at,
            } => write!(
                f,
                "the tree is deeper than {limit} levels (at {at}): keep it shallower"
            ),
            Error::Bound {
                what: "entries",
                limit,
                at,
            } => write!(
                f,
                "the tree holds more than {limit} files and directories (at {at}): keep fewer"
            ),
            Error::Bound { limit, at, .. } => write!(
                f,
                "the tree's files hold more than {limit} bytes (at {at}): keep less"
            ),
            Error::Io { at, err } => write!(f, "{at}: {err}"),
        }
    }
}

impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}

/// A path for a message: at most 120 bytes of it, the start and the end.
fn short(rel: &Path) -> String {
    let s = rel.to_string_lossy();
    if s.len() <= 120 {
        return if s.is_empty() { ".".into() } else { s.into() };
    }
    let cut = |i: usize, fwd: bool| {
        let mut i = i;
        while !s.is_char_boundary(i) {
            if fwd { i += 1 } else { i -= 1 }
        }
        i
    };
    format!(
        "{}/.../{} ({} levels)",
        s[..cut(50, false)].trim_end_matches('/'),
        s[cut(s.len() - 50, true)..].trim_start_matches('/'),
        rel.components().count()
    )
}

/// What an entry is (`lstat`'s view: a link is a link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Dir,
    File,
    Symlink,
    /// Sockets, fifos, devices: never kept.
    Other,
}

impl Kind {
    fn of(mode: libc::mode_t) -> Kind {
        match mode & libc::S_IFMT {
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFREG => Kind::File,
            libc::S_IFLNK => Kind::Symlink,
            _ => Kind::Other,
        }
    }
}

/// One entry met by [`walk`].
pub struct Entry<'a> {
    /// The directory holding it, and its name there.
    pub parent: BorrowedFd<'a>,
    pub name: &'a CStr,
    /// Its path relative to the root (for names and messages; never opened).
    pub rel: &'a Path,
    pub kind: Kind,
    pub stat: &'a libc::stat,
    /// A directory's own descriptor, open.
    pub fd: Option<BorrowedFd<'a>>,
}

impl Entry<'_> {
    /// Opens a regular file's entry for reading, never following a link.
    pub fn open(&self) -> io::Result<OwnedFd> {
        open_at(
            self.parent,
            self.name,
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK,
            0,
        )
    }
}

/// What a walk saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub entries: u64,
    pub bytes: u64,
}

struct Level<S> {
    fd: OwnedFd,
    names: Vec<CString>,
    next: usize,
    state: S,
}

/// Visits every entry under `root` (not `root` itself), depth first, each directory's entries
/// in name order, within `bounds`. `visit` gets the state of the entry's directory; for a
/// directory it returns the state of that directory to descend into it, or `None` to skip it.
/// The root's state is `root_state`.
pub fn walk<S>(
    root: &Path,
    bounds: Bounds,
    root_state: S,
    mut visit: impl FnMut(&S, &Entry) -> io::Result<Option<S>>,
) -> Result<Totals, Error> {
    let io_at = |rel: &Path, err| Error::Io {
        at: short(rel),
        err,
    };
    let fd = open_path(root).map_err(|e| io_at(Path::new(""), e))?;
    let mut totals = Totals::default();
    let names =
        list(fd.as_fd(), bounds.entries.saturating_add(1)).map_err(|e| io_at(Path::new(""), e))?;
    let mut stack = vec![Level {
        fd,
        names,
        next: 0,
        state: root_state,
    }];
    let mut rel = PathBuf::new();
    while let Some(top) = stack.last_mut() {
        if top.next == top.names.len() {
            stack.pop();
            rel.pop();
            continue;
        }
        let name = std::mem::take(&mut top.names[top.next]);
        top.next += 1;
        rel.push(OsStr::from_bytes(name.to_bytes()));
        totals.entries += 1;
        if totals.entries > bounds.entries {
            return Err(Error::Bound {
                what: "entries",
                limit: bounds.entries,
                at: short(&rel),
            });
        }
        let stat = match stat_at(top.fd.as_fd(), &name) {
            Ok(s) => s,
            Err(e) => return Err(io_at(&rel, e)),
        };
        let kind = Kind::of(stat.st_mode);
        if kind == Kind::File {
            totals.bytes = totals.bytes.saturating_add(stat.st_size.max(0) as u64);
            if totals.bytes > bounds.bytes {
                return Err(Error::Bound {
                    what: "bytes",
                    limit: bounds.bytes,
                    at: short(&rel),
                });
            }
        }
        if kind != Kind::Dir {
            let entry = Entry {
                parent: top.fd.as_fd(),
                name: &name,
                rel: &rel,
                kind,
                stat: &stat,
                fd: None,
            };
            visit(&top.state, &entry).map_err(|e| io_at(&rel, e))?;
            rel.pop();
            continue;
        }
        if stack.len() > bounds.depth {
            return Err(Error::Bound {
                what: "depth",
                limit: bounds.depth as u64,
                at: short(&rel),
            });
        }
        let top = stack.last().expect("a level");
        let fd = open_dir_at(top.fd.as_fd(), &name).map_err(|e| io_at(&rel, e))?;
        let entry = Entry {
            parent: top.fd.as_fd(),
            name: &name,
            rel: &rel,
            kind,
            stat: &stat,
            fd: Some(fd.as_fd()),
        };
        match visit(&top.state, &entry).map_err(|e| io_at(&rel, e))? {
            Some(state) => {
                let left = (bounds.entries.saturating_add(1)).saturating_sub(totals.entries);
                let names = list(fd.as_fd(), left).map_err(|e| io_at(&rel, e))?;
                stack.push(Level {
                    fd,
                    names,
                    next: 0,
                    state,
                });
            }
            None => {
                rel.pop();
            }
        }
    }
    Ok(totals)
}

/// Copies the tree `from` into `to` (made if missing) within `bounds`: directories 0755,
/// regular files 0755 when executable and 0644 otherwise, symbolic links as links, owned by
/// the copier; anything else is left out, and so is a file with several hard links unless
/// `links` (a build on a filesystem of its own can link only to its own files; elsewhere a
/// link may name a file outside the tree).
pub fn copy(from: &Path, to: &Path, bounds: Bounds, links: bool) -> Result<Totals, Error> {
    let at_root = |err| Error::Io {
        at: to.display().to_string(),
        err,
    };
    match std::fs::create_dir(to) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(at_root(e)),
        _ => {}
    }
    let dst = open_path(to).map_err(at_root)?;
    cvt(unsafe { libc::fchmod(dst.as_raw_fd(), 0o755) }).map_err(at_root)?;
    walk(from, bounds, dst, |dst, e| {
        let d = dst.as_raw_fd();
        match e.kind {
            Kind::Dir => {
                match cvt(unsafe { libc::mkdirat(d, e.name.as_ptr(), 0o755) }) {
                    Err(err) if err.kind() != io::ErrorKind::AlreadyExists => return Err(err),
                    _ => {}
                }
                let fd = open_dir_at(dst.as_fd(), e.name)?;
                cvt(unsafe { libc::fchmod(fd.as_raw_fd(), 0o755) })?;
                Ok(Some(fd))
            }
            Kind::File if links || e.stat.st_nlink <= 1 => {
                let mode = if e.stat.st_mode & 0o111 != 0 {
                    0o755
                } else {
                    0o644
                };
                let src = open_at(e.parent, e.name, libc::O_RDONLY | libc::O_NOFOLLOW, 0)?;
                let out = open_at(
                    dst.as_fd(),
                    e.name,
                    libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
                    mode,
                )?;
                cvt(unsafe { libc::fchmod(out.as_raw_fd(), mode) })?;
                let (mut src, mut out) = (std::fs::File::from(src), std::fs::File::from(out));
                io::copy(&mut src, &mut out)?;
                Ok(None)
            }
            Kind::Symlink => {
                let target = read_link_at(e.parent, e.name)?;
                cvt(unsafe { libc::symlinkat(target.as_ptr(), d, e.name.as_ptr()) })?;
                Ok(None)
            }
            _ => Ok(None),
        }
    })
}

/// Gives every entry under `root` (and `root`) to `uid`:`gid`, links themselves not followed.
pub fn chown_all(root: &Path, uid: u32, gid: u32, bounds: Bounds) -> Result<Totals, Error> {
    std::os::unix::fs::lchown(root, Some(uid), Some(gid)).map_err(|err| Error::Io {
        at: root.display().to_string(),
        err,
    })?;
    walk(root, bounds, (), |_, e| {
        chown_at(e.parent, e.name, uid, gid)?;
        Ok((e.kind == Kind::Dir).then_some(()))
    })
}

/// Gives a tree to root (when root), read-only for everyone: directories 0755, files 0755 when
/// executable and 0644 otherwise, nothing setuid; removes files with several hard links (they
/// may name a file outside the tree, whose owner and mode must not change) and anything that
/// is neither a directory, a file nor a link.
pub fn seal(root: &Path, bounds: Bounds) -> Result<Totals, Error> {
    let as_root = super::is_root();
    let at_root = |err| Error::Io {
        at: root.display().to_string(),
        err,
    };
    if as_root {
        std::os::unix::fs::lchown(root, Some(0), Some(0)).map_err(at_root)?;
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).map_err(at_root)?;
    walk(root, bounds, (), |_, e| {
        let p = e.parent.as_raw_fd();
        match e.kind {
            Kind::Dir => {
                let fd = e.fd.expect("a directory is open").as_raw_fd();
                if as_root {
                    cvt(unsafe { libc::fchown(fd, 0, 0) })?;
                }
                cvt(unsafe { libc::fchmod(fd, 0o755) })?;
                return Ok(Some(()));
            }
            Kind::Symlink if as_root => chown_at(e.parent, e.name, 0, 0)?,
            Kind::Symlink => {}
            Kind::File if e.stat.st_nlink <= 1 => {
                if as_root {
                    chown_at(e.parent, e.name, 0, 0)?;
                }
                let mode = if e.stat.st_mode & 0o111 != 0 {
                    0o755
                } else {
                    0o644
                };
                cvt(unsafe { libc::fchmodat(p, e.name.as_ptr(), mode, 0) })?;
            }
            _ => unlink_at(e.parent, e.name, 0)?,
        }
        Ok(None)
    })
}

/// Removes `path` and everything under it, however deep or wide: one directory open at a
/// time, no recursion. A path that is already gone is not an error.
pub fn remove_all(path: &Path) -> io::Result<()> {
    let (parent, name) = match (path.parent(), path.file_name()) {
        (Some(p), Some(n)) => (
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            },
            n,
        ),
        _ => {
            return Err(io::Error::other(format!(
                "{}: not a removable path",
                path.display()
            )));
        }
    };
    let parent = match open_path(parent) {
        Ok(fd) => fd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let name = cstring(name)?;
    remove_at(parent.as_fd(), &name)
}

/// Removes the entry `name` of `parent`, a whole tree if it is a directory.
fn remove_at(parent: BorrowedFd, name: &CStr) -> io::Result<()> {
    match unlink_at(parent, name, 0) {
        Ok(()) => return Ok(()),
        Err(e) if e.raw_os_error() == Some(libc::EISDIR) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    }
    // Where we came from: the names below `name`, and each directory's (device, inode).
    let mut names: Vec<CString> = Vec::new();
    let mut ids: Vec<(u64, u64)> = Vec::new();
    let mut cur = match open_dir_at(parent, name) {
        Ok(fd) => fd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    loop {
        if let Some(child) = empty_but_dirs(cur.as_fd())? {
            match open_dir_at(cur.as_fd(), &child) {
                Ok(fd) => {
                    ids.push(id_of(cur.as_fd())?);
                    names.push(child);
                    cur = fd;
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
            continue;
        }
        let Some(child) = names.pop() else {
            drop(cur);
            return match unlink_at(parent, name, libc::AT_REMOVEDIR) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                r => r,
            };
        };
        let up = open_dir_at(cur.as_fd(), c"..")?;
        if Some(id_of(up.as_fd())?) != ids.pop() {
            return Err(io::Error::other(
                "the tree was moved while it was being removed",
            ));
        }
        cur = up;
        match unlink_at(cur.as_fd(), &child, libc::AT_REMOVEDIR) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
}

/// Removes every entry of `dir` but the directories that are not empty; the first of those,
/// if any (to descend into).
fn empty_but_dirs(dir: BorrowedFd) -> io::Result<Option<CString>> {
    make_writable(dir);
    let mut stream = Stream::open(dir)?;
    while let Some((name, dtype)) = stream.next()? {
        let is_dir = match dtype {
            libc::DT_DIR => true,
            libc::DT_UNKNOWN => match stat_at(dir, &name) {
                Ok(st) => Kind::of(st.st_mode) == Kind::Dir,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            },
            _ => false,
        };
        let flags = if is_dir { libc::AT_REMOVEDIR } else { 0 };
        match unlink_at(dir, &name, flags) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e)
                if is_dir && matches!(e.raw_os_error(), Some(libc::ENOTEMPTY | libc::EEXIST)) =>
            {
                return Ok(Some(name));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// Without root, a directory the bot made unwritable (or unreadable) is made the owner's
/// again so that it can be emptied; root needs nothing.
fn make_writable(dir: BorrowedFd) {
    if let Ok(st) = fstat(dir)
        && st.st_mode & 0o700 != 0o700
    {
        // SAFETY: fchmod on a valid descriptor.
        unsafe { libc::fchmod(dir.as_raw_fd(), (st.st_mode & 0o7777) | 0o700) };
    }
}

/// Moves `path` aside into `trash` (a directory on the same filesystem) at once, under a name
/// of its own, and removes it on the reaper thread; where the rename fails, removes it where
/// it is (on that thread too). A removal that fails is logged as an error.
pub fn discard(path: &Path, trash: &Path) {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let aside = trash.join(format!(".trash-{}-{n}-{nanos:x}", std::process::id()));
    let doomed = match std::fs::rename(path, &aside) {
        Ok(()) => aside,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return,
        Err(_) => path.to_path_buf(),
    };
    reap(doomed);
}

/// The trees handed to the reaper and not yet removed, and the signal of each removal.
static PENDING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// Counts one tree more (`+1`) or one fewer (`-1`) as pending, waking [`wait_reaped`].
fn pending(delta: isize) {
    let (count, done) = &PENDING;
    let mut n = count.lock().unwrap_or_else(|e| e.into_inner());
    *n = n.saturating_add_signed(delta);
    done.notify_all();
}

/// Hands `path` to the reaper thread (made at the first call), which removes it with
/// [`remove_all`]; when no thread can be made, removes it now.
fn reap(path: PathBuf) {
    static QUEUE: OnceLock<Option<mpsc::Sender<PathBuf>>> = OnceLock::new();
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<PathBuf>();
        std::thread::Builder::new()
            .name("tree-reaper".into())
            .spawn(move || {
                for path in rx {
                    remove_loudly(&path);
                    pending(-1);
                }
            })
            .ok()
            .map(|_| tx)
    });
    pending(1);
    let left = match queue {
        Some(tx) => tx.send(path).err().map(|e| e.0),
        None => Some(path),
    };
    if let Some(path) = left {
        remove_loudly(&path);
        pending(-1);
    }
}

/// Waits until every tree handed to the reaper is removed, or `limit` has passed; whether
/// none is left. A process that is about to exit calls it, for its reaper thread dies with
/// it: what it had not removed would stay on the disk until the next start's sweep.
pub fn wait_reaped(limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let (count, done) = &PENDING;
    let mut n = count.lock().unwrap_or_else(|e| e.into_inner());
    while *n > 0 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        n = done
            .wait_timeout(n, left)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    true
}

/// [`remove_all`], logging a failure as an error that names what is left behind.
pub fn remove_loudly(path: &Path) -> bool {
    match remove_all(path) {
        Ok(()) => true,
        Err(e) => {
            tracing::error!(
                "cannot remove {}: {e}: it is left behind on the disk, remove it by hand",
                path.display()
            );
            false
        }
    }
}

/// Bytes and inodes free for an unprivileged user on the filesystem holding `path`.
pub fn free_space(path: &Path) -> io::Result<(u64, u64)> {
    let c = cstring(path.as_os_str())?;
    // SAFETY: statvfs with a valid C string and an out struct.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    cvt(unsafe { libc::statvfs(c.as_ptr(), &mut st) })?;
    Ok((
        (st.f_bavail as u64).saturating_mul(st.f_frsize as u64),
        st.f_favail as u64,
    ))
}

// ---- the system calls, on descriptors ----

fn cvt(r: libc::c_int) -> io::Result<()> {
    if r == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn cstring(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))
}

fn owned(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

const DIR_FLAGS: libc::c_int =
    libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK;

/// Opens a directory by path (the root of a walk, chosen by the arena, never by a team).
fn open_path(path: &Path) -> io::Result<OwnedFd> {
    let c = cstring(path.as_os_str())?;
    // SAFETY: open with a valid C string.
    owned(unsafe { libc::open(c.as_ptr(), DIR_FLAGS) })
}

/// Opens the directory `name` of `dir`, never following a link; one its owner made
/// unreadable is made readable first when we own it.
fn open_dir_at(dir: BorrowedFd, name: &CStr) -> io::Result<OwnedFd> {
    match open_at(dir, name, DIR_FLAGS, 0) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            // SAFETY: fchmodat with a valid name; a failure leaves the first error.
            if unsafe { libc::fchmodat(dir.as_raw_fd(), name.as_ptr(), 0o700, 0) } == 0 {
                open_at(dir, name, DIR_FLAGS, 0)
            } else {
                Err(e)
            }
        }
        r => r,
    }
}

fn open_at(
    dir: BorrowedFd,
    name: &CStr,
    flags: libc::c_int,
    mode: libc::mode_t,
) -> io::Result<OwnedFd> {
    // SAFETY: openat with a valid descriptor and C string.
    owned(unsafe {
        libc::openat(
            dir.as_raw_fd(),
            name.as_ptr(),
            flags | libc::O_CLOEXEC,
            mode as libc::c_uint,
        )
    })
}

fn stat_at(dir: BorrowedFd, name: &CStr) -> io::Result<libc::stat> {
    // SAFETY: fstatat into a zeroed struct, links not followed.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    cvt(unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    })?;
    Ok(st)
}

fn fstat(fd: BorrowedFd) -> io::Result<libc::stat> {
    // SAFETY: fstat into a zeroed struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    cvt(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) })?;
    Ok(st)
}

fn id_of(fd: BorrowedFd) -> io::Result<(u64, u64)> {
    let st = fstat(fd)?;
    Ok((st.st_dev as u64, st.st_ino as u64))
}

fn unlink_at(dir: BorrowedFd, name: &CStr, flags: libc::c_int) -> io::Result<()> {
    // SAFETY: unlinkat with a valid descriptor and C string.
    cvt(unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), flags) })
}

fn chown_at(dir: BorrowedFd, name: &CStr, uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: fchownat with a valid descriptor and C string, links not followed.
    cvt(unsafe {
        libc::fchownat(
            dir.as_raw_fd(),
            name.as_ptr(),
            uid,
            gid,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    })
}

fn read_link_at(dir: BorrowedFd, name: &CStr) -> io::Result<CString> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize + 1];
    // SAFETY: readlinkat into a buffer of the size given.
    let n = unsafe {
        libc::readlinkat(
            dir.as_raw_fd(),
            name.as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    buf.truncate(n as usize);
    CString::new(buf).map_err(|_| io::Error::other("a NUL byte in a link"))
}

/// The names in `dir` (not `.` and `..`), sorted, at most `max` of them.
fn list(dir: BorrowedFd, max: u64) -> io::Result<Vec<CString>> {
    let mut stream = Stream::open(dir)?;
    let mut names = Vec::new();
    while let Some((name, _)) = stream.next()? {
        names.push(name);
        if names.len() as u64 >= max {
            break;
        }
    }
    names.sort();
    Ok(names)
}

/// A directory stream over a duplicate of a descriptor, from its start.
struct Stream(*mut libc::DIR);

impl Stream {
    fn open(dir: BorrowedFd) -> io::Result<Stream> {
        let dup = dir.try_clone_to_owned()?;
        // SAFETY: fdopendir takes the descriptor over on success.
        let stream = unsafe { libc::fdopendir(dup.as_raw_fd()) };
        if stream.is_null() {
            return Err(io::Error::last_os_error());
        }
        std::mem::forget(dup);
        // SAFETY: a valid stream; the duplicate shares its offset with `dir`, so rewind.
        unsafe { libc::rewinddir(stream) };
        Ok(Stream(stream))
    }

    /// The next name and its `d_type`, without `.` and `..`.
    fn next(&mut self) -> io::Result<Option<(CString, u8)>> {
        loop {
            // SAFETY: readdir on a valid stream; errno is cleared first to tell the end from
            // an error, and the entry is copied before the next call.
            unsafe {
                *libc::__errno_location() = 0;
                let e = libc::readdir(self.0);
                if e.is_null() {
                    let errno = *libc::__errno_location();
                    return if errno == 0 {
                        Ok(None)
                    } else {
                        Err(io::Error::from_raw_os_error(errno))
                    };
                }
                let name = CStr::from_ptr((*e).d_name.as_ptr());
                if name == c"." || name == c".." {
                    continue;
                }
                return Ok(Some((name.to_owned(), (*e).d_type)));
            }
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: closing the stream we opened (and its descriptor).
        unsafe { libc::closedir(self.0) };
    }
}

#[cfg(test)]
mod tests;
