//! How good a position is for each seat, the economy of the rules in numbers: victory points
//! (five win), the rewards and hits the balls will bring if nobody touches the board (the ball
//! phase is deterministic, so the next turns' ball phases are simply run on a copy of the
//! board), and the cards in hand (what building, teleporting and paying for a blow-up need).
//! Before any ball is in play (the setup) the board is judged by virtual balls, one on every
//! few track squares: which bases the tracks and cards lead them to.

use crate::game::rollerball::ball::Ball;
use crate::game::rollerball::ball_phase::{PhaseLog, Settle};
use crate::game::rollerball::board::Board;
use crate::game::rollerball::card::Card;
use crate::game::rollerball::events::Event;
use crate::game::rollerball::square::Square;
use crate::game::rollerball::state::{Phase, Rollerball, WINNING_POINTS};

/// Most seats.
pub const SEATS: usize = 6;

/// Per-seat numbers.
pub type PerSeat = [f32; SEATS];

/// The weights of the evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A victory point.
    pub vp: f32,
    /// A reward the balls will bring (a card, most often laid as a point).
    pub reward: f32,
    /// A hit the balls will bring (a card lost, the workman sent home).
    pub hit: f32,
    /// Cards in hand: the first, the second, ... (the last value for every further card).
    pub hand: [f32; 4],
    /// Turns of ball phases looked ahead.
    pub horizon: u32,
    /// Discount per turn looked ahead.
    pub discount: f32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            vp: 1.0,
            reward: 0.75,
            hit: 0.35,
            hand: [0.3, 0.2, 0.12, 0.04],
            horizon: 12,
            discount: 0.9,
        }
    }
}

/// How much a card is worth keeping (a discard or a teleport pays the cheapest).
pub fn card_value(c: Card) -> f32 {
    match c {
        Card::DM | Card::UM => 1.0,
        Card::SD | Card::SU => 0.9,
        Card::EN => 0.6,
        Card::RP => 0.45,
        Card::RU => 0.4,
        Card::DR => 0.3,
    }
}

/// Rewards and hits per seat over the next `horizon` ball phases of `board` as it lies,
/// discounted by turn.
pub fn flow(board: &Board, w: &Weights) -> (PerSeat, PerSeat) {
    let mut b = board.clone();
    let mut rewards = [0.0; SEATS];
    let mut hits = [0.0; SEATS];
    let mut weight = 1.0;
    let mut log = PhaseLog::default();
    for _ in 0..w.horizon {
        if b.balls.is_empty() {
            break;
        }
        log.events.clear();
        log.settle.clear();
        log.destroyed.clear();
        b.ball_phase(&mut log);
        for s in &log.settle {
            match *s {
                Settle::Reward { seat, .. } => rewards[seat] += weight,
                Settle::Hit { seat, .. } => hits[seat] += weight,
            }
        }
        weight *= w.discount;
    }
    (rewards, hits)
}

/// [`flow`] with a virtual ball on every fifth track square in turn (the setup, before any
/// ball is in play), averaged: where the board leads balls.
pub fn potential(board: &Board, w: &Weights) -> (PerSeat, PerSeat) {
    let mut rewards = [0.0; SEATS];
    let mut hits = [0.0; SEATS];
    let starts: Vec<Square> = Square::track_squares().step_by(5).collect();
    let mut b = board.clone();
    for &at in &starts {
        b.balls = vec![Ball::new(board.next_ball, at)];
        let (r, h) = flow(&b, w);
        for s in 0..SEATS {
            rewards[s] += r[s] / starts.len() as f32;
            hits[s] += h[s] / starts.len() as f32;
        }
    }
    (rewards, hits)
}

/// Each seat's score: points, the balls' coming rewards and hits, cards in hand. `events` are
/// those just produced (rewards and hits not yet settled count in full).
pub fn scores(g: &Rollerball, events: &[Event], w: &Weights) -> PerSeat {
    let mut out = [0.0; SEATS];
    if let Some(r) = g.result() {
        for (s, o) in out.iter_mut().enumerate().take(g.players) {
            *o = if r.winners.contains(&s) { 100.0 } else { 0.0 } + r.points[s] as f32;
        }
        return out;
    }
    let (rewards, hits) = if g.board.balls.is_empty() && g.turn == 0 {
        potential(&g.board, w)
    } else {
        flow(&g.board, w)
    };
    for s in 0..g.players {
        let vp = g.vps[s].len() as f32;
        let hand = g.hands[s].len();
        let cards: f32 = (0..hand).map(|i| w.hand[i.min(3)]).sum();
        // A hit costs a card only to a seat that holds one.
        let hit = if hand > 0 { w.hit } else { w.hit * 0.4 };
        out[s] = vp * w.vp + rewards[s] * w.reward - hits[s] * hit + cards;
        if g.vps[s].len() + 1 >= WINNING_POINTS {
            // One reward from winning: every coming reward is worth more.
            out[s] += rewards[s] * w.reward;
        }
    }
    for e in events {
        match *e {
            Event::Reward { seat, .. } => out[seat] += w.reward,
            Event::Hit { seat, .. } => out[seat] -= w.hit,
            _ => {}
        }
    }
    // A reward waiting to be settled (unless it is one of `events`, counted above).
    let fresh = events.iter().any(|e| matches!(e, Event::Reward { .. }));
    if !fresh
        && g.phase == Phase::Reward
        && let Some(p) = g.pending
        && let Settle::Reward { seat, .. } = p.settle
    {
        out[seat] += w.reward;
    }
    out
}

/// `seat`'s score against the others: its own less a mix of the best other's and the others'
/// mean (against one opponent, the difference).
pub fn relative(scores: &PerSeat, players: usize, seat: usize) -> f32 {
    let others = (0..players).filter(|&s| s != seat).map(|s| scores[s]);
    let (mut best, mut sum) = (f32::MIN, 0.0);
    for v in others {
        best = best.max(v);
        sum += v;
    }
    let mean = sum / (players - 1) as f32;
    scores[seat] - (0.5 * best + 0.5 * mean)
}
