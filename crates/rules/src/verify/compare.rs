//! How a record and the referee's replay of it differ, said in words an organiser can act on.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Error;
use crate::game::{Outcome, board_rows, short_json};

/// Says how recorded effects differ from the engine's.
pub(super) fn effects_differ(
    mv: &Value,
    recorded: &BTreeMap<String, Value>,
    engine: &BTreeMap<String, Value>,
) -> String {
    let keys: std::collections::BTreeSet<&String> = recorded.keys().chain(engine.keys()).collect();
    for key in keys {
        let (a, b) = (recorded.get(key), engine.get(key));
        if a != b {
            let show = |v: Option<&Value>| v.map(short_json).unwrap_or_else(|| "nothing".into());
            return format!(
                "the record says {} {key} {}, but the rules give {}",
                short_json(mv),
                show(a),
                show(b)
            );
        }
    }
    "the effects differ".into()
}

/// Says where two final boards differ.
pub(super) fn board_differs(recorded: &Value, replayed: &Value) -> String {
    let (a, b) = (board_rows(recorded), board_rows(replayed));
    for (i, row) in b.iter().enumerate() {
        if a.get(i) != Some(row) {
            return format!(
                "the final board differs from the one the moves make: row {} (rank {}) is \
                 recorded as {:?}, the moves make {:?}",
                i + 1,
                b.len() - i,
                a.get(i).map(String::as_str).unwrap_or("missing"),
                row
            );
        }
    }
    format!(
        "the final board {} is not the state the moves make, {}",
        short_json(recorded),
        short_json(replayed)
    )
}

/// Checks the recorded result against the one the engine and the forfeits give.
pub fn check_result(
    recorded: &Outcome,
    expected: &Outcome,
    forfeited: &[bool],
    colours: &[String],
) -> Result<(), Error> {
    if recorded.scores != expected.scores {
        for (colour, &want) in &expected.scores {
            let got = recorded.scores.get(colour);
            if got != Some(&want) {
                return Err(Error::Mismatch(format!(
                    "{colour}'s score is recorded as {}, but the rules give {want}",
                    got.map(u32::to_string).unwrap_or_else(|| "missing".into())
                )));
            }
        }
        return Err(Error::Mismatch(format!(
            "the scores name colours that are not on the board: {:?}",
            recorded.scores
        )));
    }
    for (seat, (&got, &want)) in recorded.points.iter().zip(&expected.points).enumerate() {
        if got != want {
            let why = if forfeited[seat] {
                "it forfeited".to_string()
            } else {
                match colours.get(seat) {
                    Some(colour) => format!("its colour {colour} scores that"),
                    None => "the rules score it so".to_string(),
                }
            };
            return Err(Error::Mismatch(format!(
                "seat {seat}'s points are recorded as {}, but they are {} ({why})",
                got, want
            )));
        }
    }
    if recorded.ranks != expected.ranks {
        return Err(Error::Mismatch(format!(
            "the ranks are recorded as {:?}, but the points and forfeits give {:?}",
            recorded.ranks, expected.ranks
        )));
    }
    let same = recorded
        .wins
        .iter()
        .zip(&expected.wins)
        .all(|(a, b)| (a - b).abs() < 1e-9);
    if !same {
        return Err(Error::Mismatch(format!(
            "the round win shares are recorded as {:?}, but the ranks give {:?}",
            recorded.wins, expected.wins
        )));
    }
    Ok(())
}
