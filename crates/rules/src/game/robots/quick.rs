//! A cheap, valid, not necessarily optimal solution, for when the optimal solver gives up (a
//! weaker player, or a fallback that still declares something true).
//!
//! Breadth-first search of one robot moving alone (the others standing still), after at most
//! one move of another robot: some tens of thousands of slides at most, a few milliseconds.

use std::collections::VecDeque;

use super::board::Board;
use super::cell::{CELLS, Cell, Dir};
use super::robot::{Positions, Robot};
use super::slide::slide;
use super::solution::{Move, check_solution};
use super::token::Token;

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
            let to = slide(board, &pos, r, dir);
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
    let mut queue = VecDeque::from([origin]);
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
            let to = slide(board, &pos, robot, dir);
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
