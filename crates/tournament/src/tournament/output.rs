//! The output directory of a tournament (or of one shard of it):
//!
//! - `tournament.json`: the resolved configuration, the tournament file's SHA-256, the
//!   tournament's id (hash of the resolved configuration) and the shard;
//! - `results.jsonl`: one round per line in the record format, written as each round ends
//!   (completion order: everything computed from it is read in schedule order, see
//!   [`results`](super::results));
//! - `standings.json`, `standings.csv`: the standings and ratings, written at the end;
//! - `logs/` (with `--bot-logs`): each bot's stderr per table.
//!
//! A run refuses a non-empty directory unless it resumes, and a resume refuses a directory of
//! a different tournament (another file, other overrides, another shard).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::aggregate::Standings;
use super::config::Tournament;

pub const META: &str = "tournament.json";
pub const RESULTS: &str = "results.jsonl";
pub const STANDINGS_JSON: &str = "standings.json";
pub const STANDINGS_CSV: &str = "standings.csv";
pub const BRACKET_JSON: &str = "bracket.json";
pub const BRACKET_TXT: &str = "bracket.txt";

/// Version of the output directory's layout.
pub const LAYOUT_VERSION: u32 = 1;

/// A shard: `index` of `count`, both from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Parses `i/n`.
    pub fn parse(s: &str) -> Result<Shard, crate::Error> {
        let bad = || {
            crate::Error::Invalid(format!(
                "--shard {s:?}: write i/n with 1 <= i <= n, e.g. 2/4"
            ))
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn pair(self) -> (u32, u32) {
        (self.index, self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `tournament.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub layout: u32,
    /// SHA-256 of the resolved configuration: the tournament's identity.
    pub id: String,
    /// The tournament file as given, and the SHA-256 of its bytes.
    pub file: String,
    pub file_sha256: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Output directories merged into this one (`rollarena merge`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    pub tournament: Tournament,
}

/// Reads `tournament.json` of a directory.
pub fn read_meta(dir: &Path) -> Result<Meta, crate::Error> {
    let path = dir.join(META);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        crate::Error::Output(format!(
            "{} is not a tournament output directory (cannot read {}: {e})",
            dir.display(),
            path.display()
        ))
    })?;
    serde_json::from_str(&text)
        .map_err(|e| crate::Error::Output(format!("{} is not valid: {e}", path.display())))
}

/// Writes a file whole: to a temporary name, synced, then renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

pub fn write_meta(dir: &Path, meta: &Meta) -> std::io::Result<()> {
    let mut text = serde_json::to_vec_pretty(meta).map_err(std::io::Error::other)?;
    text.push(b'\n');
    write_atomic(&dir.join(META), &text)
}

/// True when the directory is missing or holds nothing.
pub fn is_empty_dir(dir: &Path) -> bool {
    match std::fs::read_dir(dir) {
        Ok(mut it) => it.next().is_none(),
        Err(_) => true,
    }
}

/// Checks that `dir` may receive this tournament: empty, or (`resume`) a directory of the
/// same tournament, file and shard. Creates it and writes `tournament.json` when new. Returns
/// true when there was something to resume.
pub fn prepare(dir: &Path, meta: &Meta, resume: bool) -> Result<bool, crate::Error> {
    if is_empty_dir(dir) {
        std::fs::create_dir_all(dir).map_err(|e| {
            crate::Error::io(
                format!("cannot create the output directory {}", dir.display()),
                e,
            )
        })?;
        write_meta(dir, meta).map_err(|e| crate::Error::io(format!("cannot write {META}"), e))?;
        return Ok(false);
    }
    if !resume {
        return Err(crate::Error::Output(format!(
            "the output directory {} is not empty: add --resume to continue the tournament it \
             holds, or choose another --output",
            dir.display()
        )));
    }
    let old = read_meta(dir)?;
    if old.file_sha256 != meta.file_sha256 {
        let changed = if old.id == meta.id {
            "the same settings, so only its text changed".to_string()
        } else {
            differences(&old.tournament, &meta.tournament).join("; ")
        };
        let hint = if meta.tournament.bots.len() > old.tournament.bots.len() {
            " (or, if bots were appended to a round robin's file, add them with --add-bot)"
        } else {
            ""
        };
        return Err(crate::Error::Output(format!(
            "cannot resume: {} holds a tournament from a different file (SHA-256 {} there, {} \
             for {} now; {changed}); use another --output{hint}",
            dir.display(),
            &old.file_sha256[..12],
            &meta.file_sha256[..12],
            meta.file
        )));
    }
    if old.id != meta.id {
        return Err(crate::Error::Output(format!(
            "cannot resume: {} holds the same file run with other settings: {}; resume with the \
             same command-line options",
            dir.display(),
            differences(&old.tournament, &meta.tournament).join("; ")
        )));
    }
    if old.shard != meta.shard {
        return Err(crate::Error::Output(format!(
            "cannot resume: {} holds shard {} but shard {} was asked for",
            dir.display(),
            old.shard.map_or("(none)".into(), |s| s.to_string()),
            meta.shard.map_or("(none)".into(), |s| s.to_string())
        )));
    }
    Ok(true)
}

/// The settings in which two resolved tournaments differ, each as "key: VALUE there, VALUE
/// now" (values cut short), in the order of the configuration.
pub fn differences(there: &Tournament, now: &Tournament) -> Vec<String> {
    let as_map = |t: &Tournament| match serde_json::to_value(t) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (a, b) = (as_map(there), as_map(now));
    let shown = |v: Option<&serde_json::Value>| {
        let text = v.map_or("(none)".to_string(), |v| v.to_string());
        if text.chars().count() > 60 {
            format!("{}...", text.chars().take(60).collect::<String>())
        } else {
            text
        }
    };
    let mut keys: Vec<&String> = b.keys().collect();
    keys.extend(a.keys().filter(|k| !b.contains_key(*k)));
    let out: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| format!("{k}: {} there, {} now", shown(a.get(k)), shown(b.get(k))))
        .collect();
    if out.is_empty() {
        vec!["the resolved configurations differ".into()]
    } else {
        out
    }
}

/// Writes a knockout's `bracket.json` (the bracket as data, bots by index into the file's
/// field) and `bracket.txt` (drawn); returns the drawing.
pub fn write_bracket(
    dir: &Path,
    t: &Tournament,
    bracket: &super::knockout::Bracket,
) -> std::io::Result<String> {
    let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    let seeds = super::runner::knockout_of(t)
        .map(|k| k.1)
        .unwrap_or_default();
    let text = super::knockout::draw(bracket, &names, &seeds);
    let mut json = serde_json::to_vec_pretty(&serde_json::json!({
        "bots": names,
        "seeds": seeds,
        "bracket": bracket,
    }))
    .map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomic(&dir.join(BRACKET_JSON), &json)?;
    write_atomic(&dir.join(BRACKET_TXT), text.as_bytes())?;
    Ok(text)
}

/// Writes `standings.json` and `standings.csv`.
pub fn write_standings(dir: &Path, s: &Standings) -> std::io::Result<()> {
    let mut json = serde_json::to_vec_pretty(s).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomic(&dir.join(STANDINGS_JSON), &json)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "rank",
        "bot",
        "tables",
        "rounds",
        "wins",
        "points",
        "outright",
        "avg_points",
        "win_pct",
        "forfeits",
        "moves",
        "avg_ms",
        "rating_mu",
        "rating_sigma",
        "rating_ordinal",
        "elo",
        "elo_error",
        "los",
    ])?;
    for r in &s.standings {
        let forfeits = r
            .forfeits
            .iter()
            .map(|(k, n)| format!("{k}:{n}"))
            .collect::<Vec<_>>()
            .join(" ");
        let opt = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_default();
        w.write_record([
            r.rank.to_string(),
            r.bot.clone(),
            r.tables.to_string(),
            r.rounds.to_string(),
            r.wins.to_string(),
            r.points.to_string(),
            r.outright.to_string(),
            r.avg_points.to_string(),
            r.win_pct.to_string(),
            forfeits,
            r.moves.to_string(),
            opt(r.avg_ms),
            format!("{:.3}", r.rating.mu),
            format!("{:.3}", r.rating.sigma),
            format!("{:.3}", r.rating.ordinal),
            opt(r.elo.as_ref().map(|e| e.estimate.elo)),
            opt(r.elo.as_ref().map(|e| e.estimate.error)),
            opt(r.elo.as_ref().map(|e| e.estimate.los)),
        ])?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    write_atomic(&dir.join(STANDINGS_CSV), &bytes)
}

/// The standings as a table for people.
pub fn people_table(s: &Standings) -> comfy_table::Table {
    let two = s.standings.iter().any(|r| r.elo.is_some());
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    let mut header = vec![
        "rank",
        "bot",
        "tables",
        "rounds",
        "wins",
        "points",
        "avg points",
        "win %",
        "forfeits",
        "ms/move",
        "rating",
    ];
    if two {
        header.extend(["elo", "LOS"]);
    }
    table.set_header(header);
    let wins =
        crate::standings::wins_column(&s.standings.iter().map(|r| r.wins).collect::<Vec<_>>());
    for (i, r) in s.standings.iter().enumerate() {
        let forfeits = if r.forfeits.is_empty() {
            "-".to_string()
        } else {
            r.forfeits
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut row = vec![
            r.rank.to_string(),
            r.bot.clone(),
            r.tables.to_string(),
            r.rounds.to_string(),
            wins[i].clone(),
            r.points.to_string(),
            format!("{:.1}", r.avg_points),
            format!("{:.1}", r.win_pct),
            forfeits,
            r.avg_ms.map_or("-".into(), |m| format!("{m:.1}")),
            format!("{:.1} ±{:.1}", r.rating.mu, r.rating.sigma),
        ];
        if two {
            match &r.elo {
                Some(e) => {
                    // + 0.0 turns -0.0 into 0.0, so an even score reads +0.
                    row.push(format!(
                        "{:+.0} ±{:.0}",
                        e.estimate.elo + 0.0,
                        e.estimate.error
                    ));
                    row.push(format!("{:.1}%", 100.0 * e.estimate.los));
                }
                None => row.extend(["-".to_string(), "-".to_string()]),
            }
        }
        table.add_row(row);
    }
    table
}

/// The head-to-head table for people (2-player events): row against column, W-D-L.
pub fn head_to_head_table(s: &Standings) -> Option<comfy_table::Table> {
    if s.head_to_head.is_empty() || s.standings.len() > 16 {
        return None;
    }
    let names: Vec<&str> = s.standings.iter().map(|r| r.bot.as_str()).collect();
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    let mut header = vec![String::from("W-D-L")];
    header.extend(names.iter().map(|n| n.to_string()));
    table.set_header(header);
    for a in &names {
        let mut row = vec![a.to_string()];
        for b in &names {
            let cell = s
                .head_to_head
                .iter()
                .find(|h| h.bot == *a && h.opponent == *b)
                .map(|h| format!("{}-{}-{}", h.wdl.wins, h.wdl.draws, h.wdl.losses))
                .unwrap_or_else(|| "".into());
            row.push(cell);
        }
        table.add_row(row);
    }
    Some(table)
}

/// The directory's path made absolute for messages.
pub fn shown(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rank: u32, bot: &str, wins: f64) -> serde_json::Value {
        serde_json::json!({
            "rank": rank, "bot": bot, "tables": 1, "rounds": 40, "wins": wins, "points": 100,
            "outright": 10, "avg_points": 2.5, "win_pct": 50.0, "forfeits": {}, "moves": 400,
            "avg_ms": null, "rating": {"mu": 25.0, "sigma": 2.0, "ordinal": 19.0}
        })
    }

    /// The wins cell of each line of a table, as printed.
    fn wins_cells(table: &comfy_table::Table) -> Vec<String> {
        table
            .row_iter()
            .map(|r| r.cell_iter().nth(4).unwrap().content())
            .collect()
    }

    #[test]
    fn the_wins_column_has_one_number_of_decimals() {
        let standings: Standings = serde_json::from_value(serde_json::json!({
            "tournament": "t", "id": "x", "tables_played": 1, "tables_scheduled": 1,
            "rounds_played": 60,
            "standings": [row(1, "a", 32.0), row(2, "b", 13.5), row(3, "c", 14.5 - 13.5)]
        }))
        .unwrap();
        // Before, each row alone: "32", "13.50", "1".
        assert_eq!(
            wins_cells(&people_table(&standings)),
            ["32.0", "13.5", "1.0"]
        );
        let whole: Standings = serde_json::from_value(serde_json::json!({
            "tournament": "t", "id": "x", "tables_played": 1, "tables_scheduled": 1,
            "rounds_played": 60, "standings": [row(1, "a", 32.0), row(2, "b", 8.0)]
        }))
        .unwrap();
        assert_eq!(wins_cells(&people_table(&whole)), ["32", "8"]);
    }
}
