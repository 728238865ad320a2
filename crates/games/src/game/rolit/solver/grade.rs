//! `rollarena analyse` for Rolit: every move of a recorded round graded against the best play
//! found, in balls.
//!
//! The round's positions come from the engine (the start of the record's variant with the
//! match's first colour, then each recorded move). They are graded from the last move back:
//! near the end every position is solved exactly (two players: the final ball difference;
//! three or four: the paranoid value of the mover's own balls, see [`super::paranoid`]);
//! the first position the budget does not solve ends the exact part, and every earlier one
//! gets an estimate from a depth-limited search within the same budget (`exact: false`).

use std::time::Instant;

use super::{Limits, Solver, paranoid};
use crate::game::grade::{Budget, Graded};
use crate::game::rolit::position::{Position, Square};
use crate::game::rolit::show::rolit_of;
use crate::record::RoundRecord;

/// What a two-player value measures.
pub const DIFFERENCE: &str = "final ball difference (the mover's balls minus the opponent's; \
                              unowned colours count for neither)";

/// The transposition table `analyse` uses.
const TABLE_BYTES: usize = 64 << 20;

/// The limits of one position's search.
pub fn limits(budget: &Budget) -> Limits {
    Limits {
        deadline: budget.time.map(|t| Instant::now() + t),
        nodes: budget.nodes,
    }
}

/// The positions before each move of a round, with the move played (and the move's record).
pub fn positions(record: &RoundRecord) -> Result<Vec<(Position, Square)>, crate::Error> {
    let rolit = rolit_of(record)?;
    let first = rolit.first_colour(record.match_seed);
    let mut pos =
        Position::start(rolit.size, rolit.players, first).map_err(crate::Error::record)?;
    let mut out = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let text = m.mv.as_str().ok_or_else(|| {
            crate::Error::Record(format!(
                "move {} of round {} is {}, not a square name",
                i + 1,
                record.round,
                m.mv
            ))
        })?;
        let sq = Square::parse(text, rolit.size).map_err(|e| {
            crate::Error::Record(format!("move {} of round {}: {e}", i + 1, record.round))
        })?;
        out.push((pos, sq));
        pos.play(sq).map_err(|e| {
            crate::Error::Record(format!(
                "move {} of round {} ({text}) cannot be played: {e}",
                i + 1,
                record.round
            ))
        })?;
    }
    Ok(out)
}

/// One position graded: (best moves, best value, value of the move played, exact).
struct Grade {
    best: Vec<Square>,
    value: i32,
    played: i32,
    exact: bool,
}

/// Exactly, or `None` when the budget runs out.
fn exact(pos: &Position, sq: Square, solver: &mut Solver, budget: &Budget) -> Option<Grade> {
    let limits = limits(budget);
    let mut after = *pos;
    after.play_unchecked(sq);
    let (sol, played) = if pos.colours().len() == 2 {
        let sol = solver.solve(pos, limits)?;
        let played = if sol.best.contains(&sq) {
            sol.value
        } else {
            -solver.value(&after, limits)?
        };
        (sol, played)
    } else {
        let sol = paranoid::solve(pos, limits)?;
        let played = if sol.best.contains(&sq) {
            sol.value
        } else {
            paranoid::value_for(&after, pos.to_move(), limits)?
        };
        (sol, played)
    };
    Some(Grade {
        best: sol.best,
        value: sol.value,
        played,
        exact: true,
    })
}

/// An estimate within the budget.
fn estimate(pos: &Position, sq: Square, solver: &mut Solver, budget: &Budget) -> Grade {
    let e = if pos.colours().len() == 2 {
        solver.estimate(pos, limits(budget))
    } else {
        paranoid::estimate(pos, limits(budget))
    };
    let value = e.value();
    Grade {
        best: e
            .moves
            .iter()
            .filter(|m| m.1 == value)
            .map(|m| m.0)
            .collect(),
        value,
        played: e.moves.iter().find(|m| m.0 == sq).map_or(value, |m| m.1),
        // A search that reached the end of the round is exact.
        exact: e.depth >= pos.empty().count_ones(),
    }
}

/// Every move of a Rolit round, graded.
pub fn grade(record: &RoundRecord, budget: &Budget) -> Result<Vec<Graded>, crate::Error> {
    let positions = positions(record)?;
    let two = positions
        .first()
        .is_some_and(|(p, _)| p.colours().len() == 2);
    let mut solver = Solver::new(if two { TABLE_BYTES } else { 64 });
    let objective = if two { DIFFERENCE } else { paranoid::OBJECTIVE };
    let mut solving = true;
    let mut out = Vec::with_capacity(positions.len());
    for (i, (pos, sq)) in positions.iter().enumerate().rev() {
        let g = if solving {
            exact(pos, *sq, &mut solver, budget)
        } else {
            None
        };
        solving = g.is_some();
        let g = g.unwrap_or_else(|| estimate(pos, *sq, &mut solver, budget));
        let m = &record.moves[i];
        out.push(Graded {
            round: record.round,
            ply: i as u32 + 1,
            seat: m.seat,
            colour: Some(
                m.colour
                    .clone()
                    .unwrap_or_else(|| pos.to_move().name().to_string()),
            ),
            mv: sq.name(),
            best: g.best.iter().map(|s| s.name()).collect(),
            value: g.value,
            played: g.played,
            loss: g.value - g.played,
            exact: g.exact,
            budget_ms: (!g.exact).then(|| budget.time.map_or(0, |t| t.as_millis() as u64)),
            objective: objective.to_string(),
            empties: pos.empty().count_ones(),
            // An opening's moves are the tournament's, not the seat's.
            by_arbiter: m.by_arbiter || m.opening,
            own: Default::default(),
        });
    }
    out.reverse();
    Ok(out)
}
