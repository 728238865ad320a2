//! What the arbiter writes is out of every bot's reach while the match runs: records, bot
//! logs, tournament output and the live page are created owner-only (umask 077), or readable
//! by one group the organiser names (`--output-group`: umask 027, and the arbiter's
//! effective group is that group, so every file it creates belongs to it). No bot identity
//! is the owner or in that group, so none can read them. The book (`docs/sandbox.md`,
//! "Untrusted bots and the sandbox") says how to publish them once the match is over.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::Error;

/// The mode files the arbiter writes should have (for files that already existed); 0 until
/// [`make_private`] is called.
static FILE_MODE: AtomicU32 = AtomicU32::new(0);

/// Sets the process's umask (and, with a group, its effective gid) for what it writes from
/// now on. Called by the commands that run bots, before they create anything.
pub fn make_private(group: Option<&str>) -> Result<(), Error> {
    let (umask, mode) = match group {
        None => (0o077, 0o600),
        Some(name) => {
            let gid = lookup_group(name)?;
            // SAFETY: setegid has no memory-safety preconditions; glibc applies it to every
            // thread (there is one at this point).
            if unsafe { libc::setegid(gid) } != 0 {
                return Err(Error::Settings(format!(
                    "--output-group {name}: cannot write files as group {name} ({}): the \
                     arbiter must run as root or be a member of that group",
                    std::io::Error::last_os_error()
                )));
            }
            (0o027, 0o640)
        }
    };
    // SAFETY: umask has no preconditions.
    unsafe { libc::umask(umask) };
    FILE_MODE.store(mode, Ordering::Relaxed);
    Ok(())
}

/// The mode for a file the arbiter writes: 0600, 0640 with `--output-group`; `None` before
/// [`make_private`] (commands that run no bot leave modes alone).
pub fn file_mode() -> Option<u32> {
    Some(FILE_MODE.load(Ordering::Relaxed)).filter(|&m| m != 0)
}

fn lookup_group(name: &str) -> Result<u32, Error> {
    let cname = std::ffi::CString::new(name)
        .map_err(|_| Error::Settings(format!("bad group name {name:?}")))?;
    // SAFETY: getgrnam returns static storage or null; the gid is copied out at once.
    let gr = unsafe { libc::getgrnam(cname.as_ptr()) };
    if !gr.is_null() {
        // SAFETY: non-null, a valid group entry.
        return Ok(unsafe { (*gr).gr_gid });
    }
    name.parse().map_err(|_| {
        Error::Settings(format!(
            "--output-group {name}: no such group (see /etc/group, or give a numeric gid)"
        ))
    })
}
