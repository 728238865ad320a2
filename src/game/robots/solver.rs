//! The optimal solver: the fewest moves that solve a token from a position, or an honest
//! "gave up" with the length it proved no shorter solution has.
//!
//! Iterative deepening A* over full positions (every robot may move), with:
//! - a lower bound per cell, computed once per solve and per way of moving (colour-aware because
//!   of diagonals): the moves a lone robot needs to reach the target if it could stop anywhere
//!   along its paths (other robots can only make it stop earlier on the same path, so this never
//!   overestimates); raised to respect the bounce rule (a robot that has made k < 2 moves needs
//!   2 - k more; one standing on the target without having made two needs 2);
//! - a transposition table from a canonical key to the depth already searched without success:
//!   robots that move alike and play the same role (not the token's robot, same diagonal
//!   behaviour) are interchangeable, so their cells are sorted in the key;
//! - when the bound is tight only the robots that can finish are moved (the others' moves
//!   leave the bound unchanged).
//!
//! A first solution found at bound `d` is optimal because every bound below `d` was searched
//! completely. Budgets (nodes, time, a length cap) stop the search; it then reports
//! [`Solution::GaveUp`] with the nodes searched and the smallest length not excluded, and a
//! valid but possibly longer solution found by a cheap search, for bots that want one anyway.

use std::time::{Duration, Instant};

use super::board::Board;
use super::cell::{CELLS, Cell, Dir};
use super::robot::{Positions, Robot};
use super::slide::{CLASSES, Occupancy, Paths, occupied, occupy};
use super::solution::{Move, check_solution};
use super::token::Token;

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nodes (positions expanded) before giving up.
    pub nodes: u64,
    /// Wall time before giving up.
    pub time: Option<Duration>,
    /// The longest solution looked for: longer ones are not searched (a weaker player).
    pub max_moves: usize,
    /// Most entries of the transposition table (each about 9 bytes, at most twice this many
    /// slots).
    pub table: usize,
}

impl Default for Budget {
    /// 200 million nodes, 60 s, solutions up to 40 moves, 8 million table entries.
    fn default() -> Budget {
        Budget {
            nodes: 200_000_000,
            time: Some(Duration::from_secs(60)),
            max_moves: 40,
            table: 1 << 23,
        }
    }
}

impl Budget {
    /// The default budget with another node limit.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes,
            ..Budget::default()
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// A shortest solution (no solution has fewer moves).
    Optimal(Vec<Move>),
    /// No solution exists: no robot the token accepts can ever reach the target.
    Impossible,
    /// The budget ran out. `searched`: nodes expanded; `at_least`: every shorter length was
    /// searched completely, so an optimal solution has at least this many moves; `best`: a
    /// valid solution found by a cheap search (not necessarily optimal), if any.
    GaveUp {
        searched: u64,
        at_least: usize,
        best: Option<Vec<Move>>,
    },
}

const INF: u8 = u8::MAX;

/// Solves the token from `start` within the budget.
pub fn solve(board: &Board, start: &Positions, token: Token, budget: Budget) -> Solution {
    let Some(mut search) = Search::new(board, start, token, budget) else {
        return Solution::Impossible;
    };
    let h0 = search.heuristic();
    if h0 == INF as u32 {
        return Solution::Impossible;
    }
    let mut bound = h0 as usize;
    while bound <= budget.max_moves {
        if search.dfs(bound as u32, h0) {
            let mut moves = std::mem::take(&mut search.found);
            moves.reverse();
            debug_assert!(check_solution(board, start, token, &moves, moves.len()).is_ok());
            return Solution::Optimal(moves);
        }
        if search.aborted {
            break;
        }
        bound += 1;
    }
    Solution::GaveUp {
        searched: search.nodes,
        at_least: bound,
        best: quick_solution(board, start, token),
    }
}

struct Search<'a> {
    paths: &'a Paths,
    /// Robots present, in slot order: groups of interchangeable robots are contiguous, the
    /// token's robot (if any) first.
    robots: Vec<Robot>,
    class: [usize; 5],
    pos: [u8; 5],
    count: [u8; 5],
    /// Slots whose robot the token accepts.
    finisher: [bool; 5],
    /// Group of each slot (slots of a group are interchangeable in the key).
    group: [u8; 5],
    /// Lower bound per cell for each slot's way of moving (`INF` when the target is out of reach).
    bound: Vec<[u8; CELLS]>,
    bound_of: [usize; 5],
    target: u8,
    table: Table,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    found: Vec<Move>,
}

impl<'a> Search<'a> {
    fn new(
        board: &'a Board,
        start: &Positions,
        token: Token,
        budget: Budget,
    ) -> Option<Search<'a>> {
        let target = board.target(token)?.0;
        // Way of moving: a colour with no diagonal of its colour on the board moves like black.
        let behaviour = |r: Robot| match r.colour() {
            Some(c) if board.has_diagonal_of(c) => r.index(),
            _ => Robot::Black.index(),
        };
        let mut robots: Vec<Robot> = start.iter().map(|(r, _)| r).collect();
        // Sort key: finisher-only groups first (the token's robot), then by behaviour.
        let role = |r: Robot| match token.robot() {
            Some(g) if g == r => 0,
            Some(_) => 1 + behaviour(r),
            None => behaviour(r),
        };
        robots.sort_by_key(|&r| (role(r), r.index()));
        let mut s = Search {
            paths: &board.paths,
            robots: robots.clone(),
            class: [0; 5],
            pos: [0; 5],
            count: [0; 5],
            finisher: [false; 5],
            group: [0; 5],
            bound: Vec::new(),
            bound_of: [0; 5],
            target,
            table: Table::new(budget.table),
            nodes: 0,
            node_limit: budget.nodes,
            deadline: budget.time.map(|t| Instant::now() + t),
            aborted: false,
            found: Vec::new(),
        };
        let mut tables: Vec<(usize, usize)> = Vec::new();
        for (i, &r) in robots.iter().enumerate() {
            s.class[i] = r.index();
            s.pos[i] = start.get(r).expect("present").0;
            s.finisher[i] = token.accepts(r);
            s.group[i] = role(r) as u8;
            if s.finisher[i] {
                let b = behaviour(r);
                s.bound_of[i] = match tables.iter().find(|&&(k, _)| k == b) {
                    Some(&(_, j)) => j,
                    None => {
                        s.bound.push(lower_bounds(&board.paths, r.index(), target));
                        tables.push((b, s.bound.len() - 1));
                        s.bound.len() - 1
                    }
                };
            }
        }
        if !s.finisher.iter().any(|&f| f) {
            return None;
        }
        Some(s)
    }

    fn n(&self) -> usize {
        self.robots.len()
    }

    fn slot_bound(&self, i: usize) -> u32 {
        let (p, c) = (self.pos[i], self.count[i] as u32);
        if p == self.target {
            if c >= 2 { 0 } else { 2 }
        } else {
            let h = self.bound[self.bound_of[i]][p as usize];
            if h == INF {
                INF as u32
            } else {
                (h as u32).max(2 - c.min(2))
            }
        }
    }

    /// The lower bound of the whole position: the best finishing robot's.
    fn heuristic(&self) -> u32 {
        (0..self.n())
            .filter(|&i| self.finisher[i])
            .map(|i| self.slot_bound(i))
            .min()
            .unwrap_or(INF as u32)
    }

    /// The canonical key: per slot 8 bits of cell and 2 of move count (finishers only), slots
    /// of one group sorted.
    fn key(&self) -> u64 {
        let n = self.n();
        let mut v = [0u16; 5];
        for (i, x) in v[..n].iter_mut().enumerate() {
            let c = if self.finisher[i] { self.count[i] } else { 0 };
            *x = (self.pos[i] as u16) << 2 | c as u16;
        }
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && self.group[j] == self.group[i] {
                j += 1;
            }
            v[i..j].sort_unstable();
            i = j;
        }
        v[..n].iter().fold(0u64, |k, &x| k << 10 | x as u64)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 0x3ff == 0
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Searches for a solution of at most `depth` more moves from a position whose lower
    /// bound is `h` (not solved, `h <= depth`). On success `found` holds the moves, last first.
    fn dfs(&mut self, depth: u32, h: u32) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let key = self.key();
        if self.table.get(key).is_some_and(|d| d as u32 >= depth) {
            return false;
        }
        let n = self.n();
        let mut occ: Occupancy = [0; 4];
        for i in 0..n {
            occupy(&mut occ, self.pos[i]);
        }
        // With a tight bound a robot that cannot finish only wastes a move.
        let tight = h == depth;
        for i in 0..n {
            if tight && !self.finisher[i] {
                continue;
            }
            let from = self.pos[i];
            let mut others = occ;
            others[(from >> 6) as usize] &= !(1 << (from & 63));
            debug_assert!(!occupied(&others, from));
            let count = self.count[i];
            for dir in Dir::ALL {
                let to = self.paths.slide(self.class[i], from, dir, &others);
                if to == from {
                    continue;
                }
                self.pos[i] = to;
                self.count[i] = (count + 1).min(2);
                let h2 = self.heuristic();
                let done = h2 == 0 || (h2 < depth && self.dfs(depth - 1, h2));
                self.pos[i] = from;
                self.count[i] = count;
                if done {
                    self.found.push(Move::new(self.robots[i], dir));
                    return true;
                }
                if self.aborted {
                    return false;
                }
            }
        }
        self.table.put(key, depth as u8);
        false
    }
}

/// For one way of moving, the fewest moves from each cell to `target` for a lone robot that
/// may stop on any cell of its paths; `INF` where the target is out of reach.
pub(super) fn lower_bounds(paths: &Paths, class: usize, target: u8) -> [u8; CELLS] {
    debug_assert!(class < CLASSES);
    let mut h = [INF; CELLS];
    h[target as usize] = 0;
    let mut k = 0u8;
    loop {
        let mut changed = false;
        for s in 0..CELLS {
            if h[s] != INF {
                continue;
            }
            let reaches = Dir::ALL.into_iter().any(|d| {
                let (path, _) = paths.path(class, s as u8, d);
                path.iter().any(|&c| h[c as usize] == k)
            });
            if reaches {
                h[s] = k + 1;
                changed = true;
            }
        }
        if !changed {
            return h;
        }
        k += 1;
    }
}

/// A cheap, valid, not necessarily optimal solution: a robot the token accepts moves alone
/// (breadth first, the others standing still), after at most one move of another robot.
/// `None` when that finds nothing.
pub fn quick_solution(board: &Board, start: &Positions, token: Token) -> Option<Vec<Move>> {
    let mut best: Option<Vec<Move>> = None;
    let mut consider = |pos: &Positions, prefix: &[Move]| {
        for (r, _) in pos.iter().filter(|&(r, _)| token.accepts(r)) {
            if let Some(tail) = lone_path(board, pos, r, token)
                && best
                    .as_ref()
                    .is_none_or(|b| prefix.len() + tail.len() < b.len())
            {
                best = Some(prefix.iter().copied().chain(tail).collect());
            }
        }
    };
    consider(start, &[]);
    for (r, _) in start.iter() {
        for dir in Dir::ALL {
            let mut pos = *start;
            let to = super::slide::slide(board, &pos, r, dir);
            if Some(to) != pos.get(r) {
                pos.set(r, to);
                consider(&pos, &[Move::new(r, dir)]);
            }
        }
    }
    best.filter(|m| check_solution(board, start, token, m, m.len()).is_ok())
}

/// Breadth-first search of one robot moving alone onto the target with at least two moves.
fn lone_path(board: &Board, start: &Positions, robot: Robot, token: Token) -> Option<Vec<Move>> {
    let target = board.target(token)?;
    // State: cell * 3 + moves made (capped at 2).
    let mut prev: Vec<Option<(usize, Dir)>> = vec![None; CELLS * 3];
    let origin = start.get(robot)?.index() * 3;
    let mut seen = vec![false; CELLS * 3];
    seen[origin] = true;
    let mut queue = std::collections::VecDeque::from([origin]);
    let mut pos = *start;
    while let Some(s) = queue.pop_front() {
        let (cell, count) = (Cell((s / 3) as u8), s % 3);
        if cell == target && count >= 2 {
            let mut moves = Vec::new();
            let mut at = s;
            while let Some((p, d)) = prev[at] {
                moves.push(Move::new(robot, d));
                at = p;
            }
            moves.reverse();
            return Some(moves);
        }
        pos.set(robot, cell);
        for dir in Dir::ALL {
            let to = super::slide::slide(board, &pos, robot, dir);
            if to != cell {
                let t = to.index() * 3 + (count + 1).min(2);
                if !seen[t] {
                    seen[t] = true;
                    prev[t] = Some((s, dir));
                    queue.push_back(t);
                }
            }
        }
    }
    None
}

/// A transposition table: open addressing on 64-bit keys, growing to a limit, then keeping
/// what it holds (forgetting is always sound: it only prunes less).
struct Table {
    keys: Vec<u64>,
    depths: Vec<u8>,
    len: usize,
    limit: usize,
}

impl Table {
    const USED: u64 = 1 << 63;

    fn new(limit: usize) -> Table {
        Table {
            keys: vec![0; 1 << 12],
            depths: vec![0; 1 << 12],
            len: 0,
            limit: limit.max(1 << 11),
        }
    }

    fn slot(&self, key: u64) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        let k = key | Self::USED;
        while self.keys[i] != 0 && self.keys[i] != k {
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, key: u64) -> Option<u8> {
        let i = self.slot(key);
        (self.keys[i] != 0).then(|| self.depths[i])
    }

    fn put(&mut self, key: u64, depth: u8) {
        let i = self.slot(key);
        if self.keys[i] != 0 {
            self.depths[i] = self.depths[i].max(depth);
            return;
        }
        if self.len >= self.limit {
            return;
        }
        self.keys[i] = key | Self::USED;
        self.depths[i] = depth;
        self.len += 1;
        if self.len * 2 > self.keys.len() {
            self.grow();
        }
    }

    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let keys = std::mem::replace(&mut self.keys, vec![0; size]);
        let depths = std::mem::replace(&mut self.depths, vec![0; size]);
        for (k, d) in keys.into_iter().zip(depths) {
            if k != 0 {
                let i = self.slot(k & !Self::USED);
                self.keys[i] = k;
                self.depths[i] = d;
            }
        }
    }
}
