//! What stands or lies on the board: bases, workmen, diversion cards and balls, with the
//! look-ups every rule needs (who covers a square, whose base it is, which ball stands there).

use super::ball::Ball;
use super::card::Placed;
use super::square::Square;

/// The pieces on the board. Cards are kept in square order of their `s1`, balls by id.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Board {
    pub cards: Vec<Placed>,
    pub balls: Vec<Ball>,
    /// The id the next ball to enter play gets.
    pub next_ball: u32,
    /// Each seat's base, once placed.
    pub bases: Vec<Option<Square>>,
    /// Each seat's workman, once placed.
    pub workmen: Vec<Option<Square>>,
}

impl Board {
    pub fn new(players: usize) -> Board {
        Board {
            cards: Vec::new(),
            balls: Vec::new(),
            next_ball: 1,
            bases: vec![None; players],
            workmen: vec![None; players],
        }
    }

    /// The card covering `sq`, if any.
    pub fn card_at(&self, sq: Square) -> Option<Placed> {
        card_in(&self.cards, sq)
    }

    /// The ball on `sq`, if any (the lowest id if, mid-step, there are two).
    pub fn ball_at(&self, sq: Square) -> Option<&Ball> {
        self.balls.iter().find(|b| b.at == sq)
    }

    /// The seat whose base stands on `sq`.
    pub fn base_owner(&self, sq: Square) -> Option<usize> {
        self.bases.iter().position(|&b| b == Some(sq))
    }

    /// Seats whose workman stands on `sq`, in seat order.
    pub fn workmen_on(&self, sq: Square) -> impl Iterator<Item = usize> + '_ {
        (0..self.workmen.len()).filter(move |&s| self.workmen[s] == Some(sq))
    }

    /// No base, no workman, no card (setup §7.5, §7.6).
    pub fn unoccupied(&self, sq: Square) -> bool {
        self.base_owner(sq).is_none()
            && self.workmen_on(sq).next().is_none()
            && self.card_at(sq).is_none()
    }

    /// Lays a card, keeping the list in order of `s1`.
    pub fn lay(&mut self, p: Placed) {
        let i = self.cards.partition_point(|c| c.s1 < p.s1);
        self.cards.insert(i, p);
    }

    /// Takes the card whose `s1` is `s1` off the board.
    pub fn lift(&mut self, s1: Square) -> Option<Placed> {
        let i = self.cards.iter().position(|c| c.s1 == s1)?;
        Some(self.cards.remove(i))
    }

    /// The index of ball `id` in `balls`.
    pub fn ball_index(&self, id: u32) -> Option<usize> {
        self.balls.iter().position(|b| b.id == id)
    }
}

/// The card covering `sq` in a list of cards.
pub fn card_in(cards: &[Placed], sq: Square) -> Option<Placed> {
    cards.iter().copied().find(|c| c.covers(sq))
}
