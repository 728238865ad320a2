//! What the live page knows of the rounds while a tournament runs: it reads the output's
//! `results.jsonl` from where it stopped the last time (only whole lines), folds each round
//! into the crosstable (the report's own [`Collector`], keyed by bot name), and keeps the
//! rounds of the tables not yet over, whose viewer it writes to `DIR/playing/NNNN.html` so the
//! page can link to the rounds they have played so far.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::{Value, json};

use super::collect::Collector;
use super::page;
use super::viewers::Link;
use crate::record::RoundRecord;

/// The rounds read so far of one output directory.
pub struct Rounds {
    /// Bytes of `results.jsonl` read (up to the last whole line).
    offset: u64,
    names: Vec<String>,
    collector: Collector,
    /// Tables with rounds in the file but not over yet, their rounds in file order.
    playing: BTreeMap<u32, Vec<RoundRecord>>,
    /// Players per table, from the first round read.
    players: Option<usize>,
}

impl Rounds {
    /// Nothing read yet; `names`: the tournament's bots.
    pub fn new(names: Vec<String>) -> Rounds {
        Rounds {
            offset: 0,
            collector: Collector::new(&names),
            names,
            playing: BTreeMap::new(),
            players: None,
        }
    }

    /// Reads the rounds `output/results.jsonl` gained since the last call, and rewrites the
    /// viewers of the tables still playing in `dir/playing/`. A line that does not parse is
    /// skipped (the report proper will say so).
    pub fn update(&mut self, output: &Path, dir: &Path) -> Result<(), crate::Error> {
        let path = output.join("results.jsonl");
        let mut file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(crate::Error::io(path.display().to_string(), e)),
        };
        let mut text = Vec::new();
        file.seek(SeekFrom::Start(self.offset))
            .and_then(|_| file.read_to_end(&mut text))
            .map_err(|e| crate::Error::io(path.display().to_string(), e))?;
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        self.offset += whole as u64;
        let mut touched = Vec::new();
        for line in text[..whole].split(|&b| b == b'\n') {
            let Ok(r) = serde_json::from_slice::<RoundRecord>(line) else {
                continue;
            };
            let table = r.table.unwrap_or(0);
            self.players.get_or_insert(r.seats.len());
            self.collector.table(
                table,
                std::slice::from_ref(&r),
                &[Link { file: 0, game: 0 }],
                true,
            );
            if r.round >= r.rounds || r.ends_match {
                self.playing.remove(&table);
                let _ = std::fs::remove_file(viewer(dir, table));
            } else {
                self.playing.entry(table).or_default().push(r);
                touched.push(table);
            }
        }
        touched.dedup();
        for table in touched {
            let Some(rounds) = self.playing.get(&table) else {
                continue;
            };
            let title = format!("table {table}: the rounds played so far");
            if let Ok(html) = crate::show::html::render(&title, rounds, rounds.len(), None, None) {
                std::fs::create_dir_all(dir.join("playing"))
                    .map_err(|e| crate::Error::io(dir.display().to_string(), e))?;
                page::write(&viewer(dir, table), &html)?;
            }
        }
        Ok(())
    }

    /// The page's data: the crosstable by name (`[{row, col, ahead, tied, behind, score}]`),
    /// the players per table, and the tables playing with a link to their rounds so far.
    pub fn data(&self) -> Value {
        let table = self.collector.crosstable();
        let mut cells = Vec::new();
        for (a, row) in table.iter().enumerate() {
            for (b, cell) in row.iter().enumerate() {
                if let Some([ahead, tied, behind, score]) = cell
                    .as_array()
                    .map(|c| [c[0].clone(), c[1].clone(), c[2].clone(), c[3].clone()])
                {
                    cells.push(json!({"row": self.names[a], "col": self.names[b],
                        "ahead": ahead, "tied": tied, "behind": behind, "score": score}));
                }
            }
        }
        let playing: Vec<Value> = self
            .playing
            .iter()
            .map(|(t, rounds)| {
                let last = rounds.last().expect("a table playing has a round");
                json!({
                    "t": t,
                    "bots": last.seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                    "done": rounds.len(),
                    "rounds": last.rounds,
                    "href": format!("playing/{t:04}.html#round={}", rounds.len()),
                })
            })
            .collect();
        json!({"crosstable": cells, "players": self.players, "playing": playing})
    }
}

/// The viewer file of a table playing.
fn viewer(dir: &Path, table: u32) -> std::path::PathBuf {
    dir.join("playing").join(format!("{table:04}.html"))
}
