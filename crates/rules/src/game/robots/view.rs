//! The JSON view of a board that bots receive and records keep: typed, so its JSON Schema comes
//! from the same types, and read back into a [`Board`] so a recorded game replays without its
//! seed. The format is documented in `protocol/games/robots.md`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::board::{Board, Diagonal, Kind, Placement};
use super::cell::{CELLS, Cell, Dir, SIZE};
use super::robot::Colour;
use super::token::Token;
use crate::Error;

/// A board as bots see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BoardView {
    /// Cells per side: 16.
    pub size: usize,
    /// Every cell with at least one closed side, mapped to the compass letters of its closed
    /// sides in the order N E S W (N is up, towards rank 16). A wall between two cells is
    /// listed on both; the board's edge and the sides of the central block's cells count as
    /// walls. Cells not listed have no wall.
    pub walls: BTreeMap<Cell, String>,
    /// The cells of the central block, where no robot ever stands.
    pub blocked: Vec<Cell>,
    /// The coloured diagonal walls.
    pub diagonals: Vec<DiagonalView>,
    /// The 17 targets, in token order.
    pub targets: Vec<TargetView>,
    /// The quarter boards the board was assembled from (for humans; empty for a drawn board).
    #[serde(default)]
    pub boards: Vec<Placement>,
}

/// A diagonal wall on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DiagonalView {
    pub cell: Cell,
    /// Robots of this colour pass it; every other robot is turned.
    pub colour: Colour,
    /// `/` joins the cell's bottom-left and top-right corners, `\` its top-left and
    /// bottom-right ones (up being rank 16).
    pub kind: Kind,
}

/// A target on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TargetView {
    pub cell: Cell,
    pub token: Token,
}

impl Board {
    /// The view bots receive.
    pub fn view(&self) -> BoardView {
        let walls = Cell::all()
            .filter(|&c| self.walls(c) != 0)
            .map(|c| {
                let w = self.walls(c);
                let sides = Dir::ALL
                    .into_iter()
                    .filter(|d| w & d.bit() != 0)
                    .map(Dir::compass)
                    .collect();
                (c, sides)
            })
            .collect();
        BoardView {
            size: SIZE,
            walls,
            blocked: Cell::all().filter(|&c| self.is_blocked(c)).collect(),
            diagonals: Cell::all()
                .filter_map(|cell| {
                    self.diagonal(cell).map(|d| DiagonalView {
                        cell,
                        colour: d.colour,
                        kind: d.kind,
                    })
                })
                .collect(),
            targets: self
                .targets()
                .iter()
                .map(|&(token, cell)| TargetView { cell, token })
                .collect(),
            boards: self.assembly().to_vec(),
        }
    }

    /// The view as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.view()).expect("a board view serialises")
    }

    /// A board back from its view.
    pub fn from_view(view: &BoardView) -> Result<Board, Error> {
        if view.size != SIZE {
            return Err(Error::Parse(format!(
                "a board is {SIZE}x{SIZE}, not {0}x{0}",
                view.size
            )));
        }
        let mut walls = [0u8; CELLS];
        for (cell, sides) in &view.walls {
            for ch in sides.chars() {
                let dir = Dir::ALL
                    .into_iter()
                    .find(|d| d.compass() == ch)
                    .ok_or_else(|| {
                        Error::Parse(format!("walls of {cell}: {ch:?} is not one of N E S W"))
                    })?;
                walls[cell.index()] |= dir.bit();
            }
        }
        let mut blocked = [false; CELLS];
        for c in &view.blocked {
            blocked[c.index()] = true;
        }
        let mut diagonals = [None; CELLS];
        for d in &view.diagonals {
            diagonals[d.cell.index()] = Some(Diagonal {
                colour: d.colour,
                kind: d.kind,
            });
        }
        let mut targets: Vec<(Token, Cell)> = Vec::new();
        for t in &view.targets {
            if targets.iter().any(|(u, _)| *u == t.token) {
                return Err(Error::Parse(format!(
                    "the {} target is listed twice",
                    t.token
                )));
            }
            targets.push((t.token, t.cell));
        }
        targets.sort();
        Board::from_parts(walls, blocked, diagonals, targets, view.boards.clone())
    }

    /// A board back from its view as JSON.
    pub fn from_json(v: &Value) -> Result<Board, Error> {
        let view =
            BoardView::deserialize(v).map_err(|e| Error::Parse(format!("not a board: {e}")))?;
        Board::from_view(&view)
    }
}
