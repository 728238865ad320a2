//! The assembled 16x16 board: walls, the central block, coloured diagonal walls, targets, and the
//! JSON view bots receive.
//!
//! A [`Board`] is built once per game (from a seed by [`Board::assemble`], from a drawing by
//! [`Board::from_text`], or back from its JSON view) and never changes; building it precomputes
//! the slide tables of [`mod@super::slide`], so every query afterwards is a table look-up. The edge
//! of the board is stored as walls on the border cells and the central block as cells walled on
//! every side, so a slide only ever asks "is there a wall on this side of this cell".

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cell::{CELLS, Cell, Dir, SIZE};
use super::robot::Colour;
use super::slide::Paths;
use super::text::{Code, Drawing};
use super::token::Token;
use crate::Error;

/// The orientation of a diagonal wall as drawn with up at the top: `/` joins the bottom-left and
/// top-right corners of its cell, `\` the top-left and bottom-right ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Kind {
    #[serde(rename = "/")]
    Slash,
    #[serde(rename = "\\")]
    Backslash,
}

impl Kind {
    /// The direction a robot turned by this wall leaves in, given the one it came in with. Like a
    /// mirror: `/` turns right into up, up into right, left into down, down into left; `\` turns
    /// right into down, down into right, left into up, up into left.
    pub const fn turn(self, dir: Dir) -> Dir {
        match (self, dir) {
            (Kind::Slash, Dir::Right) => Dir::Up,
            (Kind::Slash, Dir::Up) => Dir::Right,
            (Kind::Slash, Dir::Left) => Dir::Down,
            (Kind::Slash, Dir::Down) => Dir::Left,
            (Kind::Backslash, Dir::Right) => Dir::Down,
            (Kind::Backslash, Dir::Down) => Dir::Right,
            (Kind::Backslash, Dir::Left) => Dir::Up,
            (Kind::Backslash, Dir::Up) => Dir::Left,
        }
    }
    /// The same wall after the board turned a quarter (either way): `/` becomes `\`.
    pub const fn turned(self) -> Kind {
        match self {
            Kind::Slash => Kind::Backslash,
            Kind::Backslash => Kind::Slash,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Slash => "/",
            Kind::Backslash => "\\",
        })
    }
}

/// A coloured diagonal wall: robots of its colour pass it, every other robot is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Diagonal {
    pub colour: Colour,
    pub kind: Kind,
}

/// Which quarter board lies in which corner of an assembled board, on which side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Placement {
    /// The quarter board's name, like `"red-1"` (its colour indicator and number).
    pub board: String,
    /// `"A"` (straight walls only) or `"B"` (with diagonals).
    pub side: String,
    /// `"top-left"` (a9-h16), `"top-right"` (i9-p16), `"bottom-right"` (i1-p8) or
    /// `"bottom-left"` (a1-h8).
    pub corner: String,
}

/// An assembled board. Immutable once built.
#[derive(Clone)]
pub struct Board {
    walls: [u8; CELLS],
    blocked: [bool; CELLS],
    diagonals: [Option<Diagonal>; CELLS],
    targets: Vec<(Token, Cell)>,
    assembly: Vec<Placement>,
    pub(super) paths: Paths,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {:?}\n{}", self.assembly, self.render())
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.walls == other.walls
            && self.blocked == other.blocked
            && self.diagonals == other.diagonals
            && self.targets == other.targets
            && self.assembly == other.assembly
    }
}

impl Board {
    /// A board from a 16x16 drawing (row 0 at the top). The board's edge and the sides of `##`
    /// cells are walls whether drawn or not. Refuses a token drawn twice, a wall drawn on one side
    /// only (impossible in the text format, possible in JSON) and nothing else: the properties
    /// of real assemblies are checked by the tests of [`super::boards`].
    pub fn from_drawing(d: &Drawing, assembly: Vec<Placement>) -> Result<Board, Error> {
        if d.n != SIZE {
            return Err(Error::Parse(format!(
                "a board is {SIZE}x{SIZE}, this drawing is {0}x{0}",
                d.n
            )));
        }
        let mut walls = [0u8; CELLS];
        let mut blocked = [false; CELLS];
        let mut diagonals = [None; CELLS];
        let mut targets: Vec<(Token, Cell)> = Vec::new();
        for row in 0..SIZE {
            for col in 0..SIZE {
                let cell = Cell::new(col, SIZE - 1 - row);
                let i = cell.index();
                walls[i] = d.walls[row * SIZE + col];
                match d.codes[row * SIZE + col] {
                    Code::Empty => {}
                    Code::Blocked => blocked[i] = true,
                    Code::Diagonal(diag) => diagonals[i] = Some(diag),
                    Code::Target(t) => {
                        if let Some((_, other)) = targets.iter().find(|(u, _)| *u == t) {
                            return Err(Error::Parse(format!(
                                "the {t} target is drawn twice, on {other} and {cell}"
                            )));
                        }
                        targets.push((t, cell));
                    }
                }
            }
        }
        targets.sort();
        Board::from_parts(walls, blocked, diagonals, targets, assembly)
    }

    pub(super) fn from_parts(
        mut walls: [u8; CELLS],
        blocked: [bool; CELLS],
        diagonals: [Option<Diagonal>; CELLS],
        targets: Vec<(Token, Cell)>,
        assembly: Vec<Placement>,
    ) -> Result<Board, Error> {
        for cell in Cell::all() {
            for dir in Dir::ALL {
                let closed = match cell.step(dir) {
                    None => true,
                    Some(next) => blocked[cell.index()] || blocked[next.index()],
                };
                if closed {
                    walls[cell.index()] |= dir.bit();
                }
            }
        }
        for cell in Cell::all() {
            for dir in Dir::ALL {
                if let Some(next) = cell.step(dir) {
                    let here = walls[cell.index()] & dir.bit() != 0;
                    let there = walls[next.index()] & dir.opposite().bit() != 0;
                    if here != there {
                        return Err(Error::Parse(format!(
                            "the wall between {cell} and {next} is on one side only"
                        )));
                    }
                }
            }
        }
        let paths = Paths::build(&walls, &diagonals);
        Ok(Board {
            walls,
            blocked,
            diagonals,
            targets,
            assembly,
            paths,
        })
    }

    /// A board from its text drawing (see [`super::text`]): 33 lines, `#` comments and blank
    /// lines before it allowed.
    pub fn from_text(text: &str) -> Result<Board, Error> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .skip_while(|(_, l)| l.trim().is_empty() || l.trim_start().starts_with('#'))
            .collect();
        let mut lines = lines;
        while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
            lines.pop();
        }
        let d = Drawing::parse(&lines, SIZE)?;
        Board::from_drawing(&d, Vec::new())
    }

    /// The board as a 16x16 drawing, rank 16 at the top.
    pub fn drawing(&self) -> Drawing {
        let mut d = Drawing::empty(SIZE);
        for cell in Cell::all() {
            let (row, col) = (SIZE - 1 - cell.y(), cell.x());
            let k = row * SIZE + col;
            d.walls[k] = self.walls[cell.index()];
            d.codes[k] = if self.blocked[cell.index()] {
                Code::Blocked
            } else if let Some(diag) = self.diagonals[cell.index()] {
                Code::Diagonal(diag)
            } else if let Some(t) = self.token_at(cell) {
                Code::Target(t)
            } else {
                Code::Empty
            };
        }
        d
    }

    /// The board as text, in the format [`Board::from_text`] reads.
    pub fn render(&self) -> String {
        self.drawing().render()
    }

    /// Whether a wall (or the edge, or the central block) closes this side of the cell.
    pub fn wall(&self, cell: Cell, dir: Dir) -> bool {
        self.walls[cell.index()] & dir.bit() != 0
    }
    /// The wall flags of a cell: N (up) 1, E 2, S 4, W 8.
    pub fn walls(&self, cell: Cell) -> u8 {
        self.walls[cell.index()]
    }
    /// A cell of the central block: no robot ever stands there.
    pub fn is_blocked(&self, cell: Cell) -> bool {
        self.blocked[cell.index()]
    }
    pub fn diagonal(&self, cell: Cell) -> Option<Diagonal> {
        self.diagonals[cell.index()]
    }
    /// Whether any diagonal wall lies on the board.
    pub fn has_diagonals(&self) -> bool {
        self.diagonals.iter().any(Option::is_some)
    }
    /// Whether a diagonal of this colour lies on the board (a robot of a colour without one
    /// moves exactly like the black robot).
    pub fn has_diagonal_of(&self, colour: Colour) -> bool {
        self.diagonals.iter().flatten().any(|d| d.colour == colour)
    }
    /// The cell of a token's target.
    pub fn target(&self, token: Token) -> Option<Cell> {
        self.targets
            .iter()
            .find(|(t, _)| *t == token)
            .map(|&(_, c)| c)
    }
    /// The token whose target is on this cell.
    pub fn token_at(&self, cell: Cell) -> Option<Token> {
        self.targets
            .iter()
            .find(|&&(_, c)| c == cell)
            .map(|&(t, _)| t)
    }
    /// Every target, in token order.
    pub fn targets(&self) -> &[(Token, Cell)] {
        &self.targets
    }
    /// Where a robot may be placed at the start: not in the central block, not on a target, not
    /// on a diagonal.
    pub fn is_start_cell(&self, cell: Cell) -> bool {
        !self.is_blocked(cell) && self.diagonal(cell).is_none() && self.token_at(cell).is_none()
    }
    /// The quarter boards this board was assembled from (empty for a drawn board).
    pub fn assembly(&self) -> &[Placement] {
        &self.assembly
    }
}
