//! Legal decisions (rules §7, §8, §11.1): the check of one move with the reason a bot author
//! reads when it is refused, and the list of every legal move in canonical order. The list is
//! built from the same checks, so the two never disagree.

use super::card::{Card, Placed};
use super::moves::{Keep, Move, MoveError};
use super::square::{
    LOGO, Mask, Square, ball_changer_slots, grow, squares_of, track_changer_slots,
};
use super::state::{COLOURS, Phase, Rollerball};

/// Why a move is refused: the reason a bot author reads, recorded with the refused move (a
/// bot's illegal move is a recorded value, never an error of the rules).
struct Illegal(String);

type Check = Result<(), Illegal>;

/// The slots of the card's kind (none for the Replacer).
fn slots_of(card: Card) -> &'static [(Square, Square)] {
    if card.is_track_changer() {
        track_changer_slots()
    } else if card.is_ball_changer() {
        ball_changer_slots()
    } else {
        &[]
    }
}

/// Every slot of the card's kind, as the card would lie there.
fn slots_for(card: Card) -> impl Iterator<Item = Placed> {
    slots_of(card)
        .iter()
        .filter_map(move |&(a, b)| Placed::new(card, a, b).ok())
}

/// The slots of the card's kind that cover `sq`, as the card would lie there (a build or a
/// replace must cover the workman's square: the other slots are not even made).
fn slots_covering(card: Card, sq: Square) -> impl Iterator<Item = Placed> {
    slots_of(card)
        .iter()
        .filter(move |&&(a, b)| a == sq || b == sq)
        .filter_map(move |&(a, b)| Placed::new(card, a, b).ok())
}

fn sort_placed(v: &mut [Placed]) {
    v.sort_by_key(|p| (p.card, p.s1, p.s2));
}

impl Rollerball {
    fn colour(&self, seat: usize) -> &'static str {
        COLOURS[seat]
    }

    fn holds(&self, seat: usize, card: Card) -> Check {
        if self.hands[seat].has(card) {
            Ok(())
        } else {
            Err(Illegal(format!("you hold no {card}")))
        }
    }

    fn workman_square(&self, seat: usize) -> Square {
        self.board.workmen[seat].expect("workman placed")
    }

    /// No base, no workman, no card on `sq` (setup).
    fn check_unoccupied(&self, sq: Square) -> Check {
        if let Some(o) = self.board.base_owner(sq) {
            return Err(Illegal(format!("{sq} holds {}'s base", self.colour(o))));
        }
        if let Some(o) = self.board.workmen_on(sq).next() {
            return Err(Illegal(format!("{sq} holds {}'s workman", self.colour(o))));
        }
        if let Some(c) = self.board.card_at(sq) {
            return Err(Illegal(format!("{sq} is covered by {c}")));
        }
        Ok(())
    }

    fn check_no_ball(&self, sq: Square) -> Check {
        match self.board.ball_at(sq) {
            Some(b) => Err(Illegal(format!("{sq} holds ball {}", b.id))),
            None => Ok(()),
        }
    }

    /// No ball on `sq` unless rubber-up.
    fn check_no_grounded_ball(&self, sq: Square) -> Check {
        match self.board.ball_at(sq) {
            Some(b) if !b.is_up() => Err(Illegal(format!(
                "{sq} holds ball {}, which is not rubber-up",
                b.id
            ))),
            _ => Ok(()),
        }
    }

    /// The setup card placements open to `seat`, by code, s1, s2.
    pub(super) fn placements(&self, seat: usize) -> Vec<Placed> {
        let mut v: Vec<Placed> = self.hands[seat]
            .distinct()
            .filter(|c| c.is_diversion())
            .flat_map(slots_for)
            .filter(|p| p.squares().iter().all(|&s| self.board.unoccupied(s)))
            .collect();
        sort_placed(&mut v);
        v
    }

    /// Squares the workman on `from` reaches in 1 to 3 steps (not `from` itself), square order.
    pub fn walk_targets(&self, from: Square) -> Vec<Square> {
        squares_of(self.walk_mask(from)).collect()
    }

    /// [`Rollerball::walk_targets`] as a mask: three steps of a breadth-first search over the
    /// squares a workman may pass (not the logo, no grounded ball), one shift a step.
    pub fn walk_mask(&self, from: Square) -> Mask {
        let passable = !(LOGO | self.grounded_balls());
        let mut reached = from.bit();
        for _ in 0..3 {
            reached |= grow(reached) & passable;
        }
        reached & !from.bit()
    }

    /// The squares holding a ball that is not rubber-up.
    fn grounded_balls(&self) -> Mask {
        self.board
            .balls
            .iter()
            .filter(|b| !b.is_up())
            .fold(0, |m, b| m | b.at.bit())
    }

    fn check_walk(&self, seat: usize, to: Square) -> Check {
        let from = self.workman_square(seat);
        if to == from {
            return Err(Illegal(format!(
                "your workman is on {to} already (use stay)"
            )));
        }
        if to.is_logo() {
            return Err(Illegal(format!("{to} is on the logo")));
        }
        self.check_no_grounded_ball(to)?;
        if self.walk_mask(from) & to.bit() != 0 {
            return Ok(());
        }
        let d = from.distance(to);
        if d > 3 {
            return Err(Illegal(format!(
                "{to} is {d} steps from your workman on {from}"
            )));
        }
        let blockers: Vec<String> = Square::all()
            .filter(|&s| from.distance(s) <= 2 && s.distance(to) <= 2)
            .filter_map(|s| self.check_no_grounded_ball(s).err().map(|Illegal(why)| why))
            .collect();
        Err(Illegal(format!(
            "no path of at most 3 steps from {from} ({})",
            if blockers.is_empty() {
                "the logo is in the way".to_string()
            } else {
                blockers.join("; ")
            }
        )))
    }

    fn check_teleport(&self, seat: usize, card: Card, to: Square) -> Check {
        self.holds(seat, card)?;
        if to.is_logo() {
            return Err(Illegal(format!("{to} is on the logo")));
        }
        if to == self.workman_square(seat) {
            return Err(Illegal(format!("your workman is on {to} already")));
        }
        self.check_no_ball(to)
    }

    /// The card under the workman that may be blown up or replaced (no grounded ball on it).
    fn check_card_under(&self, seat: usize) -> Result<Placed, Illegal> {
        let sq = self.workman_square(seat);
        let c = self
            .board
            .card_at(sq)
            .ok_or_else(|| Illegal(format!("no card covers your workman's square {sq}")))?;
        for s in c.squares() {
            self.check_no_grounded_ball(s)?;
        }
        Ok(c)
    }

    fn check_blowup(&self, seat: usize, pay: Card) -> Check {
        let c = self.check_card_under(seat)?;
        for s in c.squares() {
            if let Some(o) = self.board.workmen_on(s).find(|&o| o != seat) {
                return Err(Illegal(format!(
                    "{}'s workman stands on {s}, a square of this card",
                    self.colour(o)
                )));
            }
        }
        self.holds(seat, pay)
    }

    fn check_covers_workman(&self, seat: usize, p: &Placed) -> Check {
        let sq = self.workman_square(seat);
        if p.covers(sq) {
            Ok(())
        } else {
            Err(Illegal(format!(
                "neither {} nor {} is your workman's square {sq}",
                p.s1, p.s2
            )))
        }
    }

    fn check_build(&self, seat: usize, p: &Placed) -> Check {
        self.holds(seat, p.card)?;
        self.check_covers_workman(seat, p)?;
        for s in p.squares() {
            self.check_no_ball(s)?;
            if let Some(o) = self.board.workmen_on(s).find(|&o| o != seat) {
                return Err(Illegal(format!("{s} holds {}'s workman", self.colour(o))));
            }
            if let Some(c) = self.board.card_at(s) {
                return Err(Illegal(format!("{s} is covered by {c}")));
            }
            if let Some(o) = self.board.base_owner(s) {
                return Err(Illegal(format!("{s} holds {}'s base", self.colour(o))));
            }
        }
        Ok(())
    }

    fn check_replace(&self, seat: usize, p: &Placed) -> Check {
        let old = self.check_card_under(seat)?;
        self.holds(seat, Card::RP)?;
        self.holds(seat, p.card)?;
        self.check_covers_workman(seat, p)?;
        for s in p.squares() {
            self.check_no_ball(s)?;
            if let Some(c) = self.board.card_at(s)
                && c != old
            {
                return Err(Illegal(format!("{s} is covered by {c}")));
            }
            if let Some(o) = self.board.base_owner(s) {
                return Err(Illegal(format!("{s} holds {}'s base", self.colour(o))));
            }
        }
        Ok(())
    }

    /// The squares where the first player may put ball 1.
    fn ball_squares(&self) -> Vec<Square> {
        let free: Vec<Square> = Square::track_squares()
            .filter(|&s| self.board.unoccupied(s))
            .collect();
        if !free.is_empty() {
            return free;
        }
        Square::track_squares()
            .filter(|&s| {
                self.board.base_owner(s).is_none() && self.board.workmen_on(s).next().is_none()
            })
            .collect()
    }

    /// Checks `seat`'s move and returns it in canonical form (a `take` names the card by its s1).
    pub fn check(&self, seat: usize, mv: &Move) -> Result<Move, MoveError> {
        let err = |Illegal(reason)| MoveError::coded("illegal_move", mv.to_string(), reason);
        let turn = |reason: String| MoveError::coded("not_your_turn", mv.to_string(), reason);
        if seat >= self.players {
            return Err(turn(format!("there is no seat {seat}")));
        }
        if self.phase == Phase::Over {
            return Err(MoveError::coded(
                "round_over",
                mv.to_string(),
                "the game is over",
            ));
        }
        if !self.is_asked(seat) {
            return Err(turn(if self.phase == Phase::Bid {
                "you have bid already".into()
            } else {
                format!(
                    "{} is asked ({}), not you",
                    self.colour(self.asked),
                    self.phase.name()
                )
            }));
        }
        let kind = mv.kind();
        let phase = if self.phase == Phase::Extra {
            "move"
        } else {
            self.phase.name()
        };
        if kind != phase {
            return Err(MoveError::coded(
                "wrong_decision",
                mv.to_string(),
                format!(
                    "the decision asked is {} (e.g. {:?}), not {kind}",
                    self.phase.name(),
                    self.legal(seat)[0].to_string()
                ),
            ));
        }
        let checked = match mv {
            Move::Bid(cards) => {
                let want = super::card::Cards::of(cards);
                match Card::ALL
                    .into_iter()
                    .find(|&c| want.count(c) > self.hands[seat].count(c))
                {
                    Some(c) => Err(Illegal(format!(
                        "you hold {} {c}, not {}",
                        self.hands[seat].count(c),
                        want.count(c)
                    ))),
                    None => Ok(()),
                }
            }
            Move::Base(sq) => {
                if !sq.is_base_square() {
                    Err(Illegal(format!(
                        "{sq} is not a base square (a1 h1 b2 g2 b7 g7 a8 h8)"
                    )))
                } else if let Some(o) = self.board.base_owner(*sq) {
                    Err(Illegal(format!("{sq} holds {}'s base", self.colour(o))))
                } else {
                    Ok(())
                }
            }
            Move::Workman(sq) => {
                if sq.is_logo() {
                    Err(Illegal(format!("{sq} is on the logo")))
                } else {
                    Ok(())
                }
            }
            Move::Pass | Move::Stay | Move::NoUse => Ok(()),
            Move::Place(p) => self.holds(seat, p.card).and_then(|_| {
                p.squares()
                    .into_iter()
                    .try_for_each(|s| self.check_unoccupied(s))
            }),
            Move::Ball(sq) => {
                if sq.is_logo() {
                    Err(Illegal(format!("{sq} is on the logo")))
                } else if self.ball_squares().contains(sq) {
                    Ok(())
                } else {
                    self.check_unoccupied(*sq)
                }
            }
            Move::Keep | Move::Vp => match self.pending.and_then(|p| p.card) {
                Some(_) => Ok(()),
                None => Err(Illegal(
                    "the deck is empty: decline or take a board card".into(),
                )),
            },
            Move::Decline => match self.pending.and_then(|p| p.card) {
                Some(_) => Err(Illegal(
                    "the deck is not empty: keep or vp the card you took".into(),
                )),
                None => Ok(()),
            },
            Move::Take(sq, how) => {
                if self.pending.and_then(|p| p.card).is_some() {
                    Err(Illegal(
                        "the deck is not empty: keep or vp the card you took".into(),
                    ))
                } else {
                    match self.board.card_at(*sq) {
                        Some(c) => return Ok(Move::Take(c.s1, *how)),
                        None => Err(Illegal(format!("no card lies on {sq}"))),
                    }
                }
            }
            Move::Discard(c) => self.holds(seat, *c),
            Move::Walk(sq) => self.check_walk(seat, *sq),
            Move::Teleport(c, sq) => self.check_teleport(seat, *c, *sq),
            Move::Blowup(c) => self.check_blowup(seat, *c),
            Move::Build(p) => self.check_build(seat, p),
            Move::Replace(p) => self.check_replace(seat, p),
        };
        checked.map(|_| mv.clone()).map_err(err)
    }

    /// Every legal move of `seat` in canonical order; empty when the seat is not asked.
    pub fn legal(&self, seat: usize) -> Vec<Move> {
        if !self.is_asked(seat) {
            return Vec::new();
        }
        let hand = &self.hands[seat];
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Bid => hand.subsets().into_iter().map(Move::Bid).collect(),
            Phase::Base => Square::all()
                .filter(|s| s.is_base_square() && self.board.base_owner(*s).is_none())
                .map(Move::Base)
                .collect(),
            Phase::Workman => Square::track_squares().map(Move::Workman).collect(),
            Phase::Card => std::iter::once(Move::Pass)
                .chain(self.placements(seat).into_iter().map(Move::Place))
                .collect(),
            Phase::Ball => self.ball_squares().into_iter().map(Move::Ball).collect(),
            Phase::Reward => {
                if self.pending.and_then(|p| p.card).is_some() {
                    vec![Move::Keep, Move::Vp]
                } else {
                    let mut v = vec![Move::Decline];
                    for c in &self.board.cards {
                        v.push(Move::Take(c.s1, Keep::Keep));
                        v.push(Move::Take(c.s1, Keep::Vp));
                    }
                    v
                }
            }
            Phase::Discard => hand.distinct().map(Move::Discard).collect(),
            Phase::Move | Phase::Extra => {
                let from = self.workman_square(seat);
                let walks = self.walk_mask(from);
                let balls = self.board.balls.iter().fold(0, |m, b| m | b.at.bit());
                let open = !(LOGO | balls | from.bit());
                let mut v = Vec::with_capacity(
                    1 + (walks.count_ones() + hand.distinct().count() as u32 * open.count_ones())
                        as usize,
                );
                v.push(Move::Stay);
                v.extend(squares_of(walks).map(Move::Walk));
                for c in hand.distinct() {
                    v.extend(squares_of(open).map(|s| Move::Teleport(c, s)));
                }
                v
            }
            Phase::Use => {
                let sq = self.workman_square(seat);
                let mut v = vec![Move::NoUse];
                v.extend(
                    hand.distinct()
                        .filter(|&c| self.check_blowup(seat, c).is_ok())
                        .map(Move::Blowup),
                );
                let mut candidates: Vec<Placed> = hand
                    .distinct()
                    .filter(|c| c.is_diversion())
                    .flat_map(|c| slots_covering(c, sq))
                    .collect();
                sort_placed(&mut candidates);
                v.extend(
                    candidates
                        .iter()
                        .filter(|p| self.check_build(seat, p).is_ok())
                        .map(|&p| Move::Build(p)),
                );
                v.extend(
                    candidates
                        .iter()
                        .filter(|p| self.check_replace(seat, p).is_ok())
                        .map(|&p| Move::Replace(p)),
                );
                v
            }
        }
    }
}
