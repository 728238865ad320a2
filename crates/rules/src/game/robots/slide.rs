//! How a robot slides: the movement rules, and the precomputed tables that make a slide a few
//! look-ups (the solver's inner loop).
//!
//! Rules, as in `protocol/games/robots.md`: a robot moves in a straight line until the next
//! obstacle (a wall, the edge, the central block, another robot). On entering a cell with a
//! diagonal wall of another colour (any colour, for the black robot) it is turned a quarter
//! (see [`Kind::turn`](super::board::Kind::turn)) and keeps sliding in the same move; it passes a diagonal of its own
//! colour straight. A robot turned by a diagonal and blocked at once in its new direction stops
//! on the diagonal's cell; a robot never enters a cell another robot stands on, diagonal or not.
//! The diagonal of the cell a move starts from does not turn it (it leaves straight), but does
//! if the slide comes back through that cell. A slide that would repeat a (cell, direction) it
//! already had in the same move goes round forever: it is **endless** and not a legal move, as
//! is one that ends on the cell it started from.
//!
//! Tables: for each of the five robots' ways of moving (a colour passes its own diagonals; black
//! passes none), each cell and each direction, the path the robot would follow on an empty
//! board: the cells entered in order, cut before the first repeated state (so an endless path is
//! finite here and flagged). With robots, the slide stops before the first occupied cell on
//! that path; when no robot is on it, it ends where the table says.

use super::board::{Board, Diagonal};
use super::cell::{CELLS, Cell, Dir};
use super::robot::{Positions, Robot};

/// Ways of moving: one per colour (passing its own diagonals) and the black robot's.
pub(super) const CLASSES: usize = 5;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    off: u32,
    len: u16,
    end: u8,
    endless: bool,
}

/// The empty-board path of every (way of moving, cell, direction), and the reverse: for each
/// way of moving and cell, the cells whose paths pass through it (for the solver's bounds).
#[derive(Clone, Debug)]
pub(super) struct Paths {
    entries: Vec<Entry>,
    cells: Vec<u8>,
    /// The cells of each path as a set, indexed like `entries`.
    masks: Vec<Occupancy>,
    /// `(class * CELLS + cell)` indexes `through_off`; the range holds start cells.
    through_off: Vec<u32>,
    through: Vec<u8>,
}

/// Occupied cells as a 256-bit set.
pub(super) type Occupancy = [u64; 4];

pub(super) fn occupied(occ: &Occupancy, cell: u8) -> bool {
    occ[(cell >> 6) as usize] >> (cell & 63) & 1 != 0
}

pub(super) fn occupy(occ: &mut Occupancy, cell: u8) {
    occ[(cell >> 6) as usize] |= 1 << (cell & 63);
}

impl Paths {
    pub(super) fn build(walls: &[u8; CELLS], diagonals: &[Option<Diagonal>; CELLS]) -> Paths {
        let mut entries = Vec::with_capacity(CLASSES * CELLS * 4);
        let mut cells = Vec::new();
        let mut seen = [0u8; CELLS];
        for class in 0..CLASSES {
            for start in Cell::all() {
                for dir in Dir::ALL {
                    seen.fill(0);
                    let off = cells.len() as u32;
                    let (mut at, mut d) = (start, dir);
                    let mut endless = false;
                    while walls[at.index()] & d.bit() == 0 {
                        let next = at.step(d).expect("the edge is walled");
                        if let Some(diag) = diagonals[next.index()]
                            && diag.colour.index() != class
                        {
                            d = diag.kind.turn(d);
                        }
                        if seen[next.index()] & d.bit() != 0 {
                            endless = true;
                            break;
                        }
                        seen[next.index()] |= d.bit();
                        cells.push(next.0);
                        at = next;
                    }
                    entries.push(Entry {
                        off,
                        len: (cells.len() as u32 - off) as u16,
                        end: at.0,
                        endless,
                    });
                }
            }
        }
        let masks = entries
            .iter()
            .map(|e| {
                let mut m: Occupancy = [0; 4];
                for &c in &cells[e.off as usize..e.off as usize + e.len as usize] {
                    occupy(&mut m, c);
                }
                m
            })
            .collect();
        let mut paths = Paths {
            entries,
            cells,
            masks,
            through_off: Vec::new(),
            through: Vec::new(),
        };
        paths.index_through();
        paths
    }

    /// Fills the reverse index by counting sort: for each (class, cell), the start cells of
    /// the paths that enter it, each once.
    fn index_through(&mut self) {
        let mut lists: Vec<Vec<u8>> = vec![Vec::new(); CLASSES * CELLS];
        for class in 0..CLASSES {
            for start in 0..CELLS {
                for dir in Dir::ALL {
                    let (path, _) = self.path(class, start as u8, dir);
                    for &c in path {
                        let list = &mut lists[class * CELLS + c as usize];
                        if list.last() != Some(&(start as u8)) {
                            list.push(start as u8);
                        }
                    }
                }
            }
        }
        self.through_off = Vec::with_capacity(lists.len() + 1);
        self.through_off.push(0);
        for list in &lists {
            self.through.extend_from_slice(list);
            self.through_off.push(self.through.len() as u32);
        }
    }

    /// The start cells from which a robot of this way of moving passes through (or stops on)
    /// `cell` on an empty board.
    pub(super) fn through(&self, class: usize, cell: u8) -> &[u8] {
        let i = class * CELLS + cell as usize;
        &self.through[self.through_off[i] as usize..self.through_off[i + 1] as usize]
    }

    fn entry(&self, class: usize, start: u8, dir: Dir) -> Entry {
        self.entries[(class * CELLS + start as usize) * 4 + dir.index()]
    }

    /// The cells of the empty-board path, as a set.
    #[inline]
    pub(super) fn mask(&self, class: usize, start: u8, dir: Dir) -> &Occupancy {
        &self.masks[(class * CELLS + start as usize) * 4 + dir.index()]
    }

    /// The empty-board path (cells entered in order) and whether it is endless.
    pub(super) fn path(&self, class: usize, start: u8, dir: Dir) -> (&[u8], bool) {
        let e = self.entry(class, start, dir);
        (
            &self.cells[e.off as usize..e.off as usize + e.len as usize],
            e.endless,
        )
    }

    /// Where a robot moving this way from `start` stops, the other robots occupying `occ` (the
    /// moving robot's own cell must not be in it); `start` itself when the move is not legal
    /// (blocked at once, endless, or back on its start).
    #[inline]
    pub(super) fn slide(&self, class: usize, start: u8, dir: Dir, occ: &Occupancy) -> u8 {
        let e = self.entry(class, start, dir);
        let path = &self.cells[e.off as usize..e.off as usize + e.len as usize];
        let mut prev = start;
        for &c in path {
            if occupied(occ, c) {
                return prev;
            }
            prev = c;
        }
        if e.endless { start } else { e.end }
    }
}

impl Paths {
    /// [`Paths::slide`], adding to `seen` every cell it looked at: the cells passed and the
    /// occupied cell that stopped it.
    #[inline]
    pub(super) fn slide_marking(
        &self,
        class: usize,
        start: u8,
        dir: Dir,
        occ: &Occupancy,
        seen: &mut Occupancy,
    ) -> u8 {
        let e = self.entry(class, start, dir);
        let path = &self.cells[e.off as usize..e.off as usize + e.len as usize];
        let mut prev = start;
        for &c in path {
            occupy(seen, c);
            if occupied(occ, c) {
                return prev;
            }
            prev = c;
        }
        if e.endless { start } else { e.end }
    }
}

/// What a move does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slide {
    /// The robot moved and stopped on this cell.
    Moved(Cell),
    /// The robot would end on the cell it started from (blocked at once, or came back round):
    /// not a legal move.
    Stays,
    /// The robot would go round through diagonals forever: not a legal move.
    Endless,
}

/// Where `robot` stops when it moves `dir`, or its own cell when that move is not legal (see
/// [`Slide`]). Panics if the robot is not on the board.
pub fn slide(board: &Board, positions: &Positions, robot: Robot, dir: Dir) -> Cell {
    let (start, occ) = setup(positions, robot);
    Cell(board.paths.slide(robot.index(), start.0, dir, &occ))
}

/// The move of `robot` towards `dir` in detail: the cells it passes through in order (ending
/// with the cell it stops on; empty when it cannot move) and the outcome. Panics if the robot is
/// not on the board.
pub fn slide_path(
    board: &Board,
    positions: &Positions,
    robot: Robot,
    dir: Dir,
) -> (Vec<Cell>, Slide) {
    let (start, occ) = setup(positions, robot);
    let (path, endless) = board.paths.path(robot.index(), start.0, dir);
    let mut cells = Vec::new();
    for &c in path {
        if occupied(&occ, c) {
            let end = cells.last().copied().unwrap_or(start);
            return (
                cells,
                if end == start {
                    Slide::Stays
                } else {
                    Slide::Moved(end)
                },
            );
        }
        cells.push(Cell(c));
    }
    if endless {
        return (cells, Slide::Endless);
    }
    match cells.last() {
        Some(&end) if end != start => (cells, Slide::Moved(end)),
        _ => (cells, Slide::Stays),
    }
}

fn setup(positions: &Positions, robot: Robot) -> (Cell, Occupancy) {
    let start = positions
        .get(robot)
        .unwrap_or_else(|| panic!("the {robot} robot is not on the board"));
    let mut occ = [0u64; 4];
    for (r, c) in positions.iter() {
        if r != robot {
            occupy(&mut occ, c.0);
        }
    }
    (start, occ)
}
