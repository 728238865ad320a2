//! What a seat sees of a Goofspiel round (the `state` of `start` and `turn`), what a spectator
//! sees (the record's final state, replays), what the audience of a round in play sees, and
//! the round as text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::GoofspielRound;
use crate::game::Seat;

/// One finished turn: public once every bid is in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TurnRecord {
    /// The prize card.
    pub prize: u8,
    /// Every seat's bid, in seat order.
    pub bids: Vec<u8>,
    /// The seat that took the prize; `null` when the highest bid was tied (discarded).
    pub winner: Option<Seat>,
}

/// The state of a round as one seat (or a spectator) sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatView {
    /// Cards per suit.
    pub cards: u8,
    /// Turns played so far (the current turn is `turn + 1`).
    pub turn: usize,
    /// The prize on show; `null` once the round is over.
    pub prize: Option<u8>,
    /// Prizes still face down, in increasing order (their order is secret).
    pub prizes_left: Vec<u8>,
    /// The seat whose view this is; absent for a spectator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// This seat's cards, as the strings a bid names ("7"); absent for a spectator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Every seat's cards left: how many (a seat), or which (a spectator).
    pub hands: Vec<HandView>,
    /// This turn's bids, per seat: `null` (not yet) or `"sealed"` (in, not shown); a spectator
    /// sees the card.
    pub bids: Vec<Option<String>>,
    /// Prize points per seat.
    pub scores: Vec<u32>,
    /// The turns played, oldest first.
    pub history: Vec<TurnRecord>,
    /// The prize deck as dealt, top first: the spectator's view only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<u8>>,
}

/// A hand as someone else sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum HandView {
    /// How many cards (another seat's hand).
    Count(usize),
    /// The cards (the spectator's view).
    Cards(Vec<u8>),
}

impl SeatView {
    /// The view of `seat`, or the spectator's (`None`: every hand, bid and the deck).
    pub fn of(round: &GoofspielRound, seat: Option<Seat>) -> SeatView {
        SeatView::build(round, seat, seat.is_none())
    }

    /// The view of the audience of a round in play: what every seat knows of the others (how
    /// many cards each holds, which bids are in, sealed), and no deck.
    pub fn audience(round: &GoofspielRound) -> SeatView {
        SeatView::build(round, None, false)
    }

    fn build(round: &GoofspielRound, seat: Option<Seat>, spectator: bool) -> SeatView {
        let rules = round.rules();
        let turn = round.turn();
        let deck = round.deck();
        let mut prizes_left: Vec<u8> = deck.iter().skip(turn + 1).copied().collect();
        prizes_left.sort_unstable();
        SeatView {
            cards: rules.cards,
            turn,
            prize: deck.get(turn).copied(),
            prizes_left,
            seat,
            hand: seat.map(|s| round.hands()[s].iter().map(u8::to_string).collect()),
            hands: round
                .hands()
                .iter()
                .map(|h| {
                    if spectator {
                        HandView::Cards(h.clone())
                    } else {
                        HandView::Count(h.len())
                    }
                })
                .collect(),
            bids: round
                .bids()
                .iter()
                .enumerate()
                .map(|(s, b)| {
                    b.map(|card| {
                        if spectator || seat == Some(s) {
                            card.to_string()
                        } else {
                            "sealed".to_string()
                        }
                    })
                })
                .collect(),
            scores: round.scores().to_vec(),
            history: round.history().to_vec(),
            deck: spectator.then(|| deck.to_vec()),
        }
    }
}

/// The round as text: the prize, each seat's score and hand, the turns played.
pub fn render(round: &GoofspielRound) -> String {
    let mut out = String::new();
    match round.deck().get(round.turn()) {
        Some(p) => out.push_str(&format!("turn {}: prize {p}\n", round.turn() + 1)),
        None => out.push_str("the round is over\n"),
    }
    for (s, hand) in round.hands().iter().enumerate() {
        let cards: Vec<String> = hand.iter().map(u8::to_string).collect();
        out.push_str(&format!(
            "seat {s}: {} points, hand {}\n",
            round.scores()[s],
            cards.join(" ")
        ));
    }
    for (t, h) in round.history().iter().enumerate() {
        let bids: Vec<String> = h.bids.iter().map(u8::to_string).collect();
        let who = h
            .winner
            .map(|w| format!("seat {w} takes it"))
            .unwrap_or_else(|| "tied: discarded".into());
        out.push_str(&format!(
            "  turn {}: prize {}, bids {}: {who}\n",
            t + 1,
            h.prize,
            bids.join(" ")
        ));
    }
    out
}
