//! What every game's terminal replay shares: the style (colour or not), the pace (`--to`,
//! `--step`, `--delay`) and the loop that follows it, bots' text made safe, times for people,
//! forfeits, faults and the result.
//!
//! Colour is ANSI and only on request ([`Style::colour`]; the CLI asks for it when stdout is a
//! terminal and `NO_COLOR` is unset); plain output is letters, stable enough for snapshots.
//! Everything a bot wrote (names, refused lines) has its control characters escaped, so a bot
//! cannot send escape sequences to the organiser's terminal.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::record::RoundRecord;

/// How to show a replay.
#[derive(Clone, Debug, Default)]
pub struct Style {
    /// ANSI colours (balls drawn as coloured discs; the placed ball and the flipped ones marked).
    pub colour: bool,
    /// Clear the screen before each board (when playing with a delay on a terminal).
    pub clear: bool,
}

/// How to move through a replay.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    /// Start at the position after this many moves; without `step` or `delay` show only it.
    pub to: Option<u32>,
    /// Wait for a line on the input (Enter) after each board; `q` then Enter stops.
    pub step: bool,
    /// Pause this long after each board.
    pub delay: Option<Duration>,
}

/// Whether to colour the output: only on a terminal, and never when `NO_COLOR` is set to
/// anything but the empty string (<https://no-color.org>).
pub fn colour_wanted(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// A bot's text with control characters escaped (no escape sequences reach the terminal).
pub fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A duration in ms for people: "0.156 ms", "12.3 ms", "845 ms", "1.24 s".
pub fn format_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 1.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.3} ms")
    }
}

pub fn seat_label(record: &RoundRecord, seat: usize) -> String {
    let name = record.seats.get(seat).map(|s| clean(&s.name));
    format!("seat {seat}, {}", name.unwrap_or_default())
}

pub fn forfeit_line(record: &RoundRecord, f: &crate::record::Forfeit) -> String {
    format!(
        "seat {} ({}) forfeits ({}): {}; the arbiter plays its moves\n",
        f.seat,
        record
            .seats
            .get(f.seat)
            .map(|s| clean(&s.name))
            .unwrap_or_default(),
        f.kind,
        clean(&f.detail)
    )
}

/// The result: seats best first with colour, points and rank; faults.
pub fn result(record: &RoundRecord) -> String {
    let r = &record.result;
    let mut seats: Vec<usize> = (0..r.points.len()).collect();
    seats.sort_by_key(|&s| (r.ranks[s], s));
    let mut out = String::from("result:\n");
    for s in seats {
        let colour = record
            .colours
            .as_ref()
            .and_then(|c| c.get(s))
            .map(String::as_str)
            .unwrap_or("");
        let win = if r.wins[s] == 1.0 {
            "  wins".to_string()
        } else if r.wins[s] > 0.0 {
            format!("  shares the win ({:.2})", r.wins[s])
        } else {
            String::new()
        };
        let forfeit = record
            .forfeits
            .iter()
            .find(|f| f.seat == s)
            .map(|f| format!("  forfeited ({} at move {})", f.kind, f.ply))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {}. {} (seat {s}, {colour}) {} points{win}{forfeit}\n",
            r.ranks[s],
            record
                .seats
                .get(s)
                .map(|x| clean(&x.name))
                .unwrap_or_default(),
            r.points[s]
        ));
    }
    out.push_str(&round_notes(record));
    out
}

/// The end of a round's result: forfeits after its last move, faults, and how many logs.
pub fn round_notes(record: &RoundRecord) -> String {
    let mut out = String::new();
    for f in &record.forfeits {
        if f.ply as usize > record.moves.len() {
            out.push_str(&format!("  {}", forfeit_line(record, f)));
        }
    }
    for f in &record.faults {
        out.push_str(&format!(
            "  fault: {} {}: {}\n",
            seat_label(record, f.seat),
            clean(f.kind.name()),
            clean(&f.detail)
        ));
    }
    if !record.logs.is_empty() {
        out.push_str(&format!(
            "  {} log lines from the bots (see the HTML viewer)\n",
            record.logs.len()
        ));
    }
    out
}

/// Where a paced replay writes, reads keys and prompts.
pub struct Paced<'a> {
    pub out: &'a mut dyn Write,
    pub input: &'a mut dyn BufRead,
    pub prompt: &'a mut dyn Write,
    pub prompt_text: &'a str,
}

/// The pacing both games' replays share: steps 0 to `last` (from `--to`, only that one
/// without `--step` or `--delay`), the header on the first frame (every frame when clearing the
/// screen), `frame` adding a step's own lines, then a key or a delay between steps. False when
/// the user quit.
pub fn paced(
    last: usize,
    head: &str,
    style: &Style,
    pace: &Pace,
    io: Paced<'_>,
    mut frame_of: impl FnMut(usize, usize, &mut String),
) -> io::Result<bool> {
    let start = pace.to.map_or(0, |t| (t as usize).min(last));
    let only_one = pace.to.is_some() && !pace.step && pace.delay.is_none();
    let end = if only_one { start } else { last };
    for ply in start..=end {
        let mut frame = String::new();
        if style.clear {
            frame.push_str("\x1b[H\x1b[2J");
        }
        if style.clear || ply == start {
            frame.push_str(head);
        }
        frame.push('\n');
        frame_of(ply, start, &mut frame);
        io.out.write_all(frame.as_bytes())?;
        io.out.flush()?;
        if ply == end {
            break;
        }
        if pace.step {
            if !wait_for(io.input, io.prompt, io.prompt_text)? {
                return Ok(false);
            }
        } else if let Some(d) = pace.delay {
            std::thread::sleep(d);
        }
    }
    Ok(true)
}

/// Shows `text` on the prompt and waits for a line: `true` to go on, `false` on `q` or the end
/// of the input.
pub fn wait_for(input: &mut dyn BufRead, prompt: &mut dyn Write, text: &str) -> io::Result<bool> {
    write!(prompt, "{text}")?;
    prompt.flush()?;
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(false);
    }
    Ok(!line.trim().eq_ignore_ascii_case("q"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(colour_wanted(true, None));
        assert!(colour_wanted(true, Some(OsStr::new(""))));
        assert!(!colour_wanted(true, Some(OsStr::new("1"))));
        assert!(!colour_wanted(false, None));
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        assert_eq!(clean("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(clean("<img> é"), "<img> é");
    }

    #[test]
    fn times_read_well() {
        assert_eq!(format_ms(0.1564), "0.156 ms");
        assert_eq!(format_ms(12.34), "12.3 ms");
        assert_eq!(format_ms(845.2), "845 ms");
        assert_eq!(format_ms(1240.0), "1.24 s");
    }
}
