//! A worker's cache of artifacts (`--cache DIR`): each artifact is fetched once, its bytes
//! checked against its hash before anything else, unpacked into a staging directory and
//! renamed to `DIR/artifacts/<sha256>/`, so what the cache holds was always verified and
//! whole. An artifact whose bytes do not match is refused and nothing of it is kept. The
//! cache is root's (0700): seats run copies made in run directories, never the cache itself.
//! Several workers may share one cache: each unpacks into a staging directory of its own and
//! the rename is atomic (the loser's rename fails and it uses the winner's).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::artifact;
use super::client::{CallError, Client};
use super::wire::Artifact;
use crate::rundir;

/// The default cache: `$XDG_CACHE_HOME/rollarena`, else `~/.cache/rollarena`.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("rollarena"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("rollarena"))
}

/// Why an artifact could not be had.
#[derive(Debug)]
pub enum Missing {
    /// The server could not be reached (try again later).
    Unreachable(String),
    /// It cannot be used: its bytes do not match, it does not unpack, the server refused.
    Refused(String),
}

/// The cache of one worker process.
pub struct Cache {
    dir: PathBuf,
    /// One download at a time: two jobs needing the same artifact fetch it once.
    fetching: Mutex<()>,
}

impl Cache {
    /// Opens (making it if need be) the cache at `dir`.
    pub fn open(dir: &Path) -> Result<Cache, String> {
        let artifacts = dir.join("artifacts");
        std::fs::create_dir_all(&artifacts).map_err(|e| {
            format!(
                "cannot make the cache {}: {e} (choose another with --cache DIR)",
                dir.display()
            )
        })?;
        rundir::set_mode(dir, 0o700)?;
        // Staging directories a killed worker left (an hour old: another worker sharing the
        // cache may be unpacking into a fresh one).
        for e in std::fs::read_dir(&artifacts)
            .map_err(|e| format!("{}: {e}", artifacts.display()))?
            .flatten()
        {
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > std::time::Duration::from_secs(3600));
            if e.file_name().to_string_lossy().starts_with(".staging-") && old {
                crate::sandbox::tree::remove_loudly(&e.path());
            }
        }
        Ok(Cache {
            dir: dir.to_path_buf(),
            fetching: Mutex::new(()),
        })
    }

    /// Where an artifact's files are once cached.
    pub fn path(&self, sha256: &str) -> PathBuf {
        self.dir.join("artifacts").join(sha256)
    }

    /// The directory of `a`'s files, fetched, checked and unpacked if it is not cached yet.
    pub fn get(&self, client: &Client, a: &Artifact) -> Result<PathBuf, Missing> {
        if a.sha256.len() != 64 || !a.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Missing::Refused(format!(
                "the server named the artifact {:?}, which is not a SHA-256",
                a.sha256
            )));
        }
        let path = self.path(&a.sha256);
        if path.is_dir() {
            return Ok(path);
        }
        let _one = self.fetching.lock().unwrap_or_else(|p| p.into_inner());
        if path.is_dir() {
            return Ok(path);
        }
        let bytes = client.artifact(&a.sha256).map_err(|e| match e {
            CallError::Unreachable(m) => Missing::Unreachable(m),
            e => Missing::Refused(format!("fetching the artifact {}: {e}", a.sha256)),
        })?;
        let staging = self
            .dir
            .join("artifacts")
            .join(format!(".staging-{}", crate::tokens::random_hex(8)));
        std::fs::create_dir(&staging)
            .map_err(|e| Missing::Refused(format!("{}: {e}", staging.display())))?;
        let unpacked = artifact::verify_and_unpack(&bytes, &a.sha256, &staging);
        if let Err(e) = unpacked {
            crate::sandbox::tree::remove_loudly(&staging);
            return Err(Missing::Refused(e));
        }
        if let Err(e) = std::fs::rename(&staging, &path) {
            crate::sandbox::tree::remove_loudly(&staging);
            // Another worker sharing the cache put it there first.
            if !path.is_dir() {
                return Err(Missing::Refused(format!("{}: {e}", path.display())));
            }
        }
        tracing::info!("cached the artifact {} ({} bytes)", a.sha256, bytes.len());
        Ok(path)
    }
}
