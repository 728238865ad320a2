//! What a game gives its registry entry to be shown ([`Renderer`]: its terminal replay and its
//! part of the HTML viewer) and the terminal a replay draws on ([`Screen`]). Apart from the
//! dispatch in `show/mod.rs`, so that the registry, which holds a renderer per game, and the
//! dispatch, which finds a record's game in the registry, do not import each other.

use std::io::{self, BufRead, Write};

use serde_json::{Map, Value};

use super::text::{Pace, Style};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;

/// How a game is shown, in its registry entry.
pub struct Renderer {
    /// What the replays show of a round, in a line or two (`replay --help` lists it).
    pub about: &'static str,
    /// The terminal replay of one round; `None`: the generic one ([`super::generic::play`]), each
    /// state as the game's [`crate::game::Round::render`] text.
    pub text: Option<TextReplay>,
    /// The game's part of the HTML viewer; `None`: the generic part, each state as text.
    pub html: Option<HtmlPart>,
}

impl Renderer {
    /// A game shown by the generic replays only.
    pub const GENERIC: Renderer = Renderer {
        about: "each recorded decision and the state it leads to, as the game's text",
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
    /// The game's live part (`include_str!` of its `viewer_live.js`), for the arena's live
    /// board: a script that registers, as `LIVE[name]`, the function that makes the fields
    /// its view reads from a round in play (the states and moves its audience was shown, see
    /// `show/live.js`); `None`: each state shown as text.
    pub live: Option<&'static str>,
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

impl Screen<'_> {
    /// The screen's streams for [`super::text::paced`], with `prompt_text` asked between steps.
    pub fn io<'s>(&'s mut self, prompt_text: &'s str) -> super::text::Paced<'s> {
        super::text::Paced {
            out: &mut *self.out,
            input: &mut *self.input,
            prompt: &mut *self.prompt,
            prompt_text,
        }
    }
}
