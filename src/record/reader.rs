//! Reads record files. A last line without its newline is a round the writer was killed while
//! writing: it is ignored. Any other line that is not a valid round is an error naming the line.

use std::fmt;
use std::path::Path;

use super::RoundRecord;

/// Why a record file could not be read.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// Line `line` (from 1) is not a valid round.
    Line {
        line: usize,
        reason: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Line { line, reason } => {
                write!(f, "line {line} is not a valid round record: {reason}")
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// The rounds of a record file, and whether a torn last line was ignored.
pub fn read_records(path: &Path) -> Result<(Vec<RoundRecord>, bool), ReadError> {
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    parse_records(&bytes)
}

/// The rounds in the bytes of a record file, and whether a torn last line was ignored.
pub fn parse_records(bytes: &[u8]) -> Result<(Vec<RoundRecord>, bool), ReadError> {
    let mut rounds = Vec::new();
    let mut torn = false;
    let mut lines = bytes.split(|&b| b == b'\n').peekable();
    let mut number = 0;
    while let Some(line) = lines.next() {
        number += 1;
        let last = lines.peek().is_none();
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<RoundRecord>(line) {
            Ok(r) => rounds.push(r),
            // A line with no newline after it was being written when the writer died; a torn
            // line completed by a later writer's newline is skipped the same way if it is not
            // JSON at all.
            Err(_)
                if last
                    || serde_json::from_slice::<serde_json::Value>(line).is_err()
                        && is_torn(line) =>
            {
                torn = true;
            }
            Err(e) => {
                return Err(ReadError::Line {
                    line: number,
                    reason: e.to_string(),
                });
            }
        }
    }
    Ok((rounds, torn))
}

/// A torn line is a prefix of a JSON object: it starts like one and never closes.
fn is_torn(line: &[u8]) -> bool {
    line.first() == Some(&b'{') && line.last() != Some(&b'}')
}
