//! The optimal solver: the fewest moves that solve a token from a position, or an honest
//! "gave up" with the length it proved no shorter solution has.
//!
//! Iterative deepening A* over full positions (every robot may move), one search per robot
//! the token accepts (the vortex: each robot in turn, all at one bound before the next), with:
//! - a lower bound per cell, computed once per search for the robot to bring home, colour-aware
//!   because of diagonals: the moves a lone robot needs to reach the target if it could stop
//!   anywhere along its paths (other robots can only make it stop earlier on the same path, so
//!   this never overestimates); raised to respect the bounce rule (a robot that has made k < 2
//!   moves needs 2 - k more; one standing on the target without having made two needs 2);
//! - a transposition table from a canonical key to the depth already searched without success:
//!   helpers that move alike (the same diagonal behaviour) are interchangeable, so their cells
//!   are sorted in the key;
//! - with no move to spare, only the robot to bring home moves (a helper's move leaves the
//!   bound unchanged), in a tiny search without the table; with one move to spare, a helper's
//!   move is tried only if it leaves or enters a cell that tiny search looked at (otherwise the
//!   search after it is the same, and fails the same);
//! - of two consecutive moves by different robots whose empty-board paths do not touch each
//!   other's cells (so they give the same position in either order), only the order with the
//!   lower slot first is searched (the other order was searched just before, from the same
//!   parent, so the table never learns anything false).
//!
//! A first solution found at bound `d` is optimal because every bound below `d` was searched
//! completely. Budgets (nodes, time, a length cap) stop the search; it then reports
//! [`Solution::GaveUp`] with the nodes searched and the smallest length not excluded, and a
//! valid but possibly longer solution found by a cheap search, for bots that want one anyway.

use std::time::{Duration, Instant};

use super::board::Board;
use super::cell::{CELLS, Dir};
use super::quick::quick_solution;
use super::robot::{Positions, Robot};
use super::slide::{CLASSES, Occupancy, Paths, occupied, occupy};
use super::solution::{Move, check_solution};
use super::table::Table;
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
    /// 200 million nodes, 60 s, solutions up to 40 moves, 4 million table entries (64 MB).
    fn default() -> Budget {
        Budget {
            nodes: 200_000_000,
            time: Some(Duration::from_secs(60)),
            max_moves: 40,
            table: 1 << 22,
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

/// Positions with fewer moves left are searched again rather than looked up.
const MIN_TABLE_DEPTH: u32 = 3;

/// Solves the token from `start` within the budget.
pub fn solve(board: &Board, start: &Positions, token: Token, budget: Budget) -> Solution {
    solve_counting(board, start, token, budget).0
}

/// [`solve`], also returning the number of positions expanded (for records and benchmarks).
///
/// The vortex, which any robot may take, is searched as one problem per robot (that robot
/// to bring home, the others its helpers), all at each bound before the next: each problem
/// has its own, sharper, lower bound, and the first solution found is still a shortest.
pub fn solve_counting(
    board: &Board,
    start: &Positions,
    token: Token,
    budget: Budget,
) -> (Solution, u64) {
    debug_assert!(start.validate(board).is_ok(), "{start:?}");
    let Some(target) = board.target(token) else {
        return (Solution::Impossible, 0);
    };
    let deadline = budget.time.map(|t| Instant::now() + t);
    let mut searches: Vec<Search> = start
        .iter()
        .filter(|&(r, _)| token.accepts(r))
        .map(|(r, _)| Search::new(board, start, r, target.0, budget, deadline))
        .filter(|s| s.h0 != INF as u32)
        .collect();
    let Some(first) = searches.iter().map(|s| s.h0).min() else {
        return (Solution::Impossible, 0);
    };
    searches.sort_by_key(|s| s.h0);
    let total = |searches: &[Search]| searches.iter().map(|s| s.nodes).sum::<u64>();
    let mut bound = first;
    'deepening: while bound as usize <= budget.max_moves {
        for i in 0..searches.len() {
            if searches[i].h0 > bound {
                continue;
            }
            let spent = total(&searches);
            let s = &mut searches[i];
            s.node_limit = s.nodes + budget.nodes.saturating_sub(spent);
            if s.child(bound, s.h0, None) {
                let mut moves = std::mem::take(&mut s.found);
                moves.reverse();
                debug_assert!(check_solution(board, start, token, &moves, moves.len()).is_ok());
                return (Solution::Optimal(moves), total(&searches));
            }
            if s.aborted {
                break 'deepening;
            }
        }
        bound += 1;
    }
    let searched = total(&searches);
    let gave_up = Solution::GaveUp {
        searched,
        at_least: bound as usize,
        best: quick_solution(board, start, token),
    };
    (gave_up, searched)
}

/// A move made in the search: the slot that moved, where to, from where.
#[derive(Clone, Copy, Debug)]
struct Step {
    slot: u8,
    dir: Dir,
    from: u8,
    to: u8,
}

/// The move that led to a position, if any.
type Last = Option<Step>;

/// The search for one robot (slot 0) to reach the target, the others (its helpers) moving too.
struct Search<'a> {
    paths: &'a Paths,
    /// Robots present, in slot order: the robot to bring home first, then groups of
    /// interchangeable helpers.
    robots: Vec<Robot>,
    class: [usize; 5],
    pos: [u8; 5],
    /// Moves made by the robot to bring home, capped at 2 (the bounce rule).
    count: u8,
    /// Group of each slot (slots of a group are interchangeable in the key).
    group: [u8; 5],
    /// Lower bound per cell for the robot to bring home (`INF` when out of reach).
    bound: [u8; CELLS],
    /// The lower bound at the start.
    h0: u32,
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
        goal: Robot,
        target: u8,
        budget: Budget,
        deadline: Option<Instant>,
    ) -> Search<'a> {
        // Way of moving: a colour with no diagonal of its colour on the board moves like black,
        // so helpers that move alike are interchangeable.
        let behaviour = |r: Robot| match r.colour() {
            Some(c) if board.has_diagonal_of(c) => r.index(),
            _ => Robot::Black.index(),
        };
        let role = |r: Robot| if r == goal { 0 } else { 1 + behaviour(r) };
        let mut robots: Vec<Robot> = start.iter().map(|(r, _)| r).collect();
        robots.sort_by_key(|&r| (role(r), r.index()));
        let mut s = Search {
            paths: &board.paths,
            class: [0; 5],
            pos: [0; 5],
            count: 0,
            group: [0; 5],
            bound: lower_bounds(&board.paths, goal.index(), target),
            h0: 0,
            target,
            table: Table::new(budget.table),
            nodes: 0,
            node_limit: budget.nodes,
            deadline,
            aborted: false,
            found: Vec::new(),
            robots,
        };
        for (i, &r) in s.robots.iter().enumerate() {
            s.class[i] = r.index();
            s.pos[i] = start.get(r).expect("present").0;
            s.group[i] = role(r) as u8;
        }
        s.h0 = s.heuristic();
        s
    }

    fn n(&self) -> usize {
        self.robots.len()
    }

    /// The lower bound of the position: the robot to bring home needs the moves of
    /// [`lower_bounds`] from its cell, and at least two in all (one standing on the target
    /// without having moved twice must leave and come back).
    fn heuristic(&self) -> u32 {
        let (p, c) = (self.pos[0], self.count as u32);
        if p == self.target {
            if c >= 2 { 0 } else { 2 }
        } else {
            match self.bound[p as usize] {
                INF => INF as u32,
                h => (h as u32).max(2 - c),
            }
        }
    }

    /// The canonical key: 8 bits of cell and 2 of move count for the robot to bring home, 8
    /// bits of cell (and 2 zero bits) for each helper, helpers of one group sorted.
    fn key(&self) -> u64 {
        let n = self.n();
        let mut v = [0u16; 5];
        for (i, x) in v[..n].iter_mut().enumerate() {
            *x = (self.pos[i] as u16) << 2;
        }
        v[0] |= self.count as u16;
        let mut i = 1;
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
    /// bound is `h` (`0 < h <= depth`). On success `found` holds the moves, last first.
    fn child(&mut self, depth: u32, h: u32, last: Last) -> bool {
        if h == depth {
            self.lone::<false>(depth, &mut [0; 4])
        } else {
            self.dfs(depth, h, last)
        }
    }

    /// [`Search::child`] with moves to spare (`h < depth`): every robot may move. `last` is the
    /// move that led here.
    fn dfs(&mut self, depth: u32, h: u32, last: Last) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let use_table = depth >= MIN_TABLE_DEPTH;
        let key = if use_table { self.key() } else { 0 };
        if use_table && self.table.get(key).is_some_and(|d| d as u32 >= depth) {
            return false;
        }
        // One move to spare: after a helper's move the bound is tight, so only the robot to
        // bring home may move, and the helper's move matters only if it changes that lone
        // search. Search it once here, noting every cell it looked at; a helper's move that
        // neither leaves nor enters one of them is skipped.
        let relevant = if depth == h + 1 {
            let mut seen: Occupancy = [0; 4];
            if self.lone::<true>(depth - 1, &mut seen) {
                return true;
            }
            Some(seen)
        } else {
            None
        };
        let n = self.n();
        let mut occ: Occupancy = [0; 4];
        for i in 0..n {
            occupy(&mut occ, self.pos[i]);
        }
        for i in 0..n {
            let from = self.pos[i];
            let mut others = occ;
            others[(from >> 6) as usize] &= !(1 << (from & 63));
            let count = self.count;
            for dir in Dir::ALL {
                let to = self.paths.slide(self.class[i], from, dir, &others);
                if to == from {
                    continue;
                }
                if i > 0
                    && let Some(seen) = &relevant
                    && !occupied(seen, from)
                    && !occupied(seen, to)
                {
                    continue;
                }
                if let Some(l) = last
                    && i < l.slot as usize
                    && self.commutes(l, i, from, dir, to)
                {
                    continue;
                }
                self.pos[i] = to;
                // Only the robot to bring home changes the bound.
                let h2 = if i == 0 {
                    self.count = (count + 1).min(2);
                    self.heuristic()
                } else {
                    h
                };
                let here = Some(Step {
                    slot: i as u8,
                    dir,
                    from,
                    to,
                });
                let done = h2 == 0 || (h2 < depth && self.child(depth - 1, h2, here));
                self.pos[i] = from;
                self.count = count;
                if done {
                    self.found.push(Move::new(self.robots[i], dir));
                    return true;
                }
                if self.aborted {
                    return false;
                }
            }
        }
        if use_table {
            self.table.put(key, depth as u8);
        }
        false
    }

    /// Whether moving slot `i` from `from` towards `dir` right after `last` (a move of a later
    /// slot) is independent of it: neither move's empty-board path holds a cell the other
    /// leaves or enters, so both slides are the same in either order and reach the same
    /// position. The search keeps only the order with the lower slot first (searched before
    /// this one, from the same parent).
    fn commutes(&self, last: Step, i: usize, from: u8, dir: Dir, to: u8) -> bool {
        let mine = self.paths.mask(self.class[i], from, dir);
        let theirs = self
            .paths
            .mask(self.class[last.slot as usize], last.from, last.dir);
        !occupied(mine, last.from)
            && !occupied(mine, last.to)
            && !occupied(theirs, from)
            && !occupied(theirs, to)
    }

    /// [`Search::child`] with a tight bound: whether the robot reaches the target alone, the
    /// helpers standing still, within `depth` moves. Without the table: every move must bring
    /// the robot one step closer, so the search is tiny. When `MARK`, every cell a slide looked
    /// at (up to and including the robot that stopped it) is added to `seen`: the result
    /// depends on the occupation of those cells only.
    fn lone<const MARK: bool>(&mut self, depth: u32, seen: &mut Occupancy) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let from = self.pos[0];
        let mut others: Occupancy = [0; 4];
        for i in 1..self.n() {
            occupy(&mut others, self.pos[i]);
        }
        let count = self.count;
        for dir in Dir::ALL {
            let to = if MARK {
                self.paths
                    .slide_marking(self.class[0], from, dir, &others, seen)
            } else {
                self.paths.slide(self.class[0], from, dir, &others)
            };
            if to == from {
                continue;
            }
            self.pos[0] = to;
            self.count = (count + 1).min(2);
            let h2 = self.heuristic();
            let done = h2 == 0 || (h2 < depth && self.lone::<MARK>(depth - 1, seen));
            self.pos[0] = from;
            self.count = count;
            if done {
                self.found.push(Move::new(self.robots[0], dir));
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }
}

/// For one way of moving, the fewest moves from each cell to `target` for a lone robot that
/// may stop on any cell of its paths; `INF` where the target is out of reach.
pub(super) fn lower_bounds(paths: &Paths, class: usize, target: u8) -> [u8; CELLS] {
    debug_assert!(class < CLASSES);
    // Breadth first from the target, backwards: a cell is one move further than any cell its
    // paths pass through.
    let mut h = [INF; CELLS];
    h[target as usize] = 0;
    let mut queue = [0u8; CELLS];
    queue[0] = target;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let c = queue[head];
        head += 1;
        for &s in paths.through(class, c) {
            if h[s as usize] == INF {
                h[s as usize] = h[c as usize] + 1;
                queue[tail] = s;
                tail += 1;
            }
        }
    }
    h
}
