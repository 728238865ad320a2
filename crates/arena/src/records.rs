//! Where a match's record is, and its storage once the match is over: a match plays into
//! `records/<id>.jsonl` (plain, appended a round at a time, as every writer writes), and a
//! counted match's record is then kept gzip-compressed as `records/<id>.jsonl.gz` (a
//! deterministic pair of bots fills a ladder's disk fast: a JSON record compresses about
//! tenfold). Every reader (`crate::record::reader`) tells a compressed record by its first
//! bytes, so `replay`, `verify`, the pages, the API and the export read either.
//!
//! The steps keep `matches.record_path` naming a file that exists at every moment: the
//! compressed copy is written beside the plain one and renamed into place, the row then names
//! it, and only then is the plain one removed.
//!
//! What others may see of a record is here too ([`strip`]): a seat's own output (stderr,
//! logs) is its team's only, on the match's page, the live view and the final's export alike.

use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::Arena;
use super::store::{MatchId, matches};
use crate::record::RoundRecord;

/// A finished match's compressed record, relative to the arena's directory.
pub fn compressed_path(match_id: i64) -> String {
    format!("{}.gz", Arena::record_path(match_id))
}

/// The record match `id` has on disk, relative to the arena's directory: its compressed one,
/// or its plain one (in play, or not compressed yet); `None` when it has neither.
pub fn find(dir: &Path, match_id: i64) -> Option<String> {
    [compressed_path(match_id), Arena::record_path(match_id)]
        .into_iter()
        .find(|p| dir.join(p).exists())
}

/// The sizes of a record before and after compression, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub plain: u64,
    pub compressed: u64,
}

/// Compresses `plain` into `gz` (written beside it and renamed into place, mode 0600 as the
/// records are root's only); the plain file stays.
pub fn compress_file(plain: &Path, gz: &Path) -> Result<Sizes, String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let mut input = std::fs::File::open(plain).map_err(|e| err(plain, e))?;
    let plain_bytes = input.metadata().map_err(|e| err(plain, e))?.len();
    let tmp = PathBuf::from(format!("{}.part", gz.display()));
    let out = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(|e| err(&tmp, e))?
    };
    let mut enc =
        flate2::write::GzEncoder::new(std::io::BufWriter::new(out), flate2::Compression::default());
    std::io::copy(&mut input, &mut enc).map_err(|e| err(&tmp, e))?;
    let mut out = enc.finish().map_err(|e| err(&tmp, e))?;
    out.flush().map_err(|e| err(&tmp, e))?;
    let file = out.into_inner().map_err(|e| err(&tmp, e.into_error()))?;
    file.sync_all().map_err(|e| err(&tmp, e))?;
    let compressed = file.metadata().map_err(|e| err(&tmp, e))?.len();
    std::fs::rename(&tmp, gz).map_err(|e| err(gz, e))?;
    Ok(Sizes {
        plain: plain_bytes,
        compressed,
    })
}

/// Stores counted match `id`'s record compressed: `records/<id>.jsonl.gz` written, the match's
/// row pointed at it, the plain record removed. Nothing to do (`None`) when the plain record
/// is not there (compressed already).
pub fn store_compressed(conn: &Connection, dir: &Path, id: i64) -> Result<Option<Sizes>, String> {
    let plain = dir.join(Arena::record_path(id));
    if !plain.exists() {
        return Ok(None);
    }
    let gz = compressed_path(id);
    let sizes = compress_file(&plain, &dir.join(&gz))?;
    matches::move_record(conn, MatchId(id), &Arena::record_path(id), &gz)?;
    std::fs::remove_file(&plain).map_err(|e| format!("{}: {e}", plain.display()))?;
    Ok(Some(sizes))
}

/// Removes what an earlier attempt at match `id` left of its compressed record (a match played
/// again starts its record afresh).
pub fn remove_compressed(dir: &Path, id: i64) -> Result<(), String> {
    let gz = dir.join(compressed_path(id));
    match std::fs::remove_file(&gz) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", gz.display())),
    }
}

/// Empties what a seat's bot wrote for itself (stderr, logs) in the seats `visible` refuses.
pub fn strip(record: &mut RoundRecord, visible: &dyn Fn(usize) -> bool) {
    for (seat, text) in record.stderr.iter_mut().enumerate() {
        if !visible(seat) {
            text.clear();
        }
    }
    record.logs.retain(|l| visible(l.seat));
    for f in &mut record.forfeits {
        if !visible(f.seat) {
            f.stderr_tail.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MatchKind, MatchState, fixtures};

    /// A real record from the repository's samples (the first by name).
    fn sample() -> PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/records");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        files.remove(0)
    }

    #[test]
    fn a_compressed_record_reads_as_the_plain_one_and_is_smaller() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("records")).unwrap();
        let plain = dir.path().join(Arena::record_path(7));
        std::fs::copy(sample(), &plain).unwrap();
        let before = crate::record::reader::read_record_file(&plain).unwrap();
        let conn = crate::store::db::create(dir.path()).unwrap();
        let path = Some("records/7.jsonl");
        fixtures::match_row(&conn, MatchId(7), MatchKind::Ladder, MatchState::Done, path);
        assert_eq!(find(dir.path(), 7).as_deref(), Some("records/7.jsonl"));
        let sizes = store_compressed(&conn, dir.path(), 7).unwrap().unwrap();
        assert!(sizes.compressed * 3 < sizes.plain, "{sizes:?}");
        assert!(!plain.exists());
        let stored = matches::record_path(&conn, MatchId(7)).unwrap().unwrap();
        assert_eq!(stored, "records/7.jsonl.gz");
        assert_eq!(find(dir.path(), 7).as_deref(), Some(stored.as_str()));
        let after = crate::record::reader::read_record_file(&dir.path().join(&stored)).unwrap();
        assert_eq!(
            serde_json::to_value(&after.rounds).unwrap(),
            serde_json::to_value(&before.rounds).unwrap()
        );
        assert_eq!((after.lines, after.torn), (before.lines, before.torn));
        // Streamed (as the verifier and `replay --verify` read) too.
        let mut n = 0;
        crate::record::reader::stream_records(
            std::io::BufReader::new(std::fs::File::open(dir.path().join(&stored)).unwrap()),
            |_| n += 1,
        )
        .unwrap();
        assert_eq!(n, before.rounds.len());
        assert_eq!(store_compressed(&conn, dir.path(), 7).unwrap(), None);
    }
}
