//! Rolit in the registry: its flag (`--size`), its options (`size`, `players`), its demo.

use std::sync::Arc;

use clap::Arg;
use serde_json::{Map, Value};

use super::{RULES_VERSION, Rolit};
use crate::game::Game;
use crate::game::registry::{Entry, points_line, whole};

pub static ENTRY: Entry = Entry {
    name: "rolit",
    title: "Rolit, a four-colour cousin of Othello (protocol/games/rolit.md)",
    rules_version: RULES_VERSION,
    flags,
    build,
    demo,
    summary: points_line,
    bots: super::bots::BOTS,
};

/// The demo's bots, strongest first; `--players N` takes the first N.
const DEMO: &[&str] = &[
    "rollarena bot positional --depth 3",
    "rollarena bot greedy",
    "rollarena bot positional",
    "rollarena bot random",
];

fn flags() -> Vec<Arg> {
    vec![
        Arg::new("size")
            .long("size")
            .value_name("N")
            .help("Board size: 8, 6 or 4 (4x4 is for 2 players) [default: 8]"),
    ]
}

/// `size` (8, 6 or 4; default 8) and `players` (2 to 4; default 4).
fn build(options: &Map<String, Value>) -> Result<Arc<dyn Game>, String> {
    let mut size = 8;
    let mut players = 4;
    for (key, value) in options {
        match key.as_str() {
            "size" => size = whole(key, value)?,
            "players" => players = whole(key, value)?,
            other => {
                return Err(format!(
                    "rolit has no option {other:?} (it takes size and players)"
                ));
            }
        }
    }
    let game = Rolit::new(size.min(255) as u8, players as usize).map_err(|e| e.to_string())?;
    Ok(Arc::new(game))
}

/// Four bots, or two on the 4x4 board.
fn demo(options: &Map<String, Value>) -> (&'static [&'static str], usize) {
    let size = options.get("size").and_then(|v| whole("size", v).ok());
    (DEMO, if size == Some(4) { 2 } else { 4 })
}
