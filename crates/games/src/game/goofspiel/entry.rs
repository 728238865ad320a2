//! Goofspiel in the registry: its flag (`--cards`), its options, its demo.

use serde_json::{Map, Value};

use crate::game::registry::{Entry, Flag, points_line};
use crate::show::renderer::Renderer;
use schemars::{Schema, schema_for};

pub static ENTRY: Entry = Entry {
    name: super::options::RULES.name,
    title: "Goofspiel, sealed bids for a shuffled prize deck (protocol/games/goofspiel.md)",
    rules_version: super::options::RULES.rules_version,
    flags: FLAGS,
    build: |options| (super::options::RULES.build)(options).map_err(crate::Error::options),
    demo,
    summary: points_line,
    players: 2..=4,
    schemas,
    perft: None,
    show: Renderer {
        about: "each turn's prize card, the sealed bids once all are in, the hands and the scores",
        text: None,
        html: Some(super::show::HTML),
    },
    check: &super::check::CHECK,
    bots: super::bots::BOTS,
    analysis: None,
};

const FLAGS: &[Flag] = &[Flag::value(
    "cards",
    "cards",
    "N",
    "Cards per hand and in the prize deck, 1 to 13 [default: 13]",
)];

/// Its own bots, then `random`: `--players N` takes the first N.
const DEMO: &[&str] = &[
    "rollarena bot search --movetime 50",
    "rollarena bot heuristic",
    "rollarena bot random",
    "rollarena bot random --seed 2",
];

fn demo(_: &Map<String, Value>) -> (&'static [&'static str], usize) {
    (DEMO, 2)
}

/// Its state (`protocol/schemas/goofspiel-state.json`).
fn schemas() -> Vec<(&'static str, Schema)> {
    vec![("goofspiel-state.json", schema_for!(super::view::SeatView))]
}
