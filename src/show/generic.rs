//! The terminal replay of a game that has no drawing of its own: each recorded move played
//! again through the game's rules (so what is shown is what the rules make of the moves), the
//! move, who made it and its time, then the game's own text rendering ([`Round::render`]) of
//! the state it leads to, as a spectator sees it.

use std::io::{self, BufRead, Write};

use super::text::{Pace, Paced, Style, clean, forfeit_line, format_ms, paced, round_notes};
use crate::game::{Round, RoundSetup, Stamp};
use crate::record::RoundRecord;

/// Each state of a round, from the start to its end: the text of each.
fn frames(record: &RoundRecord) -> Result<Vec<String>, String> {
    let game = crate::game::registry::of_record(record)?;
    let setup = RoundSetup {
        round: record.round.saturating_sub(1),
        match_seed: record.match_seed,
        round_seed: record.seed,
        chance_seed: crate::seed::chance_seed(
            record.match_seed,
            record.table.unwrap_or(0),
            record.round.saturating_sub(1),
        ),
    };
    let mut round: Box<dyn Round> = match &record.carry {
        Some(c) => game.next_round(setup, c)?,
        None => game.new_round(setup),
    };
    let mut frames = vec![round.render()];
    for m in &record.moves {
        let kind = m.kind.as_deref().unwrap_or("move");
        let played = if kind == "move" {
            round.play(m.seat, &m.mv).map(|_| ())
        } else {
            let at = Stamp {
                ms: m.at_ms.unwrap_or(m.ms),
                cpu_ms: m.cpu_ms,
            };
            round.act(m.seat, kind, &m.mv, at).map(|_| ())
        };
        played.map_err(|e| format!("move {} does not replay: {e}", m.ply))?;
        frames.push(round.render());
    }
    Ok(frames)
}

/// Replays one round to `out`, pausing as `pace` says. An error is a round that does not
/// replay.
#[allow(clippy::too_many_arguments)]
pub fn play(
    index: usize,
    total: usize,
    record: &RoundRecord,
    style: &Style,
    pace: &Pace,
    out: &mut dyn Write,
    input: &mut dyn BufRead,
    prompt: &mut dyn Write,
) -> io::Result<Result<bool, String>> {
    let frames = match frames(record) {
        Ok(f) => f,
        Err(e) => return Ok(Err(e)),
    };
    let names: Vec<String> = record.seats.iter().map(|s| clean(&s.name)).collect();
    let head = format!(
        "game {index} of {total}: match {}{}, round {}/{}, {} {}, seats: {}\n",
        clean(&record.match_id),
        record
            .table
            .map(|t| format!(" table {t}"))
            .unwrap_or_default(),
        record.round,
        record.rounds,
        clean(&record.game),
        clean(&record.options.to_string()),
        names.join(", "),
    );
    let io = Paced {
        out,
        input,
        prompt,
        prompt_text: "[Enter: next move, q Enter: quit] ",
    };
    let last = record.moves.len();
    let go_on = paced(last, &head, style, pace, io, |ply, _start, frame| {
        if ply == 0 {
            for f in record.forfeits.iter().filter(|f| f.ply == 0) {
                frame.push_str(&forfeit_line(record, f));
            }
            frame.push_str("start\n");
        } else {
            let m = &record.moves[ply - 1];
            for f in record.forfeits.iter().filter(|f| f.ply as usize == ply) {
                frame.push_str(&forfeit_line(record, f));
            }
            let who = names.get(m.seat).cloned().unwrap_or_default();
            let by = if m.by_arbiter {
                " (by the arbiter)"
            } else {
                ""
            };
            frame.push_str(&format!(
                "move {ply}: seat {} ({who}) {} {}{by}, {}\n",
                m.seat,
                clean(m.kind.as_deref().unwrap_or("plays")),
                clean(&m.mv.to_string()),
                format_ms(m.ms)
            ));
            for r in &m.refused {
                frame.push_str(&format!(
                    "  refused: {} ({})\n",
                    clean(&r.line),
                    clean(&r.reason)
                ));
            }
        }
        frame.push_str(&frames[ply]);
        if ply == last {
            frame.push_str(&format!(
                "result: points {:?}, ranks {:?}\n",
                record.result.points, record.result.ranks
            ));
            frame.push_str(&round_notes(record));
        }
    })?;
    Ok(Ok(go_on))
}
