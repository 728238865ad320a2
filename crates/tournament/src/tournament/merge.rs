//! `rollarena merge`: shard outputs combined into one results file and standings, identical to
//! a run on one machine.
//!
//! Every directory must hold a shard of the same tournament (same id: same resolved
//! configuration), the set must be complete (every index from 1 to n, once), and every shard
//! must have finished all its tables. The merged `results.jsonl` is in schedule order; the
//! standings and ratings are computed from it exactly as a single run computes them.
//!
//! The shards are streamed, never loaded: a first pass over each file finds its complete
//! tables, a second interleaves the shards' tables in schedule order, copying each round's
//! line as it is (and folding its summary into the standings).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::aggregate::{Fold, RoundSummary, Standings};
use super::output::{self, Meta};
use super::results::{self, Line, Rewrite, Tables};
use super::runner::{scheduled_tables, shard_tables};

/// What a merge produced.
#[derive(Debug)]
pub struct Merged {
    pub standings: Standings,
    pub rounds: usize,
    pub shards: u32,
}

/// Merges shard directories into `out` (which must be empty or missing).
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, crate::Error> {
    if dirs.is_empty() {
        return Err(crate::Error::Output(
            "name the shard output directories to merge".into(),
        ));
    }
    let metas: Vec<(PathBuf, Meta)> = dirs
        .iter()
        .map(|d| output::read_meta(d).map(|m| (d.clone(), m)))
        .collect::<Result<_, _>>()?;
    let (first_dir, first) = &metas[0];
    for (dir, m) in &metas[1..] {
        if m.id != first.id {
            return Err(crate::Error::Output(format!(
                "{} and {} are of different tournaments (ids {} and {}): merge only the shards \
                 of one tournament, run from the same file with the same options",
                first_dir.display(),
                dir.display(),
                &first.id[..12],
                &m.id[..12]
            )));
        }
    }
    let count = first.shard.map_or(1, |s| s.count);
    let mut by_index: BTreeMap<u32, &PathBuf> = BTreeMap::new();
    for (dir, m) in &metas {
        let shard = m.shard.unwrap_or(output::Shard { index: 1, count: 1 });
        if shard.count != count {
            return Err(crate::Error::Output(format!(
                "{} is shard {shard} but {} is a shard of {count}: the shard counts differ",
                dir.display(),
                first_dir.display()
            )));
        }
        if let Some(other) = by_index.insert(shard.index, dir) {
            return Err(crate::Error::Output(format!(
                "shard {shard} is given twice: {} and {}",
                other.display(),
                dir.display()
            )));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(crate::Error::Output(format!(
            "the set of shards is incomplete: shard{} {} {} missing (have {} of {count})",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            if missing.len() > 1 { "are" } else { "is" },
            by_index.len()
        )));
    }
    let t = &first.tournament;
    // First pass over every shard: which tables are complete, and is each shard finished?
    let mut shards = Vec::with_capacity(metas.len());
    for (dir, m) in &metas {
        let tables = shard_tables(t, m.shard)?.ok_or_else(|| {
            crate::Error::Output(
                "a Swiss event is not sharded; there is nothing to merge".to_string(),
            )
        })?;
        let path = dir.join(output::RESULTS);
        let scan = results::scan(&path, t.rounds, |_| Ok(()))?;
        let unfinished: Vec<u32> = tables
            .iter()
            .map(|tb| tb.index)
            .filter(|i| !scan.complete.contains_key(i))
            .collect();
        if !unfinished.is_empty() && t.sprt.is_none() {
            return Err(crate::Error::Output(format!(
                "shard {} ({}) is incomplete: {} of its {} tables are unfinished (first: table \
                 {}); run it again with --resume, then merge",
                m.shard.map_or("1/1".into(), |s| s.to_string()),
                dir.display(),
                unfinished.len(),
                tables.len(),
                unfinished[0]
            )));
        }
        if !scan.complete.is_empty() {
            shards.push(Tables::open(&path, scan.complete)?);
        }
    }
    if !output::is_empty_dir(out) {
        return Err(crate::Error::Output(format!(
            "the output directory {} is not empty: choose another --output",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(|e| {
        crate::Error::io(
            format!("cannot create the output directory {}", out.display()),
            e,
        )
    })?;
    let meta = Meta {
        shard: None,
        merged_from: metas.iter().map(|(d, _)| d.display().to_string()).collect(),
        ..first.clone()
    };
    output::write_meta(out, &meta)
        .map_err(|e| crate::Error::io("cannot write tournament.json", e))?;

    // Second pass: the shards' tables interleaved in schedule order, each written and folded
    // as it comes; only the tables a shard finished out of order wait, as places in its file.
    let write_err = |e| crate::Error::io("cannot write the results", e);
    let mut merged = Rewrite::create(&out.join(output::RESULTS)).map_err(write_err)?;
    let mut fold = Fold::new(t);
    let mut rounds = 0usize;
    let mut heads: BTreeMap<u32, (usize, Vec<Line>)> = BTreeMap::new();
    for (i, shard) in shards.iter_mut().enumerate() {
        if let Some((table, lines)) = shard.next_table()? {
            heads.insert(table, (i, lines));
        }
    }
    while let Some((_, (i, lines))) = heads.pop_first() {
        let shard = &mut shards[i];
        for line in &lines {
            let bytes = shard.read(line)?;
            let record = shard.record(line, &bytes)?;
            fold.add(&RoundSummary::of(t, &record));
            merged.line(&bytes).map_err(write_err)?;
            rounds += 1;
        }
        if let Some((table, lines)) = shard.next_table()? {
            heads.insert(table, (i, lines));
        }
    }
    merged.finish().map_err(write_err)?;
    let standings = fold.standings(Some(scheduled_tables(t)?));
    output::write_standings(out, &standings)
        .map_err(|e| crate::Error::io("cannot write the standings", e))?;
    Ok(Merged {
        standings,
        rounds,
        shards: count,
    })
}
