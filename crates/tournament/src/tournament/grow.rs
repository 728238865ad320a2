//! A round robin whose field grows (`tournament FILE --add-bot`): bots appended to the file's
//! `[[bot]]` list after the event started are scheduled against the field, and every round
//! played stays.
//!
//! The tables played before keep their numbers, match ids and seeds: the schedule lists the
//! original field's tables first, then, for each addition, the tables of the field so far that
//! seat at least one new bot ([`Tournament::added`] keeps the field's size before each
//! addition), and the tournament keeps the identity of the event it grew from
//! ([`Tournament::id`]). Nothing else may change: a difference in the settings, a bot renamed
//! or moved, is refused with what differs. The output directory's `tournament.json` then holds
//! the grown event and the new file's SHA-256, so a plain `--resume` with that file goes on.

use std::path::Path;

use super::config::{ScheduleSpec, Tournament};
use super::output::{self, Meta};

/// What an existing output directory says of the field.
pub enum Field {
    /// No tournament there yet: the file's field.
    New,
    /// The same file: the field as it grew (`added` restored).
    Same,
    /// Bots were appended to the file (`--add-bot`): `meta` is the grown event's, to write once
    /// the new bots pass the pre-flight; `names` the new bots.
    Grown { meta: Box<Meta>, names: Vec<String> },
}

/// Reads the output directory's tournament (if any) and fits `t` to it: restores the
/// additions of an event that grew, or (`add`) checks that the file only appends bots and
/// makes `t` the grown event.
pub fn fit(
    dir: &Path,
    t: &mut Tournament,
    file: &str,
    file_sha256: &str,
    seed_drawn: bool,
    add: bool,
) -> Result<Field, crate::Error> {
    let has_meta = dir.join(output::META).is_file();
    if !has_meta {
        if add {
            return Err(crate::Error::Output(format!(
                "--add-bot: {} holds no tournament to add a bot to: run the tournament first \
                 (without --add-bot), or give its --output",
                dir.display()
            )));
        }
        return Ok(Field::New);
    }
    let old = output::read_meta(dir)?;
    if old.file_sha256 == file_sha256 {
        t.added.clone_from(&old.tournament.added);
        if seed_drawn {
            // A resumed or grown event keeps the seed drawn when it started (tournament.json).
            t.seed = old.tournament.seed;
        }
        // The same --add-bot again (after an interruption) goes on with the grown event.
        if add && old.tournament.added.is_empty() {
            return Err(crate::Error::Output(format!(
                "--add-bot: {file} is the file {} was run with: append the new bots' [[bot]] \
                 entries to it first",
                dir.display()
            )));
        }
        return Ok(Field::Same);
    }
    if !add {
        // `output::prepare` refuses it and says why.
        return Ok(Field::Same);
    }
    let before = &old.tournament;
    let n = before.bots.len();
    let what = |m: String| {
        crate::Error::Output(format!(
            "--add-bot: {m}; resume {} with its own file",
            dir.display()
        ))
    };
    if before.schedule != ScheduleSpec::RoundRobin {
        return Err(what(format!(
            "bots can be added to a round robin only, and {} holds a {} event",
            dir.display(),
            before.schedule.name()
        )));
    }
    if old.shard.is_some() || !old.merged_from.is_empty() {
        return Err(what(format!(
            "{} holds one shard of a tournament (or a merge): add bots to an event run on one \
             machine",
            dir.display()
        )));
    }
    if before.sprt.is_some() {
        return Err(what(
            "an SPRT event is a test between two bots: it takes no third".into(),
        ));
    }
    let common = n.min(t.bots.len());
    if let Some(i) = (0..common).find(|&i| t.bots[i] != before.bots[i]) {
        return Err(what(format!(
            "the file's first {n} bots must be the event's, unchanged and in order, with the \
             new ones after them, but bot {} is {:?} ({}) in the file, {:?} ({}) in the event",
            i + 1,
            t.bots[i].name,
            t.bots[i].command,
            before.bots[i].name,
            before.bots[i].command
        )));
    }
    if t.bots.len() <= n {
        return Err(what(format!(
            "the file has no new bot ({} bots, the event {n}): append the new bots' [[bot]] \
             entries after the others",
            t.bots.len()
        )));
    }
    if seed_drawn {
        // The seed was drawn when the event started: the event keeps it.
        t.seed = before.seed;
    }
    let mut same = t.clone();
    same.bots.truncate(n);
    same.added.clone_from(&before.added);
    if same != *before {
        return Err(what(format!(
            "only bots may be added, but other settings differ: {}",
            output::differences(before, &same).join("; ")
        )));
    }
    t.added.clone_from(&before.added);
    t.added.push(n);
    let names = t.bots[n..].iter().map(|b| b.name.clone()).collect();
    Ok(Field::Grown {
        meta: Box::new(Meta {
            file: file.to_string(),
            file_sha256: file_sha256.to_string(),
            id: t.id(),
            tournament: t.clone(),
            ..old
        }),
        names,
    })
}
