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
    /// killed writer is cut off first (its round was never finished), so that only a file's
    /// last line can ever be torn and any other unreadable line is damage.
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
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)?;
        let len = file.metadata()?.len();
        if len > 0 {
            let keep = whole_lines(&file, len)?;
            if keep < len {
                file.set_len(keep)?;
                file.sync_data()?;
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

/// The length of the file's whole lines: up to and with its last newline.
fn whole_lines(file: &File, len: u64) -> io::Result<u64> {
    use std::os::unix::fs::FileExt;
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(chunk.len() as u64);
        let buf = &mut chunk[..(end - start) as usize];
        file.read_at(buf, start)?;
        if let Some(i) = buf.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appending_cuts_a_torn_last_line_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, "{\"a\":1}\n{\"b\":").unwrap();
        RecordWriter::append(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\":1}\n");
        // Only a torn line: nothing left.
        std::fs::write(&path, "{\"b\":").unwrap();
        RecordWriter::append(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        // Whole lines are left alone.
        std::fs::write(&path, "{\"a\":1}\n").unwrap();
        RecordWriter::append(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\":1}\n");
    }
}
