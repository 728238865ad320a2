//! The terminal replay of Rollerball: the board drawn as text (the three tracks as rings around
//! the logo, bases, workmen, balls with their state, the cards on the board), whose decision it
//! is, each player's victory points and hand, and every decision with the public events it set
//! off; a decision that starts a turn shows its ball phase step by step (rubber switch, step 1,
//! step 2), each step a frame of its own (`--step` stops at each).
//!
//! A spectator sees every hand, sealed bid and drawn card, as the record keeps them; with
//! `--seat N` the replay shows only what seat N saw (its own hand and bids, the others' hand
//! sizes). The deck's order is never shown. Colour and escaping follow [`crate::show::text`].

use std::io;

use super::show::{
    Frame, RollerballReplay, ball_text, ball_words, codes, colour, event_text, replay, secret_text,
};
use super::square::Square;
use super::view::{BallView, BidView, CardView, PendingView, View};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use crate::show::Screen;
use crate::show::text::{Pace, Style, clean, format_ms, paced, result};

/// What the drawing shows, once per round.
const LEGEND: &str = "  on the board: #r a base (seat's initial), R a workman, 2 ball 2 (* energised, ^ \
                      rubber-up, v rubber-down),\n    SD a card on its first square, sd on its \
                      second; :: the logo. Tracks are the rings (1 the edge, 3 the inner), balls \
                      go clockwise\n";

/// A seat's initial: r b g y p w.
fn initial(seat: usize) -> char {
    colour(seat).chars().next().unwrap_or('?')
}

fn ansi(seat: usize) -> &'static str {
    ["31", "34", "32", "33", "35", "37"]
        .get(seat)
        .copied()
        .unwrap_or("0")
}

fn paint(style: &Style, code: &str, text: &str) -> String {
    if style.colour {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The pieces the board shows: from a state, or from a step of a ball phase.
struct Pieces<'a> {
    bases: Vec<Option<Square>>,
    workmen: Vec<Option<Square>>,
    balls: &'a [BallView],
    cards: &'a [CardView],
}

impl<'a> Pieces<'a> {
    fn of(v: &'a View) -> Pieces<'a> {
        Pieces {
            bases: v.players.iter().map(|p| p.base).collect(),
            workmen: v.players.iter().map(|p| p.workman).collect(),
            balls: &v.balls,
            cards: &v.cards,
        }
    }

    fn step(v: &'a View, f: &'a Frame) -> Pieces<'a> {
        Pieces {
            bases: v.players.iter().map(|p| p.base).collect(),
            workmen: f.workmen.clone(),
            balls: &f.balls,
            cards: &f.cards,
        }
    }
}

/// The board, two lines a rank: bases and workmen above, a card and a ball below.
fn board(p: &Pieces<'_>, style: &Style) -> String {
    let mut out = String::from("     ");
    for f in 0..8u8 {
        out.push_str(&format!("   {}   ", (b'a' + f) as char));
    }
    out.push('\n');
    let rule = format!("    +{}\n", "------+".repeat(8));
    out.push_str(&rule);
    for rank in (0..8u8).rev() {
        let mut top = format!(" {}  |", rank + 1);
        let mut bottom = String::from("    |");
        for file in 0..8u8 {
            let sq = Square::new(file, rank);
            if sq.is_logo() {
                top.push_str("::::::|");
                bottom.push_str("::::::|");
                continue;
            }
            // Above: a base and a workman ("#r R").
            let mut a = String::new();
            let mut a_len = 0;
            if let Some(s) = p.bases.iter().position(|&b| b == Some(sq)) {
                a.push_str(&paint(style, ansi(s), &format!("#{}", initial(s))));
                a_len += 2;
            }
            for s in (0..p.workmen.len()).filter(|&s| p.workmen[s] == Some(sq)) {
                if a_len > 0 {
                    a.push(' ');
                    a_len += 1;
                }
                let w = initial(s).to_ascii_uppercase().to_string();
                a.push_str(&paint(style, &format!("1;{}", ansi(s)), &w));
                a_len += 1;
            }
            top.push_str(&format!(
                " {a}{}|",
                " ".repeat(5usize.saturating_sub(a_len))
            ));
            // Below: a card ("SD" on s1, "sd" on s2) and a ball.
            let card = p
                .cards
                .iter()
                .find(|c| c.at.contains(&sq))
                .map(|c| {
                    let code = c.card.code();
                    if c.at[0] == sq {
                        code.to_string()
                    } else {
                        code.to_ascii_lowercase()
                    }
                })
                .unwrap_or_else(|| "  ".into());
            let ball = p
                .balls
                .iter()
                .filter(|b| b.at == sq)
                .map(ball_text)
                .collect::<Vec<_>>()
                .join("");
            let len = ball.chars().count();
            let ball = if ball.is_empty() {
                ball
            } else {
                paint(style, "1", &ball)
            };
            bottom.push_str(&format!(
                " {card} {ball}{}|",
                " ".repeat(2usize.saturating_sub(len))
            ));
        }
        out.push_str(&top);
        out.push('\n');
        out.push_str(&bottom);
        out.push('\n');
        out.push_str(&rule);
    }
    out
}

/// The header: where the round comes from, who sits where in which colour, whose view.
fn header(screen: &Screen<'_>, record: &RoundRecord, v: &View) -> String {
    let mut out = format!(
        "round {} of {}: match {}{}, round {}/{}, rollerball, {} players, turn limit {}\n",
        screen.index,
        screen.total,
        clean(&record.match_id),
        record
            .table
            .map(|t| format!(" (table {t})"))
            .unwrap_or_default(),
        record.round,
        record.rounds,
        v.players.len(),
        v.turn_limit,
    );
    for (seat, s) in record.seats.iter().enumerate() {
        out.push_str(&format!(
            "  seat {seat}  {:<7} {}\n",
            colour(seat),
            clean(&s.name)
        ));
    }
    out.push_str(&match screen.seat {
        None => "  shown as a spectator of the record: every hand and sealed bid\n".to_string(),
        Some(s) => format!(
            "  shown as seat {s} ({}) saw it: its own hand and bids only\n",
            colour(s)
        ),
    });
    out.push_str(LEGEND);
    out
}

/// The players: victory points, hand (or its size), base, workman; who is asked.
fn players(v: &View, seat: Option<usize>, style: &Style) -> String {
    let mut out = format!(
        "turn {} of {}, {}{}; deck {} cards, discards {}\n",
        v.turn,
        v.turn_limit,
        v.phase.name(),
        v.asked
            .map(|a| format!(", {} to decide", colour(a)))
            .unwrap_or_default(),
        v.deck,
        v.discards.len()
    );
    for (s, p) in v.players.iter().enumerate() {
        let sees = seat.is_none_or(|x| x == s);
        let hand = match v.hands.as_ref().and_then(|h| h.get(s)) {
            Some(cards) if sees => format!("hand {}: {}", cards.len(), codes(cards)),
            _ => format!("hand {} cards", p.hand),
        };
        let bid = match &p.bid {
            Some(BidView::Cards(c)) if sees || v.phase != super::Phase::Bid => {
                format!(", bid {}", codes(c))
            }
            Some(_) => ", bid sealed".to_string(),
            None => String::new(),
        };
        let acting = if v.acting == Some(s) { " <- turn" } else { "" };
        out.push_str(&format!(
            "  {} vp {} ({}), {hand}{bid}, base {}, workman {}{acting}\n",
            paint(style, ansi(s), &format!("{:<7}", colour(s))),
            p.vp.len(),
            codes(&p.vp),
            p.base.map(|b| b.to_string()).unwrap_or("-".into()),
            p.workman.map(|b| b.to_string()).unwrap_or("-".into()),
        ));
    }
    if !v.balls.is_empty() {
        let balls: Vec<String> = v
            .balls
            .iter()
            .map(|b| format!("{} on {} ({})", b.id, b.at, ball_words(b)))
            .collect();
        out.push_str(&format!("  balls: {}\n", balls.join("; ")));
    }
    match &v.pending {
        Some(PendingView::Reward {
            seat: s, at, card, ..
        }) => {
            let card = card
                .filter(|_| seat.is_none_or(|x| x == *s))
                .map(|c| format!(" (the card drawn: {})", c.code()))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {} settles a reward at {at}{card}\n",
                colour(*s)
            ));
        }
        Some(PendingView::Discard { seat: s, at, .. }) => {
            out.push_str(&format!("  {} must discard (hit at {at})\n", colour(*s)));
        }
        None => {}
    }
    out
}

/// A decision: who, what, in how long, and the events it set off (what `seat` may see).
fn decision(
    record: &RoundRecord,
    rp: &RollerballReplay,
    ply: usize,
    seat: Option<usize>,
) -> String {
    let m = &record.moves[ply - 1];
    let sees = seat.is_none_or(|s| s == m.seat);
    let text = m.mv.as_str().unwrap_or_default();
    let shown = if !sees && text.starts_with("bid") {
        "bid (sealed)".to_string()
    } else {
        clean(text)
    };
    let time = if m.by_arbiter {
        "by the arbiter".to_string()
    } else {
        format!("in {}", format_ms(m.ms))
    };
    let mut out = format!(
        "decision {ply}/{}: {} (seat {}, {}) {shown} {time}\n",
        record.moves.len(),
        colour(m.seat),
        m.seat,
        record
            .seats
            .get(m.seat)
            .map(|s| clean(&s.name))
            .unwrap_or_default()
    );
    for r in &m.refused {
        out.push_str(&format!(
            "  refused: {} ({})\n",
            clean(&crate::game::cut(&r.line, 100)),
            clean(&r.reason)
        ));
    }
    let played = &rp.played[ply - 1];
    for s in &played.secrets {
        if let Some(t) = secret_text(s, seat) {
            out.push_str(&format!("  {t}\n"));
        }
    }
    for e in &played.events {
        out.push_str(&format!("  {}\n", event_text(e)));
    }
    out
}

/// Steps of the replay: (decision, step of its ball phase or `None` for the state after it).
fn steps(rp: &RollerballReplay) -> Vec<(usize, Option<usize>)> {
    let mut out = vec![(0, None)];
    for (i, p) in rp.played.iter().enumerate() {
        for k in 0..p.frames.len() {
            out.push((i + 1, Some(k)));
        }
        out.push((i + 1, None));
    }
    out
}

/// Replays one round on `screen`, a frame per decision and per step of a ball phase (the
/// registry's terminal replay). `--to N` starts at the state after decision N.
pub fn play(
    record: &RoundRecord,
    screen: &mut Screen<'_>,
) -> io::Result<Result<bool, Discrepancy>> {
    let rp = match replay(screen.index, record) {
        Ok(r) => r,
        Err(d) => return Ok(Err(d)),
    };
    let steps = steps(&rp);
    let seat = screen.seat;
    let style = screen.style;
    let head = header(screen, record, &rp.states[0]);
    // --to counts decisions: start at the state after that one.
    let pace = Pace {
        to: screen.pace.to.map(|to| {
            steps
                .iter()
                .position(|&(p, k)| p == to as usize && k.is_none())
                .unwrap_or(steps.len() - 1) as u32
        }),
        step: screen.pace.step,
        delay: screen.pace.delay,
    };
    let io = screen.io("[Enter: next decision or ball step, q Enter: quit] ");
    let last = steps.len() - 1;
    paced(last, &head, style, &pace, io, |i, _start, frame| {
        let (ply, sub) = steps[i];
        let v = &rp.states[ply];
        match sub {
            Some(k) => {
                let f = &rp.played[ply - 1].frames[k];
                let turn = rp.played[ply - 1].events.iter().find_map(|e| match e {
                    super::Event::Turn { turn, .. } => Some(*turn),
                    _ => None,
                });
                frame.push_str(&format!(
                    "ball phase{} after decision {ply}, {}: {}\n",
                    turn.map(|t| format!(" of turn {t}")).unwrap_or_default(),
                    f.label,
                    f.balls
                        .iter()
                        .map(|b| format!("ball {} on {}", ball_text(b), b.at))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                frame.push_str(&board(&Pieces::step(v, f), style));
            }
            None => {
                if ply == 0 {
                    frame.push_str("start: every seat bids at once (sealed)\n");
                } else {
                    frame.push_str(&decision(record, &rp, ply, seat));
                }
                frame.push_str(&board(&Pieces::of(v), style));
                frame.push_str(&players(v, seat, style));
                if ply == record.moves.len() {
                    frame.push('\n');
                    frame.push_str(&result(record));
                }
            }
        }
    })
    .map(Ok)
}
