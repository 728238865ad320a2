//! The state as a seat may see it (rules §11.2), as a spectator of the record sees it (every
//! hand, every sealed bid, the card drawn for a pending reward) and as the audience of a game
//! in play sees it (what every seat knows: no hand, no sealed bid). Typed, so the JSON Schema bots read comes
//! from the same types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ball::Rubber;
use super::ball_phase::Settle;
use super::card::{Card, Cards};
use super::square::{Square, tracks};
use super::state::{COLOURS, Phase, Rollerball};

/// The rules version a record names.
pub const RULES: &str = "rollerball-v4-hr2";

/// The `state` of a `turn` (one seat's view) or of a spectator.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct View {
    /// The rules version, `rollerball-v4-hr2`.
    pub rules: String,
    /// The decision asked, `over` at the end.
    pub phase: Phase,
    /// The current turn, 0 during the setup.
    pub turn: u32,
    pub turn_limit: u32,
    /// The acting player; `null` during the setup.
    pub acting: Option<usize>,
    /// The seat asked (during the bid: this seat while it has not bid); `null` when over.
    pub asked: Option<usize>,
    /// The bid winner, once known.
    pub first_player: Option<usize>,
    /// The seat whose view this is; `null` for a spectator.
    pub seat: Option<usize>,
    /// This seat's cards, canonical order (absent for a spectator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// Every seat's cards (spectators only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<Card>>>,
    pub players: Vec<PlayerView>,
    /// Balls by id.
    pub balls: Vec<BallView>,
    /// The diversion cards on the board, by s1 in square order.
    pub cards: Vec<CardView>,
    /// Cards left in the deck.
    pub deck: usize,
    /// The discard pile, canonical order.
    pub discards: Vec<Card>,
    /// The reward or hit being settled.
    pub pending: Option<PendingView>,
    /// The three tracks as clockwise square lists (constant).
    pub tracks: Vec<Vec<Square>>,
}

/// What everyone knows of a player.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct PlayerView {
    pub colour: String,
    pub base: Option<Square>,
    pub workman: Option<Square>,
    /// Cards in hand.
    pub hand: usize,
    /// Victory points, canonical order.
    pub vp: Vec<Card>,
    /// `null` before the bid is in, `"sealed"` until all are in, then the cards.
    pub bid: Option<BidView>,
    /// Passed the setup cards.
    pub passed: bool,
}

/// A bid as shown.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum BidView {
    Sealed(Sealed),
    Cards(Vec<Card>),
}

/// The word `sealed`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Sealed {
    Sealed,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BallView {
    pub id: u32,
    pub at: Square,
    pub energised: bool,
    pub rubber: Option<Rubber>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CardView {
    pub card: Card,
    /// [s1, s2].
    pub at: [Square; 2],
}

/// The reward or hit being settled.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PendingView {
    Reward {
        seat: usize,
        ball: u32,
        at: Square,
        /// The card taken from the deck: only in that seat's own view.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    Discard {
        seat: usize,
        ball: u32,
        at: Square,
    },
}

impl Rollerball {
    /// The state as `seat` sees it.
    pub fn view(&self, seat: usize) -> View {
        self.build_view(Some(seat), false)
    }

    /// The state as a spectator (or the record) sees it: every hand and bid.
    pub fn spectator_view(&self) -> View {
        self.build_view(None, true)
    }

    /// The state as the audience of a game in play sees it: what every seat knows (no hand,
    /// no sealed bid, no card drawn for a pending reward; the deck's size only).
    pub fn audience_view(&self) -> View {
        self.build_view(None, false)
    }

    fn build_view(&self, seat: Option<usize>, sees_all: bool) -> View {
        let asked = match self.phase {
            Phase::Over => None,
            Phase::Bid => seat.filter(|&s| self.bids[s].is_none()),
            _ => Some(self.asked),
        };
        let players = (0..self.players)
            .map(|s| PlayerView {
                colour: COLOURS[s].to_string(),
                base: self.board.bases[s],
                workman: self.board.workmen[s],
                hand: self.hands[s].len(),
                vp: self.vps[s].list(),
                bid: self.bids[s].map(|b: Cards| {
                    if self.bids_revealed || sees_all {
                        BidView::Cards(b.list())
                    } else {
                        BidView::Sealed(Sealed::Sealed)
                    }
                }),
                passed: self.passed[s],
            })
            .collect();
        let pending = self.pending.map(|p| match p.settle {
            Settle::Reward { seat: s, ball, at } => PendingView::Reward {
                seat: s,
                ball,
                at,
                card: p.card.filter(|_| sees_all || seat == Some(s)),
            },
            Settle::Hit { seat: s, ball, at } => PendingView::Discard { seat: s, ball, at },
        });
        View {
            rules: RULES.to_string(),
            phase: self.phase,
            turn: self.turn,
            turn_limit: self.turn_limit,
            acting: self.acting,
            asked,
            first_player: self.first,
            seat,
            hand: seat.map(|s| self.hands[s].list()),
            hands: sees_all.then(|| self.hands.iter().map(Cards::list).collect()),
            players,
            balls: self
                .board
                .balls
                .iter()
                .map(|b| BallView {
                    id: b.id,
                    at: b.at,
                    energised: b.energised,
                    rubber: b.rubber,
                })
                .collect(),
            cards: self
                .board
                .cards
                .iter()
                .map(|c| CardView {
                    card: c.card,
                    at: [c.s1, c.s2],
                })
                .collect(),
            deck: self.deck.len() - self.top,
            discards: self.discards.list(),
            pending,
            tracks: tracks().to_vec(),
        }
    }
}
