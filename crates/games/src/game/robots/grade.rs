//! Rock'n'Roll Robot's part of `rollarena analyse` (its registry entry's [`ANALYSIS`]): each
//! demonstration of a recorded token graded against the optimum the arbiter's solver found,
//! in moves, as `protocol/games/robots.md` ("Grading the demonstrations") decides.
//!
//! The token is re-played by [`super::show::replay`] (the board from the match seed, the
//! start from the carried state, every demonstration judged again by the rules). The optimum
//! is the one the arbiter wrote into the record at the end of the token ([`RobotsRound::optimal`]:
//! the same solver, a node budget, so `replay --verify` finds the same), its solution checked to
//! solve the token in that many moves; where that solver gave up (or the record has no
//! answer), [`solve`] searches again within `analyse`'s budget, and what stays unknown is
//! bounded, never guessed (`exact: false`).
//!
//! [`RobotsRound::optimal`]: super::RobotsRound::optimal

use serde_json::{Map, Value, json};

use super::show::{Action, Demonstration, RobotsReplay, letter, replay};
use super::solver::{self, Solution, solve};
use super::{Move, check_solution, parse_solution};
use crate::game::grade::{Budget, Graded, Terms};
use crate::game::registry::Analysis;
use crate::record::RoundRecord;

pub const ANALYSIS: Analysis = Analysis {
    flags: &[],
    solve: None,
    grade,
    terms: Terms {
        graded: "demonstrations",
        unit: "moves",
        within: 0,
        accurate: "at the optimum",
        key: "at_optimum",
        note: Some(note),
    },
    arena: false,
};

/// What the values measure.
pub const OBJECTIVE: &str = "moves of the demonstration, fewer is better: the loss is its length \
                             minus the optimal length; a failed demonstration counts as one move \
                             more than it declared, and at least one more than the optimum";

/// The token's optimum as far as it is known.
#[derive(Clone, Debug, PartialEq)]
enum Optimum {
    /// The shortest solution (no shorter one exists).
    Exact(Vec<Move>),
    /// No solution exists.
    Impossible,
    /// Every solution has at least `at_least` moves; the shortest known, if any, is longer.
    Bounds {
        at_least: usize,
        known: Option<Vec<Move>>,
    },
}

/// Moves in short: each its robot's letter (R G B Y, K black) and its direction's first
/// letter (u d l r): `Rd Rr Gl`.
pub fn short(moves: &[Move]) -> String {
    let words: Vec<String> = moves
        .iter()
        .map(|m| format!("{}{}", letter(m.robot), &m.dir.name()[..1]))
        .collect();
    words.join(" ")
}

/// Every demonstration of a robots token, graded.
pub fn grade(record: &RoundRecord, budget: &Budget) -> Result<Vec<Graded>, crate::Error> {
    let rp = replay(0, record).map_err(|d| {
        crate::Error::Record(match d.ply {
            Some(ply) => format!("action {ply}: {}", d.reason),
            None => d.reason,
        })
    })?;
    let demonstrations: Vec<(usize, &Demonstration)> = rp
        .actions
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Solution(d) => Some((i, d)),
            _ => None,
        })
        .collect();
    if demonstrations.is_empty() {
        return Ok(Vec::new());
    }
    let shortest_shown = demonstrations
        .iter()
        .filter(|(_, d)| d.ok)
        .filter_map(|(i, _)| shown_moves(record, *i))
        .min_by_key(Vec::len);
    let optimum = optimum(record, &rp, budget, shortest_shown)?;
    let mut out = Vec::with_capacity(demonstrations.len());
    for (i, d) in demonstrations {
        let m = &record.moves[i];
        let shown = shown_moves(record, i);
        let declared = d.declared.map(|n| n.min(i32::MAX as u64 / 2) as i32);
        let (value, best, exact) = match &optimum {
            Optimum::Exact(path) => (path.len() as i32, vec![short(path)], true),
            Optimum::Impossible => (0, Vec::new(), true),
            Optimum::Bounds { at_least, known } => (
                *at_least as i32,
                known.iter().map(|k| short(k)).collect(),
                false,
            ),
        };
        let played = match &optimum {
            Optimum::Impossible => 0,
            _ if d.ok => d.count as i32,
            // Not within its declaration: it counts as one move more, and a failure is never
            // at the optimum.
            _ => declared.map_or(value + 1, |n| n + 1).max(value + 1),
        };
        let mut own = Map::new();
        own.insert(
            "name".into(),
            json!(record.seats.get(m.seat).map(|s| &s.name)),
        );
        own.insert("token".into(), json!(rp.token.to_string()));
        own.insert("declared".into(), json!(d.declared));
        own.insert("ok".into(), json!(d.ok));
        if let Some(reason) = &d.reason {
            own.insert("reason".into(), json!(reason));
        }
        own.insert("shown".into(), json!(shown.as_ref().map(Vec::len)));
        match &optimum {
            Optimum::Exact(path) => {
                own.insert("optimal".into(), json!(path.len()));
                own.insert("solution".into(), json!(path));
                own.insert(
                    "bid_loss".into(),
                    json!(declared.map(|n| n - path.len() as i32)),
                );
            }
            Optimum::Impossible => {
                own.insert("optimal".into(), Value::Null);
                own.insert("impossible".into(), json!(true));
            }
            Optimum::Bounds { at_least, .. } => {
                own.insert("optimal".into(), Value::Null);
                own.insert("at_least".into(), json!(at_least));
            }
        }
        out.push(Graded {
            round: record.round,
            ply: i as u32 + 1,
            seat: m.seat,
            colour: None,
            mv: match (&shown, d.sent) {
                (Some(moves), _) if moves.is_empty() => "(none)".into(),
                (Some(moves), _) => short(moves),
                (None, true) => "(unreadable)".into(),
                (None, false) => "(no answer)".into(),
            },
            best,
            value,
            played,
            loss: played - value,
            exact,
            budget_ms: (!exact).then(|| budget.time.map_or(0, |t| t.as_millis() as u64)),
            objective: OBJECTIVE.to_string(),
            empties: rp.pile as u32,
            // A demonstration is the seat's own, even when the arbiter closed it for want of
            // an answer (a failed demonstration); nothing is played for a seat that forfeited.
            by_arbiter: false,
            own,
        });
    }
    Ok(out)
}

/// The moves action `i` sent, when it sent readable ones.
fn shown_moves(record: &RoundRecord, i: usize) -> Option<Vec<Move>> {
    let moves = record.moves.get(i)?.mv.get("moves")?;
    parse_solution(moves).ok()
}

/// The token's optimum: the record's (the arbiter's solver, checked to be a solution of that
/// length), or where that solver gave up, a search within `budget`, bounded by the shortest
/// demonstration that won.
fn optimum(
    record: &RoundRecord,
    rp: &RobotsReplay,
    budget: &Budget,
    shortest_shown: Option<Vec<Move>>,
) -> Result<Optimum, crate::Error> {
    let recorded = record.board.get("optimal");
    if let Some(o) = recorded {
        if let (Some(n), Some(path)) = (o.get("moves").and_then(Value::as_u64), o.get("solution")) {
            let path = parse_solution(path).map_err(|e| {
                crate::Error::Record(format!("the record's optimal solution cannot be read: {e}"))
            })?;
            check_solution(&rp.board, &rp.start, rp.token, &path, path.len()).map_err(|e| {
                crate::Error::Record(format!(
                    "the record's optimal solution does not solve the token: {e}"
                ))
            })?;
            if path.len() as u64 != n {
                return Err(crate::Error::Record(format!(
                    "the record's optimal solution has {} moves, not the {n} it says",
                    path.len()
                )));
            }
            if let Some(shown) = &shortest_shown
                && shown.len() < path.len()
            {
                return Err(crate::Error::Record(format!(
                    "a demonstration won with {} moves, fewer than the record's optimum of {n}: \
                     the record is not the arbiter's (`rollarena replay --verify` judges it)",
                    shown.len()
                )));
            }
            return Ok(Optimum::Exact(path));
        }
        if o.get("impossible") == Some(&Value::Bool(true)) {
            if shortest_shown.is_some() {
                return Err(crate::Error::Record(
                    "a demonstration won a token the record calls impossible: the record \
                            is not the arbiter's (`rollarena replay --verify` judges it)"
                        .into(),
                ));
            }
            return Ok(Optimum::Impossible);
        }
    }
    // The arbiter's solver gave up (or the record lacks its answer): the same solver, within
    // the budget analyse was given.
    let limits = solver::Budget {
        nodes: budget.nodes.unwrap_or(solver::Budget::default().nodes),
        time: budget.time,
        ..solver::Budget::default()
    };
    let recorded_bound = recorded
        .and_then(|o| o.get("at_least"))
        .and_then(Value::as_u64)
        .unwrap_or(0) as usize;
    Ok(match solve(&rp.board, &rp.start, rp.token, limits) {
        Solution::Optimal(path) => Optimum::Exact(path),
        Solution::Impossible => Optimum::Impossible,
        Solution::GaveUp { at_least, best, .. } => {
            let at_least = at_least.max(recorded_bound);
            let known = [best, shortest_shown]
                .into_iter()
                .flatten()
                .min_by_key(Vec::len);
            match known {
                // A solution as short as the bound is an optimal one.
                Some(k) if k.len() <= at_least => Optimum::Exact(k),
                known => Optimum::Bounds { at_least, known },
            }
        }
    })
}

/// A grade's own fields in a few words, for the end of its line in the table.
fn note(g: &Graded) -> String {
    let field = |k: &str| g.own.get(k).cloned().unwrap_or(Value::Null);
    let token = field("token");
    let declared = match field("declared") {
        Value::Null => String::new(),
        n => format!(", declared {n}"),
    };
    let optimal = match (field("optimal"), field("at_least"), field("impossible")) {
        (Value::Number(n), _, _) => format!(", optimal {n}"),
        (_, Value::Number(n), _) => format!(", optimal {n} or more"),
        (_, _, Value::Bool(true)) => ", no solution exists".into(),
        _ => String::new(),
    };
    let verdict = match (field("ok"), field("reason")) {
        (Value::Bool(true), _) => "won".to_string(),
        (_, Value::String(r)) => format!("failed: {r}"),
        _ => "failed".to_string(),
    };
    format!(
        "{}{declared}{optimal}: {verdict}",
        token.as_str().unwrap_or("?")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Token 3 of the recorded match of `tests/solve/robots.rs` (optimum 6; a winning
    /// demonstration of 11 moves and a failed one declared 10).
    fn token_3() -> RoundRecord {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/robots-analyse.jsonl"
        );
        let text = std::fs::read_to_string(path).unwrap();
        serde_json::from_str(text.lines().nth(2).unwrap()).unwrap()
    }

    fn ample() -> Budget {
        Budget {
            time: Some(std::time::Duration::from_secs(60)),
            nodes: None,
        }
    }

    #[test]
    fn where_the_arbiter_s_solver_gave_up_analyse_searches_or_bounds() {
        let record = token_3();
        let exact = grade(&record, &ample()).unwrap();
        assert_eq!(
            exact.iter().map(|g| (g.loss, g.exact)).collect::<Vec<_>>(),
            [(5, true), (5, true)]
        );
        let mut gave_up = record.clone();
        gave_up.board["optimal"] = json!({"gave_up": true, "searched": 9, "at_least": 4});
        // Searched again within analyse's budget: the same grades.
        let searched = grade(&gave_up, &ample()).unwrap();
        assert_eq!(
            searched
                .iter()
                .map(|g| (g.loss, g.value, g.exact))
                .collect::<Vec<_>>(),
            [(5, 6, true), (5, 6, true)]
        );
        // Too small a budget: bounded by the record's at_least, never guessed.
        let tiny = Budget {
            time: None,
            nodes: Some(1),
        };
        let bounded = grade(&gave_up, &tiny).unwrap();
        for g in &bounded {
            assert!(!g.exact, "{g:?}");
            assert!(g.value >= 4 && g.value <= 6, "{g:?}");
            assert!(g.loss >= 5, "the loss is an upper bound: {g:?}");
            assert_eq!(g.own["optimal"], Value::Null);
            assert_eq!(g.own["at_least"], json!(g.value));
            assert_eq!(g.budget_ms, Some(0));
        }
        let said = format!("optimal {} or more: won", bounded[1].value);
        assert!(note(&bounded[1]).contains(&said), "{}", note(&bounded[1]));
    }

    #[test]
    fn a_record_whose_optimum_does_not_hold_is_refused() {
        let mut record = token_3();
        record.board["optimal"]["moves"] = json!(5);
        let e = grade(&record, &ample()).unwrap_err().to_string();
        assert!(e.contains("has 6 moves, not the 5 it says"), "{e}");
        let mut record = token_3();
        record.board["optimal"]["solution"][0]["dir"] = json!("up");
        let e = grade(&record, &ample()).unwrap_err().to_string();
        assert!(e.contains("does not solve the token"), "{e}");
    }

    #[test]
    fn moves_in_short() {
        let moves = parse_solution(&json!([
            {"robot": "red", "dir": "down"},
            {"robot": "black", "dir": "left"},
            {"robot": "yellow", "dir": "up"}
        ]))
        .unwrap();
        assert_eq!(short(&moves), "Rd Kl Yu");
    }
}
