//! Rolit in the registry: its flag (`--size`), its options (`size`, `players`), its demo.

use serde_json::{Map, Value};

use super::{Colour, Position, State, perft};
use crate::game::registry::{Entry, Flag, Perft, PerftFrom, points_line, whole};
use crate::show::renderer::Renderer;
use schemars::{Schema, schema_for};

pub static ENTRY: Entry = Entry {
    name: super::options::RULES.name,
    title: "Rolit, a four-colour cousin of Othello (protocol/games/rolit.md)",
    rules_version: super::options::RULES.rules_version,
    flags: FLAGS,
    build: |options| (super::options::RULES.build)(options).map_err(crate::Error::options),
    demo,
    summary: points_line,
    players: 2..=4,
    schemas,
    perft: Some(Perft {
        flags: PERFT_FLAGS,
        start: perft_start,
    }),
    show: Renderer {
        about: "the board after each move, the move, its time, the balls it flipped and the running scores",
        text: Some(super::show::play),
        html: Some(super::show_html::HTML),
    },
    check: &super::check::CHECK,
    bots: super::bots::BOTS,
    analysis: Some(super::solver::command::ANALYSIS),
};

/// The demo's bots, strongest first; `--players N` takes the first N.
const DEMO: &[&str] = &[
    "rollarena bot positional --depth 3",
    "rollarena bot greedy",
    "rollarena bot positional",
    "rollarena bot random",
];

const FLAGS: &[Flag] = &[Flag::value(
    "size",
    "size",
    "N",
    "Board size: 8, 6 or 4 (4x4 is for 2 players) [default: 8]",
)];

/// Four bots, or two on the 4x4 board.
fn demo(options: &Map<String, Value>) -> (&'static [&'static str], usize) {
    let size = options.get("size").and_then(|v| whole("size", v).ok());
    (DEMO, if size == Some(4) { 2 } else { 4 })
}

/// Rolit's state (`protocol/schemas/rolit-state.json`).
fn schemas() -> Vec<(&'static str, Schema)> {
    vec![("rolit-state.json", schema_for!(State))]
}

/// Where `perft` starts: the colour to move first, or a whole position.
const PERFT_FLAGS: &[Flag] = &[
    Flag::value(
        "first",
        "first",
        "COLOUR",
        "perft: the colour that moves first [default: red]",
    ),
    Flag::value(
        "position",
        "position",
        "STATE",
        "perft: start from this position instead, in the JSON state form a bot receives (its \
         board's size and colours override --size and --players)",
    ),
];

impl PerftFrom for Position {
    fn count(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// The start of `size` (default 8) for `players` (default 4, or 2 on a 4x4 board) with
/// `first` to move, or the `position` given.
fn perft_start(options: &Map<String, Value>) -> Result<Box<dyn PerftFrom>, crate::Error> {
    Ok(Box::new(position_of(options)?))
}

/// The position `perft` and `solve` start from: the `position` given (a JSON state, or for
/// `solve` a board as rows with `to-move`), or the start of `size` (default 8) for `players`
/// (default 4, or 2 on a 4x4 board) with `first` to move (default red).
pub fn position_of(options: &Map<String, Value>) -> Result<Position, crate::Error> {
    let text = |key: &str| options.get(key).and_then(Value::as_str);
    let players = options
        .get("players")
        .map(|v| whole("players", v))
        .transpose()
        .map_err(crate::Error::options)?;
    let default_players = |size: usize| if size == 4 { 2 } else { 4 };
    let to_move = text("to-move")
        .map(|c| {
            Colour::from_name(c).ok_or_else(|| {
                crate::Error::Options(format!(
                    "--to-move {c}: not a colour; use red, yellow, green or blue"
                ))
            })
        })
        .transpose()?;
    if let Some(given) = text("position") {
        let mut state: State = if given.trim_start().starts_with('{') {
            serde_json::from_str(given).map_err(|e| {
                crate::Error::Options(format!("--position is not a Rolit state: {e}"))
            })?
        } else {
            let Some(c) = to_move else {
                return Err(crate::Error::Options(format!(
                    "--position {given:?} is a board without the colour to move: add \
                     --to-move COLOUR (or give the JSON state a bot receives)"
                )));
            };
            State {
                board: given
                    .split(['/', ','])
                    .map(|r| r.trim().to_string())
                    .collect(),
                to_move: c.name().to_string(),
                ply: 0,
                colours: vec![],
            }
        };
        if let Some(c) = to_move {
            state.to_move = c.name().to_string();
        }
        let players = players.map_or_else(|| default_players(state.board.len()), |p| p as usize);
        return state
            .to_position(players)
            .map_err(|e| crate::Error::Options(format!("--position: {e}")));
    }
    let size = options
        .get("size")
        .map(|v| whole("size", v))
        .transpose()
        .map_err(crate::Error::options)?
        .unwrap_or(8);
    let first = text("first").unwrap_or("red");
    let first = Colour::from_name(first).ok_or_else(|| {
        crate::Error::Options(format!(
            "--first {first}: not a colour; use red, yellow, green or blue"
        ))
    })?;
    let players = players.map_or_else(|| default_players(size as usize), |p| p as usize);
    Position::start(size.min(255) as u8, players, first).map_err(crate::Error::options)
}
