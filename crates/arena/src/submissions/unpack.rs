//! Unpacking an upload into a directory, refusing whatever could reach outside it or blow up:
//! entries with `..` or absolute paths, symlinks, hard links, devices and fifos, more entries
//! than `max_files`, more bytes than `max_unpacked` (counted as they are written, never from
//! the archive's own headers, so a lying header or a compression bomb stops at the limit).
//!
//! An archive whose entries all sit in one top directory (a folder packed as it is) is
//! unpacked without it, so `bot/bot.py` and `bot.py` submit alike.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::Refusal;

/// The limits of one upload.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_unpacked: u64,
    pub max_files: u64,
}

/// What an upload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    TarGz,
    Zip,
    Single,
}

/// The kind of an upload, from its first bytes (a gzip or zip signature), else from its name.
pub fn kind_of(file_name: &str, bytes: &[u8]) -> Kind {
    let lower = file_name.to_ascii_lowercase();
    if bytes.starts_with(&[0x1f, 0x8b]) || lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
        Kind::TarGz
    } else if bytes.starts_with(b"PK\x03\x04")
        || bytes.starts_with(b"PK\x05\x06")
        || lower.ends_with(".zip")
    {
        Kind::Zip
    } else {
        Kind::Single
    }
}

/// One entry to write.
enum Entry<'a> {
    Dir,
    File {
        mode: u32,
        reader: Box<dyn Read + 'a>,
    },
}

/// Writes entries under `dest` within the limits.
struct Sink<'a> {
    dest: &'a Path,
    limits: Limits,
    entries: u64,
    bytes: u64,
}

impl Sink<'_> {
    fn put(&mut self, name: &str, entry: Entry<'_>) -> Result<(), Refusal> {
        self.entries += 1;
        if self.entries > self.limits.max_files {
            return Err(Refusal::bad(format!(
                "the archive holds more than {} entries (the arena's limit, [uploads] \
                 max_files): leave out build outputs and dependencies' caches",
                self.limits.max_files
            )));
        }
        let rel = safe_path(name)?;
        if rel.as_os_str().is_empty() {
            return Ok(());
        }
        let path = self.dest.join(&rel);
        let conflict = |e: std::io::Error| {
            use std::io::ErrorKind::{AlreadyExists, IsADirectory, NotADirectory};
            if matches!(e.kind(), AlreadyExists | IsADirectory | NotADirectory) {
                Refusal::bad(format!(
                    "the archive entry {name:?} cannot be unpacked ({e}): is it twice in the \
                     archive, or both a file and a directory?"
                ))
            } else {
                // Not the archive's doing: the arena's disk (full, read-only, ...).
                Refusal::internal(format!("unpacking {name:?}: {e}"))
            }
        };
        match entry {
            Entry::Dir => std::fs::create_dir_all(&path).map_err(conflict),
            Entry::File { mode, reader } => {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(conflict)?;
                }
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
                    .map_err(conflict)?;
                let left = self.limits.max_unpacked - self.bytes;
                let n = std::io::copy(&mut reader.take(left + 1), &mut file).map_err(|e| {
                    Refusal::bad(format!(
                        "the archive is damaged: its entry {name:?} cannot be read ({e})"
                    ))
                })?;
                self.bytes += n;
                if self.bytes > self.limits.max_unpacked {
                    return Err(Refusal::bad(format!(
                        "the archive unpacks to more than {} (the arena's limit, [uploads] \
                         max_unpacked): leave out build outputs and large data",
                        crate::config::format_size(self.limits.max_unpacked)
                    )));
                }
                use std::os::unix::fs::PermissionsExt;
                let mode = if mode & 0o111 != 0 { 0o755 } else { 0o644 };
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
                    .map_err(conflict)
            }
        }
    }
}

/// An entry's path as a relative path with no `..`, or the refusal.
fn safe_path(name: &str) -> Result<PathBuf, Refusal> {
    if name.contains('\0') {
        return Err(Refusal::bad(format!(
            "the archive entry {name:?} has a NUL byte in its name"
        )));
    }
    let path = Path::new(name);
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                return Err(Refusal::bad(format!(
                    "the archive entry {name:?} climbs out of the archive with \"..\": pack \
                     your files with paths relative to your bot's folder"
                )));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(Refusal::bad(format!(
                    "the archive entry {name:?} has an absolute path: pack your files with \
                     paths relative to your bot's folder"
                )));
            }
        }
    }
    Ok(out)
}

fn special(name: &str, what: &str) -> Refusal {
    Refusal::bad(format!(
        "the archive entry {name:?} is a {what}: an upload may hold regular files and \
         directories only (copy the file it points to instead)"
    ))
}

/// Unpacks a tar.gz upload into `dest` (which exists and is empty).
pub fn tar_gz(bytes: &[u8], dest: &Path, limits: Limits) -> Result<(), Refusal> {
    let damaged = |e: std::io::Error| {
        Refusal::bad(format!(
            "the upload is not a readable tar.gz archive ({e}): pack it with `tar czf bot.tar.gz \
             -C DIR .` or upload a zip"
        ))
    };
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    let mut sink = Sink {
        dest,
        limits,
        entries: 0,
        bytes: 0,
    };
    for entry in archive.entries().map_err(damaged)? {
        let entry = entry.map_err(damaged)?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        use tar::EntryType as T;
        let kind = entry.header().entry_type();
        match kind {
            T::Regular | T::Continuous => {
                let mode = entry.header().mode().unwrap_or(0o644);
                sink.put(
                    &name,
                    Entry::File {
                        mode,
                        reader: Box::new(entry),
                    },
                )?;
            }
            T::Directory => sink.put(&name, Entry::Dir)?,
            T::Symlink => return Err(special(&name, "symbolic link")),
            T::Link => return Err(special(&name, "hard link")),
            T::Char | T::Block => return Err(special(&name, "device file")),
            T::Fifo => return Err(special(&name, "named pipe (fifo)")),
            // Metadata the tar crate reads for the next entry (long names, pax headers).
            T::GNULongName | T::GNULongLink | T::XHeader | T::XGlobalHeader => {}
            _ => return Err(special(&name, "special entry")),
        }
    }
    if sink.entries == 0 {
        return Err(Refusal::bad(
            "the archive is empty: pack your bot's files into it".to_string(),
        ));
    }
    Ok(())
}

/// Unpacks a zip upload into `dest` (which exists and is empty).
pub fn zip(bytes: &[u8], dest: &Path, limits: Limits) -> Result<(), Refusal> {
    let damaged = |e: zip::result::ZipError| {
        Refusal::bad(format!(
            "the upload is not a readable zip archive ({e}); only stored and deflated entries \
             are read: pack it with `zip -r bot.zip .` or upload a tar.gz"
        ))
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(damaged)?;
    if archive.len() as u64 > limits.max_files {
        return Err(Refusal::bad(format!(
            "the archive holds {} entries, more than {} (the arena's limit, [uploads] \
             max_files): leave out build outputs and dependencies' caches",
            archive.len(),
            limits.max_files
        )));
    }
    let mut sink = Sink {
        dest,
        limits,
        entries: 0,
        bytes: 0,
    };
    for i in 0..archive.len() {
        let file = archive.by_index(i).map_err(damaged)?;
        let name = file.name().map_err(damaged)?.into_owned();
        let mode = file.unix_mode().unwrap_or(0o644);
        match mode & libc::S_IFMT {
            libc::S_IFLNK => return Err(special(&name, "symbolic link")),
            libc::S_IFCHR | libc::S_IFBLK => return Err(special(&name, "device file")),
            libc::S_IFIFO => return Err(special(&name, "named pipe (fifo)")),
            libc::S_IFSOCK => return Err(special(&name, "socket")),
            _ => {}
        }
        if file.is_dir() {
            sink.put(&name, Entry::Dir)?;
        } else {
            sink.put(
                &name,
                Entry::File {
                    mode,
                    reader: Box::new(file),
                },
            )?;
        }
    }
    if sink.entries == 0 {
        return Err(Refusal::bad(
            "the archive is empty: pack your bot's files into it".to_string(),
        ));
    }
    Ok(())
}

/// When everything in `dir` sits in one subdirectory, moves its contents up.
pub fn strip_single_top(dir: &Path) -> std::io::Result<()> {
    let entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    if let [only] = &entries[..]
        && only.file_type()?.is_dir()
    {
        let top = only.path();
        let tmp = dir.join(".rollarena-top");
        std::fs::rename(&top, &tmp)?;
        for e in std::fs::read_dir(&tmp)? {
            let e = e?;
            std::fs::rename(e.path(), dir.join(e.file_name()))?;
        }
        std::fs::remove_dir(&tmp)?;
    }
    Ok(())
}
