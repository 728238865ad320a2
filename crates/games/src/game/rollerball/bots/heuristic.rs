//! `heuristic`: a one-turn look-ahead on the economy of the rules. Every legal decision is
//! played on a determinization of the seat's view ([`Seen::sample`]) and the position it
//! leads to is scored by [`eval`] (victory points, the rewards and hits the balls will bring
//! over the next turns, cards in hand), against the other seats. A workman move is judged
//! together with the best use of the workman that follows it (so walking somewhere to build a
//! card that sends the balls home, or out of a ball's way, is seen as one plan); a teleport is
//! paid with the cheapest card held. Discards throw the cheapest card; the bid offers the one
//! cheap card (a Derubberiser, Rubberiser or Replacer) if it holds one, else nothing.
//! Ties are broken at random.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::eval::{self, Weights, card_value};
use super::rebuild::Seen;
use crate::game::rollerball::card::Card;
use crate::game::rollerball::moves::Move;
use crate::game::rollerball::state::{Phase, Rollerball};

/// The heuristic player.
#[derive(Clone, Debug)]
pub struct Heuristic {
    pub weights: Weights,
    /// Whether the workman's teleports are weighed (paid with the cheapest card); without
    /// them a move decision costs a fraction (the `rollout` bot's cheaper rollouts).
    pub teleports: bool,
}

impl Default for Heuristic {
    fn default() -> Heuristic {
        Heuristic {
            weights: Weights::default(),
            teleports: true,
        }
    }
}

/// Score of a decision that is not worth looking at (a teleport paid with a dear card).
pub const SKIP: f32 = f32::NEG_INFINITY;

impl Heuristic {
    /// The score of each of `legal` (moves of `seat` in `g`), [`SKIP`] for those not judged.
    pub fn rank(&self, g: &Rollerball, seat: usize, legal: &[Move]) -> Vec<f32> {
        let w = &self.weights;
        match g.phase {
            Phase::Bid => {
                let cheap = cheap_bid(g, seat);
                legal
                    .iter()
                    .map(|m| match m {
                        Move::Bid(c) if *c == cheap => 1.0,
                        _ => 0.0,
                    })
                    .collect()
            }
            Phase::Discard => legal
                .iter()
                .map(|m| match m {
                    Move::Discard(c) => -card_value(*c),
                    _ => SKIP,
                })
                .collect(),
            Phase::Workman => legal
                .iter()
                .map(|m| match m {
                    // Its own base: never hit there, and next to the slots that feed it.
                    Move::Workman(sq) if g.board.bases[seat] == Some(*sq) => 1.0,
                    Move::Workman(sq) => after(g, seat, &Move::Workman(*sq), w).min(0.0),
                    _ => SKIP,
                })
                .collect(),
            Phase::Move => {
                let cheapest = cheapest(g, seat);
                legal
                    .iter()
                    .map(|m| match m {
                        Move::Teleport(c, _) if !self.teleports || Some(*c) != cheapest => SKIP,
                        _ => self.with_best_use(g, seat, m),
                    })
                    .collect()
            }
            Phase::Extra => {
                let cheapest = cheapest(g, seat);
                legal
                    .iter()
                    .map(|m| match m {
                        Move::Teleport(c, _) if !self.teleports || Some(*c) != cheapest => SKIP,
                        _ => after(g, seat, m, w),
                    })
                    .collect()
            }
            _ => legal.iter().map(|m| after(g, seat, m, w)).collect(),
        }
    }

    /// A workman move scored by the best use of the workman after it.
    fn with_best_use(&self, g: &Rollerball, seat: usize, mv: &Move) -> f32 {
        self.best_use(g, seat, mv).0
    }

    /// The best use of the workman after the workman move `mv` and the score of the two (the
    /// first best on ties); no use when the move does not lead to a use decision.
    pub fn best_use(&self, g: &Rollerball, seat: usize, mv: &Move) -> (f32, Option<Move>) {
        let mut h = g.clone();
        if h.play(seat, mv).is_err() {
            return (SKIP, None);
        }
        if h.phase != Phase::Use {
            return (score(&h, seat, &[], &self.weights), None);
        }
        let mut best = (SKIP, None);
        for u in h.legal(seat) {
            let v = after(&h, seat, &u, &self.weights);
            if v > best.0 {
                best = (v, Some(u));
            }
        }
        best
    }

    /// The index of the best of `legal`, ties broken at random.
    pub fn choose(
        &self,
        g: &Rollerball,
        seat: usize,
        legal: &[Move],
        rng: &mut ChaCha8Rng,
    ) -> usize {
        best_index(&self.rank(g, seat, legal), rng)
    }
}

/// The index of the highest score, ties (within a hair) broken uniformly.
pub fn best_index(scores: &[f32], rng: &mut ChaCha8Rng) -> usize {
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut ties = 0;
    let mut pick = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s >= top - 1e-4 {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                pick = i;
            }
        }
    }
    pick
}

/// `seat`'s score against the others in `g` after `events`.
pub fn score(
    g: &Rollerball,
    seat: usize,
    events: &[crate::game::rollerball::Event],
    w: &Weights,
) -> f32 {
    eval::relative(&eval::scores(g, events, w), g.players, seat)
}

/// `seat`'s score after playing `mv` in `g`.
pub fn after(g: &Rollerball, seat: usize, mv: &Move, w: &Weights) -> f32 {
    let mut h = g.clone();
    match h.apply(seat, mv) {
        Ok(applied) => score(&h, seat, &applied.events, w),
        Err(_) => SKIP,
    }
}

/// The cheapest card `seat` holds.
pub fn cheapest(g: &Rollerball, seat: usize) -> Option<Card> {
    g.hands[seat]
        .distinct()
        .min_by(|a, b| card_value(*a).total_cmp(&card_value(*b)))
}

/// The bid: the cheapest card if it is cheap, else nothing.
fn cheap_bid(g: &Rollerball, seat: usize) -> Vec<Card> {
    match cheapest(g, seat) {
        Some(c) if card_value(c) <= 0.45 => vec![c],
        _ => Vec::new(),
    }
}

/// `Seen` plus the heuristic: the answer to a request.
pub fn answer(seen: &Seen, legal: &[Move], rng: &mut ChaCha8Rng) -> usize {
    let g = seen.sample(rng);
    Heuristic::default().choose(&g, seen.seat, legal, rng)
}
