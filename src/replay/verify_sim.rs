//! Verification of a round of a simultaneous game (Rock'n'Roll Robot): every recorded action
//! fed back to the rules at its recorded round time, the rules' own deadlines fired exactly as
//! the arbiter fires them, and everything the rules say compared with what the record says.
//!
//! The arbiter's contract (src/arbiter/simultaneous.rs) is what makes this exact: an action is
//! stamped with its round time (a line within the latency margin after a deadline is stamped
//! at the deadline), a deadline `d` fires before any action stamped after `d`, what a deadline
//! produces is recorded as the arbiter's (`by_arbiter`, stamped `d`), and a forfeit takes the
//! seat out at its recorded time. So the replay walks the record in order: before each action
//! or forfeit at time `t`, it fires every deadline before `t`; each thing the rules produce
//! must be the next recorded action, field for field.

use std::collections::BTreeMap;

use serde_json::Value;

use super::verify::{Counts, check_result};
use crate::game::{Applied, Game, Outcome, Request, RoundSetup, Seat, Stamp, ToAct};
use crate::record::{MoveRecord, RoundRecord, round_ms};
use crate::seed::round_seed;

/// Replays one round of a simultaneous game. Returns its counts and the state it hands to the
/// next round of its match. Errors name the action (ply) where there is one.
pub fn verify_round(
    game: &dyn Game,
    r: &RoundRecord,
) -> Result<(Counts, Option<Value>), (Option<u32>, String)> {
    let whole = |reason: String| (None, reason);
    let n = game.seats();
    let mut counts = Counts::default();
    if r.seats.len() != n || r.result.points.len() != n {
        return Err(whole(format!(
            "the record lists {} seats and {} points for {n} seats",
            r.seats.len(),
            r.result.points.len()
        )));
    }
    let seed = round_seed(
        r.match_seed,
        r.table.unwrap_or(0),
        r.round.saturating_sub(1),
    );
    if r.seed != seed {
        return Err(whole(format!(
            "the round seed is {} but the match seed gives {seed}",
            r.seed
        )));
    }
    let setup = RoundSetup {
        round: r.round.saturating_sub(1),
        match_seed: r.match_seed,
        round_seed: r.seed,
    };
    let mut round = match &r.carry {
        Some(c) => game
            .next_round(setup, c)
            .map_err(|e| whole(format!("the round's carried start is refused: {e}")))?,
        None if r.round == 1 => game.new_round(setup),
        None => {
            return Err(whole(format!(
                "round {} carries no start state, but only round 1 starts fresh",
                r.round
            )));
        }
    };

    let mut forfeited = vec![false; n];
    let mut forfeits: Vec<_> = r.forfeits.iter().collect();
    forfeits.sort_by_key(|f| f.ply);
    for f in &forfeits {
        if f.seat >= n || forfeited[f.seat] {
            return Err(whole(format!(
                "a forfeit names seat {} (there are {n} seats, one forfeit each)",
                f.seat
            )));
        }
        forfeited[f.seat] = true;
        counts.forfeits += 1;
    }
    let mut forfeits = forfeits.into_iter().peekable();
    let mut expected_faults: Vec<(Seat, String)> = Vec::new();
    let mut i = 0;
    let moves = &r.moves;
    // Produced actions must be the next recorded ones.
    let take = |produced: Vec<Applied>,
                by_arbiter: bool,
                i: &mut usize,
                expected_faults: &mut Vec<(Seat, String)>|
     -> Result<(), (Option<u32>, String)> {
        for a in produced {
            let ply = *i as u32 + 1;
            let Some(m) = moves.get(*i) else {
                return Err((
                    None,
                    format!(
                        "the rules make seat {}'s {} {} happen after the last recorded action",
                        a.seat,
                        a.kind,
                        crate::game::short_json(&a.notation)
                    ),
                ));
            };
            same(&a, m, by_arbiter).map_err(|e| (Some(ply), e))?;
            if let Some(detail) = a.fault {
                expected_faults.push((a.seat, detail));
            }
            *i += 1;
        }
        Ok(())
    };
    loop {
        // The next thing the record says happened, and when.
        let next_forfeit = forfeits.next_if(|f| f.ply as usize <= i + 1);
        let (t, by_arbiter) = match (&next_forfeit, moves.get(i)) {
            (Some(f), _) => (round_ms(f.at_ms.unwrap_or(0.0)), false),
            (None, Some(m)) => {
                let t = m.at_ms.map(round_ms).ok_or_else(|| {
                    (
                        Some(i as u32 + 1),
                        "the action has no round time (at_ms)".to_string(),
                    )
                })?;
                (t, m.by_arbiter)
            }
            (None, None) => (f64::INFINITY, false),
        };
        // Fire the rules' deadlines that came first (a by_arbiter action is one of them).
        let before = i;
        while let Some(d) = round.deadline_ms() {
            if !(d < t || (by_arbiter && d <= t)) {
                break;
            }
            let produced = round.timeout(d);
            take(produced, true, &mut i, &mut expected_faults)?;
            if by_arbiter && d == t {
                break;
            }
        }
        if let Some(f) = next_forfeit {
            let produced = round.forfeit(f.seat, t);
            take(produced, true, &mut i, &mut expected_faults)?;
            continue;
        }
        if t.is_infinite() {
            break;
        }
        if by_arbiter {
            // The deadline that should have produced it did not.
            if i == before {
                return Err((
                    Some(i as u32 + 1),
                    "the arbiter is recorded acting for the seat, but no deadline of the rules \
                     falls then"
                        .into(),
                ));
            }
            continue;
        }
        let m = &moves[i];
        let kind = m.kind.as_deref().unwrap_or("move");
        if m.seat >= n || forfeited[m.seat] && forfeit_before(r, m.seat, i) {
            return Err((
                Some(i as u32 + 1),
                format!("seat {} acts, but it is not in the round", m.seat),
            ));
        }
        let allowed = match round.to_act() {
            ToAct::Seats(seats) => seats.contains(&m.seat),
            ToAct::Seat(s, Request::Prove) => s == m.seat,
            _ => false,
        };
        if !allowed {
            return Err((
                Some(i as u32 + 1),
                format!(
                    "seat {} sends {kind} when {}",
                    m.seat,
                    match round.to_act() {
                        ToAct::Seats(seats) => format!("only seats {seats:?} may act"),
                        ToAct::Seat(s, Request::Prove) => format!("seat {s} is asked to prove"),
                        ToAct::Seat(s, Request::Turn) => format!("seat {s} is asked to move"),
                        ToAct::Over => "the round is over".to_string(),
                    }
                ),
            ));
        }
        let stamp = Stamp {
            ms: t,
            cpu_ms: m.cpu_ms,
        };
        let produced = round
            .act(m.seat, kind, &m.mv, stamp)
            .map_err(|e| (Some(i as u32 + 1), format!("the rules refuse it: {e}")))?;
        if produced.is_empty() {
            return Err((
                Some(i as u32 + 1),
                "the rules accept it but announce nothing".into(),
            ));
        }
        take(produced, false, &mut i, &mut expected_faults)?;
        counts.moves += 1;
    }
    if round.to_act() != ToAct::Over {
        return Err(whole(format!(
            "the record ends after {} actions, but the round is not over",
            moves.len()
        )));
    }
    let board = round.public_view();
    if at_record_precision(&board) != at_record_precision(&r.board) {
        return Err(whole(format!(
            "the final state is recorded as {}, but the rules give {}",
            crate::game::short_json(&r.board),
            crate::game::short_json(&board)
        )));
    }
    let raw = round
        .outcome()
        .expect("a round that is over has an outcome");
    let expected = Outcome::new(raw.scores.clone(), &raw.points, &forfeited);
    check_result(&r.result, &expected, &forfeited, &[]).map_err(whole)?;
    let recorded_faults: Vec<(Seat, String)> = r
        .faults
        .iter()
        .filter(|f| f.kind == "solution" || f.kind == "declare")
        .map(|f| (f.seat, f.detail.clone()))
        .collect();
    if recorded_faults != expected_faults {
        return Err(whole(format!(
            "the faults of the rules are recorded as {recorded_faults:?}, but the rules give \
             {expected_faults:?}"
        )));
    }
    if round.ends_match() != r.ends_match {
        return Err(whole(format!(
            "the record says the match {} here, but the rules say it {}",
            if r.ends_match { "ends" } else { "goes on" },
            if r.ends_match { "goes on" } else { "ends" }
        )));
    }
    Ok((counts, round.carry()))
}

/// Whether the seat's forfeit came before action `i`.
fn forfeit_before(r: &RoundRecord, seat: Seat, i: usize) -> bool {
    r.forfeits
        .iter()
        .any(|f| f.seat == seat && (f.ply as usize) <= i + 1)
}

/// An action the rules produced against the one recorded.
fn same(a: &Applied, m: &MoveRecord, by_arbiter: bool) -> Result<(), String> {
    let kind = m.kind.as_deref().unwrap_or("move");
    if a.kind != kind || a.seat != m.seat {
        return Err(format!(
            "the record has seat {}'s {kind}, but the rules produce seat {}'s {}",
            m.seat, a.seat, a.kind
        ));
    }
    if a.notation != m.mv {
        return Err(format!(
            "the action is recorded as {}, but the rules write it {}",
            crate::game::short_json(&m.mv),
            crate::game::short_json(&a.notation)
        ));
    }
    let effects: BTreeMap<String, Value> = a.effects.clone().into_iter().collect();
    let precise = |e: &BTreeMap<String, Value>| -> Vec<(String, Value)> {
        e.iter()
            .map(|(k, v)| (k.clone(), at_record_precision(v)))
            .collect()
    };
    if precise(&effects) != precise(&m.effects) {
        return Err(format!(
            "its effects are recorded as {}, but the rules give {}",
            crate::game::short_json(&serde_json::to_value(&m.effects).unwrap_or_default()),
            crate::game::short_json(&serde_json::to_value(&effects).unwrap_or_default())
        ));
    }
    if m.by_arbiter != by_arbiter {
        return Err(format!(
            "it is recorded as {}, but it is {}",
            if m.by_arbiter {
                "the arbiter's"
            } else {
                "the bot's"
            },
            if by_arbiter {
                "the arbiter's"
            } else {
                "the bot's"
            }
        ));
    }
    Ok(())
}

/// `v` with every fractional number at the precision a record keeps (the microsecond of a ms
/// figure, [`round_ms`]): the rules make their times at that precision, but an earlier arbiter
/// recorded some sums of times with more digits than a record reads back exactly, so times are
/// compared at the record's precision, never past it.
fn at_record_precision(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .map_or_else(|| v.clone(), |x| serde_json::json!(round_ms(x))),
        Value::Array(items) => Value::Array(items.iter().map(at_record_precision).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), at_record_precision(v)))
                .collect(),
        ),
        _ => v.clone(),
    }
}
