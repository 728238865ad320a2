//! The rounds of `results.jsonl` in schedule order, a table at a time, without touching the
//! file.
//!
//! [`crate::tournament::results::scan`] cuts a torn last line off the file, which is right for
//! the runner and the merge but not for a report that may be made while a tournament writes
//! the file. This pass only reads: it notes where each round's line is (a few bytes per
//! round), keeps the first occurrence of each round of each table, and yields the tables
//! whose every round is present (all `rounds`, or up to the one that `ends_match`), in
//! ascending order, reading their lines again by place.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::record::RoundRecord;
use crate::tournament::results::Key;

/// Where a round's line is.
#[derive(Clone, Copy, Debug)]
struct Place {
    offset: u64,
    len: u32,
    ends: bool,
}

/// The complete tables of a results file and where their rounds are.
pub struct Index {
    path: PathBuf,
    file: File,
    tables: BTreeMap<u32, Vec<Place>>,
}

impl Index {
    /// Reads `path` once; `rounds` is the tournament's rounds per table (the cap).
    pub fn open(path: &Path, rounds: u32) -> Result<Index, crate::Error> {
        let err = |e| crate::Error::io(format!("cannot read {}", path.display()), e);
        let file = File::open(path).map_err(err)?;
        let mut reader = BufReader::new(file.try_clone().map_err(err)?);
        let mut seen: BTreeMap<u32, Vec<Option<Place>>> = BTreeMap::new();
        let mut offset = 0u64;
        let mut number = 0u64;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = reader.read_until(b'\n', &mut buf).map_err(err)?;
            if n == 0 {
                break;
            }
            let start = offset;
            offset += n as u64;
            number += 1;
            if buf.last() != Some(&b'\n') {
                break; // a line being written (or torn): not a round yet
            }
            let line = buf.trim_ascii();
            if line.is_empty() {
                continue;
            }
            let key = serde_json::from_slice::<Key>(line).map_err(|e| {
                crate::Error::Results(format!(
                    "line {number} of {} is damaged ({e}): only the last line may be torn (a \
                     round being written when the arbiter stopped). Delete line {number} (sed -i \
                     '{number}d' {}) and run `tournament --resume` to play its table again",
                    path.display(),
                    path.display()
                ))
            })?;
            let Some(table) = key.table else {
                continue;
            };
            if key.round == 0 || key.round > rounds {
                continue;
            }
            let slots = seen
                .entry(table)
                .or_insert_with(|| vec![None; rounds as usize]);
            let slot = &mut slots[key.round as usize - 1];
            if slot.is_none() {
                *slot = Some(Place {
                    offset: start,
                    len: n as u32,
                    ends: key.ends_match,
                });
            }
        }
        let tables = seen
            .into_iter()
            .filter_map(|(table, slots)| {
                let mut whole = Vec::new();
                for slot in slots {
                    let place = slot?;
                    whole.push(place);
                    if place.ends {
                        break;
                    }
                }
                Some((table, whole))
            })
            .collect();
        Ok(Index {
            path: path.to_path_buf(),
            file,
            tables,
        })
    }

    /// The complete tables' numbers, ascending.
    pub fn tables(&self) -> impl Iterator<Item = u32> + '_ {
        self.tables.keys().copied()
    }

    /// Rounds in complete tables.
    pub fn rounds(&self) -> usize {
        self.tables.values().map(Vec::len).sum()
    }

    /// The rounds of a complete table, in round order.
    pub fn table(&self, table: u32) -> Result<Vec<RoundRecord>, crate::Error> {
        let places = self.tables.get(&table).map(Vec::as_slice).unwrap_or(&[]);
        places
            .iter()
            .map(|p| {
                let mut buf = vec![0u8; p.len as usize];
                self.file.read_exact_at(&mut buf, p.offset).map_err(|e| {
                    crate::Error::io(format!("cannot read {}", self.path.display()), e)
                })?;
                serde_json::from_slice(buf.trim_ascii()).map_err(|e| {
                    crate::Error::Results(format!(
                        "{}: a round of table {table} is not a valid record: {e}",
                        self.path.display()
                    ))
                })
            })
            .collect()
    }
}
