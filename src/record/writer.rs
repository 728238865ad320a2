//! Appends rounds to a record file: each line written whole with one `write` on a file opened
//! for appending, then synced, so a killed arbiter leaves every finished round complete. The
//! path `-` is standard output; a pipe or a terminal (`/dev/stdout`, a FIFO) is written to the
//! same way, without the sync, which only a file on disk has.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::RoundRecord;

/// An open record file.
#[derive(Debug)]
pub struct RecordWriter {
    file: File,
    path: PathBuf,
    /// A file on disk, which is synced after each round (a pipe cannot be).
    regular: bool,
}

impl RecordWriter {
    /// Opens (creating it if needed) a record file for appending. A torn last line left by a
    /// killed writer is completed with a newline first, so it stays one ignorable line.
    pub fn append(path: &Path) -> io::Result<RecordWriter> {
        if path == Path::new("-") {
            use std::os::fd::AsFd;
            let file = File::from(io::stdout().as_fd().try_clone_to_owned()?);
            return Ok(RecordWriter {
                file,
                path: path.to_path_buf(),
                regular: false,
            });
        }
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            // A pipe, a terminal, /dev/stdout: written, never read back or synced.
            let file = OpenOptions::new().append(true).open(path)?;
            return Ok(RecordWriter {
                file,
                path: path.to_path_buf(),
                regular: false,
            });
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)?;
        let len = file.metadata()?.len();
        if len > 0 {
            use std::os::unix::fs::FileExt;
            let mut last = [0u8; 1];
            file.read_at(&mut last, len - 1)?;
            if last[0] != b'\n' {
                file.write_all(b"\n")?;
            }
        }
        Ok(RecordWriter {
            file,
            path: path.to_path_buf(),
            regular: true,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one round as one line and syncs it to disk.
    pub fn write(&mut self, record: &RoundRecord) -> io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        if self.regular {
            self.file.sync_data()?;
        }
        Ok(())
    }
}
