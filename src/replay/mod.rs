//! What a record says it was played at ([`game_of`], [`rolit_of`]) and which of a file's
//! rounds a user selects ([`select`]). Judging records is [`crate::verify`]'s, showing them
//! (the terminal replay, the HTML viewer) [`crate::show`]'s.
//!
//! A record holds every move, so a round replays through the rules engine without the PRNG
//! (`protocol/RECORD.md` §6).

use serde_json::Value;

use crate::game::rolit::{RULES_VERSION, Rolit};
use crate::game::{Game, Round, RoundSetup};
use crate::record::RoundRecord;

pub use crate::verify::{Discrepancy, MatchReport, Report, verify, verify_game};

/// The Rolit variant a record's options name, checked against the rules this build knows.
pub fn rolit_of(record: &RoundRecord) -> Result<Rolit, String> {
    if record.game != "rolit" {
        return Err(format!(
            "the game {:?} is not one this build can replay (rolit)",
            record.game
        ));
    }
    if record.rules != RULES_VERSION {
        return Err(format!(
            "the record was played under rolit rules version {}; this build knows version \
             {RULES_VERSION}",
            record.rules
        ));
    }
    let size = record.options.get("size").and_then(Value::as_u64);
    let players = record.options.get("players").and_then(Value::as_u64);
    let (Some(size), Some(players)) = (size, players) else {
        return Err(format!(
            "the options {} do not give a board size and a player count",
            crate::game::short_json(&record.options)
        ));
    };
    let game = Rolit::new(size.min(255) as u8, players as usize).map_err(|e| e.to_string())?;
    if game.options() != record.options {
        return Err(format!(
            "the options {} are not the canonical {}",
            crate::game::short_json(&record.options),
            game.options()
        ));
    }
    Ok(game)
}

/// The game a record was played at, with its options, checked against the rules this build
/// knows.
pub fn game_of(record: &RoundRecord) -> Result<std::sync::Arc<dyn Game>, String> {
    crate::game::registry::of_record(record)
}

/// A fresh round set up as the record says it was (round index, match seed, round seed).
pub fn new_round(game: &Rolit, record: &RoundRecord) -> Box<dyn Round> {
    game.new_round(RoundSetup {
        round: record.round.saturating_sub(1),
        match_seed: record.match_seed,
        round_seed: record.seed,
        chance_seed: record.seed,
    })
}

/// The `board` rows of a Rolit state.
pub fn rows(state: &Value) -> Vec<String> {
    state
        .get("board")
        .and_then(Value::as_array)
        .map(|rows| {
            rows.iter()
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The rounds a 1-based `--round N` selects among `total`, or all of them.
pub fn select(total: usize, round: Option<usize>) -> Result<Vec<usize>, String> {
    match round {
        None if total == 0 => Err("the record holds no complete round".into()),
        None => Ok((1..=total).collect()),
        Some(0) => Err("--round counts rounds in the file from 1".into()),
        Some(n) if n > total => Err(format!(
            "--round {n}: the record holds {total} round{}",
            if total == 1 { "" } else { "s" }
        )),
        Some(n) => Ok(vec![n]),
    }
}
