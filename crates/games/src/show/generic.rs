//! The terminal replay of a game that has no drawing of its own: each recorded move played
//! again through the game's rules (so what is shown is what the rules make of the moves), the
//! move, who made it and its time, then the game's own text rendering ([`Round::render`](crate::game::Round::render)) of
//! the state it leads to, as a spectator sees it.

use std::io;

use super::Screen;
use super::text::{clean, forfeit_line, format_ms, paced, round_notes};
use crate::record::RoundRecord;
use crate::replay::{Discrepancy, replay_states};

/// Each state of a round, from the start to its end, as the game's text.
pub fn frames(index: usize, record: &RoundRecord) -> Result<Vec<String>, Discrepancy> {
    let mut frames = Vec::with_capacity(record.moves.len() + 1);
    replay_states(index, record, |round, _| frames.push(round.render()))?;
    Ok(frames)
}

/// Replays one round on `screen`, pausing as its pace says. An error is a round that does
/// not replay.
pub fn play(
    record: &RoundRecord,
    screen: &mut Screen<'_>,
) -> io::Result<Result<bool, Discrepancy>> {
    let (index, total, style, pace) = (screen.index, screen.total, screen.style, screen.pace);
    let frames = match frames(index, record) {
        Ok(f) => f,
        Err(e) => return Ok(Err(e)),
    };
    let names: Vec<String> = record.seats.iter().map(|s| clean(&s.name)).collect();
    let head = format!(
        "round {index} of {total}: match {}{}, round {}/{}, {} {}, seats: {}\n",
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
    let io = screen.io("[Enter: next move, q Enter: quit] ");
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
