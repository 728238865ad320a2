//! Reads record files. A last line without its newline is a round the writer was killed while
//! writing: it is ignored (and said). Any other line that is not a valid round is damage: an
//! error naming the line, where it stands among the rounds, and the round it names if it can
//! be told.
//!
//! A record may be stored gzip-compressed (the arena keeps its finished matches' records as
//! `records/<id>.jsonl.gz`): every reader here tells by the file's first two bytes (gzip's
//! magic, which no JSON line starts with) and reads it the same, so `replay`, `verify`, the
//! arena's pages and its export read either.

use std::fmt;
use std::path::Path;

use super::RoundRecord;

/// Why a record file could not be read.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// Line `line` (from 1) is not a valid round: damage, not a torn last line.
    Line {
        line: usize,
        /// Rounds read whole before it (so it would be the file's round `after + 1`).
        after: usize,
        /// The match and round the line names, if they can still be read in it.
        names: Option<(String, u64)>,
        reason: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Line {
                line,
                after,
                names,
                reason,
            } => {
                let names = names
                    .as_ref()
                    .map(|(m, r)| format!(", naming round {r} of match {m}"))
                    .unwrap_or_default();
                write!(
                    f,
                    "line {line} is damaged ({reason}): it would be the file's round {}{names}. \
                     Only the last line of a record may be torn (a round being written when the \
                     arbiter stopped); a damaged line before others means the file was changed \
                     or corrupted. Restore the file from a copy, or delete line {line} (sed -i \
                     '{line}d' FILE) to keep the other rounds, knowing the round is lost",
                    after + 1
                )
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// A record file read whole.
#[derive(Debug, Default)]
pub struct RecordFile {
    pub rounds: Vec<RoundRecord>,
    /// The file's lines that are not blank (the torn last one included).
    pub lines: usize,
    /// The number of the torn last line that was ignored, if any.
    pub torn: Option<usize>,
}

/// The rounds of a record file, and whether a torn last line was ignored.
pub fn read_records(path: &Path) -> Result<(Vec<RoundRecord>, bool), ReadError> {
    read_record_file(path).map(|f| (f.rounds, f.torn.is_some()))
}

/// A record file, with its line count and its torn last line.
pub fn read_record_file(path: &Path) -> Result<RecordFile, ReadError> {
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    parse_record_file(&bytes)
}

/// The rounds in the bytes of a record file, and whether a torn last line was ignored.
pub fn parse_records(bytes: &[u8]) -> Result<(Vec<RoundRecord>, bool), ReadError> {
    parse_record_file(bytes).map(|f| (f.rounds, f.torn.is_some()))
}

/// The bytes of a record file, read whole.
pub fn parse_record_file(bytes: &[u8]) -> Result<RecordFile, ReadError> {
    let mut rounds = Vec::new();
    let file = stream_records(bytes, |r| rounds.push(r))?;
    Ok(RecordFile { rounds, ..file })
}

/// The rounds of a record file, read line by line and handed to `each` one at a time (and
/// dropped after it), so that a reader going through a file once holds one line and one round
/// at a time, whatever the file's size. Returns the file's line count and torn last line (its
/// `rounds` empty); a damaged line is the same error as [`parse_record_file`]'s, found after
/// `each` has seen the rounds before it.
pub fn stream_records(
    reader: impl std::io::BufRead,
    mut each: impl FnMut(RoundRecord),
) -> Result<RecordFile, ReadError> {
    stream_lines(reader, |line| {
        each(serde_json::from_slice::<RoundRecord>(line)?);
        Ok(())
    })
}

/// A record file's lines that are not blank, handed to `read` one at a time (without the
/// newline), which reads the round on it its own way (the verifier reads its moves lean) and
/// says whether it is one: [`stream_records`]'s line count, torn last line and damage.
pub fn stream_lines(
    mut reader: impl std::io::BufRead,
    read: impl FnMut(&[u8]) -> Result<(), serde_json::Error>,
) -> Result<RecordFile, ReadError> {
    if reader
        .fill_buf()
        .map_err(ReadError::Io)?
        .starts_with(&GZIP_MAGIC)
    {
        let gz = flate2::bufread::MultiGzDecoder::new(reader);
        return plain_lines(std::io::BufReader::with_capacity(1 << 16, gz), read);
    }
    plain_lines(reader, read)
}

/// The first two bytes of a gzip stream.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// [`stream_lines`] of an uncompressed record.
fn plain_lines(
    mut reader: impl std::io::BufRead,
    mut read: impl FnMut(&[u8]) -> Result<(), serde_json::Error>,
) -> Result<RecordFile, ReadError> {
    let mut file = RecordFile::default();
    let mut rounds = 0;
    let mut number = 0;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf).map_err(ReadError::Io)? == 0 {
            break;
        }
        number += 1;
        // Only a line with no newline after it was being written when the writer died.
        let last = buf.last() != Some(&b'\n');
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        file.lines += 1;
        match read(line) {
            Ok(()) => rounds += 1,
            Err(_) if last => file.torn = Some(number),
            Err(e) => {
                return Err(ReadError::Line {
                    line: number,
                    after: rounds,
                    names: names(line),
                    reason: e.to_string(),
                });
            }
        }
    }
    Ok(file)
}

/// The match and round a damaged line still names, read from its text.
fn names(line: &[u8]) -> Option<(String, u64)> {
    let text = String::from_utf8_lossy(line);
    let after = |key: &str| text.find(key).map(|i| &text[i + key.len()..]);
    let round: u64 = after("\"round\":")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()?;
    let m = after("\"match\":\"")?;
    let m = m.split('"').next()?.to_string();
    Some((m, round))
}
