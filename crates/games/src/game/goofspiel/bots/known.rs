//! What a seat knows of a Goofspiel round, read from its `state`: the prize on show, the
//! prizes still face down, every seat's hand (another seat's is public knowledge: every hand
//! starts as 1 to N and every bid is revealed at the end of its turn), the scores and the past
//! turns. Cards and prize sets are bit masks (bit `c - 1` for the card `c`).

use super::super::view::{SeatView, TurnRecord};
use crate::game::bot::Unreadable;

/// A set of cards or prizes.
pub type Set = u16;

/// The set of one card.
pub fn bit(card: u8) -> Set {
    1 << (card - 1)
}

/// The cards of a set, increasing.
pub fn cards(set: Set) -> impl Iterator<Item = u8> {
    (1..=16u8).filter(move |&c| set & (1 << (c - 1)) != 0)
}

/// The sum of a set's cards.
pub fn sum(set: Set) -> u32 {
    cards(set).map(u32::from).sum()
}

/// One seat's knowledge at a decision.
#[derive(Clone, Debug)]
pub struct Known {
    pub players: usize,
    pub seat: usize,
    /// N.
    pub cards: u8,
    /// The prize on show.
    pub prize: u8,
    /// The prizes still face down.
    pub rest: Set,
    /// Every seat's cards.
    pub hands: Vec<Set>,
    pub scores: Vec<i32>,
    pub history: Vec<TurnRecord>,
}

impl Known {
    /// Reads a seat's state; the error says what does not add up.
    pub fn read(state: &serde_json::Value) -> Result<Known, Unreadable> {
        let view: SeatView = serde_json::from_value(state.clone())
            .map_err(|e| format!("the state is not a Goofspiel state: {e}"))?;
        let seat = view
            .seat
            .ok_or("the state is a spectator's, not a seat's")?;
        let players = view.scores.len();
        if !(2..=4).contains(&players) || seat >= players || !(1..=13).contains(&view.cards) {
            return Err(
                format!("seat {seat} of {players} players with {} cards", view.cards).into(),
            );
        }
        let prize = view.prize.ok_or("the round is over: no prize on show")?;
        let full: Set = (1..=view.cards).map(bit).fold(0, |a, b| a | b);
        let mut hands = vec![full; players];
        for t in &view.history {
            if t.bids.len() != players {
                return Err(format!("a past turn with {} bids", t.bids.len()).into());
            }
            for (s, &b) in t.bids.iter().enumerate() {
                if !(1..=view.cards).contains(&b) || hands[s] & bit(b) == 0 {
                    return Err(format!("seat {s} bid the {b} it does not hold").into());
                }
                hands[s] &= !bit(b);
            }
        }
        let mine: Set = view
            .hand
            .as_deref()
            .ok_or("the state has no hand")?
            .iter()
            .map(|c| {
                c.parse::<u8>()
                    .ok()
                    .filter(|c| (1..=view.cards).contains(c))
            })
            .try_fold(0, |a, c| c.map(|c| a | bit(c)))
            .ok_or("a card in the hand that is not 1 to N")?;
        if mine != hands[seat] {
            return Err("the hand is not the cards the history leaves".into());
        }
        let rest = view.prizes_left.iter().fold(0, |a, &p| a | bit(p));
        Ok(Known {
            players,
            seat,
            cards: view.cards,
            prize,
            rest,
            hands,
            scores: view.scores.iter().map(|&s| s as i32).collect(),
            history: view.history,
        })
    }
}

/// The card of `hand` whose rank in it (from the lowest) is the rank of `prize` among
/// `prize` and `rest`: the bid of the prize-rank heuristic.
pub fn by_rank(hand: Set, prize: u8, rest: Set) -> u8 {
    let rank = cards(rest).filter(|&p| p < prize).count();
    nth(hand, rank)
}

/// The `i`th lowest card of a set (the highest if `i` is past the end).
pub fn nth(set: Set, i: usize) -> u8 {
    let mut last = 0;
    for (k, c) in cards(set).enumerate() {
        if k == i {
            return c;
        }
        last = c;
    }
    last
}
