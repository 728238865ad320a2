//! The robots, their colours and where they stand ([`Positions`]), and the seeded placement of a
//! game's start.
//!
//! The four colours name robots, targets and diagonal walls alike; the black robot of the variant
//! has no colour of its own, so it is turned by every diagonal and may only take the vortex.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::board::Board;
use super::cell::{CELLS, Cell};
use crate::Error;

/// The four colours of robots, targets and diagonal walls.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Green,
    Blue,
    Yellow,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow];
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        ["red", "green", "blue", "yellow"][self as usize]
    }
    /// The letter of board drawings: `R`, `G`, `B`, `Y`.
    pub const fn letter(self) -> char {
        ['R', 'G', 'B', 'Y'][self as usize]
    }
    /// The robot of this colour.
    pub const fn robot(self) -> Robot {
        Robot::ALL[self as usize]
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A robot. The black one exists only in the black-robot variant.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Robot {
    Red,
    Green,
    Blue,
    Yellow,
    Black,
}

impl Robot {
    pub const ALL: [Robot; 5] = [
        Robot::Red,
        Robot::Green,
        Robot::Blue,
        Robot::Yellow,
        Robot::Black,
    ];
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        ["red", "green", "blue", "yellow", "black"][self as usize]
    }
    /// The robot's colour; `None` for black.
    pub const fn colour(self) -> Option<Colour> {
        match self {
            Robot::Red => Some(Colour::Red),
            Robot::Green => Some(Colour::Green),
            Robot::Blue => Some(Colour::Blue),
            Robot::Yellow => Some(Colour::Yellow),
            Robot::Black => None,
        }
    }
}

impl fmt::Display for Robot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Robot {
    type Err = Error;
    fn from_str(s: &str) -> Result<Robot, Error> {
        Robot::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| {
                Error::Parse(format!(
                    "{s:?} is not a robot: red, green, blue, yellow or black"
                ))
            })
    }
}

/// Where each robot of a round stands. Serialized as an object from robot name to cell, in the
/// order red, green, blue, yellow, black: `{"red":"c4","green":"p16",...}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Positions {
    cells: [Option<Cell>; 5],
}

impl Positions {
    /// No robot at all.
    pub fn new() -> Positions {
        Positions::default()
    }
    pub fn get(&self, robot: Robot) -> Option<Cell> {
        self.cells[robot.index()]
    }
    pub fn set(&mut self, robot: Robot, cell: Cell) {
        self.cells[robot.index()] = Some(cell);
    }
    /// The robots present with their cells, in the order red, green, blue, yellow, black.
    pub fn iter(&self) -> impl Iterator<Item = (Robot, Cell)> + '_ {
        Robot::ALL
            .into_iter()
            .filter_map(|r| self.cells[r.index()].map(|c| (r, c)))
    }
    /// The robot standing on a cell.
    pub fn at(&self, cell: Cell) -> Option<Robot> {
        self.iter().find(|&(_, c)| c == cell).map(|(r, _)| r)
    }
    /// Number of robots present.
    pub fn len(&self) -> usize {
        self.cells.iter().flatten().count()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Checks that the robots stand on distinct cells a robot may occupy.
    pub fn validate(&self, board: &Board) -> Result<(), Error> {
        let mut seen = [false; CELLS];
        for (r, c) in self.iter() {
            if board.is_blocked(c) {
                return Err(Error::Parse(format!(
                    "the {r} robot stands on {c}, a cell of the central block"
                )));
            }
            if std::mem::replace(&mut seen[c.index()], true) {
                return Err(Error::Parse(format!("two robots stand on {c}")));
            }
        }
        Ok(())
    }
}

impl Serialize for Positions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter().map(|(r, c)| (r.name(), c)))
    }
}

impl JsonSchema for Positions {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Positions".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let cell = generator.subschema_for::<Cell>();
        json_schema!({
            "type": "object",
            "description": "Where each robot of the game stands (black only in its variant).",
            "properties": {
                "red": cell, "green": cell, "blue": cell, "yellow": cell, "black": cell
            },
            "additionalProperties": false
        })
    }
}

impl<'de> Deserialize<'de> for Positions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Positions, D::Error> {
        let map = BTreeMap::<Robot, Cell>::deserialize(d)?;
        let mut p = Positions::new();
        for (r, c) in map {
            p.set(r, c);
        }
        Ok(p)
    }
}

/// The start of a game: the four coloured robots (and the black one when `black`) on distinct
/// random cells without a target, without a diagonal and outside the central block. Drawn with
/// ChaCha8 seeded by `seed`: red first, then green, blue, yellow, black, each uniformly among the
/// cells still free.
pub fn place_robots(board: &Board, seed: u64, black: bool) -> Positions {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut free: Vec<Cell> = Cell::all().filter(|&c| board.is_start_cell(c)).collect();
    let mut p = Positions::new();
    let count = if black { 5 } else { 4 };
    for robot in &Robot::ALL[..count] {
        let cell = free.swap_remove(rng.random_range(0..free.len()));
        p.set(*robot, cell);
    }
    p
}
