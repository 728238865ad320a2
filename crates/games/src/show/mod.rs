//! Showing recorded rounds: the terminal replay ([`text`], with [`generic`] for a game that
//! draws nothing of its own) and the HTML viewer ([`html`], a generic shell `viewer.html` +
//! `viewer.js` into which each game's own drawing script goes). Judging them is
//! [`crate::replay`]'s.
//!
//! This module names no game: what a game draws, it gives through its registry entry as a
//! [`Renderer`] (its terminal replay, its part of the viewer), in its own folder under
//! `crates/games/src/game/`. What is shown is what the rules make of the recorded moves, never a board the
//! record merely claims.

pub mod generic;
pub mod html;
pub mod renderer;
pub mod text;

pub use renderer::{HtmlData, HtmlPart, Renderer, Screen, TextReplay};

use std::io;

use crate::record::RoundRecord;
use crate::replay::Discrepancy;

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
