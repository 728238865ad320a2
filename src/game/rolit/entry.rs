//! Rolit in the registry: its flag (`--size`), its options (`size`, `players`), its demo.

use std::sync::Arc;

use clap::Arg;
use serde_json::{Map, Value};

use super::{RULES_VERSION, Rolit};
use crate::game::Game;
use crate::game::bot::{BotFlag, BuiltinBot};
use crate::game::registry::{Entry, points_line, whole};

pub static ENTRY: Entry = Entry {
    name: "rolit",
    title: "Rolit, a four-colour cousin of Othello (protocol/games/rolit.md)",
    rules_version: RULES_VERSION,
    flags,
    build,
    demo,
    summary: points_line,
    bots: BOTS,
};

/// Rolit's own bots, served by the bot loop's Rolit code (src/bots/).
const BOTS: &[BuiltinBot] = &[
    BuiltinBot {
        name: "greedy",
        help: "the move that turns the most balls; ties broken at random.",
        flags: &[],
        build: None,
    },
    BuiltinBot {
        name: "positional",
        help: "weighs squares by their tactical level (corners very strong, other edge \
               squares strong, the middle medium, edge squares next to a corner weak, squares \
               diagonally next to a corner very weak) plus the balls turned; with --depth D > 1 \
               (up to 6) it looks D moves ahead, assuming every other player plays against it \
               (paranoid alpha-beta search).",
        flags: &[BotFlag::Depth],
        build: None,
    },
    BuiltinBot {
        name: "mcts",
        help: "multi-player Monte-Carlo tree search (max^n backups, progressive history, a \
               solver near the end, tree reuse); thinks for about 85% of the turn's time_ms \
               less 50 ms. --movetime MS caps that, --playouts N stops after N simulations \
               (with a fixed --seed: the same moves every time). The strongest with three or \
               four players.",
        flags: &[BotFlag::Movetime, BotFlag::Playouts],
        build: None,
    },
    BuiltinBot {
        name: "brs",
        help: "Best-Reply Search (BRS+) on an evaluation of corners, stable edges, mobility and \
               balls by phase; iterative deepening against the clock, or --depth D layers \
               (reproducible); --movetime MS caps the time. The strongest with two players.",
        flags: &[BotFlag::Depth, BotFlag::Movetime],
        build: None,
    },
];

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
