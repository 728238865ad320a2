//! Exact solving for three or four players under the paranoid objective: the colour to move
//! at the root maximises its own final balls, and every other colour plays to minimise them
//! (as if the others were one opponent). It is a stated assumption, not the players' real
//! aims (each plays for its own rank), so every output that shows a paranoid value says so.
//!
//! Plain alpha-beta over the engine's [`Position`] (a max layer for the root colour, min
//! layers for the others), corners then edges first; no transposition table, so it is for
//! the last moves of a round (about a dozen empties). Two-player positions may be searched
//! too: then the objective is the mover's own balls, not the difference.

use std::time::Instant;

use super::{Limits, Solution};
use crate::game::rolit::bitboard::Squares;
use crate::game::rolit::position::{Colour, Position, Square};

/// What the objective is called in outputs.
pub const OBJECTIVE: &str = "paranoid: the mover's own final balls, every other colour \
                             minimising them";

struct Search {
    me: Colour,
    corners: u64,
    edges: u64,
    nodes: u64,
    limits: Limits,
    aborted: bool,
}

impl Search {
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.limits.nodes.is_some_and(|n| self.nodes >= n)
                || self.limits.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    fn ordered(&self, legal: u64) -> impl Iterator<Item = u8> + use<> {
        let (c, e) = (self.corners, self.edges);
        Squares(legal & c)
            .chain(Squares(legal & e))
            .chain(Squares(legal & !(c | e)))
    }

    /// The value to `depth` plies (`u32::MAX`: to the end), the root colour's balls where
    /// the search stops.
    fn value(&mut self, pos: &Position, mut alpha: i32, mut beta: i32, depth: u32) -> i32 {
        if pos.is_over() || depth == 0 {
            return pos.balls(self.me).count_ones() as i32;
        }
        self.tick();
        if self.aborted {
            return 0;
        }
        let legal = pos.legal_moves();
        let maximise = pos.to_move() == self.me;
        let mut best = if maximise { -1 } else { 65 };
        for sq in self.ordered(legal) {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            let v = self.value(&next, alpha, beta, depth.saturating_sub(1));
            if self.aborted {
                return 0;
            }
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn search(pos: &Position, limits: Limits) -> Search {
    let n = pos.size() - 1;
    let mut corners = 0;
    let mut edges = 0;
    for sq in Squares(pos.mask()) {
        let s = Square(sq);
        let on = |v: u8| v == 0 || v == n;
        match (on(s.file()), on(s.rank())) {
            (true, true) => corners |= s.bit(),
            (true, false) | (false, true) => edges |= s.bit(),
            _ => {}
        }
    }
    Search {
        me: pos.to_move(),
        corners,
        edges,
        nodes: 0,
        limits,
        aborted: false,
    }
}

/// The paranoid value of `pos` for the colour to move (its own final balls) and every move
/// that keeps it, or `None` if a limit ran out first.
pub fn solve(pos: &Position, limits: Limits) -> Option<Solution> {
    solve_counting(pos, limits).0
}

/// [`solve`], with the positions visited whether or not it finished.
pub fn solve_counting(pos: &Position, limits: Limits) -> (Option<Solution>, u64) {
    let mut s = search(pos, limits);
    let value = s.value(pos, -1, 65, u32::MAX);
    let mut best = Vec::new();
    for sq in Squares(pos.legal_moves()) {
        let mut next = *pos;
        next.play_unchecked(Square(sq));
        // Does this move reach the value? A window just below it.
        if s.value(&next, value - 1, value, u32::MAX) >= value {
            best.push(Square(sq));
        }
    }
    let solution = (!s.aborted).then_some(Solution {
        value,
        best,
        nodes: s.nodes,
    });
    (solution, s.nodes)
}

/// The paranoid value, for colour `me`, of `pos` (in which `me` need not be the mover), or
/// `None` if a limit ran out first.
pub fn value_for(pos: &Position, me: Colour, limits: Limits) -> Option<i32> {
    let mut s = search(pos, limits);
    s.me = me;
    let v = s.value(pos, -1, 65, u32::MAX);
    (!s.aborted).then_some(v)
}

/// An estimate for a position too deep to solve, as [`super::Solver::estimate`] makes for
/// two players: each legal move's paranoid value `depth` plies deep (the mover's balls at
/// the horizon), from the deepest iteration finished within `limits` (the first always
/// finishes).
pub fn estimate(pos: &Position, limits: Limits) -> super::Estimate {
    let mut s = search(pos, Limits::none());
    let mut done = super::Estimate {
        depth: 0,
        moves: vec![],
        nodes: 0,
    };
    for depth in 1..=pos.empty().count_ones().max(1) {
        if depth > 1 && limits.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut moves = Vec::new();
        for sq in Squares(pos.legal_moves()) {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            moves.push((Square(sq), s.value(&next, -1, 65, depth - 1)));
        }
        if s.aborted {
            break;
        }
        done = super::Estimate {
            depth,
            moves,
            nodes: s.nodes,
        };
        s.limits = limits;
    }
    done.nodes = s.nodes;
    done
}
