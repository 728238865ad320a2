//! Naive references written straight from the rules: a cell-by-cell slide and a breadth-first
//! search over full positions (every robot distinct, no table, no bound), to check the fast
//! tables and the solver against.

use std::collections::{HashSet, VecDeque};

use crate::game::robots::{Board, Cell, Dir, Move, Positions, Robot, Slide, Token};

/// The slide as the rules say it, one cell at a time.
pub fn naive_slide(board: &Board, pos: &Positions, robot: Robot, dir: Dir) -> Slide {
    let start = pos.get(robot).unwrap();
    let (mut at, mut d) = (start, dir);
    for _ in 0..=4 * 256 {
        if board.wall(at, d) {
            return if at == start {
                Slide::Stays
            } else {
                Slide::Moved(at)
            };
        }
        let next = at.step(d).unwrap();
        if pos.at(next).is_some_and(|r| r != robot) {
            return if at == start {
                Slide::Stays
            } else {
                Slide::Moved(at)
            };
        }
        at = next;
        if let Some(diag) = board.diagonal(at)
            && robot.colour() != Some(diag.colour)
        {
            d = diag.kind.turn(d);
        }
    }
    Slide::Endless
}

/// The length of a shortest solution of at most `limit` moves, by breadth-first search over
/// (positions, moves made by each robot capped at 2); `None` if there is none that short.
pub fn bfs_length(board: &Board, start: &Positions, token: Token, limit: usize) -> Option<usize> {
    let target = board.target(token)?;
    type State = (Positions, [u8; 5]);
    let solved = |(p, c): &State| {
        p.at(target)
            .is_some_and(|r| token.accepts(r) && c[r.index()] >= 2)
    };
    let mut seen: HashSet<State> = HashSet::new();
    let first: State = (*start, [0; 5]);
    seen.insert(first);
    let mut queue = VecDeque::from([(first, 0usize)]);
    while let Some((state, depth)) = queue.pop_front() {
        if solved(&state) {
            return Some(depth);
        }
        if depth == limit {
            continue;
        }
        let (p, c) = state;
        for (r, _) in p.iter() {
            for dir in Dir::ALL {
                if let Slide::Moved(to) = naive_slide(board, &p, r, dir) {
                    let mut p2 = p;
                    p2.set(r, to);
                    let mut c2 = c;
                    c2[r.index()] = (c2[r.index()] + 1).min(2);
                    if seen.insert((p2, c2)) {
                        queue.push_back(((p2, c2), depth + 1));
                    }
                }
            }
        }
    }
    None
}

/// Plays moves with the naive slide; `None` if one is not legal.
pub fn play(board: &Board, start: &Positions, moves: &[Move]) -> Option<Positions> {
    let mut p = *start;
    for m in moves {
        match naive_slide(board, &p, m.robot, m.dir) {
            Slide::Moved(to) => p.set(m.robot, to),
            _ => return None,
        }
    }
    Some(p)
}

/// A cell by name, for readable tests.
pub fn c(name: &str) -> Cell {
    name.parse().unwrap()
}

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::robots::cell::{CELLS, SIZE};
use crate::game::robots::text::{Code, Drawing};
use crate::game::robots::{Colour, Diagonal, Kind};

/// Builds boards by hand: cells by name, walls on both sides.
pub struct Builder {
    d: Drawing,
}

impl Builder {
    /// An empty board, with the central block when `centre`.
    pub fn new(centre: bool) -> Builder {
        let mut b = Builder {
            d: Drawing::empty(SIZE),
        };
        if centre {
            for cell in ["h8", "i8", "h9", "i9"] {
                b.set(c(cell), Code::Blocked);
            }
        }
        b
    }
    fn k(cell: Cell) -> usize {
        (SIZE - 1 - cell.y()) * SIZE + cell.x()
    }
    pub fn set(&mut self, cell: Cell, code: Code) -> &mut Builder {
        self.d.codes[Self::k(cell)] = code;
        self
    }
    /// A diagonal like `"g/"`.
    pub fn diagonal(&mut self, cell: &str, code: &str) -> &mut Builder {
        let b = code.as_bytes();
        let colour = Colour::ALL
            .into_iter()
            .find(|col| col.letter().to_ascii_lowercase() as u8 == b[0])
            .unwrap();
        let kind = if b[1] == b'/' {
            Kind::Slash
        } else {
            Kind::Backslash
        };
        self.set(c(cell), Code::Diagonal(Diagonal { colour, kind }))
    }
    pub fn target(&mut self, cell: &str, token: &str) -> &mut Builder {
        self.set(c(cell), Code::Target(token.parse().unwrap()))
    }
    pub fn wall(&mut self, cell: Cell, dir: Dir) -> &mut Builder {
        self.d.walls[Self::k(cell)] |= dir.bit();
        if let Some(next) = cell.step(dir) {
            self.d.walls[Self::k(next)] |= dir.opposite().bit();
        }
        self
    }
    pub fn walls(&mut self, cell: &str, dirs: &[Dir]) -> &mut Builder {
        for &d in dirs {
            self.wall(c(cell), d);
        }
        self
    }
    pub fn build(&self) -> Board {
        Board::from_drawing(&self.d, Vec::new()).unwrap()
    }
}

/// A random board: walls with probability `walls` per cell side, diagonals of random colours
/// and kinds on a fraction `diagonals` of cells, the central block or not, and all 17 targets
/// on random cells without a diagonal.
pub fn random_board(seed: u64, walls: f64, diagonals: f64, centre: bool) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = Builder::new(centre);
    let mut free = Vec::new();
    for i in 0..CELLS {
        let cell = Cell(i as u8);
        if centre && ["h8", "i8", "h9", "i9"].contains(&cell.to_string().as_str()) {
            continue;
        }
        for dir in [Dir::Up, Dir::Right] {
            if rng.random_bool(walls) {
                b.wall(cell, dir);
            }
        }
        if rng.random_bool(diagonals) {
            let colour = Colour::ALL[rng.random_range(0..4)];
            let kind = if rng.random_bool(0.5) {
                Kind::Slash
            } else {
                Kind::Backslash
            };
            b.set(cell, Code::Diagonal(Diagonal { colour, kind }));
        } else {
            free.push(cell);
        }
    }
    for t in Token::all() {
        let cell = free.swap_remove(rng.random_range(0..free.len()));
        b.set(cell, Code::Target(t));
    }
    b.build()
}

/// Random distinct robot cells outside the central block (targets and diagonals allowed), with
/// the robots given.
pub fn random_positions(board: &Board, seed: u64, robots: &[Robot]) -> Positions {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut free: Vec<Cell> = Cell::all().filter(|&c| !board.is_blocked(c)).collect();
    let mut p = Positions::new();
    for &r in robots {
        p.set(r, free.swap_remove(rng.random_range(0..free.len())));
    }
    p
}

/// The length of a shortest solution of at most `limit` moves by a plain iterative deepening
/// over full positions: the naive slide, every robot distinct, a table of positions already
/// searched to a depth, and the solver's lower bound (tested on its own) for the token's robots.
/// None of the solver's shortcuts (canonical keys, lone searches, helper relevance, move
/// commutation), so it checks them on longer solutions than the breadth-first search reaches.
pub fn ida_length(board: &Board, start: &Positions, token: Token, limit: usize) -> Option<usize> {
    use std::collections::HashMap;

    use crate::game::robots::solver::lower_bounds;

    let target = board.target(token)?;
    let bounds: Vec<(Robot, [u8; 256])> = start
        .iter()
        .filter(|&(r, _)| token.accepts(r))
        .map(|(r, _)| (r, lower_bounds(&board.paths, r.index(), target.0)))
        .collect();
    type State = (Positions, [u8; 5]);
    let h = |(p, c): &State| -> usize {
        bounds
            .iter()
            .map(|(r, b)| {
                let cell = p.get(*r).unwrap();
                let moved = c[r.index()] as usize;
                if cell == target {
                    if moved >= 2 { 0 } else { 2 }
                } else if b[cell.index()] == u8::MAX {
                    usize::MAX
                } else {
                    (b[cell.index()] as usize).max(2 - moved.min(2))
                }
            })
            .min()
            .unwrap_or(usize::MAX)
    };
    fn search(
        board: &Board,
        state: State,
        depth: usize,
        h: &dyn Fn(&State) -> usize,
        table: &mut HashMap<State, usize>,
    ) -> bool {
        let here = h(&state);
        if here == 0 {
            return true;
        }
        if here > depth || table.get(&state).is_some_and(|&d| d >= depth) {
            return false;
        }
        let (p, c) = state;
        for (r, _) in p.iter() {
            for dir in Dir::ALL {
                if let Slide::Moved(to) = naive_slide(board, &p, r, dir) {
                    let mut p2 = p;
                    p2.set(r, to);
                    let mut c2 = c;
                    c2[r.index()] = (c2[r.index()] + 1).min(2);
                    if search(board, (p2, c2), depth - 1, h, table) {
                        return true;
                    }
                }
            }
        }
        table.insert(state, depth);
        false
    }
    let first: State = (*start, [0; 5]);
    let mut table = HashMap::new();
    (h(&first).min(limit + 1)..=limit).find(|&d| search(board, first, d, &h, &mut table))
}
