//! Solutions: a list of moves, read from a bot's JSON and checked against the rules, with
//! reasons written for the bot's author.
//!
//! A solution succeeds when every move is legal (the robot is on the board and moves: see
//! [`mod@super::slide`]), it has at most the declared number of moves, and after its last move a
//! robot the token accepts stands on the target and has made at least two of the solution's
//! moves (the bounce rule: one straight run onto the target does not count).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::board::Board;
use super::cell::Dir;
use super::robot::{Positions, Robot};
use super::slide::{Slide, slide_path};
use super::token::Token;

/// One move: a robot and the direction it slides. JSON: `{"robot":"red","dir":"up"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Move {
    pub robot: Robot,
    pub dir: Dir,
}

impl Move {
    pub const fn new(robot: Robot, dir: Dir) -> Move {
        Move { robot, dir }
    }
}

/// Why a bot's solution fails: a reason recorded in the round (the bot's misbehaviour is a
/// recorded value, not an error of the rules), written for the bot's author.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadSolution(pub String);

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.robot, self.dir)
    }
}

/// Reads a solution from a bot's JSON: a list of `{"robot": ..., "dir": ...}` objects (other
/// fields are ignored). The reason names the first bad move, counted from 1.
pub fn parse_solution(v: &Value) -> Result<Vec<Move>, BadSolution> {
    let example = r#"[{"robot":"red","dir":"up"},{"robot":"blue","dir":"left"}]"#;
    let list = v
        .as_array()
        .ok_or_else(|| BadSolution(format!("a solution is a list of moves like {example}")))?;
    list.iter()
        .enumerate()
        .map(|(i, m)| {
            let n = i + 1;
            let obj = m.as_object().ok_or_else(|| {
                BadSolution(format!(
                    "move {n}: a move is an object like {{\"robot\":\"red\",\"dir\":\"up\"}}"
                ))
            })?;
            let field = |name: &str| {
                obj.get(name)
                    .ok_or_else(|| BadSolution(format!("move {n}: missing \"{name}\"")))?
                    .as_str()
                    .ok_or_else(|| BadSolution(format!("move {n}: \"{name}\" must be a string")))
            };
            let robot = field("robot")?
                .parse::<Robot>()
                .map_err(|e| BadSolution(format!("move {n}: {e}")))?;
            let dir = field("dir")?
                .parse::<Dir>()
                .map_err(|e| BadSolution(format!("move {n}: {e}")))?;
            Ok(Move { robot, dir })
        })
        .collect()
}

/// Plays the moves from `start` and checks that they solve the token within `declared` moves.
/// Returns the final positions, or the reason the solution fails.
pub fn check_solution(
    board: &Board,
    start: &Positions,
    token: Token,
    moves: &[Move],
    declared: usize,
) -> Result<Positions, BadSolution> {
    start
        .validate(board)
        .map_err(|e| BadSolution(format!("the start position is not valid: {e}")))?;
    if moves.is_empty() {
        return Err(BadSolution("the solution has no move".into()));
    }
    if moves.len() > declared {
        return Err(BadSolution(format!(
            "the solution has {} moves, more than the {declared} declared",
            moves.len()
        )));
    }
    let target = board
        .target(token)
        .ok_or_else(|| BadSolution(format!("the board has no {token} target")))?;
    let mut pos = *start;
    let mut moved = [0usize; 5];
    for (i, m) in moves.iter().enumerate() {
        let n = i + 1;
        let from = pos.get(m.robot).ok_or_else(|| {
            BadSolution(format!(
                "move {n}: there is no {} robot in this game",
                m.robot
            ))
        })?;
        match slide_path(board, &pos, m.robot, m.dir) {
            (_, Slide::Moved(to)) => pos.set(m.robot, to),
            (path, Slide::Stays) if path.is_empty() => {
                return Err(BadSolution(format!(
                    "move {n}: {} cannot move {} from {from}: it is blocked at once",
                    m.robot, m.dir
                )));
            }
            (_, Slide::Stays) => {
                return Err(BadSolution(format!(
                    "move {n}: {} moving {} from {from} comes back to {from}: a move must move \
                     its robot",
                    m.robot, m.dir
                )));
            }
            (_, Slide::Endless) => {
                return Err(BadSolution(format!(
                    "move {n}: {} moving {} from {from} would go round through diagonal walls \
                     forever",
                    m.robot, m.dir
                )));
            }
        }
        moved[m.robot.index()] += 1;
    }
    let winner = match pos.at(target) {
        Some(r) if token.accepts(r) => r,
        Some(r) => {
            return Err(BadSolution(format!(
                "after the last move the {r} robot stands on the {token} target at {target}, \
                 which only the {} robot can take",
                token.robot().map_or("any", |r| r.name())
            )));
        }
        None => {
            let target = format!("the {token} target at {target}");
            return Err(BadSolution(match token.robot().map(|r| (r, pos.get(r))) {
                Some((r, Some(cell))) => {
                    format!("after the last move the {r} robot stands on {cell}, not on {target}")
                }
                Some((r, None)) => format!(
                    "after the last move there is no {r} robot in this game, so it is not on \
                     {target}"
                ),
                None => format!("after the last move no robot stands on {target}"),
            }));
        }
    };
    if moved[winner.index()] < 2 {
        return Err(BadSolution(format!(
            "the {winner} robot reached {target} in its only move of the solution: it must bounce \
             off an obstacle on the way (at least two moves of that robot)"
        )));
    }
    Ok(pos)
}
