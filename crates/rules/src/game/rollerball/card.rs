//! The 34-card deck (rules §2, §4): card codes in canonical order, multisets of cards (hands,
//! bids, discards, victory points), and a diversion card lying on the board with its squares
//! in the order a ball uses them.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::square::{Square, is_ball_changer_slot, is_track_changer_slot};

/// A card, by its two-letter code. The derived order is the canonical card order.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize, JsonSchema,
)]
pub enum Card {
    DM,
    DR,
    EN,
    RP,
    RU,
    SD,
    SU,
    UM,
}

impl Card {
    /// Every code in canonical order.
    pub const ALL: [Card; 8] = [
        Card::DM,
        Card::DR,
        Card::EN,
        Card::RP,
        Card::RU,
        Card::SD,
        Card::SU,
        Card::UM,
    ];

    /// Copies of each code in the deck, by canonical order.
    pub const COPIES: [u8; 8] = [5, 3, 3, 5, 3, 5, 5, 5];

    /// Cards in the deck.
    pub const DECK: usize = 34;

    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn code(self) -> &'static str {
        ["DM", "DR", "EN", "RP", "RU", "SD", "SU", "UM"][self.index()]
    }

    /// Reads a code in either case.
    pub fn parse(s: &str) -> Option<Card> {
        let up = s.to_ascii_uppercase();
        Card::ALL.into_iter().find(|c| c.code() == up)
    }

    /// Down Move, Up Move, Splitter Down, Splitter Up.
    pub const fn is_track_changer(self) -> bool {
        matches!(self, Card::DM | Card::UM | Card::SD | Card::SU)
    }

    /// Energiser, Rubberiser, Derubberiser.
    pub const fn is_ball_changer(self) -> bool {
        matches!(self, Card::EN | Card::RU | Card::DR)
    }

    pub const fn is_splitter(self) -> bool {
        matches!(self, Card::SD | Card::SU)
    }

    pub const fn is_move(self) -> bool {
        matches!(self, Card::DM | Card::UM)
    }

    /// A card that may lie on the board (everything but the Replacer).
    pub const fn is_diversion(self) -> bool {
        !matches!(self, Card::RP)
    }

    /// The deck before the first shuffle: every code's copies in canonical order.
    pub fn canonical_deck() -> Vec<Card> {
        Card::ALL
            .into_iter()
            .flat_map(|c| std::iter::repeat_n(c, Card::COPIES[c.index()] as usize))
            .collect()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A multiset of cards, as counts by code.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Cards(pub [u8; 8]);

impl Cards {
    pub fn of(cards: &[Card]) -> Cards {
        let mut c = Cards::default();
        for &k in cards {
            c.add(k);
        }
        c
    }

    pub fn count(&self, c: Card) -> u8 {
        self.0[c.index()]
    }

    pub fn has(&self, c: Card) -> bool {
        self.count(c) > 0
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn add(&mut self, c: Card) {
        self.0[c.index()] += 1;
    }

    pub fn add_all(&mut self, other: &Cards) {
        for i in 0..8 {
            self.0[i] += other.0[i];
        }
    }

    /// Removes one copy; false (and nothing removed) if there is none.
    pub fn remove(&mut self, c: Card) -> bool {
        let n = &mut self.0[c.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// Whether every card of `other` is here.
    pub fn contains(&self, other: &Cards) -> bool {
        (0..8).all(|i| self.0[i] >= other.0[i])
    }

    pub fn remove_all(&mut self, other: &Cards) {
        debug_assert!(self.contains(other));
        for i in 0..8 {
            self.0[i] -= other.0[i];
        }
    }

    /// The distinct codes held, in canonical order.
    pub fn distinct(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL.into_iter().filter(|&c| self.has(c))
    }

    /// Every card in canonical order.
    pub fn list(&self) -> Vec<Card> {
        Card::ALL
            .into_iter()
            .flat_map(|c| std::iter::repeat_n(c, self.count(c) as usize))
            .collect()
    }

    /// Every distinct sub-multiset (the possible bids), each as a canonical list, sorted
    /// lexicographically with shorter first on a common prefix.
    pub fn subsets(&self) -> Vec<Vec<Card>> {
        let mut out = vec![Vec::new()];
        for c in Card::ALL {
            let n = self.count(c) as usize;
            let mut more = Vec::new();
            for base in &out {
                for k in 1..=n {
                    let mut v: Vec<Card> = base.clone();
                    v.extend(std::iter::repeat_n(c, k));
                    more.push(v);
                }
            }
            out.extend(more);
        }
        out.sort();
        out
    }
}

/// A diversion card on the board: its code and its two squares, `s1` first (§4.1, §4.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Placed {
    pub card: Card,
    pub s1: Square,
    pub s2: Square,
}

/// Why two squares cannot carry a card.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BadPlacement {
    Replacer,
    NotTrackSlot,
    NotBallSlot,
}

impl fmt::Display for BadPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadPlacement::Replacer => "a Replacer (RP) is never placed on the board",
            BadPlacement::NotTrackSlot => {
                "a track changer lies on two adjacent straight squares of adjacent tracks"
            }
            BadPlacement::NotBallSlot => {
                "a ball changer lies on two consecutive straight squares of one track"
            }
        })
    }
}

impl Placed {
    /// The card `card` on squares `a` and `b` given in either order, with its squares put in
    /// canonical order; an error if they are not a slot of the card's kind.
    pub fn new(card: Card, a: Square, b: Square) -> Result<Placed, BadPlacement> {
        if card.is_track_changer() {
            let (outer, inner) = if a.track() < b.track() {
                (a, b)
            } else {
                (b, a)
            };
            if !is_track_changer_slot(outer, inner) {
                return Err(BadPlacement::NotTrackSlot);
            }
            let (s1, s2) = if matches!(card, Card::DM | Card::SD) {
                (outer, inner)
            } else {
                (inner, outer)
            };
            Ok(Placed { card, s1, s2 })
        } else if card.is_ball_changer() {
            let (s1, s2) = if is_ball_changer_slot(a, b) {
                (a, b)
            } else {
                (b, a)
            };
            if !is_ball_changer_slot(s1, s2) {
                return Err(BadPlacement::NotBallSlot);
            }
            Ok(Placed { card, s1, s2 })
        } else {
            Err(BadPlacement::Replacer)
        }
    }

    pub fn covers(&self, sq: Square) -> bool {
        self.s1 == sq || self.s2 == sq
    }

    /// The card's squares (for loops).
    pub fn squares(&self) -> [Square; 2] {
        [self.s1, self.s2]
    }
}

impl fmt::Display for Placed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.card, self.s1, self.s2)
    }
}
