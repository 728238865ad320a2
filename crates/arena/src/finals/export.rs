//! `rollarena arena export DIR FILE`: the whole arena as one `.tar.gz`, taken while the
//! server runs. The database is copied with SQLite's online backup API (a consistent copy,
//! whatever the workers write meanwhile), then `arena.toml`, `versions/`, `records/` and
//! `final/` are added as they are. The archive unpacks into a directory named as the arena's
//! (`tar xzf FILE`), which is an arena: `rollarena serve` opens it as it is. Run directories,
//! the lock and SQLite's WAL files are left out (the copy is whole without them).
//!
//! A file that exists is never overwritten: the archive is created with `create_new`, and
//! removed again if the export fails half way. The archive holds every token's hash and every
//! team's code: it is made private to its owner (mode 0600), and the `arena.db` inside it has
//! the live arena's mode (0600) too, so that `tar xzf` gives back a private database.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::Duration;

use flate2::Compression;
use flate2::write::GzEncoder;

use crate::Arena;
use crate::store::db;

/// What was exported.
#[derive(Debug)]
pub struct Exported {
    /// The directory name the archive unpacks into.
    pub root: String,
    pub bytes: u64,
}

/// Writes the archive of `arena` to `file` (which must not exist).
pub fn export(arena: &Arena, file: &Path) -> Result<Exported, String> {
    let out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!(
                "{} exists already: name a new file (an export never overwrites one)",
                file.display()
            ),
            _ => format!("cannot create {}: {e}", file.display()),
        })?;
    let written = write(arena, out);
    match written {
        Ok(root) => {
            let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
            Ok(Exported { root, bytes })
        }
        Err(e) => {
            let _ = std::fs::remove_file(file);
            Err(e)
        }
    }
}

fn write(arena: &Arena, out: File) -> Result<String, String> {
    let root = arena
        .dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "arena".into());
    // The database copy, removed when the export ends (whichever way).
    struct Copy(std::path::PathBuf);
    impl Drop for Copy {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
    let copy = Copy(std::env::temp_dir().join(format!(
        ".rollarena-export-{}-{}.db",
        std::process::id(),
        db::now_ms()
    )));
    let copy_path = &copy.0;
    backup(arena, copy_path)?;
    let io = |what: &str, e: std::io::Error| format!("cannot write the archive ({what}): {e}");
    let gz = GzEncoder::new(BufWriter::new(out), Compression::default());
    let mut tar = tar::Builder::new(gz);
    tar.follow_symlinks(false);
    tar.mode(tar::HeaderMode::Complete);
    // The arena's directory: traversable, not listable, as `serve` wants it.
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Directory);
    header.set_mode(0o711);
    header.set_size(0);
    header.set_mtime(db::now_ms() as u64 / 1000);
    tar.append_data(&mut header, format!("{root}/"), std::io::empty())
        .map_err(|e| io("the directory", e))?;
    tar.append_path_with_name(copy_path, format!("{root}/{}", db::FILE))
        .map_err(|e| io(db::FILE, e))?;
    tar.append_path_with_name(arena.dir.join("arena.toml"), format!("{root}/arena.toml"))
        .map_err(|e| io("arena.toml", e))?;
    for sub in ["versions", "records", super::tournament::DIR] {
        let path = arena.dir.join(sub);
        if path.is_dir() {
            tar.append_dir_all(format!("{root}/{sub}"), &path)
                .map_err(|e| io(sub, e))?;
        }
    }
    let gz = tar.into_inner().map_err(|e| io("its end", e))?;
    let mut buffered = gz.finish().map_err(|e| io("its end", e))?;
    buffered.flush().map_err(|e| io("its end", e))?;
    let file = buffered
        .into_inner()
        .map_err(|e| io("its end", e.into_error()))?;
    file.sync_all().map_err(|e| io("its end", e))?;
    Ok(root)
}

/// A consistent copy of the arena's database at `to`, with SQLite's online backup.
pub fn backup(arena: &Arena, to: &Path) -> Result<(), String> {
    let from = arena.conn()?;
    // Private from its first byte (SQLite gives its journal the same mode).
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(to)
        .map_err(|e| format!("cannot create the database copy {}: {e}", to.display()))?;
    let mut dest = rusqlite::Connection::open(to)
        .map_err(|e| format!("cannot create the database copy {}: {e}", to.display()))?;
    let backup = rusqlite::backup::Backup::new(&from, &mut dest)
        .map_err(|e| format!("cannot copy the database: {e}"))?;
    backup
        .run_to_completion(1024, Duration::from_millis(20), None)
        .map_err(|e| format!("cannot copy the database: {e}"))?;
    drop(backup);
    // One file, not in WAL mode: the copy stands alone until a server opens it.
    crate::store::standalone(&dest).map_err(|e| format!("the database copy: {e}"))?;
    // The live database's mode, which the archive's entry takes from the copy.
    crate::rundir::set_mode(to, 0o600)
}
