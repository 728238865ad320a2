//! Showing recorded rounds: the terminal replay ([`text`], with [`generic`] for a game that
//! draws nothing of its own) and the HTML viewer ([`html`], a generic shell `viewer.html` +
//! `viewer.js` into which each game's own drawing script goes). Judging them is
//! [`crate::replay`]'s.
//!
//! This module names no game: what a game draws, it gives through its registry entry as a
//! [`Renderer`] (its terminal replay, its part of the viewer), in its own folder under
//! `src/game/`. What is shown is what the rules make of the recorded moves, never a board the
//! record merely claims.

pub mod generic;
pub mod html;
pub mod text;

use std::io::{self, BufRead, Write};

use serde_json::{Map, Value};

use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use text::{Pace, Style};

/// How a game is shown, in its registry entry.
pub struct Renderer {
    /// The terminal replay of one round; `None`: the generic one ([`generic::play`]), each
    /// state as the game's [`crate::game::Round::render`] text.
    pub text: Option<TextReplay>,
    /// The game's part of the HTML viewer; `None`: the generic part, each state as text.
    pub html: Option<HtmlPart>,
}

impl Renderer {
    /// A game shown by the generic replays only.
    pub const GENERIC: Renderer = Renderer {
        text: None,
        html: None,
    };
}

/// Replays one round on a [`Screen`]: `Ok(Ok(true))` to go on with the next round,
/// `Ok(Ok(false))` when the user quit, `Ok(Err(_))` when the round does not replay.
pub type TextReplay = fn(&RoundRecord, &mut Screen<'_>) -> io::Result<Result<bool, Discrepancy>>;

/// A game's part of the HTML viewer.
pub struct HtmlPart {
    /// The game's drawing code (`include_str!` of its `viewer.js`): a script that registers
    /// the game's view as `VIEWS[name]` inside the viewer's shell, using its helpers (see the
    /// shell `viewer.js` for what a view provides).
    pub script: &'static str,
    /// The round's data its script draws, computed by the rules from the recorded moves, given
    /// the round's index in the file (from 1, for errors); its keys are added to (or replace)
    /// the fields every round has (`seats`, `moves`, `result`, ...).
    pub data: HtmlData,
}

/// A round's data for its game's viewer script (see [`HtmlPart::data`]).
pub type HtmlData = fn(usize, &RoundRecord) -> Result<Map<String, Value>, Discrepancy>;

/// Where and how a terminal replay shows a round.
pub struct Screen<'a> {
    /// The round's index in its file (from 1) and how many rounds the file holds.
    pub index: usize,
    pub total: usize,
    pub style: &'a Style,
    pub pace: &'a Pace,
    /// Show the round as this seat saw it (its own hidden cards only), instead of as a
    /// spectator who sees every hand.
    pub seat: Option<usize>,
    pub out: &'a mut dyn Write,
    pub input: &'a mut dyn BufRead,
    pub prompt: &'a mut dyn Write,
}

/// The renderer of a record's game (the generic one for a game this build does not know).
pub fn renderer(record: &RoundRecord) -> &'static Renderer {
    match crate::game::registry::find(&record.game) {
        Ok(entry) => &entry.show,
        Err(_) => &Renderer::GENERIC,
    }
}

/// Replays one round in the terminal with its game's replay.
pub fn play(
    record: &RoundRecord,
    screen: &mut Screen<'_>,
) -> io::Result<Result<bool, Discrepancy>> {
    match renderer(record).text {
        Some(text) => text(record, screen),
        None => generic::play(record, screen),
    }
}
