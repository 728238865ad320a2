//! The terminal replay of Rock'n'Roll Robot: per token, the board drawn as text with its walls,
//! diagonals, targets and robots, the token and its target, each declaration with its round time
//! and CPU time, each demonstration move by move with the rules' verdict (and, when it wins, the
//! board after the moves with the robots' paths), the winner beside the solver's optimal length,
//! and the tokens so far.
//!
//! A step is one recorded action (`--to N`: the position after action N), as a step of the Rolit
//! replay is one move. Colour and escaping follow [`crate::show::text`]: ANSI only with
//! [`Style::colour`], plain letters otherwise, and a bot's text with its control characters
//! escaped.

use std::io;

use serde_json::Value;

use super::cell::SIZE;
use super::show::{Action, Demonstration, RobotsReplay, Step, letter, replay};
use super::{Cell, Colour, Positions, Robot, Token};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use crate::show::Screen;
use crate::show::text::{Style, clean, forfeit_line, format_ms, paced, round_notes};

/// What the drawing shows, once per game.
const LEGEND: &str = "  on the board: (R) a robot (R G B Y, K black), r the cells it passed; >Ys the \
                      token's target;\n    Ys a target (colour, then m moon, s star, g gear, p \
                      planet; ** the vortex); r/ a diagonal wall of its colour\n";

fn name(record: &RoundRecord, seat: usize) -> String {
    record
        .seats
        .get(seat)
        .map(|s| clean(&s.name))
        .unwrap_or_default()
}

fn seat_label(record: &RoundRecord, seat: usize) -> String {
    format!("seat {seat}, {}", name(record, seat))
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// "solver 1, fumbler 0".
fn tally(record: &RoundRecord, counts: &[usize]) -> String {
    counts
        .iter()
        .enumerate()
        .map(|(s, n)| format!("{} {n}", name(record, s)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The header of a token: where it comes from, who plays, the board's quarters, the clocks.
pub fn header(index: usize, total: usize, record: &RoundRecord, rp: &RobotsReplay) -> String {
    let g = &rp.rules;
    let mut variant = vec![if g.diagonals {
        "with diagonals"
    } else {
        "side A only"
    }];
    if g.black {
        variant.push("black robot");
    }
    let players = if g.players == 1 {
        "solo".to_string()
    } else {
        format!("{} players", g.players)
    };
    let mut out = format!(
        "round {index} of {total}: match {}{}, round {}/{}, robots 16x16 {}, {players}\n",
        clean(&record.match_id),
        record
            .table
            .map(|t| format!(" (table {t})"))
            .unwrap_or_default(),
        record.round,
        record.rounds,
        variant.join(", "),
    );
    for (seat, s) in record.seats.iter().enumerate() {
        let bot = match (&s.bot_name, &s.bot_version) {
            (Some(n), Some(v)) => format!("  ({} {})", clean(n), clean(v)),
            (Some(n), None) => format!("  ({})", clean(n)),
            _ => String::new(),
        };
        out.push_str(&format!("  seat {seat}  {}{bot}\n", clean(&s.name)));
    }
    let quarters: Vec<String> = rp
        .board
        .assembly()
        .iter()
        .map(|p| format!("{} {} {}", p.board, p.side, p.corner))
        .collect();
    if !quarters.is_empty() {
        out.push_str(&format!("  boards: {}\n", quarters.join(", ")));
    }
    out.push_str(&format!(
        "  hourglass {}, first declaration within {}, {} to prove{}\n",
        duration(g.hourglass_ms),
        duration(g.first_declaration_ms),
        duration(g.prove_ms),
        if g.tiebreak == crate::game::robots::Tiebreak::Cpu {
            ", ties broken by CPU time"
        } else {
            ""
        }
    ));
    let before: Vec<usize> = rp.won_before.iter().map(Vec::len).collect();
    out.push_str(&format!(
        "  tokens before this one: {}{}\n",
        tally(record, &before),
        face_down(rp.face_down_before.len(), g.players)
    ));
    out.push_str(LEGEND);
    out
}

/// A setting's duration: "300 ms", "60 s", "1.50 s".
fn duration(ms: u64) -> String {
    if ms >= 1000 && ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format_ms(ms as f64)
    }
}

fn face_down(n: usize, players: usize) -> String {
    if players == 1 {
        format!(" (face down: {n})")
    } else {
        String::new()
    }
}

/// "yellow-star (Ys) at b12, for the yellow robot".
pub fn token_text(rp: &RobotsReplay) -> String {
    let at = rp.target.map_or("?".to_string(), |c| c.to_string());
    let whom = match rp.token.robot() {
        Some(r) => format!("for the {r} robot"),
        None => "for any robot".to_string(),
    };
    format!("{} ({}) at {at}, {whom}", rp.token, rp.token.code())
}

/// "red a10, green l12, blue d9, yellow b12".
pub fn robots_text(p: &Positions) -> String {
    p.iter()
        .map(|(r, c)| format!("{r} {c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// ANSI colour number of a colour (add 10 for the background).
fn ansi(colour: Option<Colour>) -> u8 {
    match colour {
        Some(Colour::Red) => 31,
        Some(Colour::Green) => 32,
        Some(Colour::Yellow) => 33,
        Some(Colour::Blue) => 34,
        None => 35,
    }
}

fn paint(style: &Style, code: &str, text: &str) -> String {
    if style.colour {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The board with the robots at `robots`; `trails` are moves whose paths are drawn (the cells a
/// robot passed, by its lower-case letter).
pub fn board(rp: &RobotsReplay, robots: &Positions, trails: &[Step], style: &Style) -> String {
    let b = &rp.board;
    let mut trail: [Option<Robot>; SIZE * SIZE] = [None; SIZE * SIZE];
    for s in trails {
        for &c in std::iter::once(&s.from).chain(&s.path) {
            trail[c.index()] = Some(s.mv.robot);
        }
    }
    let corner = paint(style, "2", "+");
    let mut out = String::new();
    for y in (0..SIZE).rev() {
        // The walls above the row.
        out.push_str("    ");
        for x in 0..SIZE {
            out.push_str(&corner);
            out.push_str(if b.wall(Cell::new(x, y), crate::game::robots::Dir::Up) {
                "---"
            } else {
                "   "
            });
        }
        out.push_str(&corner);
        out.push('\n');
        out.push_str(&format!("{:>3} ", y + 1));
        for x in 0..SIZE {
            let cell = Cell::new(x, y);
            out.push(if b.wall(cell, crate::game::robots::Dir::Left) {
                '|'
            } else {
                ' '
            });
            out.push_str(&cell_text(rp, cell, robots, trail[cell.index()], style));
        }
        let last = Cell::new(SIZE - 1, y);
        out.push(if b.wall(last, crate::game::robots::Dir::Right) {
            '|'
        } else {
            ' '
        });
        let len = out.trim_end_matches(' ').len();
        out.truncate(len);
        out.push('\n');
    }
    out.push_str("    ");
    for x in 0..SIZE {
        out.push_str(&corner);
        out.push_str(if b.wall(Cell::new(x, 0), crate::game::robots::Dir::Down) {
            "---"
        } else {
            "   "
        });
    }
    out.push_str(&corner);
    out.push_str("\n    ");
    for x in 0..SIZE {
        out.push_str(&format!("  {} ", (b'a' + x as u8) as char));
    }
    let len = out.trim_end_matches(' ').len();
    out.truncate(len);
    out.push('\n');
    out
}

/// A cell's three characters.
fn cell_text(
    rp: &RobotsReplay,
    cell: Cell,
    robots: &Positions,
    trail: Option<Robot>,
    style: &Style,
) -> String {
    let b = &rp.board;
    if let Some(r) = robots.at(cell) {
        let l = letter(r);
        if !style.colour {
            return format!("({l})");
        }
        return match r.colour() {
            Some(Colour::Yellow) => format!("\x1b[1;30;43m {l} \x1b[0m"),
            Some(c) => format!("\x1b[1;97;{}m {l} \x1b[0m", ansi(Some(c)) + 10),
            None => format!("\x1b[1;97;40m {l} \x1b[0m"),
        };
    }
    if b.is_blocked(cell) {
        return paint(style, "2", "###");
    }
    if let Some(t) = b.token_at(cell) {
        let colour = match t {
            Token::Target(c, _) => Some(c),
            Token::Vortex => None,
        };
        return if t == rp.token {
            paint(
                style,
                &format!("1;7;{}", ansi(colour)),
                &format!(">{}", t.code()),
            )
        } else {
            paint(style, &ansi(colour).to_string(), &format!(" {}", t.code()))
        };
    }
    if let Some(d) = b.diagonal(cell) {
        let text = format!(" {}{}", d.colour.letter().to_ascii_lowercase(), d.kind);
        return paint(style, &ansi(Some(d.colour)).to_string(), &text);
    }
    if let Some(r) = trail {
        return if style.colour {
            format!(
                "\x1b[{}m · \x1b[0m",
                r.colour().map_or(90, |c| ansi(Some(c)))
            )
        } else {
            format!(" {} ", letter(r).to_ascii_lowercase())
        };
    }
    "   ".to_string()
}

/// "at 0.136 ms, CPU 0.000 ms" (or how the arbiter acted).
fn when(m: &crate::record::MoveRecord) -> String {
    let at = m.at_ms.unwrap_or(m.ms);
    let cpu = m
        .cpu_ms
        .map(|c| format!(", CPU {}", format_ms(c)))
        .unwrap_or_default();
    format!("at {}{cpu}", format_ms(at))
}

/// The lines of action `ply` (from 1): forfeits just before it, the action, its moves.
pub fn action_lines(record: &RoundRecord, rp: &RobotsReplay, ply: usize) -> String {
    let mut out = String::new();
    for f in record.forfeits.iter().filter(|f| f.ply as usize == ply) {
        out.push_str(&forfeit_line(record, f));
    }
    let m = &record.moves[ply - 1];
    let head = format!(
        "action {ply}/{}: {}",
        record.moves.len(),
        seat_label(record, m.seat)
    );
    match &rp.actions[ply - 1] {
        Action::Declare { moves } => {
            let n = moves.map_or_else(|| clean(&m.mv.to_string()), |n| n.to_string());
            let earlier = rp
                .declarations(record, ply - 1)
                .into_iter()
                .find(|d| d.0 == m.seat)
                .map(|d| format!(" (down from {})", d.1))
                .unwrap_or_default();
            let hourglass = m
                .effects
                .get("hourglass_ends_ms")
                .and_then(Value::as_f64)
                .filter(|&h| {
                    // Said once: where this declaration turned the hourglass.
                    !record.moves[..ply - 1].iter().any(|p| {
                        p.effects.get("hourglass_ends_ms").and_then(Value::as_f64) == Some(h)
                    })
                })
                .map(|h| format!("; the hourglass runs out at {}", format_ms(h)))
                .unwrap_or_default();
            out.push_str(&format!(
                "{head} declares {n} moves{earlier} {}{hourglass}\n",
                when(m)
            ));
        }
        Action::Solution(d) => out.push_str(&demonstration_lines(rp, m, &head, d)),
        Action::Other => out.push_str(&format!(
            "{head} {} {} {}\n",
            clean(m.kind.as_deref().unwrap_or("move")),
            clean(&crate::game::short_json(&m.mv)),
            when(m)
        )),
    }
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

fn demonstration_lines(
    rp: &RobotsReplay,
    m: &crate::record::MoveRecord,
    head: &str,
    d: &Demonstration,
) -> String {
    let declared = d
        .declared
        .map(|n| format!(" for its declaration of {n}"))
        .unwrap_or_default();
    let mut out = if !d.sent {
        let closed = if m.by_arbiter {
            format!(
                "; the arbiter closes it at {}",
                format_ms(m.at_ms.unwrap_or(m.ms))
            )
        } else {
            String::new()
        };
        format!("{head} sends no solution{declared}{closed}\n")
    } else if d.unreadable.is_some() {
        format!(
            "{head} sends moves that cannot be read{declared}, {}: {}\n",
            when(m),
            clean(&crate::game::short_json(
                m.mv.get("moves").unwrap_or(&Value::Null)
            ))
        )
    } else {
        format!(
            "{head} shows {}{declared}, {}\n",
            plural(d.count, "move"),
            when(m)
        )
    };
    for (k, s) in d.steps.iter().enumerate() {
        let turned = if s.turned.is_empty() {
            String::new()
        } else {
            let cells: Vec<String> = s.turned.iter().map(Cell::to_string).collect();
            format!(" (turned at {})", cells.join(" "))
        };
        let to = if s.illegal {
            "cannot move".to_string()
        } else {
            format!("to {}", s.to)
        };
        out.push_str(&format!(
            "  {:>2}. {} {} from {} {to}{turned}\n",
            k + 1,
            s.mv.robot,
            s.mv.dir,
            s.from
        ));
    }
    if d.ok {
        let robot = rp
            .target
            .and_then(|t| rp.after.last().and_then(|p| p.at(t)))
            .map(|r| format!("the {r} robot stops on "))
            .unwrap_or_default();
        out.push_str(&format!(
            "  ok: {robot}{} at {}; seat {} wins the token\n",
            rp.token,
            rp.target.map_or("?".to_string(), |c| c.to_string()),
            m.seat
        ));
    } else {
        out.push_str(&format!(
            "  fails: {}; the robots go back where they were\n",
            clean(d.reason.as_deref().unwrap_or("?"))
        ));
    }
    out
}

/// What the solver found, from the record's final state.
pub fn optimal_text(record: &RoundRecord) -> Option<String> {
    let o = record.board.get("optimal")?;
    if let Some(n) = o.get("moves").and_then(Value::as_u64) {
        return Some(format!("the optimal is {}", plural(n as usize, "move")));
    }
    if o.get("impossible").and_then(Value::as_bool) == Some(true) {
        return Some("the solver finds no solution".into());
    }
    if o.get("gave_up").and_then(Value::as_bool) == Some(true) {
        let at_least = o
            .get("at_least")
            .and_then(Value::as_u64)
            .map(|n| format!(": at least {}", plural(n as usize, "move")))
            .unwrap_or_default();
        let searched = o
            .get("searched")
            .and_then(Value::as_u64)
            .map(|n| format!(" after {n} nodes"))
            .unwrap_or_default();
        return Some(format!("the solver gave up{searched}{at_least}"));
    }
    None
}

/// The result: who won the token with what, the declarations, the tokens so far, faults.
pub fn result(record: &RoundRecord, rp: &RobotsReplay) -> String {
    let optimal = optimal_text(record);
    let mut out = String::from("result: ");
    match rp.winner {
        Some((seat, i)) => {
            let Action::Solution(d) = &rp.actions[i] else {
                unreachable!("the winner demonstrated")
            };
            let declared = d
                .declared
                .map(|n| format!("declared {n}"))
                .into_iter()
                .chain(optimal.clone())
                .collect::<Vec<_>>()
                .join("; ");
            out.push_str(&format!(
                "{} wins {} with {} ({declared})\n",
                seat_label(record, seat),
                rp.token,
                plural(d.count, "move"),
            ));
        }
        None => {
            let fate = if rp.rules.players == 1 {
                "it is turned face down"
            } else {
                "it goes back into the pile"
            };
            let optimal = optimal.map(|o| format!(" ({o})")).unwrap_or_default();
            out.push_str(&format!("nobody wins {}: {fate}{optimal}\n", rp.token));
        }
    }
    let declarations = rp.declarations(record, rp.actions.len());
    if declarations.is_empty() {
        out.push_str("  nobody declared\n");
    } else {
        let list: Vec<String> = declarations
            .iter()
            .map(|&(seat, n, i)| {
                format!(
                    "{} {n} at {}",
                    seat_label(record, seat),
                    format_ms(record.moves[i].at_ms.unwrap_or(record.moves[i].ms))
                )
            })
            .collect();
        out.push_str(&format!("  declarations: {}\n", list.join("; ")));
    }
    let down =
        rp.face_down_before.len() + usize::from(rp.rules.players == 1 && rp.winner.is_none());
    let left = rp.pile_after();
    out.push_str(&format!(
        "  tokens so far: {}{}; {} in the pile\n",
        tally(record, &rp.tokens_after()),
        face_down(down, rp.rules.players),
        plural(left, "token"),
    ));
    if record.ends_match {
        out.push_str("  the match ends with this token\n");
    }
    out.push_str(&round_notes(record));
    out
}

/// Replays one token on `screen`, a step per recorded action, pausing as its pace says (the
/// registry's terminal replay).
pub fn play(
    record: &RoundRecord,
    screen: &mut Screen<'_>,
) -> io::Result<Result<bool, Discrepancy>> {
    let rp = match replay(screen.index, record) {
        Ok(r) => r,
        Err(d) => return Ok(Err(d)),
    };
    let rp = &rp;
    let style = screen.style;
    let last = record.moves.len();
    let head = header(screen.index, screen.total, record, rp);
    let pace = screen.pace;
    let io = screen.io("[Enter: next action, q Enter: quit] ");
    paced(last, &head, style, pace, io, |ply, start, frame| {
        if style.clear || ply == start {
            frame.push_str(&format!("token {}\n", token_text(rp)));
            frame.push_str(&format!("robots: {}\n", robots_text(&rp.start)));
            for f in record.forfeits.iter().filter(|f| f.ply == 0) {
                frame.push_str(&forfeit_line(record, f));
            }
        }
        // Jumping in (--to): the actions that led here, so the step reads on its own.
        if ply == start {
            for p in 1..start {
                frame.push_str(&action_lines(record, rp, p));
            }
        }
        if ply > 0 {
            frame.push_str(&action_lines(record, rp, ply));
        }
        let won = match ply.checked_sub(1).map(|i| &rp.actions[i]) {
            Some(Action::Solution(d)) if d.ok => Some(d),
            _ => None,
        };
        if ply == start || style.clear || won.is_some() {
            let trails = won.map_or(&[][..], |d| &d.steps[..]);
            frame.push_str(&board(rp, &rp.after[ply], trails, style));
        }
        if ply == last {
            frame.push('\n');
            frame.push_str(&result(record, rp));
        }
    })
    .map(Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::robots::show::play_moves;
    use crate::game::robots::{Dir, Move, Robots};

    /// The first token of a match with seed 7, before anyone acted.
    fn token() -> RobotsReplay {
        let rules = Robots::new(2).unwrap();
        let board = rules.board(7);
        let state = rules.start_state(&board, 7);
        let token = state.pile[0];
        RobotsReplay {
            target: board.target(token),
            start: state.robots,
            after: vec![state.robots],
            won_before: state.won.clone(),
            face_down_before: Vec::new(),
            pile: state.pile.len() - 1,
            actions: Vec::new(),
            winner: None,
            token,
            board,
            rules,
        }
    }

    /// Text without its ANSI escapes, each line without trailing blanks.
    fn strip(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out.lines()
            .map(|l| l.trim_end().to_string() + "\n")
            .collect()
    }

    #[test]
    fn the_board_is_plain_letters_unless_colour_is_asked() {
        let rp = token();
        let plain = board(&rp, &rp.start, &[], &Style::default());
        assert!(!plain.contains('\x1b'));
        assert_eq!(plain.lines().count(), 2 * SIZE + 2, "rows, walls and files");
        assert!(plain.lines().all(|l| l.chars().count() <= 4 + 4 * SIZE + 1));
        for r in ["(R)", "(G)", "(B)", "(Y)"] {
            assert_eq!(plain.matches(r).count(), 1, "{r} in\n{plain}");
        }
        assert_eq!(plain.matches(&format!(">{}", rp.token.code())).count(), 1);
        assert_eq!(plain.matches("###").count(), 4, "the central block");
        let colour = board(
            &rp,
            &rp.start,
            &[],
            &Style {
                colour: true,
                clear: false,
            },
        );
        assert!(colour.contains("\x1b[1;97;41m R \x1b[0m"), "the red robot");
        assert!(
            colour.contains("\x1b[1;30;43m Y \x1b[0m"),
            "the yellow robot"
        );
        // The same drawing once the colours are taken away (robots lose their brackets).
        let mut same = plain.clone();
        for l in ['R', 'G', 'B', 'Y'] {
            same = same.replace(&format!("({l})"), &format!(" {l} "));
        }
        assert_eq!(strip(&colour), strip(&same));
    }

    #[test]
    fn a_path_is_drawn_with_its_robots_letter() {
        let rp = token();
        let steps = Dir::ALL
            .into_iter()
            .map(|d| play_moves(&rp.board, &rp.start, &[Move::new(Robot::Red, d)]))
            .find(|s| !s[0].illegal)
            .expect("the red robot can move somewhere");
        let s = &steps[0];
        let drawn = board(&rp, &s.after, &steps, &Style::default());
        // The start cell and every cell passed but the last hold an "r" (unless a target or a
        // diagonal is drawn there); the robot stands on the last.
        let row = |c: Cell| {
            let line = drawn.lines().nth(2 * (SIZE - 1 - c.y()) + 1).unwrap();
            format!("{line:69}")[5 + 4 * c.x()..8 + 4 * c.x()].to_string()
        };
        assert_eq!(row(s.to), "(R)");
        assert_eq!(row(s.from), " r ");
        for &c in &s.path[..s.path.len() - 1] {
            let text = row(c);
            assert!(
                text == " r " || rp.board.token_at(c).is_some() || rp.board.diagonal(c).is_some(),
                "{c}: {text:?}"
            );
        }
    }

    #[test]
    fn the_optimal_reads_from_the_record() {
        let mut record: RoundRecord = serde_json::from_value(serde_json::json!({
            "format": 1, "arbiter": "0", "game": "robots", "rules": 1, "options": {},
            "match": "m", "round": 1, "rounds": 1, "match_seed": 1, "seed": 1,
            "settings": {"move_ms": 1, "startup_ms": 1, "margin_ms": 1, "retries": 0,
                         "freeze": false, "legal": true},
            "seats": [], "first": 0, "moves": [], "forfeits": [], "faults": [], "logs": [],
            "stderr": [], "result": {"scores": {}, "points": [], "ranks": [], "wins": []},
            "board": {"optimal": {"moves": 5, "solution": []}},
            "started": "", "ended": ""
        }))
        .unwrap();
        assert_eq!(optimal_text(&record).unwrap(), "the optimal is 5 moves");
        record.board =
            serde_json::json!({"optimal": {"gave_up": true, "searched": 900, "at_least": 9}});
        assert_eq!(
            optimal_text(&record).unwrap(),
            "the solver gave up after 900 nodes: at least 9 moves"
        );
        record.board = serde_json::json!({"optimal": {"impossible": true}});
        assert_eq!(
            optimal_text(&record).unwrap(),
            "the solver finds no solution"
        );
    }
}
