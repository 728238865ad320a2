//! Goofspiel in the registry: its flag (`--cards`), its options, its demo.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Goofspiel, RULES_VERSION};
use crate::game::Game;
use crate::game::registry::{Entry, Flag, points_line};
use crate::show::renderer::Renderer;
use schemars::{Schema, schema_for};

pub static ENTRY: Entry = Entry {
    name: "goofspiel",
    title: "Goofspiel, sealed bids for a shuffled prize deck (protocol/games/goofspiel.md)",
    rules_version: RULES_VERSION,
    flags: FLAGS,
    build,
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

fn build(options: &Map<String, Value>) -> Result<Arc<dyn Game>, String> {
    let mut options = options.clone();
    if let Some(Value::String(s)) = options.get("cards") {
        let n: u64 = s
            .trim()
            .parse()
            .map_err(|_| format!("cards: {s:?} is not a whole number"))?;
        options.insert("cards".into(), n.into());
    }
    Ok(Arc::new(Goofspiel::from_options(&options)?))
}

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
