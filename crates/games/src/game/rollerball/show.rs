//! Rollerball re-played for showing: every recorded decision played again through the engine
//! (from the chance seed the arbiter derives, so the deal is the one played), the spectator's
//! view after each, the public events and the secrets each produced, and the ball phase split
//! into its steps (§6.1 rubber switch, §6.2 steps 1 and 2) with the balls, cards and workmen as
//! they stand after each. The terminal replay is [`super::show_text`], the viewer's data
//! [`super::show_html`].

use serde_json::Value;

use super::card::Card;
use super::square::Square;
use super::view::{BallView, CardView, View};
use super::{COLOURS, Event, Rollerball, Secret};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;

/// One step of a ball phase: the pieces that move, as they stand after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// "rubber switch", "step 1", "step 2".
    pub label: String,
    /// How many of the move's events led here.
    pub events: usize,
    pub balls: Vec<BallView>,
    pub cards: Vec<CardView>,
    pub workmen: Vec<Option<Square>>,
}

/// One recorded decision re-played.
#[derive(Clone, Debug)]
pub struct Played {
    /// The public events it set off, in order.
    pub events: Vec<Event>,
    /// What only the record keeps (bids, drawn cards, deck orders).
    pub secrets: Vec<Secret>,
    /// The ball phase, step by step (empty when the decision set none off).
    pub frames: Vec<Frame>,
}

/// A round re-played.
#[derive(Clone, Debug)]
pub struct RollerballReplay {
    /// The deck as dealt, top first.
    pub deal: Vec<Card>,
    /// `states[p]`: the spectator's view after `p` decisions.
    pub states: Vec<View>,
    /// `played[p - 1]`: decision `p`.
    pub played: Vec<Played>,
}

/// Plays a round's recorded decisions through the engine. `game` is the round's index in its
/// file (from 1), for the error.
pub fn replay(game: usize, record: &RoundRecord) -> Result<RollerballReplay, Discrepancy> {
    let fail = |ply: Option<u32>, reason: String| Discrepancy { game, ply, reason };
    if record.game != "rollerball" {
        return Err(fail(
            None,
            format!("the record is of {:?}, not rollerball", record.game),
        ));
    }
    crate::game::registry::of_record(record).map_err(|e| fail(None, e.to_string()))?;
    let whole = |key: &str| record.options.get(key).and_then(Value::as_u64);
    let players = whole("players").unwrap_or(record.seats.len() as u64) as usize;
    let turn_limit = whole("turn_limit").unwrap_or(u64::from(super::TURN_LIMIT)) as u32;
    let chance = crate::seed::chance_seed(
        record.match_seed,
        record.table.unwrap_or(0),
        record.round.saturating_sub(1),
    );
    let mut engine =
        Rollerball::new(players, turn_limit, chance).map_err(|e| fail(None, e.0.clone()))?;
    let deal = engine.deal().to_vec();
    let mut states = vec![engine.spectator_view()];
    let mut played = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        let text = m.mv.as_str().unwrap_or_default();
        let applied = engine.apply_text(m.seat, text).map_err(|e| {
            fail(
                Some(m.ply),
                format!("{} cannot be played: {e}", crate::game::short_json(&m.mv)),
            )
        })?;
        let after = engine.spectator_view();
        let frames = ball_phase(states.last().expect("a state"), &after, &applied.events);
        states.push(after);
        played.push(Played {
            events: applied.events,
            secrets: applied.secrets,
            frames,
        });
    }
    Ok(RollerballReplay {
        deal,
        states,
        played,
    })
}

/// The ball phase of a decision step by step, from the state before it, the one after and the
/// events between: balls follow the events one by one; cards destroyed or taken stay until
/// their event; a workman hit stands where it was hit until its event.
pub fn ball_phase(before: &View, after: &View, events: &[Event]) -> Vec<Frame> {
    if !events.iter().any(|e| {
        matches!(
            e,
            Event::Switch { .. } | Event::Step { .. } | Event::Push { .. }
        )
    }) {
        return Vec::new();
    }
    let split: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Split { new, .. } => Some(*new),
            _ => None,
        })
        .collect();
    // Balls before the phase: the old ones and any put into play by the decision itself.
    let mut balls = before.balls.clone();
    for b in &after.balls {
        if !balls.iter().any(|x| x.id == b.id) && !split.contains(&b.id) {
            balls.push(b.clone());
        }
    }
    let mut cards = after.cards.clone();
    for e in events {
        if let Event::Destroy { at, .. } | Event::Take { at, .. } = e
            && let Some(c) = before.cards.iter().find(|c| c.at[0] == *at)
            && !cards.contains(c)
        {
            cards.push(c.clone());
        }
    }
    let mut workmen: Vec<Option<Square>> = after.players.iter().map(|p| p.workman).collect();
    for e in events {
        if let Event::Hit { seat, at, .. } = e {
            workmen[*seat] = Some(*at);
        }
    }
    let mut frames = Vec::new();
    let mut label = String::new();
    let close =
        |label: &str, n: usize, balls: &[BallView], cards: &[CardView], w: &[Option<Square>]| {
            let mut balls = balls.to_vec();
            balls.sort_by_key(|b| b.id);
            let mut cards = cards.to_vec();
            cards.sort_by_key(|c| c.at[0]);
            Frame {
                label: label.to_string(),
                events: n,
                balls,
                cards,
                workmen: w.to_vec(),
            }
        };
    for (i, e) in events.iter().enumerate() {
        let now = match e {
            Event::Switch { .. } => Some("rubber switch".to_string()),
            Event::Step { step, .. } => Some(format!("step {step}")),
            Event::Turn { .. } => Some(String::new()),
            _ => None,
        };
        if let Some(now) = now
            && now != label
        {
            if !label.is_empty() {
                frames.push(close(&label, i, &balls, &cards, &workmen));
            }
            label = now;
        }
        match *e {
            Event::Switch { ball, rubber } => {
                if let Some(b) = balls.iter_mut().find(|b| b.id == ball) {
                    b.rubber = Some(rubber);
                }
            }
            Event::Step { ball, to, .. } | Event::Push { ball, to, .. } => {
                if let Some(b) = balls.iter_mut().find(|b| b.id == ball) {
                    b.at = to;
                }
            }
            Event::Split { ball, new, at } => {
                if let Some(p) = balls.iter().find(|b| b.id == ball).cloned() {
                    balls.push(BallView { id: new, at, ..p });
                }
            }
            Event::Combine { ball, .. } => balls.retain(|b| b.id != ball),
            Event::Change {
                ball,
                energised,
                rubber,
                ..
            } => {
                if let Some(b) = balls.iter_mut().find(|b| b.id == ball) {
                    b.energised = energised;
                    b.rubber = rubber;
                }
            }
            Event::Destroy { ball, at, .. } => {
                if let Some(b) = balls.iter_mut().find(|b| b.id == ball) {
                    b.energised = false;
                }
                cards.retain(|c| c.at[0] != at);
            }
            Event::Take { at, .. } => cards.retain(|c| c.at[0] != at),
            Event::Hit { seat, home, .. } => workmen[seat] = Some(home),
            _ => {}
        }
    }
    if !label.is_empty() {
        frames.push(close(&label, events.len(), &balls, &cards, &workmen));
    }
    frames
}

/// A ball in a few characters: its id, `*` energised, `^` rubber-up, `v` rubber-down.
pub fn ball_text(b: &BallView) -> String {
    let mut s = b.id.to_string();
    if b.energised {
        s.push('*');
    }
    match b.rubber {
        Some(super::Rubber::Up) => s.push('^'),
        Some(super::Rubber::Down) => s.push('v'),
        None => {}
    }
    s
}

/// A ball's state in words: "rubber-up, energised".
pub fn ball_words(b: &BallView) -> String {
    let mut parts = Vec::new();
    match b.rubber {
        Some(super::Rubber::Up) => parts.push("rubber-up"),
        Some(super::Rubber::Down) => parts.push("rubber-down"),
        None => {}
    }
    if b.energised {
        parts.push("energised");
    }
    if parts.is_empty() {
        parts.push("normal");
    }
    parts.join(", ")
}

/// A seat's colour.
pub fn colour(seat: usize) -> &'static str {
    COLOURS.get(seat).copied().unwrap_or("?")
}

/// A card list in codes: "DM EN SU" (or "-" when empty).
pub fn codes(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "-".into();
    }
    cards.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ")
}

/// An event in words, as `seat` sees it (`None`: a spectator; every event is public).
pub fn event_text(e: &Event) -> String {
    match e {
        Event::Turn { turn, seat } => format!("turn {turn}: {} plays", colour(*seat)),
        Event::Switch { ball, rubber } => format!(
            "ball {ball} switches to rubber-{}",
            if *rubber == super::Rubber::Up {
                "up"
            } else {
                "down"
            }
        ),
        Event::Step {
            step,
            ball,
            from,
            to,
            cross,
        } => format!(
            "step {step}: ball {ball} {from} -> {to}{}",
            if *cross { " (crosses tracks)" } else { "" }
        ),
        Event::Split { ball, new, at } => format!("ball {ball} splits: ball {new} enters on {at}"),
        Event::Push { ball, from, to } => format!("ball {ball} pushed {from} -> {to}"),
        Event::Combine { ball, into, at } => {
            format!("ball {ball} combines into ball {into} on {at}")
        }
        Event::Change {
            ball,
            card,
            energised,
            rubber,
        } => format!(
            "ball {ball} leaves {}: now {}",
            card.code(),
            ball_words(&BallView {
                id: *ball,
                at: Square::new(0, 0),
                energised: *energised,
                rubber: *rubber
            })
        ),
        Event::Destroy { ball, card, at } => {
            format!("energised ball {ball} destroys {} on {at}", card.code())
        }
        Event::Reward { seat, ball, at } => {
            format!(
                "ball {ball} enters {}'s base on {at}: a reward",
                colour(*seat)
            )
        }
        Event::Hit {
            seat,
            ball,
            at,
            home,
        } => format!(
            "ball {ball} hits {}'s workman on {at}: back to its base {home}",
            colour(*seat)
        ),
        Event::Draw { seat } => format!("{} draws a card", colour(*seat)),
        Event::Reshuffle { cards } => format!("the {cards} discards are shuffled into a new deck"),
        Event::Vp { seat, card } => {
            format!("{} lays {} as a victory point", colour(*seat), card.code())
        }
        Event::Take { seat, card, at } => {
            format!(
                "{} takes {} from the board at {at}",
                colour(*seat),
                card.code()
            )
        }
        Event::Bids { bids, winner, tied } => {
            let each: Vec<String> = bids
                .iter()
                .enumerate()
                .map(|(s, b)| format!("{} {}", colour(s), codes(b)))
                .collect();
            format!(
                "bids revealed: {}; {} plays first{}",
                each.join(", "),
                colour(*winner),
                tied.as_ref()
                    .map(|t| format!(" (drawn among {} tied seats)", t.len()))
                    .unwrap_or_default()
            )
        }
        Event::Pass { seat } => format!("{} passes (no card it can place)", colour(*seat)),
        Event::Win { seat } => format!("{} reaches five victory points and wins", colour(*seat)),
    }
}

/// A secret in words, or `None` when `seat` may not see it (`None` seat: a spectator sees all).
pub fn secret_text(s: &Secret, seat: Option<usize>) -> Option<String> {
    let mine = |x: usize| seat.is_none_or(|s| s == x);
    match s {
        Secret::Deal { .. } | Secret::Reshuffle { .. } => None,
        Secret::Bid { seat: s, cards } if mine(*s) => {
            Some(format!("{} bids {} (sealed)", colour(*s), codes(cards)))
        }
        Secret::Drawn { seat: s, card } if mine(*s) => {
            Some(format!("{} draws {} (hidden)", colour(*s), card.code()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays seeded random legal games and checks that the ball phase, followed event by
    /// event from the state before, ends where the engine says the balls, cards and workmen
    /// are.
    #[test]
    fn the_ball_phase_frames_end_where_the_engine_does() {
        use rand::{Rng, SeedableRng};
        let mut phases = 0;
        for players in 2..=6 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(players as u64);
            let mut engine = Rollerball::new(players, 40, players as u64 * 7).unwrap();
            let mut before = engine.spectator_view();
            while let Some(t) = engine.to_act() {
                let seat = t.seats[0];
                let legal = engine.legal(seat);
                let mv = legal[rng.random_range(0..legal.len())].clone();
                let applied = engine.apply(seat, &mv).unwrap();
                let after = engine.spectator_view();
                let frames = ball_phase(&before, &after, &applied.events);
                if let Some(last) = frames.last() {
                    phases += 1;
                    let mut want = after.balls.clone();
                    want.sort_by_key(|b| b.id);
                    assert_eq!(last.balls, want, "{players} players, {mv}");
                    let mut cards = after.cards.clone();
                    cards.sort_by_key(|c| c.at[0]);
                    assert_eq!(last.cards, cards);
                    let w: Vec<_> = after.players.iter().map(|p| p.workman).collect();
                    assert_eq!(last.workmen, w);
                    assert!(frames.iter().any(|f| f.label.starts_with("step")));
                }
                before = after;
            }
        }
        assert!(phases > 50, "only {phases} ball phases");
    }
}
