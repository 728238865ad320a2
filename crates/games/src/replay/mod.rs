//! What a record says it was played at ([`game_of`]), its states played again through the
//! rules ([`replay_states`], for showing), and which of a file's rounds a user selects
//! ([`select`]). Judging records is [`crate::verify`]'s, showing them (the terminal replay,
//! the HTML viewer) [`crate::show`]'s.
//!
//! A record holds every move, so a round replays through the rules engine without the PRNG
//! (`protocol/RECORD.md` §6).

use crate::game::{Applied, Game, Round, RoundSetup, Stamp};
use crate::record::RoundRecord;

pub use crate::verify::{Discrepancy, MatchReport, Report, verify, verify_game};

/// The game a record was played at, with its options, checked against the rules this build
/// knows.
pub fn game_of(record: &RoundRecord) -> Result<std::sync::Arc<dyn Game>, crate::Error> {
    crate::game::registry::of_record(record).map_err(crate::Error::record)
}

/// A fresh round set up as the record says it was (round index, match seed, round seed, and
/// the chance seed the arbiter derives from them).
pub fn new_round(game: &dyn Game, record: &RoundRecord) -> Box<dyn Round> {
    game.new_round(setup(record))
}

fn setup(record: &RoundRecord) -> RoundSetup {
    RoundSetup {
        round: record.round.saturating_sub(1),
        match_seed: record.match_seed,
        round_seed: record.seed,
        chance_seed: crate::seed::chance_seed(
            record.match_seed,
            record.table.unwrap_or(0),
            record.round.saturating_sub(1),
        ),
    }
}

/// Plays a round's recorded moves again through its game's rules, calling `each` with the
/// round at the start (no applied actions) and after each move (with what it did). `index` is the
/// round's place in its file (from 1), for the error: the first move the rules refuse.
/// (`replay --verify` is the strict judge of everything else the record says.)
pub fn replay_states(
    index: usize,
    record: &RoundRecord,
    mut each: impl FnMut(&dyn Round, &[Applied]),
) -> Result<(), Discrepancy> {
    let fail = |ply: Option<u32>, reason: String| Discrepancy {
        game: index,
        ply,
        reason,
    };
    let game = game_of(record).map_err(|e| fail(None, e.to_string()))?;
    let mut round: Box<dyn Round> = match &record.carry {
        Some(c) => game
            .next_round(setup(record), c)
            .map_err(|e| fail(None, e.to_string()))?,
        None => game.new_round(setup(record)),
    };
    each(round.as_ref(), &[]);
    for m in &record.moves {
        let kind = m.kind.as_deref().unwrap_or("move");
        let played = if kind == "move" {
            round.play(m.seat, &m.mv).map(|a| vec![a])
        } else {
            let at = Stamp {
                ms: m.at_ms.unwrap_or(m.ms),
                cpu_ms: m.cpu_ms,
            };
            round.act(m.seat, kind, &m.mv, at)
        };
        let applied = played.map_err(|e| {
            fail(
                Some(m.ply),
                format!("{} cannot be played: {e}", crate::game::short_json(&m.mv)),
            )
        })?;
        each(round.as_ref(), &applied);
    }
    Ok(())
}

pub use crate::game::board_rows as rows;

/// The rounds a 1-based `--round N` selects among `total`, or all of them.
pub fn select(total: usize, round: Option<usize>) -> Result<Vec<usize>, crate::Error> {
    let refused = |why: String| Err(crate::Error::Selection(why));
    match round {
        None if total == 0 => refused("the record holds no complete round".into()),
        None => Ok((1..=total).collect()),
        Some(0) => refused("--round counts rounds in the file from 1".into()),
        Some(n) if n > total => refused(format!(
            "--round {n}: the record holds {total} round{}",
            if total == 1 { "" } else { "s" }
        )),
        Some(n) => Ok(vec![n]),
    }
}
