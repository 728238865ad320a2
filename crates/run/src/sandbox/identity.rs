//! One identity per seat: when the arbiter is root, every bot process tree runs under a uid
//! (and a gid of the same number) of its own, taken from a range (`--bot-uids FIRST-LAST`,
//! 60000-60999 by default, like isolate's numbered boxes) and never shared by two bots alive
//! at the same time, on the whole machine.
//!
//! A uid is taken by locking a file of its own (`flock`, exclusive, non-blocking) in
//! [`LOCK_DIR`]: every `rollarena` process on the machine looks there, so parallel tables and
//! a second arbiter never hand out a uid in use, and the kernel drops the lock when the holder
//! dies, even by SIGKILL, so nothing stale is left to recover. The lock is held by the
//! [`UidLease`], which the bot keeps until its processes are dead.
//!
//! Distinct uids are what keep seats apart: another seat's `/proc/<pid>/mem` and `environ`,
//! its scratch directory (0700, owned by its uid) and its processes (signals, ptrace) are
//! out of reach, and `RLIMIT_NPROC` counts one seat's processes.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use super::BotUser;
use crate::Error;

/// Where the lock file of every uid lives (root only: only root hands out uids).
pub const LOCK_DIR: &str = "/run/rollarena-uids";

/// The default range of `--bot-uids`.
pub const DEFAULT_RANGE: &str = "60000-60999";

/// The uids seats are given, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UidRange {
    pub first: u32,
    pub last: u32,
}

impl UidRange {
    /// Parses `FIRST-LAST` and checks that no user or group of the system has one of its ids
    /// (a seat would get that user's files and that group's rights).
    pub fn parse(s: &str) -> Result<UidRange, Error> {
        let bad = || {
            Error::Settings(format!(
                "--bot-uids {s:?}: give a range FIRST-LAST of unused uids, e.g. {DEFAULT_RANGE}"
            ))
        };
        let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
        let (first, last): (u32, u32) = (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        );
        if first == 0 || first > last || last >= 65534 {
            return Err(Error::Settings(format!(
                "--bot-uids {s:?}: the range must be FIRST-LAST with 0 < FIRST <= LAST < 65534 \
                 (no root, no nobody), e.g. {DEFAULT_RANGE}"
            )));
        }
        let range = UidRange { first, last };
        for (file, what) in [("/etc/passwd", "user"), ("/etc/group", "group")] {
            if let Some((name, id)) = range.taken_in(file) {
                return Err(Error::Settings(format!(
                    "--bot-uids {s:?}: {id} is the id of the {what} {name:?} in {file}; a seat \
                     given it would get that {what}'s rights. Choose a range no user or group \
                     uses (e.g. {DEFAULT_RANGE})"
                )));
            }
        }
        Ok(range)
    }

    /// The first entry of a passwd-style file whose id (third field) is in the range.
    fn taken_in(&self, file: &str) -> Option<(String, u32)> {
        let text = std::fs::read_to_string(file).ok()?;
        text.lines().find_map(|line| {
            let mut fields = line.split(':');
            let name = fields.next()?;
            let id: u32 = fields.nth(1)?.parse().ok()?;
            (self.first..=self.last)
                .contains(&id)
                .then(|| (name.to_string(), id))
        })
    }

    pub fn len(&self) -> u32 {
        self.last - self.first + 1
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// A user standing for every seat, for the checks of what a bot can reach (no seat's uid
    /// owns anything outside its scratch directory, so any uid of the range judges alike).
    pub fn representative(&self) -> BotUser {
        BotUser {
            name: format!("uid {}", self.first),
            uid: self.first,
            gid: self.first,
        }
    }

    /// Takes a uid no live bot of any `rollarena` on this machine has. Tries them in turn from
    /// where this process last stopped, so a released uid is not handed out again at once.
    pub fn acquire(&self) -> Result<UidLease, Error> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = Path::new(LOCK_DIR);
        if !dir.is_dir() {
            std::fs::create_dir_all(dir)
                .and_then(|()| {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                })
                .map_err(|e| {
                    Error::io(format!("cannot make {LOCK_DIR} for the bot uids' locks"), e)
                })?;
        }
        let n = self.len();
        let start = NEXT.fetch_add(1, Ordering::Relaxed);
        for i in 0..n {
            let uid = self.first + (start.wrapping_add(i) % n);
            let path = dir.join(format!("{uid}.lock"));
            let file = File::options()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
            // SAFETY: flock on a descriptor we own.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                NEXT.store(start.wrapping_add(i + 1), Ordering::Relaxed);
                return Ok(UidLease { uid, _lock: file });
            }
        }
        Err(Error::Settings(format!(
            "all {n} uids of --bot-uids {}-{} are in use by live bots (of this and other \
             rollarena processes on this machine): give a wider range",
            self.first, self.last
        )))
    }
}

/// One seat's uid, held until dropped (the lock goes with the file).
#[derive(Debug)]
pub struct UidLease {
    uid: u32,
    _lock: File,
}

impl UidLease {
    /// The seat's identity: the uid, and the gid of the same number.
    pub fn user(&self) -> BotUser {
        BotUser {
            name: format!("uid {}", self.uid),
            uid: self.uid,
            gid: self.uid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(
            UidRange::parse("60000-60009").ok(),
            Some(UidRange {
                first: 60000,
                last: 60009
            })
        );
        assert!(UidRange::parse("6").is_err());
        assert!(
            UidRange::parse("0-10")
                .unwrap_err()
                .to_string()
                .contains("no root")
        );
        assert!(UidRange::parse("10-5").is_err());
        assert!(UidRange::parse("65000-65534").is_err());
        // Root's group and user are id 0; uid 1 (daemon, bin...) exists on every system.
        let e = UidRange::parse("1-1").unwrap_err().to_string();
        assert!(e.contains("is the id of the"), "{e}");
    }

    #[test]
    fn a_uid_is_never_handed_out_twice_while_held() {
        if !super::super::is_root() {
            eprintln!("SKIPPED: only root hands out uids");
            return;
        }
        let range = UidRange::parse("61990-61991").unwrap();
        let a = range.acquire().unwrap();
        let b = range.acquire().unwrap();
        assert_ne!(a.user().uid, b.user().uid);
        // Both held (by this process or another test's): no third.
        if let Ok(c) = range.acquire() {
            panic!("a third uid {} out of two", c.user().uid);
        }
        drop(a);
        assert!(range.acquire().is_ok(), "released with the lease");
    }
}
