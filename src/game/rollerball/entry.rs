//! Rollerball in the registry: its flag (`--turn-limit`), its options, its demo.

use std::sync::Arc;

use clap::Arg;

use super::arena::{RULES_VERSION, RollerballGame};
use crate::game::Game;
use crate::game::registry::{Demo, Entry, Options, points_line, whole};

pub static ENTRY: Entry = Entry {
    name: "rollerball",
    title: "Rollerball, rolling balls, workmen and diversion cards (protocol/games/rollerball.md)",
    rules_version: RULES_VERSION,
    flags,
    build,
    demo,
    summary: points_line,
    bots: super::bots::BOTS,
};

/// The built-in bots, strongest first: the searching bot thinks 20 ms a decision (so a demo
/// match takes seconds), then the one-turn heuristic, each twice with its own seed, then
/// `random` for a fifth and sixth seat.
const DEMO: &[&str] = &[
    "rollarena bot ismcts --movetime 20",
    "rollarena bot heuristic",
    "rollarena bot ismcts --movetime 20 --seed 2",
    "rollarena bot heuristic --seed 2",
    "rollarena bot random",
    "rollarena bot random --seed 2",
];

fn flags() -> Vec<Arg> {
    vec![
        Arg::new("turn_limit")
            .long("turn-limit")
            .value_name("TURNS")
            .help("Turns before the game ends without a five-point winner [default: 360]"),
    ]
}

/// `players` (2 to 6, default 4) and `turn_limit` (default 360).
fn build(options: &Options) -> Result<Arc<dyn Game>, String> {
    let mut players = 4;
    let mut turn_limit = u64::from(RollerballGame::default_turn_limit());
    for (key, value) in options {
        match key.as_str() {
            "players" => players = whole(key, value)?,
            "turn_limit" => turn_limit = whole(key, value)?,
            other => {
                return Err(format!(
                    "rollerball has no option {other:?} (it takes players and turn_limit)"
                ));
            }
        }
    }
    let turn_limit = u32::try_from(turn_limit).map_err(|_| "turn_limit is too large")?;
    Ok(Arc::new(RollerballGame::new(players as usize, turn_limit)?))
}

fn demo(_: &Options) -> (Demo, usize) {
    (DEMO, 4)
}
