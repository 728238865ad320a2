//! Three and four players: each of this seat's cards judged by Monte-Carlo simulation of the
//! rest of the round against a model of every other seat's bids.
//!
//! - **Opponent model** ([`Model`]): a seat's bid is read as an offset between the rank of
//!   its card in its hand and the rank of the prize among the prizes left (0: it bids by prize
//!   rank, like `heuristic`). Each seat's offsets so far in the round are its model, mixed
//!   with a prior (half rank bids, half uniform bids) that weighs as much as two turns; the
//!   hands are public (every bid is revealed), so only the offset is guessed.
//! - **Simulation**: the prize order is dealt at random from the prizes face down, the other
//!   seats bid by their models, and this seat bids by rank (a few random bids) after the
//!   candidate; the result is the round's outcome for this seat (1 for a win, a share of it
//!   for a tie, 0 for a loss) plus a little of its point margin to break near-ties.
//! - **Common random numbers**: simulation `k` is the same deal and the same draws for every
//!   candidate, so that the candidates are compared on the same futures.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::known::{Known, Set, bit, by_rank, cards, nth};

/// How one seat bids, learnt from its past bids this round.
#[derive(Clone, Debug, Default)]
pub struct Model {
    offsets: Vec<i32>,
}

/// The prior's weight, in turns.
const PRIOR: f64 = 2.0;

impl Model {
    /// The models of every seat from the turns played.
    pub fn learn(k: &Known) -> Vec<Model> {
        let full: Set = (1..=k.cards).map(bit).fold(0, |a, b| a | b);
        let mut hands = vec![full; k.players];
        let mut prizes = full;
        let mut models = vec![Model::default(); k.players];
        for t in &k.history {
            let rank = cards(prizes).filter(|&p| p < t.prize).count() as i32;
            for (s, &b) in t.bids.iter().enumerate() {
                let mine = cards(hands[s]).filter(|&c| c < b).count() as i32;
                models[s].offsets.push(mine - rank);
                hands[s] &= !bit(b);
            }
            prizes &= !bit(t.prize);
        }
        models
    }

    /// A bid from `hand` for `prize` with `rest` face down.
    pub fn bid(&self, hand: Set, prize: u8, rest: Set, rng: &mut ChaCha8Rng) -> u8 {
        let n = hand.count_ones() as usize;
        let seen = self.offsets.len() as f64;
        let offset = if rng.random::<f64>() < PRIOR / (PRIOR + seen) {
            if rng.random_bool(0.5) {
                return nth(hand, rng.random_range(0..n));
            }
            0
        } else {
            self.offsets[rng.random_range(0..self.offsets.len())]
        };
        let rank = cards(rest).filter(|&p| p < prize).count() as i32;
        nth(hand, (rank + offset).clamp(0, n as i32 - 1) as usize)
    }
}

/// What the simulations found for each candidate.
#[derive(Clone, Debug)]
pub struct Judged {
    pub cards: Vec<u8>,
    pub mean: Vec<f64>,
    pub simulations: u64,
}

impl Judged {
    /// The best candidate, ties to the lower card.
    pub fn best(&self) -> u8 {
        let mut best = 0;
        for i in 1..self.cards.len() {
            if self.mean[i] > self.mean[best] + 1e-12 {
                best = i;
            }
        }
        self.cards[best]
    }
}

/// Runs simulations in batches (one per candidate each) while `more` says so.
pub fn judge(k: &Known, rng: &mut ChaCha8Rng, mut more: impl FnMut(u64) -> bool) -> Judged {
    let models = Model::learn(k);
    let mine: Vec<u8> = cards(k.hands[k.seat]).collect();
    let mut total = vec![0.0; mine.len()];
    let mut n = 0u64;
    while more(n) {
        let seed: u64 = rng.random();
        for (i, &c) in mine.iter().enumerate() {
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            total[i] += simulate(k, &models, c, &mut r);
        }
        n += 1;
    }
    let runs = n.max(1) as f64;
    Judged {
        cards: mine,
        mean: total.iter().map(|t| t / runs).collect(),
        simulations: n * total.len() as u64,
    }
}

/// One simulated rest of the round with this seat bidding `first` now.
fn simulate(k: &Known, models: &[Model], first: u8, rng: &mut ChaCha8Rng) -> f64 {
    let mut hands = k.hands.clone();
    let mut scores = k.scores.clone();
    let mut order: Vec<u8> = cards(k.rest).collect();
    order.shuffle(rng);
    let mut rest = k.rest;
    let mut prize = k.prize;
    let mut bids = vec![0u8; k.players];
    let mut turn = 0;
    loop {
        for (s, b) in bids.iter_mut().enumerate() {
            *b = if s == k.seat {
                if turn == 0 {
                    first
                } else if rng.random_bool(0.1) {
                    nth(
                        hands[s],
                        rng.random_range(0..hands[s].count_ones() as usize),
                    )
                } else {
                    by_rank(hands[s], prize, rest)
                }
            } else {
                models[s].bid(hands[s], prize, rest, rng)
            };
            hands[s] &= !bit(*b);
        }
        let top = *bids.iter().max().expect("seats");
        let mut at_top = bids.iter().enumerate().filter(|(_, b)| **b == top);
        if let (Some((w, _)), None) = (at_top.next(), at_top.next()) {
            scores[w] += i32::from(prize);
        }
        let Some(&next) = order.get(turn) else { break };
        rest &= !bit(next);
        prize = next;
        turn += 1;
    }
    let best = *scores.iter().max().expect("seats");
    let share = if scores[k.seat] == best {
        1.0 / scores.iter().filter(|&&s| s == best).count() as f64
    } else {
        0.0
    };
    let other = (0..k.players)
        .filter(|&s| s != k.seat)
        .map(|s| scores[s])
        .max()
        .expect("others");
    share + 0.002 * f64::from(scores[k.seat] - other)
}
