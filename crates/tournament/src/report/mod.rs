//! The organiser's report: a tournament output directory (plain or merged from shards) as
//! static HTML files that open from disk or any web server, with no network.
//!
//! `DIR/report/` holds:
//! - `index.html`: the standings (sortable, ratings with their intervals, Elo and LOS for
//!   two-player events, the SPRT), the crosstable, each bot's rating over the rounds in
//!   schedule order, average points by play order and colour, the settings, seed, versions
//!   and the command to reproduce it;
//! - `bots/N.html`: a page per bot (N is its place in the tournament file, from 1): its
//!   rounds, forfeits and faults with their evidence, time per move, command and executable
//!   hashes;
//! - `tables.html`: every table and its rounds;
//! - `replays/NNNN.html`: the existing replay viewer for a few tables at a time; every round
//!   links to `replays/NNNN.html#round=K`, which opens the viewer on it.
//!
//! Pages are drawn by one script from JSON embedded in each ([`page`]); records are read a
//! table at a time in schedule order ([`index`]) and folded ([`collect`]), never held whole,
//! so a 10,000-round tournament makes small pages and many small viewer files.
//! [`live`] is the standings page a running tournament keeps current.

pub mod collect;
pub mod index;
pub mod live;
pub mod live_rounds;
pub mod lost;
pub mod page;
pub mod timing;
pub mod viewers;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::tournament::aggregate::{Fold, RoundSummary, Standings};
use crate::tournament::output::{self, Meta};
use collect::Collector;
use viewers::Viewers;

/// Where the report goes in an output directory.
pub const DIR: &str = "report";

/// What was written.
#[derive(Debug)]
pub struct Written {
    /// The front page.
    pub index: PathBuf,
    pub files: u32,
    pub bytes: u64,
    /// The front page's size.
    pub index_bytes: u64,
    pub rounds: usize,
}

/// Writes the report of the output directory `dir` into `dir/report`.
pub fn write(dir: &Path) -> Result<Written, crate::Error> {
    write_to(dir, &dir.join(DIR))
}

/// Writes the report of the output directory `dir` into `out`.
pub fn write_to(dir: &Path, out: &Path) -> Result<Written, crate::Error> {
    write_with_home(dir, out, None)
}

/// A link from every page of a report back to the site that serves it (an arena's final).
#[derive(Clone, Copy, Debug)]
pub struct Home<'a> {
    pub href: &'a str,
    pub label: &'a str,
}

/// [`write_to`], every page linking to `home` first when one is given.
pub fn write_with_home(
    dir: &Path,
    out: &Path,
    home: Option<Home>,
) -> Result<Written, crate::Error> {
    write_all(dir, out, home, None)
}

/// [`write_to`], the bot pages showing where their games were lost: every move of every
/// counted round graded within `budget` per position ([`lost`]).
pub fn write_analysed(
    dir: &Path,
    out: &Path,
    budget: crate::game::grade::Budget,
) -> Result<Written, crate::Error> {
    write_all(dir, out, None, Some(budget))
}

fn write_all(
    dir: &Path,
    out: &Path,
    home: Option<Home>,
    analysis: Option<crate::game::grade::Budget>,
) -> Result<Written, crate::Error> {
    let meta = output::read_meta(dir)?;
    let t = &meta.tournament;
    let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    // Pages of an earlier report would linger: remove those, and only those (`N.html` in
    // `bots/` and `replays/`), so `--output` pointed at a directory of other things is safe.
    for sub in ["replays", "bots"] {
        let Ok(entries) = std::fs::read_dir(out.join(sub)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let ours = name
                .strip_suffix(".html")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if ours {
                std::fs::remove_file(e.path()).map_err(|err| {
                    crate::Error::io(format!("cannot remove {}", e.path().display()), err)
                })?;
            }
        }
    }
    let results = dir.join(output::RESULTS);
    let index = if results.exists() {
        Some(index::Index::open(&results, t.rounds)?)
    } else {
        None
    };
    let mut fold = Fold::new(t);
    let mut collector = Collector::new(&names);
    let mut viewers = Viewers::new(&out.join("replays"), &t.name);
    let mut lost = analysis.map(|b| lost::Lost::new(&names, b));
    let mut rounds = 0;
    if let Some(index) = &index {
        for table in index.tables() {
            let records = index.table(table)?;
            let counted = !fold.decided();
            for r in &records {
                fold.add(&RoundSummary::of(t, r));
            }
            let links = viewers.links(records.len());
            collector.table(table, &records, &links, counted);
            if let Some(lost) = lost.as_mut().filter(|_| counted) {
                for (r, l) in records.iter().zip(&links) {
                    lost.round(table, r, *l);
                }
            }
            rounds += records.len();
            viewers.table(records)?;
        }
    }
    viewers.flush()?;
    let scheduled = crate::tournament::runner::scheduled_tables(t).ok();
    // The standings as the tournament wrote them (the source of truth), else as folded here.
    let standings: Standings = std::fs::read(dir.join(output::STANDINGS_JSON))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| fold.standings(scheduled));

    let mut bytes = viewers.bytes;
    let mut files = viewers.files;
    let home = home.map(|h| json!({"href": h.href, "label": h.label}));
    let common = |kind: &str, root: &str| json!({"kind": kind, "root": root, "title": t.name, "names": names, "players": t.players, "home": home});

    // A page per bot.
    let mut bot_seats = Vec::new();
    for (i, _) in t.bots.iter().enumerate() {
        let timing = collector.timing(i);
        let history = collector.history(i);
        let b = &collector.bots[i];
        let seats = json!({"by_seat": b.by_seat, "by_order": b.by_order, "by_colour": b.by_colour});
        let row = standings.standings.iter().find(|r| r.bot == names[i]);
        let mut data = common("bot", "../");
        let o = data.as_object_mut().expect("an object");
        o.insert("bot".into(), json!(i));
        o.insert("row".into(), json!(row));
        o.insert("rounds".into(), json!(b.rounds));
        o.insert("forfeit_kinds".into(), json!(b.forfeit_kinds));
        o.insert(
            "forfeits_total".into(),
            json!(b.forfeit_kinds.values().sum::<u32>()),
        );
        o.insert("forfeits".into(), json!(b.forfeits));
        o.insert("fault_kinds".into(), json!(b.fault_kinds));
        o.insert("faults".into(), json!(b.faults));
        o.insert("timing".into(), timing);
        let mut commands: Vec<&String> = b.commands.iter().collect();
        if commands.is_empty() {
            commands.push(&t.bots[i].command);
        }
        o.insert("commands".into(), json!(commands));
        let files_seen: Vec<(&String, Vec<&String>)> = b
            .files
            .iter()
            .map(|(p, h)| (p, h.iter().collect()))
            .collect();
        o.insert("files".into(), json!(files_seen));
        o.insert("idents".into(), json!(b.idents));
        o.insert("history".into(), json!(history));
        o.insert("seats".into(), seats.clone());
        o.insert("last_stderr".into(), json!(b.last_stderr));
        if let Some(lost) = &lost {
            o.insert("lost".into(), lost.json(i));
        }
        let path = out.join("bots").join(format!("{}.html", i + 1));
        bytes += page::write(&path, &page::render(&data, None))?;
        files += 1;
        bot_seats.push(seats);
    }

    // Every table and its rounds.
    let mut data = common("tables", "");
    data.as_object_mut()
        .expect("an object")
        .insert("tables".into(), json!(collector.tables));
    bytes += page::write(&out.join("tables.html"), &page::render(&data, None))?;
    files += 1;

    // The front page.
    let history: Vec<Vec<[f64; 3]>> = (0..names.len()).map(|i| collector.history(i)).collect();
    let mut data = common("index", "");
    let o = data.as_object_mut().expect("an object");
    o.insert("standings".into(), json!(standings));
    o.insert("crosstable".into(), json!(collector.crosstable()));
    o.insert("history".into(), json!(history));
    o.insert(
        "seats".into(),
        json!({"by_seat": collector.by_seat, "by_order": collector.by_order, "by_colour": collector.by_colour}),
    );
    o.insert("bot_seats".into(), json!(bot_seats));
    // A knockout's bracket, drawn when the tournament ended.
    if let Ok(bracket) = std::fs::read_to_string(dir.join(output::BRACKET_TXT)) {
        o.insert("bracket".into(), json!(bracket));
    }
    o.insert(
        "about".into(),
        about(&meta, &standings, &collector, scheduled),
    );
    let html = page::render(&data, None);
    let index_path = out.join("index.html");
    let index_bytes = page::write(&index_path, &html)?;
    bytes += index_bytes;
    files += 1;
    Ok(Written {
        index: index_path,
        files,
        bytes,
        index_bytes,
        rounds,
    })
}

/// Settings, seed, versions and the command to reproduce the tournament.
fn about(meta: &Meta, s: &Standings, c: &Collector, scheduled: Option<u32>) -> Value {
    let t = &meta.tournament;
    let mut cmd = format!(
        "rollarena tournament {} --seed {}",
        shell_words::quote(if meta.file.is_empty() {
            "FILE.toml"
        } else {
            &meta.file
        }),
        t.seed
    );
    if let Some(sh) = meta.shard {
        cmd.push_str(&format!(" --shard {sh}"));
    }
    let mut reproduce = if meta.file.is_empty() && meta.merged_from.is_empty() {
        // An arena's final: no tournament file, no command of its own to run again.
        format!(
            "# an arena's final (`rollarena arena final`), played from the teams' versions in \
             the arena rather than from a tournament file: every setting it resolved to is \
             below, each table's seed follows from the tournament's seed ({}), and every round \
             is in results.jsonl",
            t.seed
        )
    } else if meta.file_sha256.is_empty() {
        format!(
            "# with the tournament file as it was; every setting it resolved to is below, and \
             the results do not depend on --jobs\n{cmd}"
        )
    } else {
        format!(
            "# with the tournament file as it was (SHA-256 {}); every setting it resolved to \
             is below, and the results do not depend on --jobs\n{cmd}",
            meta.file_sha256
        )
    };
    if !meta.merged_from.is_empty() {
        reproduce.push_str(&format!(
            "\n# then, with one --shard i/n run per shard:\nrollarena merge {} --output OUT",
            meta.merged_from
                .iter()
                .map(|d| shell_words::quote(d).into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    json!({
        "id": meta.id,
        "file": meta.file,
        "file_sha256": meta.file_sha256,
        "shard": meta.shard.map(|s| s.to_string()),
        "merged_from": meta.merged_from,
        "schedule": t.schedule.name(),
        "players": t.players,
        "rounds": t.rounds,
        "seed": t.seed,
        "tables_played": s.tables_played,
        "tables_scheduled": scheduled,
        "rounds_played": s.rounds_played,
        "games": if c.games.is_empty() {
            vec![t.game.clone()]
        } else {
            c.games.iter().map(|(g, r)| format!("{g} (rules {r})")).collect()
        },
        "arbiters": c.arbiters.iter().collect::<Vec<_>>(),
        "made_by": format!("rollarena {}", env!("CARGO_PKG_VERSION")),
        "reproduce": reproduce,
        "settings": t,
    })
}
