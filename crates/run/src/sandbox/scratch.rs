//! Scratch directories and file access for the bot user.
//!
//! Each bot process gets a fresh directory it owns (mode 0700) as its working directory, HOME
//! and TMPDIR; it is removed when the bot is killed. When bots run as another user, the files
//! their commands name must be reachable by that user: this module checks that (so a bot under
//! `/root` fails with a clear message before the match, not as a mysterious crash), and makes a
//! world-readable copy of this binary for the built-in bots when the binary itself is not.

use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::BotUser;

/// Creates `dir` (mode 0700, owned by `owner` when given) in a parent that every uid may
/// traverse but none may list (0711): a seat reaches its own directory and cannot learn the
/// names of the others' (a seat's directory is named after its team).
pub fn make_private_dir(dir: &Path, owner: Option<&BotUser>) -> io::Result<()> {
    if let Some(parent) = dir.parent()
        && !parent.exists()
    {
        std::fs::create_dir_all(parent)?;
        std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o711))?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    if let Some(user) = owner {
        std::os::unix::fs::chown(dir, Some(user.uid), Some(user.gid))?;
    }
    Ok(())
}

/// Removes a dead bot's scratch directory: moved aside into the scratch root at once and
/// removed on a thread of its own ([`super::tree::discard`]), so that a table that ends does
/// not wait on the file system before it starts its next bots (removing a directory took 1-7
/// ms here, more while the results file was being synced; a hostile bot's tree, 100,000 levels
/// deep, takes a second). Whatever is still there when the arbiter exits goes with the scratch
/// root ([`super::cleanup`]).
pub fn remove_later(dir: PathBuf) {
    let trash = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    super::tree::discard(&dir, &trash);
}

/// A program that does nothing and succeeds.
pub fn bin_true() -> &'static str {
    if Path::new("/bin/true").exists() {
        "/bin/true"
    } else {
        "/usr/bin/true"
    }
}

/// Whether `user` can reach `path` with the given access (`want_exec` for programs, read
/// otherwise), judging by ownership and mode bits along the path.
pub fn reachable(path: &Path, user: &BotUser, want_exec: bool) -> bool {
    std::fs::canonicalize(path).is_ok() && blocker(path, user, want_exec).is_none()
}

/// What keeps `user` from `path` (see [`reachable`]): the first directory above it that the
/// user may not search, or the file itself when it is not readable (and runnable, with
/// `want_exec`) by the user; `None` when nothing does (or the path does not exist, which
/// [`reachable`] says).
pub fn blocker(path: &Path, user: &BotUser, want_exec: bool) -> Option<PathBuf> {
    let abs = std::fs::canonicalize(path).ok()?;
    let allowed = |meta: &std::fs::Metadata, bits: u32| {
        // The class the user falls in (owner, group, others) must grant every bit asked.
        let shift = if meta.uid() == user.uid {
            6
        } else if meta.gid() == user.gid {
            3
        } else {
            0
        };
        (meta.mode() >> shift) & bits == bits
    };
    let ancestors: Vec<&Path> = abs.ancestors().skip(1).collect();
    for dir in ancestors.into_iter().rev() {
        match dir.metadata() {
            Ok(meta) if allowed(&meta, 0o1) => {}
            _ => return Some(dir.to_path_buf()),
        }
    }
    match abs.metadata() {
        Ok(meta) if meta.is_dir() && allowed(&meta, 0o5) => None,
        Ok(meta) if !meta.is_dir() && allowed(&meta, if want_exec { 0o5 } else { 0o4 }) => None,
        _ => Some(abs),
    }
}

/// Where [`exe_for`] copies this binary.
pub fn copy_dir() -> PathBuf {
    std::env::temp_dir().join(format!("rollarena-bin-{}", std::process::id()))
}

/// This binary at a path the bot user can run: itself when reachable, else a copy made once
/// per arbiter process in a world-readable directory.
pub fn exe_for(user: &BotUser) -> io::Result<PathBuf> {
    static COPY: OnceLock<Result<PathBuf, std::sync::Arc<io::Error>>> = OnceLock::new();
    let exe = match super::BINARY.get() {
        Some(path) => path.clone(),
        None => std::env::current_exe()?,
    };
    if reachable(&exe, user, true) {
        // Reachable: the bot process runs its own copy of the image through /proc/self/exe,
        // which stays valid even if the file at `exe` is replaced meanwhile.
        return Ok(super::self_exe());
    }
    COPY.get_or_init(|| {
        let dir = copy_dir();
        let copy = dir.join("rollarena");
        (|| -> io::Result<PathBuf> {
            std::fs::create_dir_all(&dir)?;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
            std::fs::copy(super::self_exe(), &copy)?;
            std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755))?;
            Ok(copy)
        })()
        .map_err(std::sync::Arc::new)
    })
    .clone()
    .map_err(|e| {
        io::Error::other(format!(
            "cannot copy the rollarena binary for the bot user: {e}"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachability_follows_mode_bits() {
        let nobody = BotUser {
            name: "nobody".into(),
            uid: 65534,
            gid: 65534,
        };
        assert!(reachable(Path::new("/bin/sh"), &nobody, true));
        assert!(
            reachable(Path::new("/etc/hostname"), &nobody, false)
                || !Path::new("/etc/hostname").exists()
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.py");
        std::fs::write(&file, "x").unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(
            !reachable(&file, &nobody, false),
            "a 0700 parent hides the file"
        );
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(reachable(&file, &nobody, false));
        assert!(!reachable(&file, &nobody, true), "not executable");
    }
}
