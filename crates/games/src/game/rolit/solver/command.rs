//! Rolit's part of `rollarena solve` and `rollarena analyse` (its registry entry's
//! [`Analysis`]): which position to solve (`--first`, `--position`, `--to-move`), solving it
//! within the budget, and grading a record ([`super::grade`]).

use std::time::Instant;

use serde_json::{Map, Value};

use super::grade::{DIFFERENCE, grade, limits};
use super::{Solver, paranoid};
use crate::game::grade::{Budget, Solved, Terms};
use crate::game::registry::{Analysis, Flag};
use crate::game::rolit::entry::position_of;
use crate::game::rolit::{State, render};

pub const ANALYSIS: Analysis = Analysis {
    flags: FLAGS,
    solve: Some(solve),
    grade,
    terms: Terms {
        graded: "moves",
        unit: "balls",
        within: 1,
        accurate: "within one ball of the best",
        key: "within_one",
        note: None,
    },
    arena: true,
};

const FLAGS: &[Flag] = &[
    Flag::value(
        "first",
        "first",
        "COLOUR",
        "solve: the colour that moves first from the start [default: red]",
    ),
    Flag::value(
        "position",
        "position",
        "BOARD",
        "solve: this position instead of the start: its rows from the highest rank down \
         separated by '/' (letters R Y G B, '.' empty, as `replay` and the records show a \
         board; with --to-move), or the JSON state a bot receives",
    ),
    Flag::value(
        "to-move",
        "to-move",
        "COLOUR",
        "solve: the colour to move in --position",
    ),
];

/// Solves the position the options name: exactly for two players (the final ball difference),
/// under the paranoid objective for three or four. Two players unless `--players` or the
/// position's colours say otherwise.
fn solve(options: &Map<String, Value>, budget: &Budget) -> Result<Solved, crate::Error> {
    let mut options = options.clone();
    options.entry("players").or_insert(Value::from(2));
    let pos = position_of(&options)?;
    let started = Instant::now();
    let two = pos.colours().len() == 2;
    let (solution, nodes) = if two {
        let mut solver = Solver::default();
        let s = solver.solve(&pos, limits(budget));
        (s, solver.nodes())
    } else {
        paranoid::solve_counting(&pos, limits(budget))
    };
    Ok(Solved {
        position: serde_json::to_value(State::of(&pos)).map_err(crate::Error::rules)?,
        to_move: pos.to_move().name().to_string(),
        objective: if two { DIFFERENCE } else { paranoid::OBJECTIVE }.to_string(),
        solved: solution.is_some(),
        value: solution.as_ref().map(|s| s.value),
        best: solution
            .as_ref()
            .map(|s| s.best.iter().map(|m| m.name()).collect())
            .unwrap_or_default(),
        nodes: solution.as_ref().map_or(nodes, |s| s.nodes),
        ms: started.elapsed().as_secs_f64() * 1000.0,
        board: render(&pos),
    })
}
