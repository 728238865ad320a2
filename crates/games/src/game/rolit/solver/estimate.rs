//! Estimates for positions too deep to solve (`rollarena analyse` before its exact part): a
//! depth-limited alpha-beta over the same ball difference, the difference at its horizon,
//! deepened while the budget lasts. No transposition table: the solver's holds exact values
//! only, and a horizon value is not one.

use std::time::Instant;

use super::{INF, Limits, Solver, count};
use crate::game::rolit::bitboard::{Squares, flips, legal_moves};
use crate::game::rolit::position::{Position, Square};

/// A depth-limited search's view of a position: each legal move's value after `depth` plies
/// (counting the move), the ball difference where the search stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    pub depth: u32,
    pub moves: Vec<(Square, i32)>,
    pub nodes: u64,
}

impl Estimate {
    /// The best value among the moves.
    pub fn value(&self) -> i32 {
        self.moves.iter().map(|m| m.1).max().unwrap_or(0)
    }
}

impl Solver {
    /// An estimate for a position too deep to solve: iterative deepening of a plain
    /// alpha-beta whose horizon value is the ball difference there, each move searched with a
    /// full window, keeping the deepest iteration finished within `limits` (the first,
    /// one ply deep, always finishes). A search that reaches the end of the round is exact.
    pub fn estimate(&mut self, pos: &Position, limits: Limits) -> Estimate {
        self.prepare(pos, Limits::none());
        let (me, you, neutral) = Solver::sides(pos);
        let legal = legal_moves(me, me | you | neutral, self.mask);
        let empties = pos.empty().count_ones();
        let mut done = Estimate {
            depth: 0,
            moves: vec![],
            nodes: 0,
        };
        for depth in 1..=empties.max(1) {
            if depth > 1 && limits.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let mut moves = Vec::new();
            for sq in Squares(legal) {
                let f = flips(sq, me, you | neutral);
                let v = -self.horizon(
                    you & !f,
                    me | f | 1 << sq,
                    neutral & !f,
                    -INF,
                    INF,
                    depth - 1,
                );
                moves.push((Square(sq), v));
            }
            if self.aborted {
                break;
            }
            done = Estimate {
                depth,
                moves,
                nodes: self.nodes,
            };
            // The next iterations may stop.
            self.limits = limits;
            self.max_nodes = limits.nodes.unwrap_or(u64::MAX);
        }
        done.nodes = self.nodes;
        done
    }

    /// Negamax to `depth` plies, the ball difference at the horizon (no table: its entries
    /// are exact values only).
    fn horizon(
        &mut self,
        me: u64,
        you: u64,
        neutral: u64,
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        let occ = me | you | neutral;
        let empty = self.mask & !occ;
        if empty == 0 || depth == 0 {
            return count(me) - count(you);
        }
        self.tick();
        if self.aborted {
            return 0;
        }
        let legal = legal_moves(me, occ, self.mask);
        let opp = you | neutral;
        let mut best = -INF;
        let (c, e) = (self.corners, self.edges);
        for set in [legal & c, legal & e, legal & !(c | e)] {
            for sq in Squares(set) {
                let f = flips(sq, me, opp);
                let v = -self.horizon(
                    you & !f,
                    me | f | 1 << sq,
                    neutral & !f,
                    -beta,
                    -alpha,
                    depth - 1,
                );
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }
}
