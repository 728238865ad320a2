//! What the automatic steps produce: the public events every bot is told (rules §11.3) and the
//! hidden facts only the record keeps (§11.4: bids, drawn cards, deck orders).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ball::Rubber;
use super::card::Card;
use super::square::Square;

/// A public event, in the order it happened. Serialised as an object with an `event` field.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    /// A turn begins.
    Turn { turn: u32, seat: usize },
    /// A rubber ball switched mode at the start of a ball phase; `rubber` is its new mode.
    Switch { ball: u32, rubber: Rubber },
    /// A ball moved one square in step 1 or 2; `cross` when it crossed to another track.
    Step {
        step: u8,
        ball: u32,
        from: Square,
        to: Square,
        cross: bool,
    },
    /// `ball` was split and ball `new` entered play on `at` (the splitter's Y square).
    Split { ball: u32, new: u32, at: Square },
    /// A collision pushed `ball` one square on.
    Push { ball: u32, from: Square, to: Square },
    /// `ball` (the newcomer) left play on the Y square `at`, combining into `into`.
    Combine { ball: u32, into: u32, at: Square },
    /// `ball` left ball changer `card`; its state is now `energised`, `rubber`.
    Change {
        ball: u32,
        card: Card,
        energised: bool,
        rubber: Option<Rubber>,
    },
    /// Energised `ball` destroyed the board card `card` whose s1 is `at`, and lost its energy.
    Destroy { ball: u32, card: Card, at: Square },
    /// `ball` entered `seat`'s base on `at`: a reward for that seat, settled after the phase.
    Reward { seat: usize, ball: u32, at: Square },
    /// `ball` entered `at` and sent `seat`'s workman to its base `home`.
    Hit {
        seat: usize,
        ball: u32,
        at: Square,
        home: Square,
    },
    /// `seat` took the top card of the deck (never named).
    Draw { seat: usize },
    /// The discards (`cards` of them) were shuffled into a new deck.
    Reshuffle { cards: usize },
    /// `seat` laid `card` as a victory point.
    Vp { seat: usize, card: Card },
    /// `seat` took the board card `card` whose s1 was `at` (a reward with an empty deck).
    Take { seat: usize, card: Card, at: Square },
    /// Every seat's bid, by seat, once all are in; `tied` lists the seats drawn among.
    Bids {
        bids: Vec<Vec<Card>>,
        winner: usize,
        tied: Option<Vec<usize>>,
    },
    /// `seat` passed the setup cards without being asked (no card it could place).
    Pass { seat: usize },
    /// `seat` reached five victory points and won.
    Win { seat: usize },
}

/// A fact the record keeps and no bot is told.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "secret", rename_all = "lowercase")]
pub enum Secret {
    /// The deck after the shuffle of the deal, before dealing; index 0 is the top.
    Deal { deck: Vec<Card> },
    /// A seat's sealed bid (all of them are revealed together by [`Event::Bids`]).
    Bid { seat: usize, cards: Vec<Card> },
    /// The card a seat took from the deck (by the draw of §8.2 or a reward).
    Drawn { seat: usize, card: Card },
    /// The new deck after a reshuffle; index 0 is the top.
    Reshuffle { deck: Vec<Card> },
}
