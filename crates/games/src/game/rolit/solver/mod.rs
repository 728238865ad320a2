//! Exact solving of Rolit positions: the value of a position under perfect play, and the moves
//! that keep it (`rollarena solve`, `rollarena analyse`, and the endgames of `mcts` and `brs`).
//!
//! **Two players** ([`Solver`]): the value is the final ball difference, the mover's balls
//! minus the opponent's; balls of the colours nobody plays count for neither (they are still
//! captured like any other). Negamax alpha-beta with principal variation search on the
//! engine's bitboards (`super::bitboard`: its move generation and flips, never a second copy
//! of the rules), a transposition table of exact bounds ([`tt`]), and move ordering: the
//! table's move first, then the moves leaving the opponent the fewest replies (corners
//! first among equals) while many squares are empty, corners then edges near the end. The
//! last empty square is played without generating moves (it is the only legal one).
//!
//! **Three or four players** ([`paranoid`]): there is no zero-sum difference to play for, so
//! the objective is stated: the mover maximises its own final balls and every other colour
//! plays to minimise them ("paranoid"). Outputs say so.
//!
//! Every search takes [`Limits`] (a deadline and a node budget) and stops cleanly when one
//! runs out, answering `None`: a bot never waits for a solve, and an answer is always exact.

pub mod command;
pub mod endgame;
mod estimate;
pub mod grade;
pub mod paranoid;
#[cfg(test)]
mod tests;
mod tt;

use std::time::{Duration, Instant};

use super::bitboard::{Squares, flips, legal_moves};
use super::position::{Position, Square};
pub use estimate::Estimate;
pub use tt::Table;

/// When a search must give up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after visiting this many positions.
    pub nodes: Option<u64>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// At most `time` from now.
    pub fn time(time: Duration) -> Limits {
        Limits {
            deadline: Some(Instant::now() + time),
            nodes: None,
        }
    }
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value under perfect play for the colour to move (two players: its final balls minus
    /// the opponent's; more: its own final balls under the paranoid objective).
    pub value: i32,
    /// Every legal move that keeps that value, in board order.
    pub best: Vec<Square>,
    /// Positions visited.
    pub nodes: u64,
}

/// The largest value a position can have (every square of an 8x8 board).
const INF: i32 = 65;

/// Positions with at least this many empties go in the transposition table.
const TT_EMPTIES: u32 = 5;

/// Below this many empties moves are ordered by square alone (cheap); above, by the
/// opponent's replies.
const SORT_EMPTIES: u32 = 7;

/// The two-player exact solver. Keeps its transposition table between searches (positions
/// of the same round share most of their subtrees).
#[derive(Debug)]
pub struct Solver {
    table: Table,
    mask: u64,
    size: u8,
    /// Bit set on the corners, then the edges, of the current board.
    corners: u64,
    edges: u64,
    nodes: u64,
    limits: Limits,
    max_nodes: u64,
    aborted: bool,
}

/// The default table: 2^20 buckets of two entries, 64 MB.
pub const TABLE_BYTES: usize = 64 << 20;

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(TABLE_BYTES)
    }
}

impl Solver {
    /// A solver whose table takes about `table_bytes`.
    pub fn new(table_bytes: usize) -> Solver {
        Solver {
            table: Table::with_bytes(table_bytes),
            mask: 0,
            size: 0,
            corners: 0,
            edges: 0,
            nodes: 0,
            limits: Limits::none(),
            max_nodes: u64::MAX,
            aborted: false,
        }
    }

    /// Positions visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn prepare(&mut self, pos: &Position, limits: Limits) {
        if self.size != pos.size() {
            self.size = pos.size();
            self.mask = pos.mask();
            let n = pos.size();
            let last = n - 1;
            let mut corners = 0;
            let mut edges = 0;
            for sq in Squares(self.mask) {
                let s = Square(sq);
                let (f, r) = (s.file(), s.rank());
                let on_f = f == 0 || f == last;
                let on_r = r == 0 || r == last;
                if on_f && on_r {
                    corners |= s.bit();
                } else if on_f || on_r {
                    edges |= s.bit();
                }
            }
            self.corners = corners;
            self.edges = edges;
            self.table.clear();
        }
        self.nodes = 0;
        self.limits = limits;
        self.max_nodes = limits.nodes.unwrap_or(u64::MAX);
        self.aborted = false;
    }

    /// The sides of a two-player position: the mover's balls, the opponent's, the others.
    fn sides(pos: &Position) -> (u64, u64, u64) {
        assert_eq!(
            pos.colours().len(),
            2,
            "the two-player solver got a {}-player position",
            pos.colours().len()
        );
        let me = pos.balls(pos.to_move());
        let you = pos.balls(pos.next_to_move());
        (me, you, pos.occupied() & !(me | you))
    }

    /// The exact value of a two-player position for the colour to move, or `None` if a limit
    /// ran out first.
    pub fn value(&mut self, pos: &Position, limits: Limits) -> Option<i32> {
        self.prepare(pos, limits);
        let (me, you, neutral) = Solver::sides(pos);
        let v = self.search(me, you, neutral, -INF, INF);
        (!self.aborted).then_some(v)
    }

    /// The exact value of a two-player position and every move that keeps it, or `None` if a
    /// limit ran out first.
    pub fn solve(&mut self, pos: &Position, limits: Limits) -> Option<Solution> {
        self.prepare(pos, limits);
        let (me, you, neutral) = Solver::sides(pos);
        let occ = me | you | neutral;
        let legal = legal_moves(me, occ, self.mask);
        if legal == 0 {
            return Some(Solution {
                value: count(me) - count(you),
                best: vec![],
                nodes: 1,
            });
        }
        let value = self.search(me, you, neutral, -INF, INF);
        // Each other move keeps the value if it is not below it: a null window each.
        let mut best = Vec::new();
        for sq in Squares(legal) {
            let f = flips(sq, me, you | neutral);
            let v = -self.search(you & !f, me | f | 1 << sq, neutral & !f, -value, -value + 1);
            if v >= value {
                best.push(Square(sq));
            }
        }
        (!self.aborted).then_some(Solution {
            value,
            best,
            nodes: self.nodes,
        })
    }

    #[inline(always)]
    fn tick(&mut self) {
        if self.aborted {
            return;
        }
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            if self.nodes >= self.max_nodes
                || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.aborted = true;
            }
        } else if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
    }

    /// Negamax over the final ball difference, fail-soft alpha-beta with PVS; `me` is the
    /// mover's balls.
    fn search(&mut self, me: u64, you: u64, neutral: u64, mut alpha: i32, mut beta: i32) -> i32 {
        let occ = me | you | neutral;
        let empty = self.mask & !occ;
        if empty == 0 {
            return count(me) - count(you);
        }
        self.tick();
        if self.aborted {
            return 0;
        }
        let empties = empty.count_ones();
        if empties == 1 {
            // The only empty square touches a ball, so it is the only legal move whether or
            // not it captures.
            let sq = empty.trailing_zeros() as u8;
            let f = flips(sq, me, you | neutral);
            return count(me | f) + 1 - count(you & !f);
        }
        let mut tt_move = 64u8;
        if empties >= TT_EMPTIES
            && let Some(k) = self.table.probe(me, you, neutral)
        {
            if k.lower >= beta {
                return k.lower;
            }
            if k.upper <= alpha {
                return k.upper;
            }
            if k.lower == k.upper {
                return k.lower;
            }
            alpha = alpha.max(k.lower);
            beta = beta.min(k.upper);
            tt_move = k.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let legal = legal_moves(me, occ, self.mask);
        let opp = you | neutral;
        let mut best = -INF;
        let mut best_sq = 64u8;
        let mut first = true;
        let mut moves = [0u8; 64];
        let n = self.order(me, you, neutral, legal, tt_move, empties, &mut moves);
        for &sq in &moves[..n] {
            let f = flips(sq, me, opp);
            let (nme, nyou, nneutral) = (you & !f, me | f | 1 << sq, neutral & !f);
            let v = if first {
                -self.search(nme, nyou, nneutral, -beta, -alpha)
            } else {
                let v = -self.search(nme, nyou, nneutral, -alpha - 1, -alpha);
                if v > alpha && v < beta {
                    -self.search(nme, nyou, nneutral, -beta, -v)
                } else {
                    v
                }
            };
            first = false;
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if empties >= TT_EMPTIES {
            let (lower, upper) = if best <= alpha0 {
                (-INF, best)
            } else if best >= beta0 {
                (best, INF)
            } else {
                (best, best)
            };
            self.table
                .store((me, you, neutral), empties, lower, upper, best_sq);
        }
        best
    }

    /// Writes the moves of `legal` in the order to try them into `out`; returns how many.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn order(
        &self,
        me: u64,
        you: u64,
        neutral: u64,
        legal: u64,
        tt_move: u8,
        empties: u32,
        out: &mut [u8; 64],
    ) -> usize {
        let mut n = 0;
        let mut rest = legal;
        if tt_move < 64 && legal & (1 << tt_move) != 0 {
            out[0] = tt_move;
            n = 1;
            rest &= !(1 << tt_move);
        }
        if empties <= SORT_EMPTIES {
            for set in [
                rest & self.corners,
                rest & self.edges,
                rest & !(self.corners | self.edges),
            ] {
                for sq in Squares(set) {
                    out[n] = sq;
                    n += 1;
                }
            }
            return n;
        }
        // Fastest first: the fewest replies for the opponent, corners and edges breaking ties.
        let mut keyed = [(0u32, 0u8); 64];
        let mut k = 0;
        let occ = me | you | neutral;
        for sq in Squares(rest) {
            let f = flips(sq, me, you | neutral);
            let replies = legal_moves(you & !f, occ | 1 << sq, self.mask).count_ones();
            let bonus = if self.corners & (1 << sq) != 0 {
                0
            } else if self.edges & (1 << sq) != 0 {
                1
            } else {
                2
            };
            keyed[k] = (replies * 4 + bonus, sq);
            k += 1;
        }
        keyed[..k].sort_unstable();
        for &(_, sq) in &keyed[..k] {
            out[n] = sq;
            n += 1;
        }
        n
    }
}

#[inline(always)]
fn count(b: u64) -> i32 {
    b.count_ones() as i32
}
