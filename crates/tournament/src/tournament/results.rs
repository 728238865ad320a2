//! `results.jsonl` as a stream: written a round at a time, read back a table at a time in
//! schedule order, never held whole in memory.
//!
//! The file is in completion order (tables run at once), but everything computed from it
//! (standings, ratings, the SPRT, a merge's results file) needs schedule order: table, then
//! round. Reading takes two passes over the file, each line by line:
//!
//! 1. [`scan`] notes, per table, which rounds are present (a bit per round) and so which tables
//!    are complete; it cuts a torn last line off the file and refuses any other line that is
//!    not a round (naming it and the way out: only a last line can be torn);
//! 2. [`Tables`] yields the complete tables in ascending order, each as the places of its
//!    rounds in the file (first occurrence of each round). A table is held back only until
//!    the tables before it are yielded, so what it keeps is the places of the few tables that
//!    finished out of order, not the file.
//!
//! Memory is a bit per scheduled round and a few bytes per round of the tables finished out of
//! order: a 100,000-round file is read in well under a megabyte.
//!
//! [`Writer`] appends lines for the runner. Each line is written whole with one `write` on a
//! file opened for appending, as each round ends, so a killed arbiter (SIGKILL, Ctrl-C) leaves
//! every finished round complete in the file; the file is synced (`fdatasync`) when a table
//! ends, by a thread of its own ([`Syncer`]) so that no table waits for the disk, and at the
//! end of the run. A crash of the machine itself therefore loses at most the last rounds of the
//! tables unfinished or just finished, which `--resume` plays again (it keeps every round the
//! file holds and plays each table on from there).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;

use serde::Deserialize;

use crate::record::RoundRecord;

/// The fields of a round that place it: its match, table and round.
#[derive(Debug, Deserialize)]
pub struct Key {
    #[serde(rename = "match")]
    pub match_id: String,
    #[serde(default)]
    pub table: Option<u32>,
    pub round: u32,
    /// The game's rules ended the match (the table) with this round.
    #[serde(default)]
    pub ends_match: bool,
}

/// What the first pass found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Tables whose every round is present, with their number of rounds: `rounds`, or fewer
    /// when the game's rules ended the table's match earlier (`ends_match`).
    pub complete: BTreeMap<u32, u32>,
    /// Rounds (lines) in the file.
    pub lines: u64,
    /// Rounds that belong to complete tables, once each: what a reader keeps.
    pub kept: u64,
    /// Tables not complete whose first rounds are present: how many (rounds 1 to n, n >= 1).
    /// A resumed run keeps those rounds and plays the table on from round n + 1.
    pub partial: BTreeMap<u32, u32>,
}

/// Where a round is in the file.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub offset: u64,
    pub len: u32,
    /// Line number, from 1, for messages.
    pub number: u64,
}

/// Rounds present per table, one bit per round (rounds 1 to 64 in the first word, ...), and
/// the round whose rules ended the table's match, if one did.
#[derive(Default)]
struct Present(BTreeMap<u32, Vec<u64>>, BTreeMap<u32, u32>);

impl Present {
    /// Marks a round; false when it was already there.
    fn insert(&mut self, table: u32, round: u32, ends: bool) -> bool {
        if ends {
            let end = self.1.entry(table).or_insert(round);
            *end = (*end).min(round);
        }
        let bits = self.0.entry(table).or_default();
        let (word, bit) = ((round / 64) as usize, round % 64);
        if bits.len() <= word {
            bits.resize(word + 1, 0);
        }
        let fresh = bits[word] & (1 << bit) == 0;
        bits[word] |= 1 << bit;
        fresh
    }

    fn complete(&self, rounds: u32) -> BTreeMap<u32, u32> {
        self.0
            .iter()
            .map(|(&t, bits)| (t, bits, self.1.get(&t).map_or(rounds, |&e| e.min(rounds))))
            .filter(|(_, bits, len)| {
                (1..=*len).all(|r| {
                    bits.get((r / 64) as usize)
                        .is_some_and(|w| w & (1 << (r % 64)) != 0)
                })
            })
            .map(|(t, _, len)| (t, len))
            .collect()
    }

    /// For each table not in `complete`, its rounds present from round 1 on without a gap,
    /// when there is at least one.
    fn prefixes(&self, complete: &BTreeMap<u32, u32>) -> BTreeMap<u32, u32> {
        let has = |bits: &Vec<u64>, r: u32| {
            bits.get((r / 64) as usize)
                .is_some_and(|w| w & (1 << (r % 64)) != 0)
        };
        self.0
            .iter()
            .filter(|(t, _)| !complete.contains_key(t))
            .map(|(&t, bits)| (t, (1..).take_while(|&r| has(bits, r)).count() as u32))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// Reads a file line by line with each line's offset; a last line without its newline is
/// returned as such (`whole` false).
struct Lines<R> {
    reader: BufReader<R>,
    offset: u64,
    number: u64,
    buf: Vec<u8>,
}

impl<R: Read> Lines<R> {
    fn new(inner: R) -> Self {
        Lines {
            reader: BufReader::with_capacity(1 << 16, inner),
            offset: 0,
            number: 0,
            buf: Vec::new(),
        }
    }

    /// The next line (without its newline), its place, and whether it ended with a newline.
    fn next_line(&mut self) -> std::io::Result<Option<(Line, bool)>> {
        self.buf.clear();
        let n = self.reader.read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        let whole = self.buf.last() == Some(&b'\n');
        if whole {
            self.buf.pop();
        }
        let line = Line {
            offset: self.offset,
            len: self.buf.len() as u32,
            number: self.number,
        };
        self.offset += n as u64;
        Ok(Some((line, whole)))
    }
}

/// Parses the key of a line. `Ok(None)`: a blank line. An unreadable line is damage (only the
/// last line may be torn, and [`scan`] cuts that one off): the error names it and the way out.
fn key_of(bytes: &[u8], number: u64) -> Result<Option<Key>, crate::Error> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice::<Key>(bytes).map(Some).map_err(|e| {
        crate::Error::Results(format!(
            "line {number} is damaged ({e}): only the last line may be torn (a round being \
             written when the arbiter stopped), so the file was changed or corrupted. Delete \
             line {number} (sed -i '{number}d' FILE) and run again: the table that round \
             belonged to is then incomplete, and --resume plays it again"
        ))
    })
}

/// The first pass over `path` (missing: an empty scan). A torn last line (the writer was
/// killed while writing it) is cut off the file. `check` sees every round's key and may refuse
/// it (a round of another tournament).
pub fn scan(
    path: &Path,
    rounds: u32,
    mut check: impl FnMut(&Key) -> Result<(), crate::Error>,
) -> Result<Scan, crate::Error> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Scan::default()),
        Err(e) => {
            return Err(crate::Error::io(
                format!("cannot read {}", path.display()),
                e,
            ));
        }
    };
    let mut lines = Lines::new(file);
    let mut present = Present::default();
    let mut scan = Scan::default();
    let read_err = |e| crate::Error::io(format!("cannot read {}", path.display()), e);
    while let Some((line, whole)) = lines.next_line().map_err(read_err)? {
        if !whole {
            // The writer died in the middle of this line: cut it off.
            truncate(path, line.offset)?;
            break;
        }
        let Some(key) = key_of(&lines.buf, line.number)
            .map_err(|e| crate::Error::Results(format!("{}: {e}", path.display())))?
        else {
            continue;
        };
        check(&key)?;
        scan.lines += 1;
        if let Some(t) = key.table
            && (1..=rounds).contains(&key.round)
        {
            present.insert(t, key.round, key.ends_match);
        }
    }
    scan.complete = present.complete(rounds);
    scan.partial = present.prefixes(&scan.complete);
    scan.kept = scan.complete.values().map(|&n| u64::from(n)).sum();
    Ok(scan)
}

fn truncate(path: &Path, len: u64) -> Result<(), crate::Error> {
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| crate::Error::io(format!("cannot open {}", path.display()), e))?;
    f.set_len(len).and_then(|_| f.sync_all()).map_err(|e| {
        crate::Error::io(
            format!("cannot cut the torn last line of {}", path.display()),
            e,
        )
    })
}

/// The second pass: the complete tables of a scanned file in ascending order, each with the
/// places of its rounds 1 to `rounds` (the first occurrence of each). Given the first rounds
/// of unfinished tables ([`Scan::partial`]) as well, it yields those rounds the same way.
pub struct Tables {
    path: PathBuf,
    /// Read in order; its lines are read again by place (`pread`, which leaves the order
    /// alone), so a shard costs one descriptor.
    lines: Lines<File>,
    /// The complete tables (from the first pass) and their number of rounds.
    complete: BTreeMap<u32, u32>,
    /// The next one to yield: every complete table before it was yielded.
    next: Option<u32>,
    /// Rounds seen so far of tables not yet whole in this pass.
    partial: BTreeMap<u32, (Vec<Option<Line>>, u32)>,
    /// Tables whole in this pass, waiting for an earlier one.
    ready: BTreeMap<u32, Vec<Line>>,
    eof: bool,
}

impl Tables {
    pub fn open(path: &Path, complete: BTreeMap<u32, u32>) -> Result<Tables, crate::Error> {
        let file = File::open(path)
            .map_err(|e| crate::Error::io(format!("cannot read {}", path.display()), e))?;
        let next = complete.keys().next().copied();
        Ok(Tables {
            path: path.to_path_buf(),
            lines: Lines::new(file),
            complete,
            next,
            partial: BTreeMap::new(),
            ready: BTreeMap::new(),
            eof: false,
        })
    }

    /// The next complete table: its number and its rounds' places, in round order.
    pub fn next_table(&mut self) -> Result<Option<(u32, Vec<Line>)>, crate::Error> {
        let Some(want) = self.next else {
            return Ok(None);
        };
        while !self.ready.contains_key(&want) {
            if self.eof {
                return Err(crate::Error::Results(format!(
                    "{} changed while it was read: table {want} is no longer whole",
                    self.path.display()
                )));
            }
            self.advance()?;
        }
        let lines = self.ready.remove(&want).expect("ready");
        self.next = self.complete.range(want + 1..).next().map(|(&t, _)| t);
        Ok(Some((want, lines)))
    }

    /// Reads one more line.
    fn advance(&mut self) -> Result<(), crate::Error> {
        let path = &self.path;
        let Some((line, whole)) = self
            .lines
            .next_line()
            .map_err(|e| crate::Error::io(format!("cannot read {}", path.display()), e))?
        else {
            self.eof = true;
            return Ok(());
        };
        if !whole {
            self.eof = true;
            return Ok(());
        }
        let Some(key) = key_of(&self.lines.buf, line.number)
            .map_err(|e| crate::Error::Results(format!("{}: {e}", path.display())))?
        else {
            return Ok(());
        };
        let Some(table) = key.table else {
            return Ok(());
        };
        // Complete tables not yet yielded (those before `next` were) nor whole already.
        let Some(&len) = self.complete.get(&table) else {
            return Ok(());
        };
        let wanted = self.next.is_some_and(|n| table >= n)
            && !self.ready.contains_key(&table)
            && (1..=len).contains(&key.round);
        if !wanted {
            return Ok(());
        }
        let rounds = len as usize;
        let (slots, filled) = self
            .partial
            .entry(table)
            .or_insert_with(|| (vec![None; rounds], 0));
        let slot = &mut slots[key.round as usize - 1];
        if slot.is_none() {
            *slot = Some(line);
            *filled += 1;
            if *filled == len {
                let (slots, _) = self.partial.remove(&table).expect("partial");
                self.ready.insert(
                    table,
                    slots.into_iter().map(|l| l.expect("filled")).collect(),
                );
            }
        }
        Ok(())
    }

    /// The bytes of a line.
    pub fn read(&self, line: &Line) -> Result<Vec<u8>, crate::Error> {
        let mut buf = vec![0u8; line.len as usize];
        self.lines
            .reader
            .get_ref()
            .read_exact_at(&mut buf, line.offset)
            .map_err(|e| crate::Error::io(format!("cannot read {}", self.path.display()), e))?;
        Ok(buf)
    }

    /// A line parsed as a round.
    pub fn record(&self, line: &Line, bytes: &[u8]) -> Result<RoundRecord, crate::Error> {
        serde_json::from_slice(bytes).map_err(|e| {
            crate::Error::Results(format!(
                "{}: line {} is not a valid round record: {e}",
                self.path.display(),
                line.number
            ))
        })
    }
}

/// Appends rounds to `results.jsonl` for the tables playing at once.
#[derive(Debug)]
pub struct Writer {
    file: File,
    lock: Mutex<()>,
}

impl Writer {
    /// Opens (creating it if needed) for appending. A last line without its newline is
    /// completed with one first, so that it stays one ignorable line.
    pub fn append(path: &Path) -> std::io::Result<Writer> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)?;
        let len = file.seek(SeekFrom::End(0))?;
        if len > 0 {
            let mut last = [0u8; 1];
            file.read_exact_at(&mut last, len - 1)?;
            if last[0] != b'\n' {
                file.write_all(b"\n")?;
            }
        }
        Ok(Writer {
            file,
            lock: Mutex::new(()),
        })
    }

    /// Writes one line (which ends with its newline) with one write.
    pub fn write_line(&self, line: &[u8]) -> std::io::Result<()> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        (&self.file).write_all(line)
    }

    /// Syncs what was written to disk.
    pub fn sync(&self) -> std::io::Result<()> {
        self.file.sync_data()
    }
}

/// Syncs a [`Writer`]'s file on a thread of its own when asked (a table ended), so that no
/// table waits on the disk (a sync can take a tenth of a second on a busy machine). Requests
/// that come while a sync runs are served by one more.
pub struct Syncer {
    writer: Arc<Writer>,
    asks: Mutex<Option<mpsc::Sender<()>>>,
    thread: Mutex<Option<JoinHandle<std::io::Result<()>>>>,
}

impl Syncer {
    pub fn start(writer: Arc<Writer>) -> std::io::Result<Syncer> {
        let (tx, rx) = mpsc::channel::<()>();
        let w = writer.clone();
        let thread = std::thread::Builder::new()
            .name("sync".into())
            .spawn(move || {
                let mut result = Ok(());
                while rx.recv().is_ok() {
                    while rx.try_recv().is_ok() {}
                    if let Err(e) = w.sync() {
                        result = result.and(Err(e));
                    }
                }
                result
            })?;
        Ok(Syncer {
            writer,
            asks: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Asks for a sync of everything written so far; returns at once.
    pub fn ask(&self) {
        if let Some(tx) = &*self.asks.lock().unwrap_or_else(|p| p.into_inner()) {
            let _ = tx.send(());
        }
    }

    /// Waits for the syncs asked, then syncs once more: everything written is on disk. The
    /// first error of any sync, if one failed.
    pub fn finish(&self) -> std::io::Result<()> {
        drop(self.asks.lock().unwrap_or_else(|p| p.into_inner()).take());
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            thread
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the sync thread panicked")))?;
        }
        self.writer.sync()
    }
}

/// Writes a new results file through a temporary name, then syncs it and renames it over
/// `path`, so a reader sees the old file or the new one whole.
pub struct Rewrite {
    tmp: PathBuf,
    path: PathBuf,
    out: std::io::BufWriter<File>,
}

impl Rewrite {
    pub fn create(path: &Path) -> std::io::Result<Rewrite> {
        let tmp = path.with_extension("tmp");
        let out = std::io::BufWriter::with_capacity(1 << 16, File::create(&tmp)?);
        Ok(Rewrite {
            tmp,
            path: path.to_path_buf(),
            out,
        })
    }

    /// One line, without its newline.
    pub fn line(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)?;
        self.out.write_all(b"\n")
    }

    pub fn finish(self) -> std::io::Result<()> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path)
    }
}
