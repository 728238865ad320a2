//! Showing recorded rounds: the terminal replay ([`text`], [`robots_text`]) and the HTML viewer
//! ([`html`], with its template `viewer.html` and script `viewer.js`). Judging them is
//! [`crate::replay`]'s.
//!
//! What is shown is what the rules make of the recorded moves, never a board the record merely
//! claims: Rolit rounds go through [`replay`], which plays the recorded moves through the
//! engine and fails only when a move cannot be played at all; Rock'n'Roll Robot records through
//! [`robots::replay`] (a token per line, its demonstrations played move by move).

pub mod generic;
pub mod html;
pub mod robots;
pub mod robots_text;
pub mod text;

use crate::game::ToAct;
use crate::record::RoundRecord;
use crate::replay::{Discrepancy, new_round, rolit_of, rows};

/// A Rolit round's positions as the engine computes them from the recorded moves (a robots
/// record replays as a [`robots::RobotsReplay`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RolitReplay {
    /// Board size (squares per side).
    pub size: u8,
    /// Each seat's colour.
    pub colours: Vec<String>,
    /// `boards[p]`: the rows (highest rank first) after `p` moves; `boards[0]` is the start.
    pub boards: Vec<Vec<String>>,
}

/// Plays a round's recorded moves through the engine. `game` is the round's index in its file
/// (from 1), for the error. Fails on the first move the rules refuse or that is out of turn.
pub fn replay(game: usize, record: &RoundRecord) -> Result<RolitReplay, Discrepancy> {
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
    Ok(RolitReplay {
        size: rolit.size,
        colours,
        boards,
    })
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
