//! `match --record FILE --resume`: the interrupted match in a record file, checked against the
//! command line, and where it goes on ([`Resume`]).
//!
//! The match resumed is the record's last one (the match of its last line). Its seed and match
//! id are taken from the record (so `--seed` may be left out; given, it must agree), and
//! everything that decides how its rounds are played must be what the command line says now:
//! the game and its options, the rounds, the clock and the other settings, each seat's
//! command, and the opening (`--openings`) each kept round was played from. A difference is
//! named with the way out, never resumed into a different match.

use std::path::Path;

use super::UsageError;
use crate::arbiter::{MatchConfig, Resume};
use crate::record::RoundRecord;
use crate::record::reader::read_records;

/// The kept rounds of the match to resume in `path`, with `config`'s seed and match id made
/// the record's. `None`: nothing to resume (no file, or no round in it), a fresh match.
pub fn kept(
    path: &Path,
    config: &mut MatchConfig,
    seed: Option<u64>,
) -> Result<Option<Resume>, UsageError> {
    let err = |m: String| UsageError(format!("--resume: {m}"));
    if path == Path::new("-") || std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(err(format!(
            "the record {} is not a file, so it cannot be read back: resume needs the record \
             file the interrupted match wrote",
            path.display()
        )));
    }
    let records = match read_records(path) {
        Ok((records, _torn)) => records,
        Err(crate::record::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(e) => return Err(err(format!("cannot read {}: {e}", path.display()))),
    };
    let Some(last) = records.last() else {
        return Ok(None);
    };
    let id = last.match_id.clone();
    let mut rounds: Vec<&RoundRecord> = records
        .iter()
        .filter(|r| r.match_id == id && r.table.is_none())
        .collect();
    rounds.sort_by_key(|r| r.round);
    if let Some(s) = seed
        && s != last.match_seed
    {
        return Err(err(format!(
            "--seed {s}, but the match to resume in {} (its last, {id}) was played with seed {}: \
             leave --seed out (the record's is used) or give that one",
            path.display(),
            last.match_seed
        )));
    }
    let differences = differences(last, config);
    if !differences.is_empty() {
        return Err(err(format!(
            "the match to resume in {} (its last, {id}) was not played with these arguments: \
             {}. Give the interrupted match's arguments again (each round of the record keeps \
             them), or record this match in another file",
            path.display(),
            differences.join("; ")
        )));
    }
    config.seed = last.match_seed;
    config.match_id = id.clone();
    let mut resume = None;
    for r in rounds {
        // The kept rounds opened as the openings given now would open them.
        let i = r.round as usize - 1;
        let opened: Vec<&serde_json::Value> = r
            .moves
            .iter()
            .filter(|m| m.opening)
            .map(|m| &m.mv)
            .collect();
        let now: Vec<&serde_json::Value> = config.openings.get(i).into_iter().flatten().collect();
        if opened != now || r.deal != config.deals.get(i).copied() {
            return Err(err(format!(
                "round {} of the match to resume in {} was not opened as --openings opens it now \
                 (it opened with {}, now {}): give the interrupted match's --openings file and \
                 --openings-order",
                r.round,
                path.display(),
                opening_text(&opened, r.deal),
                opening_text(&now, config.deals.get(i).copied())
            )));
        }
        resume = Some(Resume::add(resume, r).map_err(|e| err(format!("{}: {e}", path.display())))?);
    }
    Ok(resume)
}

/// An opening as the error shows it: its moves, or its deal seed, or "no opening".
fn opening_text(moves: &[&serde_json::Value], deal: Option<u64>) -> String {
    match deal {
        Some(d) => format!("deal seed {d}"),
        None if moves.is_empty() => "no opening".into(),
        None => moves
            .iter()
            .map(|m| m.as_str().map_or_else(|| m.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The match seed of the record's last match, if the file has a round.
pub fn seed_of(path: &Path) -> Option<u64> {
    read_records(path)
        .ok()
        .and_then(|(records, _)| records.last().map(|r| r.match_seed))
}

/// What the record's round says that the command line does not, one phrase each.
fn differences(r: &RoundRecord, config: &MatchConfig) -> Vec<String> {
    let mut out = Vec::new();
    let game = &config.game;
    if r.game != game.name() {
        out.push(format!("the game was {}, not {}", r.game, game.name()));
        return out;
    }
    if r.options != game.options() {
        out.push(format!(
            "the game's options were {}, not {}",
            r.options,
            game.options()
        ));
    }
    if r.rounds != config.rounds {
        out.push(format!(
            "it had {} rounds, not {} (--rounds)",
            r.rounds, config.rounds
        ));
    }
    let settings = config.settings();
    if r.settings != settings {
        out.push(format!(
            "its settings were {}, not {}",
            serde_json::to_string(&r.settings).unwrap_or_default(),
            serde_json::to_string(&settings).unwrap_or_default()
        ));
    }
    let before: Vec<&str> = r.seats.iter().map(|s| s.command.as_str()).collect();
    let now: Vec<String> = config.bots.iter().map(|b| b.command_line()).collect();
    if before != now {
        out.push(format!("its bots were {before:?}, not {now:?}"));
    }
    out
}
