//! Rolit shown: the round's boards as the engine computes them from the recorded moves
//! ([`replay`]), and the terminal replay ([`play`]): the board after each move, the move, its
//! time, the balls it turned, the running scores, refused attempts and forfeits where they
//! happened, and the result. Its part of the HTML viewer is [`super::show_html`].

use std::io;

use super::Rolit;
use crate::game::ToAct;
use crate::record::RoundRecord;
use crate::replay::{Discrepancy, new_round, rows};
use crate::show::Screen;
use crate::show::text::{Style, clean, forfeit_line, format_ms, paced, result, seat_label};

const NAMES: [&str; 4] = ["red", "yellow", "green", "blue"];

/// A Rolit round's positions as the engine computes them from the recorded moves.
#[derive(Clone, Debug, PartialEq)]
pub struct RolitReplay {
    /// Board size (squares per side).
    pub size: u8,
    /// Each seat's colour.
    pub colours: Vec<String>,
    /// `boards[p]`: the rows (highest rank first) after `p` moves; `boards[0]` is the start.
    pub boards: Vec<Vec<String>>,
}

/// The Rolit variant a record's options name, checked against the rules this build knows.
pub fn rolit_of(record: &RoundRecord) -> Result<Rolit, crate::Error> {
    if record.game != "rolit" {
        return Err(crate::Error::Record(format!(
            "the record is of {:?}, not rolit",
            record.game
        )));
    }
    let game = crate::game::registry::of_record(record).map_err(crate::Error::record)?;
    let size = record
        .options
        .get("size")
        .and_then(serde_json::Value::as_u64);
    let players = game.seats();
    let Some(size) = size else {
        return Err(crate::Error::Record(format!(
            "the options {} do not give a board size",
            crate::game::short_json(&record.options)
        )));
    };
    Rolit::new(size.min(255) as u8, players).map_err(crate::Error::record)
}

/// Plays a round's recorded moves through the engine. `game` is the round's index in its file
/// (from 1), for the error. Fails on the first move the rules refuse or that is out of turn.
pub fn replay(game: usize, record: &RoundRecord) -> Result<RolitReplay, Discrepancy> {
    let fail = |ply: Option<u32>, reason: String| Discrepancy { game, ply, reason };
    let rolit = rolit_of(record).map_err(|r| fail(None, r.to_string()))?;
    let mut round = new_round(&rolit, record);
    let colours = round.colours().unwrap_or_default();
    let mut boards = vec![rows(&round.public_view())];
    for (i, m) in record.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        match round.to_act() {
            ToAct::Seat(seat, _) if seat == m.seat => {}
            ToAct::Seat(seat, _) => {
                return Err(fail(
                    Some(ply),
                    format!("seat {} moved, but it was seat {seat}'s turn", m.seat),
                ));
            }
            _ => {
                return Err(fail(
                    Some(ply),
                    format!("the round was over after {i} moves, yet the record goes on"),
                ));
            }
        }
        round.play(m.seat, &m.mv).map_err(|e| {
            fail(
                Some(ply),
                format!("{} cannot be played: {e}", crate::game::short_json(&m.mv)),
            )
        })?;
        boards.push(rows(&round.public_view()));
    }
    Ok(RolitReplay {
        size: rolit.size,
        colours,
        boards,
    })
}

/// Balls of each colour letter on a board, in the order R, Y, G, B.
pub fn counts(board: &[String]) -> [u32; 4] {
    let mut out = [0; 4];
    for ch in board.iter().flat_map(|r| r.chars()) {
        if let Some(i) = "RYGB".find(ch) {
            out[i] += 1;
        }
    }
    out
}

/// The header of a game: where it comes from, who sits where, who moves first.
pub fn header(index: usize, total: usize, record: &RoundRecord, replayed: &RolitReplay) -> String {
    let mut out = format!(
        "round {index} of {total}: match {}{}, round {}/{}, rolit {n}x{n}, {} players\n",
        clean(&record.match_id),
        record
            .table
            .map(|t| format!(" (table {t})"))
            .unwrap_or_default(),
        record.round,
        record.rounds,
        replayed.colours.len(),
        n = replayed.size,
    );
    for (seat, s) in record.seats.iter().enumerate() {
        let bot = match (&s.bot_name, &s.bot_version) {
            (Some(n), Some(v)) => format!("  ({} {})", clean(n), clean(v)),
            (Some(n), None) => format!("  ({})", clean(n)),
            _ => String::new(),
        };
        let colour = replayed.colours.get(seat).map(String::as_str).unwrap_or("");
        out.push_str(&format!(
            "  seat {seat}  {colour:<6}  {}{bot}\n",
            clean(&s.name)
        ));
    }
    if let Some(c) = replayed.colours.get(record.first) {
        out.push_str(&format!("  {c} moves first\n"));
    }
    out
}

/// The board after `ply` moves, with the move that made it marked when colour is on.
pub fn board(record: &RoundRecord, replayed: &RolitReplay, ply: usize, style: &Style) -> String {
    let rows = &replayed.boards[ply];
    let n = rows.len();
    let mv = ply.checked_sub(1).and_then(|i| record.moves.get(i));
    let placed = mv.and_then(|m| m.mv.as_str()).and_then(|s| square(s, n));
    let flipped: Vec<(usize, usize)> = mv
        .and_then(|m| m.effects.get("flipped"))
        .and_then(|f| f.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().and_then(|s| square(s, n)))
                .collect()
        })
        .unwrap_or_default();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&format!("{:>2} ", n - i));
        for (f, ch) in row.chars().enumerate() {
            out.push(' ');
            if !style.colour {
                out.push(ch);
                continue;
            }
            let code = match ch {
                'R' => "31",
                'Y' => "33",
                'G' => "32",
                'B' => "34",
                _ => {
                    out.push_str("\x1b[2m·\x1b[0m");
                    continue;
                }
            };
            if placed == Some((i, f)) {
                out.push_str(&format!("\x1b[1;{code}m◉\x1b[0m"));
            } else if flipped.contains(&(i, f)) {
                out.push_str(&format!("\x1b[1;9{}m●\x1b[0m", &code[1..]));
            } else {
                out.push_str(&format!("\x1b[{code}m●\x1b[0m"));
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for f in 0..n {
        out.push(' ');
        out.push((b'a' + f as u8) as char);
    }
    out.push('\n');
    out
}

/// (row from the top, file) of a square name on an n x n board.
fn square(s: &str, n: usize) -> Option<(usize, usize)> {
    let mut chars = s.chars();
    let file = chars.next()? as usize;
    let file = file.checked_sub('a' as usize)?;
    let rank: usize = chars.as_str().parse().ok()?;
    (file < n && (1..=n).contains(&rank)).then(|| (n - rank, file))
}

/// The running scores after `ply` moves.
pub fn scores(replayed: &RolitReplay, ply: usize) -> String {
    let c = counts(&replayed.boards[ply]);
    let parts: Vec<String> = NAMES
        .iter()
        .zip(c)
        .map(|(name, k)| format!("{name} {k}"))
        .collect();
    format!("scores: {}\n", parts.join(", "))
}

/// The line describing move `ply` (from 1), its refused attempts, and forfeits before it.
pub fn move_lines(record: &RoundRecord, ply: usize) -> String {
    let mut out = String::new();
    let m = &record.moves[ply - 1];
    for f in record.forfeits.iter().filter(|f| f.ply as usize == ply) {
        out.push_str(&forfeit_line(record, f));
    }
    let colour = m.colour.as_deref().unwrap_or("");
    let mv =
        m.mv.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| m.mv.to_string());
    let time = if m.by_arbiter {
        "played by the arbiter".to_string()
    } else {
        let cpu = m
            .cpu_ms
            .map(|c| format!(", CPU {c:.0} ms"))
            .unwrap_or_default();
        format!("in {}{cpu}", format_ms(m.ms))
    };
    let flipped: Vec<&str> = m
        .effects
        .get("flipped")
        .and_then(|f| f.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str()).collect())
        .unwrap_or_default();
    let flipped = if flipped.is_empty() {
        "nothing flipped".to_string()
    } else {
        format!("flipped {}", flipped.join(" "))
    };
    out.push_str(&format!(
        "move {ply}/{}: {colour} ({}) {mv} {time}, {flipped}\n",
        record.moves.len(),
        seat_label(record, m.seat),
    ));
    for (k, r) in m.refused.iter().enumerate() {
        out.push_str(&format!(
            "  refused attempt {} at {}: {} -- {}\n",
            k + 1,
            format_ms(r.ms),
            clean(&crate::game::cut(&r.line, 100)),
            clean(&r.reason)
        ));
    }
    out
}

/// Replays one round on `screen`, pausing as its pace says (the registry's terminal replay).
pub fn play(
    record: &RoundRecord,
    screen: &mut Screen<'_>,
) -> io::Result<Result<bool, Discrepancy>> {
    let replayed = match replay(screen.index, record) {
        Ok(r) => r,
        Err(d) => return Ok(Err(d)),
    };
    let replayed = &replayed;
    let style = screen.style;
    let last = record.moves.len();
    let head = header(screen.index, screen.total, record, replayed);
    let pace = screen.pace;
    let io = screen.io("[Enter: next move, q Enter: quit] ");
    paced(last, &head, style, pace, io, |ply, _start, frame| {
        if ply == 0 {
            for f in record.forfeits.iter().filter(|f| f.ply == 0) {
                frame.push_str(&forfeit_line(record, f));
            }
            frame.push_str("start\n");
        } else {
            frame.push_str(&move_lines(record, ply));
        }
        frame.push_str(&board(record, replayed, ply, style));
        frame.push_str(&scores(replayed, ply));
        if ply == last {
            frame.push('\n');
            frame.push_str(&result(record));
        }
    })
    .map(Ok)
}
