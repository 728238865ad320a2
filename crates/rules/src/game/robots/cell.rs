//! Cells and directions of the 16x16 board: the naming every message, record and error uses.
//!
//! A cell is named like a chess square, a file letter `a`..`p` then a rank `1`..`16`, `a1` at the
//! bottom left; "up" is towards rank 16 (the first row of every drawing). Inside, a cell is the
//! index `rank0 * 16 + file0` in a `u8`, so positions pack into small keys for the solver.

use std::fmt;
use std::str::FromStr;

use std::borrow::Cow;

use crate::Error;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Cells per side of the board.
pub const SIZE: usize = 16;
/// Cells on the board.
pub const CELLS: usize = SIZE * SIZE;

/// One cell of the board: `file` (0 = `a`) and `rank` (0 = `1`) packed as `rank * 16 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    /// The cell at file `x` (0 = `a`) and rank `y` (0 = `1`); both below 16.
    pub const fn new(x: usize, y: usize) -> Cell {
        assert!(x < SIZE && y < SIZE);
        Cell((y * SIZE + x) as u8)
    }
    /// File, 0 for `a`.
    pub const fn x(self) -> usize {
        self.0 as usize % SIZE
    }
    /// Rank, 0 for `1`.
    pub const fn y(self) -> usize {
        self.0 as usize / SIZE
    }
    /// Index in 0..256.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The neighbour in a direction, `None` past the edge.
    pub fn step(self, dir: Dir) -> Option<Cell> {
        let (x, y) = (self.x() as i32 + dir.dx(), self.y() as i32 + dir.dy());
        if (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
            Some(Cell::new(x as usize, y as usize))
        } else {
            None
        }
    }
    /// Every cell, `a1`, `b1`, ... `p16`.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).map(|i| Cell(i as u8))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x() as u8) as char, self.y() + 1)
    }
}

impl FromStr for Cell {
    type Err = Error;
    /// Accepts exactly the canonical names `a1`..`p16` (lower-case file, rank without sign,
    /// space or leading zero).
    fn from_str(s: &str) -> Result<Cell, Error> {
        let bad = || {
            Error::Parse(format!(
                "{s:?} is not a cell: cells are named a1 to p16 (file a-p, rank 1-16)"
            ))
        };
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(bad)?;
        let rank = chars.as_str();
        if !('a'..='p').contains(&file)
            || rank.is_empty()
            || rank.starts_with('0')
            || !rank.bytes().all(|b| b.is_ascii_digit())
            || rank.len() > 2
        {
            return Err(bad());
        }
        let rank: usize = rank.parse().map_err(|_| bad())?;
        if !(1..=SIZE).contains(&rank) {
            return Err(bad());
        }
        Ok(Cell::new(file as usize - 'a' as usize, rank - 1))
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Cell {
    fn schema_name() -> Cow<'static, str> {
        "Cell".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^[a-p]([1-9]|1[0-6])$",
            "description": "A cell: file a-p then rank 1-16, a1 at the bottom left; up is towards rank 16."
        })
    }
}

/// A direction of movement. "Up" is towards rank 16.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Up,
    Right,
    Down,
    Left,
}

impl Dir {
    /// Clockwise from up; the index is the wall bit of that side (see [`Dir::bit`]).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// 0 up, 1 right, 2 down, 3 left.
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The wall flag of this side of a cell: N (up) 1, E 2, S 4, W 8.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
    pub const fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 4]
    }
    /// A quarter turn clockwise (up becomes right).
    pub const fn clockwise(self) -> Dir {
        Dir::ALL[(self as usize + 1) % 4]
    }
    pub const fn dx(self) -> i32 {
        match self {
            Dir::Right => 1,
            Dir::Left => -1,
            _ => 0,
        }
    }
    pub const fn dy(self) -> i32 {
        match self {
            Dir::Up => 1,
            Dir::Down => -1,
            _ => 0,
        }
    }
    /// The compass letter of the side of a cell facing this way: N, E, S, W.
    pub const fn compass(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }
    pub const fn name(self) -> &'static str {
        ["up", "right", "down", "left"][self as usize]
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dir {
    type Err = Error;
    fn from_str(s: &str) -> Result<Dir, Error> {
        Dir::ALL.into_iter().find(|d| d.name() == s).ok_or_else(|| {
            Error::Parse(format!("{s:?} is not a direction: up, down, left or right"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>().ok(), Some(c));
        }
        assert_eq!(Cell::new(0, 0).to_string(), "a1");
        assert_eq!(Cell::new(15, 15).to_string(), "p16");
        for bad in [
            "", "a", "a0", "a17", "q1", "A1", "a01", "a+1", " a1", "a1 ", "a100",
        ] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn steps_and_turns() {
        let c: Cell = "c4".parse().unwrap();
        assert_eq!(c.step(Dir::Up).unwrap().to_string(), "c5");
        assert_eq!(c.step(Dir::Left).unwrap().to_string(), "b4");
        assert_eq!("a1".parse::<Cell>().unwrap().step(Dir::Down), None);
        assert_eq!(Dir::Up.clockwise(), Dir::Right);
        assert_eq!(Dir::Left.opposite(), Dir::Right);
        assert_eq!(serde_json::to_string(&Dir::Down).unwrap(), "\"down\"");
    }
}
