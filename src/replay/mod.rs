//! Replays of recorded rounds: verification, the terminal replay and the HTML viewer.
//!
//! A record holds every move, so a round replays through the rules engine without the PRNG
//! (`protocol/RECORD.md` §6). [`verify`] is the strict judge: it replays every move and checks every
//! recorded effect, returning the first discrepancy as a plain value. [`text`] and [`html`]
//! only need the positions: they use [`replay`], which plays the recorded moves through the
//! engine (so what they show is what the rules make of the moves, never a board the record
//! merely claims) and fails only when a move cannot be played at all. Rock'n'Roll Robot
//! records replay through [`robots::replay`] (a token per line, its demonstrations played move
//! by move) and show with [`robots_text`] and the same viewer.

pub mod generic;
pub mod html;
pub mod robots;
pub mod robots_text;
pub mod text;

use serde_json::Value;

use crate::game::rolit::{RULES_VERSION, Rolit};
use crate::game::{Game, Round, RoundSetup, ToAct};
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

/// A round's positions as the engine computes them from the recorded moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// Board size (squares per side).
    pub size: u8,
    /// Each seat's colour.
    pub colours: Vec<String>,
    /// `boards[p]`: the rows (highest rank first) after `p` moves; `boards[0]` is the start.
    pub boards: Vec<Vec<String>>,
}

/// Plays a round's recorded moves through the engine. `game` is the round's index in its file
/// (from 1), for the error. Fails on the first move the rules refuse or that is out of turn.
pub fn replay(game: usize, record: &RoundRecord) -> Result<Replayed, Discrepancy> {
    let fail = |ply: Option<u32>, reason: String| Discrepancy { game, ply, reason };
    let rolit = rolit_of(record).map_err(|r| fail(None, r))?;
    let mut round = new_round(&rolit, record);
    let colours = round.colours().unwrap_or_default();
    let mut boards = vec![rows(&round.public_view())];
    for (i, m) in record.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        match round.to_act() {
            ToAct::Seat(seat, _) if seat == m.seat => {}
            ToAct::Seat(seat, _) => {
                return Err(fail(
                    Some(ply),
                    format!("seat {} moved, but it was seat {seat}'s turn", m.seat),
                ));
            }
            _ => {
                return Err(fail(
                    Some(ply),
                    format!("the round was over after {i} moves, yet the record goes on"),
                ));
            }
        }
        round.play(m.seat, &m.mv).map_err(|e| {
            fail(
                Some(ply),
                format!("{} cannot be played: {e}", crate::game::short_json(&m.mv)),
            )
        })?;
        boards.push(rows(&round.public_view()));
    }
    Ok(Replayed {
        size: rolit.size,
        colours,
        boards,
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

/// Balls of each colour letter on a board, in the order R, Y, G, B.
pub fn counts(board: &[String]) -> [u32; 4] {
    let mut out = [0; 4];
    for ch in board.iter().flat_map(|r| r.chars()) {
        if let Some(i) = "RYGB".find(ch) {
            out[i] += 1;
        }
    }
    out
}

/// The rounds a 1-based `--game N` selects among `total`, or all of them.
pub fn select(total: usize, game: Option<usize>) -> Result<Vec<usize>, String> {
    match game {
        None if total == 0 => Err("the record holds no complete round".into()),
        None => Ok((1..=total).collect()),
        Some(0) => Err("--game counts rounds in the file from 1".into()),
        Some(n) if n > total => Err(format!(
            "--game {n}: the record holds {total} round{}",
            if total == 1 { "" } else { "s" }
        )),
        Some(n) => Ok(vec![n]),
    }
}
