//! Artifacts: a version's build directory packed into a gzipped tar, byte for byte the same
//! whenever it is packed (entries sorted by name, mtimes 0, owners root, modes 0755/0644,
//! fixed compression), so its SHA-256 names it. The server packs a version once, when a remote
//! worker first needs it, into `versions/<id>/artifact.tar.gz`, and stores the hash, the size
//! and the CPU architecture it was built on (the server's: builds run there). Workers fetch an
//! artifact by hash, check the hash before anything else, and unpack it with the uploads'
//! own unpacker (`submissions::unpack`), so a worker never trusts what the link brought.
//!
//! A symbolic link in a build is packed as the file it points to when that file lies inside
//! the build, and refused otherwise (packing runs as root: a link to a file of the server's
//! must never carry that file to a worker); an artifact holds regular files and directories
//! only, as an upload does.

use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::wire::Artifact;
use crate::sandbox::tree;
use crate::store::{VersionId, builds};
use crate::submissions::unpack;
use crate::tournament::config::sha256_hex;
use crate::{Arena, rundir};

/// The artifact's file in a version's directory.
pub const FILE: &str = "artifact.tar.gz";

/// Limits of an artifact unpacked by a worker: a build may be much larger than an upload
/// (a Rust bot's `target/`), but not without bound.
pub const UNPACK_LIMITS: unpack::Limits = unpack::Limits {
    max_unpacked: 4 << 30,
    max_files: 200_000,
};

/// Packs the directory `dir` (deterministically; see the module header), within the bounds
/// a worker unpacks ([`UNPACK_LIMITS`], [`tree::MAX_DEPTH`] levels): one walk on descriptors,
/// without recursion ([`tree::walk`]).
pub fn pack(dir: &Path) -> Result<Vec<u8>, String> {
    let gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::new(6));
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    let root = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let bounds = tree::Bounds::new(UNPACK_LIMITS.max_files, UNPACK_LIMITS.max_unpacked);
    let mut refused: Option<String> = None;
    let walked = tree::walk(&root, bounds, (), |_, e| {
        add(&mut tar, &root, e).map_err(|r| match r {
            Added::Refused(why) => {
                refused = Some(why.clone());
                std::io::Error::other(why)
            }
            Added::Io(e) => e,
        })?;
        Ok((e.kind == tree::Kind::Dir).then_some(()))
    });
    if let Some(why) = refused {
        return Err(why);
    }
    walked.map_err(|e| format!("packing {}: {e}", dir.display()))?;
    let gz = tar
        .into_inner()
        .map_err(|e| format!("packing {}: {e}", dir.display()))?;
    gz.finish()
        .map_err(|e| format!("packing {}: {e}", dir.display()))
}

enum Added {
    Refused(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Added {
    fn from(e: std::io::Error) -> Added {
        Added::Io(e)
    }
}

/// Adds one entry of the walk to the archive.
fn add<W: Write>(tar: &mut tar::Builder<W>, root: &Path, e: &tree::Entry) -> Result<(), Added> {
    let name = e.rel;
    let mut header = tar::Header::new_gnu();
    header.set_mtime(0);
    header.set_uid(0);
    header.set_gid(0);
    if e.kind == tree::Kind::Dir {
        header.set_entry_type(tar::EntryType::Directory);
        header.set_mode(0o755);
        header.set_size(0);
        tar.append_data(&mut header, name, std::io::empty())?;
        return Ok(());
    }
    let file = match e.kind {
        tree::Kind::Symlink => {
            let target = root
                .join(name)
                .canonicalize()
                .ok()
                .filter(|t| t.starts_with(root) && t.is_file());
            let target = target.ok_or_else(|| {
                Added::Refused(format!(
                    "the build holds the symbolic link {} to something that is not a file \
                     inside the build: an artifact carries the build's own files only",
                    name.display()
                ))
            })?;
            std::fs::File::open(target)?
        }
        tree::Kind::File => std::fs::File::from(e.open()?),
        _ => return Ok(()),
    };
    use std::os::unix::fs::PermissionsExt;
    let meta = file.metadata()?;
    let exec = meta.permissions().mode() & 0o111 != 0;
    header.set_entry_type(tar::EntryType::Regular);
    header.set_mode(if exec { 0o755 } else { 0o644 });
    header.set_size(meta.len());
    tar.append_data(&mut header, name, std::io::Read::take(file, meta.len()))?;
    Ok(())
}

/// The artifact of version `id`, packed now if it was not yet (`None`: a built-in anchor,
/// which runs `rollarena bot NAME` and has none). `arch` is recorded as this machine's.
pub fn ensure(arena: &Arena, conn: &Connection, id: i64) -> Result<Option<Artifact>, String> {
    let row = builds::artifact(conn, VersionId(id))?;
    let Some(builds::ArtifactRow {
        language,
        sha256: sha,
        bytes,
        arch,
    }) = row
    else {
        return Err(format!("there is no version {id}"));
    };
    if language == "builtin" {
        return Ok(None);
    }
    let file = arena.version_dir(id).join(FILE);
    if let (Some(sha256), Some(bytes), Some(arch)) = (sha, bytes, arch)
        && file.exists()
    {
        return Ok(Some(Artifact {
            sha256,
            bytes: bytes as u64,
            arch,
        }));
    }
    let packed = pack(&arena.version_dir(id).join("build"))?;
    let sha256 = sha256_hex(&packed);
    // Written beside, then renamed: two leases packing at once write the same bytes.
    let tmp = file.with_extension(format!("tmp-{}", crate::tokens::random_hex(4)));
    std::fs::write(&tmp, &packed).map_err(|e| format!("{}: {e}", tmp.display()))?;
    rundir::set_mode(&tmp, 0o600)?;
    std::fs::rename(&tmp, &file).map_err(|e| format!("{}: {e}", file.display()))?;
    let arch = std::env::consts::ARCH.to_string();
    builds::set_artifact(conn, VersionId(id), &sha256, packed.len() as i64, &arch)?;
    Ok(Some(Artifact {
        sha256,
        bytes: packed.len() as u64,
        arch,
    }))
}

/// The file of the artifact with this hash (`None`: no version has it).
pub fn find(arena: &Arena, conn: &Connection, sha256: &str) -> Result<Option<PathBuf>, String> {
    let id = builds::with_artifact(conn, sha256)?;
    Ok(id.map(|id| arena.version_dir(id.0).join(FILE)))
}

/// Checks `bytes` against the hash they were fetched by, then unpacks them into `dest` (new
/// and empty) with the uploads' unpacker.
pub fn verify_and_unpack(bytes: &[u8], sha256: &str, dest: &Path) -> Result<(), String> {
    let got = sha256_hex(bytes);
    if got != sha256 {
        return Err(format!(
            "the artifact fetched as {sha256} has the SHA-256 {got}: its bytes are not the \
             version's build (damaged on the way, or altered); refused and not cached"
        ));
    }
    unpack::tar_gz(bytes, dest, UNPACK_LIMITS)
        .map_err(|r| format!("the artifact {sha256} cannot be unpacked: {}", r.message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn packing_is_deterministic_and_round_trips() {
        let tmp = tempfile::tempdir().unwrap();
        let build = tmp.path().join("build");
        std::fs::create_dir_all(build.join("lib/deep")).unwrap();
        std::fs::write(build.join("bot"), b"#!/bin/sh\necho hi\n").unwrap();
        std::fs::set_permissions(build.join("bot"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        std::fs::write(build.join("lib/deep/data.txt"), b"data").unwrap();
        std::os::unix::fs::symlink("lib/deep/data.txt", build.join("link")).unwrap();
        let a = pack(&build).unwrap();
        // The same tree with other mtimes packs to the same bytes.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        std::fs::write(build.join("lib/deep/data.txt"), b"data").unwrap();
        let b = pack(&build).unwrap();
        assert_eq!(sha256_hex(&a), sha256_hex(&b));
        let dest = tmp.path().join("out");
        std::fs::create_dir(&dest).unwrap();
        verify_and_unpack(&a, &sha256_hex(&a), &dest).unwrap();
        assert_eq!(
            std::fs::read(dest.join("lib/deep/data.txt")).unwrap(),
            b"data"
        );
        assert_eq!(std::fs::read(dest.join("link")).unwrap(), b"data");
        let mode = std::fs::metadata(dest.join("bot"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        // One byte changed: refused before unpacking.
        let mut bad = a.clone();
        let last = bad.len() - 9;
        bad[last] ^= 1;
        let other = tmp.path().join("other");
        std::fs::create_dir(&other).unwrap();
        let err = verify_and_unpack(&bad, &sha256_hex(&a), &other).unwrap_err();
        assert!(err.contains("not the version's build"), "{err}");
        assert_eq!(std::fs::read_dir(&other).unwrap().count(), 0);
    }

    #[test]
    fn a_link_out_of_the_build_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let build = tmp.path().join("build");
        std::fs::create_dir(&build).unwrap();
        std::fs::write(tmp.path().join("secret"), b"x").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), build.join("s")).unwrap();
        let err = pack(&build).unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
    }
}
