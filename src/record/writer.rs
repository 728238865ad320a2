//! Appends rounds to a record file: each line written whole with one `write` on a file opened
//! for appending, then synced, so a killed arbiter leaves every finished round complete.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::RoundRecord;

/// An open record file.
#[derive(Debug)]
pub struct RecordWriter {
    file: File,
    path: PathBuf,
}

impl RecordWriter {
    /// Opens (creating it if needed) a record file for appending. A torn last line left by a
    /// killed writer is completed with a newline first, so it stays one ignorable line.
    pub fn append(path: &Path) -> io::Result<RecordWriter> {
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
        self.file.sync_data()
    }
}
