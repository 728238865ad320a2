//! Rollerball in the registry: its flag (`--turn-limit`), its options, its demo.

use super::arena::RollerballGame;
use serde_json::Value;

use super::{Event, Rollerball, Secret, View};
use crate::game::registry::{Demo, Entry, Flag, Options, Perft, PerftFrom, points_line, whole};
use crate::show::renderer::Renderer;
use schemars::{Schema, schema_for};

pub static ENTRY: Entry = Entry {
    name: super::options::RULES.name,
    title: "Rollerball, rolling balls, workmen and diversion cards (protocol/games/rollerball.md)",
    rules_version: super::options::RULES.rules_version,
    flags: FLAGS,
    build: |options| (super::options::RULES.build)(options).map_err(crate::Error::options),
    demo,
    summary: points_line,
    players: 2..=6,
    schemas,
    perft: Some(Perft {
        flags: PERFT_FLAGS,
        start: perft_start,
    }),
    show: Renderer {
        about: "the board (tracks, bases, workmen, balls with their state, cards on the board), whose decision it is, victory points, hands and bids, each decision with its public events, and every step of the ball phase as a frame of its own; the viewer animates the balls and plots victory points over the turns",
        text: Some(super::show_text::play),
        html: Some(super::show_html::HTML),
    },
    check: &super::check::CHECK,
    bots: super::bots::BOTS,
    analysis: None,
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

const FLAGS: &[Flag] = &[Flag::value(
    "turn_limit",
    "turn-limit",
    "TURNS",
    "Turns before the game ends without a five-point winner [default: 360]",
)];

fn demo(_: &Options) -> (Demo, usize) {
    (DEMO, 4)
}

/// Its state, its public events and the secrets its records keep
/// (`protocol/schemas/rollerball-*.json`).
fn schemas() -> Vec<(&'static str, Schema)> {
    vec![
        ("rollerball-state.json", schema_for!(View)),
        ("rollerball-event.json", schema_for!(Event)),
        ("rollerball-secret.json", schema_for!(Secret)),
    ]
}

/// Where `perft` starts: the deal of a chance seed, and decisions played from it.
const PERFT_FLAGS: &[Flag] = &[
    Flag::value(
        "chance_seed",
        "chance-seed",
        "N",
        "perft: the chance seed that shuffles the deck [default: 1]",
    ),
    Flag::value(
        "moves",
        "moves",
        "MOVES",
        "perft: decisions to play from the deal first, canonical, separated by '|', each by \
         the seat asked (during the bid, the lowest seat that has not bid)",
    ),
];

impl PerftFrom for Rollerball {
    fn count(&self, depth: u32) -> u64 {
        super::perft(self, depth).leaves
    }
}

/// The deal for `players` (default 4) and `turn_limit`, from `chance_seed`, then `moves`.
fn perft_start(options: &Options) -> Result<Box<dyn PerftFrom>, crate::Error> {
    let number = |key: &str, default: u64| {
        options
            .get(key)
            .map_or(Ok(default), |v| whole(key, v))
            .map_err(crate::Error::options)
    };
    let players = number("players", 4)? as usize;
    let turn_limit = number(
        "turn_limit",
        u64::from(RollerballGame::default_turn_limit()),
    )?;
    let turn_limit = u32::try_from(turn_limit)
        .map_err(|_| crate::Error::Options("turn_limit is too large".into()))?;
    let mut state = Rollerball::new(players, turn_limit, number("chance_seed", 1)?)
        .map_err(crate::Error::options)?;
    let moves = options.get("moves").and_then(Value::as_str).unwrap_or("");
    for (i, text) in moves
        .split('|')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let Some(seat) = state.to_act().and_then(|t| t.seats.first().copied()) else {
            return Err(crate::Error::Options(format!(
                "--moves: the game is over before decision {} ({text})",
                i + 1
            )));
        };
        state.apply_text(seat, text).map_err(|e| {
            crate::Error::Options(format!("--moves: decision {} by seat {seat}: {e}", i + 1))
        })?;
    }
    Ok(Box::new(state))
}
