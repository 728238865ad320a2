//! The state machine of one round (rules §7–§10): who is asked what, applying a decision, and
//! running the automatic steps (ball phase, settlement, draw, reshuffle, setup passes) up to the
//! next decision, collecting public events and the hidden facts only the record keeps.

use std::collections::VecDeque;

use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ball::Ball;
use super::ball_phase::{PhaseLog, Settle};
use super::board::Board;
use super::card::{Card, Cards};
use super::chance;
use super::events::{Event, Secret};
use super::moves::{Keep, Move, MoveError};

/// Players' colours by seat.
pub const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "purple", "white"];

/// The default turn limit (§10).
pub const TURN_LIMIT: u32 = 360;

/// Victory points that win at once.
pub const WINNING_POINTS: usize = 5;

/// The decision being asked (`over` once the game has ended).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Bid,
    Base,
    Workman,
    Card,
    Ball,
    Reward,
    Discard,
    Move,
    Use,
    Extra,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Bid => "bid",
            Phase::Base => "base",
            Phase::Workman => "workman",
            Phase::Card => "card",
            Phase::Ball => "ball",
            Phase::Reward => "reward",
            Phase::Discard => "discard",
            Phase::Move => "move",
            Phase::Use => "use",
            Phase::Extra => "extra",
            Phase::Over => "over",
        }
    }
}

/// Who must decide now: one seat, or (the sealed bid) every seat that has not bid yet.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ToAct {
    pub phase: Phase,
    pub seats: Vec<usize>,
}

/// Why a round cannot be set up.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// A decision the rules accepted, with everything that followed up to the next decision.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Applied {
    pub seat: usize,
    /// The move in canonical form (what the record keeps).
    pub played: Move,
    /// What every bot is told the seat played: the canonical move, except `bid (sealed)`.
    pub announced: String,
    /// Public events, in order (none for a bid that is not the last).
    pub events: Vec<Event>,
    /// Facts for the record only: the bid itself, drawn cards, deck orders.
    pub secrets: Vec<Secret>,
}

/// The end of a round (§10).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
pub struct Ending {
    /// Victory points by seat (the score).
    pub points: Vec<usize>,
    /// 1 + the number of seats with more points.
    pub ranks: Vec<usize>,
    /// The seat with five points, or every seat ranked first at the turn limit.
    pub winners: Vec<usize>,
    /// Whether the game ended by five points (otherwise by the turn limit).
    pub five_points: bool,
}

/// A reward or hit being settled: the request it makes and the card drawn for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pending {
    pub settle: Settle,
    /// The card taken from the deck for a reward (`None`: deck empty, board cards offered).
    pub card: Option<Card>,
}

/// One round of Rollerball.
#[derive(Clone, Debug)]
pub struct Rollerball {
    pub players: usize,
    pub turn_limit: u32,
    pub rng: ChaCha8Rng,
    pub deal: Vec<Card>,
    /// The deck; `deck[top]` is the top card.
    pub deck: Vec<Card>,
    pub top: usize,
    pub discards: Cards,
    pub hands: Vec<Cards>,
    pub vps: Vec<Cards>,
    pub bids: Vec<Option<Cards>>,
    pub bids_revealed: bool,
    pub passed: Vec<bool>,
    pub board: Board,
    pub phase: Phase,
    pub turn: u32,
    pub acting: Option<usize>,
    pub first: Option<usize>,
    /// The seat asked (unused during the bid).
    pub asked: usize,
    /// Setup: how many seats have placed their base or workman.
    pub placed: usize,
    pub pending: Option<Pending>,
    pub queue: VecDeque<Settle>,
    pub result: Option<Ending>,
}

/// Where the automatic steps write.
#[derive(Default)]
struct Out {
    events: Vec<Event>,
    secrets: Vec<Secret>,
}

impl Rollerball {
    /// A new round: the deck shuffled from `chance_seed` and dealt, everyone asked to bid.
    pub fn new(
        players: usize,
        turn_limit: u32,
        chance_seed: u64,
    ) -> std::result::Result<Rollerball, SetupError> {
        Rollerball::with_deal(players, turn_limit, chance_seed, None)
    }

    /// A new round dealt from a given deck order (index 0 the top; a replay's recorded deal or
    /// a test's), the generator still seeded from `chance_seed` and past the deal's shuffle, so
    /// that with the deal `new` would make the two are the same round.
    pub fn with_deal(
        players: usize,
        turn_limit: u32,
        chance_seed: u64,
        deal: Option<Vec<Card>>,
    ) -> std::result::Result<Rollerball, SetupError> {
        if !(2..=6).contains(&players) {
            return Err(SetupError(format!(
                "Rollerball is played by 2 to 6 players, not {players}"
            )));
        }
        if turn_limit == 0 {
            return Err(SetupError("the turn limit must be at least 1".into()));
        }
        let mut rng = chance::generator(chance_seed);
        let shuffled = chance::deal_order(&mut rng);
        let deck = match deal {
            None => shuffled,
            Some(d) => {
                let mut sorted = d.clone();
                sorted.sort();
                if sorted != Card::canonical_deck() {
                    return Err(SetupError(
                        "a deal must hold the 34 cards of the deck".into(),
                    ));
                }
                d
            }
        };
        let mut hands = vec![Cards::default(); players];
        let mut top = 0;
        for _ in 0..4 {
            for hand in hands.iter_mut() {
                hand.add(deck[top]);
                top += 1;
            }
        }
        Ok(Rollerball {
            players,
            turn_limit,
            rng,
            deal: deck.clone(),
            deck,
            top,
            discards: Cards::default(),
            hands,
            vps: vec![Cards::default(); players],
            bids: vec![None; players],
            bids_revealed: false,
            passed: vec![false; players],
            board: Board::new(players),
            phase: Phase::Bid,
            turn: 0,
            acting: None,
            first: None,
            asked: 0,
            placed: 0,
            pending: None,
            queue: VecDeque::new(),
            result: None,
        })
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// The deck order of the deal (before dealing; index 0 the top): a record-only fact.
    pub fn deal(&self) -> &[Card] {
        &self.deal
    }

    /// The deck order of the deal as the record keeps it.
    pub fn deal_secret(&self) -> Secret {
        Secret::Deal {
            deck: self.deal.clone(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The current turn, 0 during the setup.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Who must decide now; `None` once the game is over.
    pub fn to_act(&self) -> Option<ToAct> {
        match self.phase {
            Phase::Over => None,
            Phase::Bid => Some(ToAct {
                phase: Phase::Bid,
                seats: (0..self.players)
                    .filter(|&s| self.bids[s].is_none())
                    .collect(),
            }),
            phase => Some(ToAct {
                phase,
                seats: vec![self.asked],
            }),
        }
    }

    /// Whether `seat` is asked now.
    pub fn is_asked(&self, seat: usize) -> bool {
        match self.phase {
            Phase::Over => false,
            Phase::Bid => self.bids.get(seat).is_some_and(Option::is_none),
            _ => self.asked == seat,
        }
    }

    /// The seat asked now (during the bid, the first that has not bid), without building a
    /// [`ToAct`]: what a search playing the round through asks at every step.
    pub fn next_seat(&self) -> Option<usize> {
        match self.phase {
            Phase::Over => None,
            Phase::Bid => self.bids.iter().position(Option::is_none),
            _ => Some(self.asked),
        }
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&Ending> {
        self.result.as_ref()
    }

    /// A seat's hand (for spectators, the record and tests).
    pub fn hand(&self, seat: usize) -> &Cards {
        &self.hands[seat]
    }

    pub fn victory_points(&self, seat: usize) -> &Cards {
        &self.vps[seat]
    }

    pub fn discards(&self) -> &Cards {
        &self.discards
    }

    /// The cards left in the deck, top first (secret).
    pub fn deck(&self) -> &[Card] {
        &self.deck[self.top..]
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Reads `text` leniently and applies it (see [`Rollerball::apply`]).
    pub fn apply_text(
        &mut self,
        seat: usize,
        text: &str,
    ) -> std::result::Result<Applied, MoveError> {
        let mv = Move::parse(text)?;
        self.apply(seat, &mv)
    }

    /// Applies `seat`'s decision and runs the automatic steps to the next decision. On error
    /// the state is unchanged and the error says what was wrong.
    pub fn apply(&mut self, seat: usize, mv: &Move) -> std::result::Result<Applied, MoveError> {
        let played = self.check(seat, mv)?;
        let mut out = Out::default();
        let announced = if matches!(played, Move::Bid(_)) {
            "bid (sealed)".to_string()
        } else {
            played.to_string()
        };
        self.perform(seat, &played, &mut out);
        Ok(Applied {
            seat,
            played,
            announced,
            events: out.events,
            secrets: out.secrets,
        })
    }

    /// [`Rollerball::apply`] without what it reports: for a search that plays many rounds
    /// through and reads only the state (no announcement is formatted).
    pub fn play(&mut self, seat: usize, mv: &Move) -> std::result::Result<(), MoveError> {
        let played = self.check(seat, mv)?;
        self.perform(seat, &played, &mut Out::default());
        Ok(())
    }

    /// Takes the top card of the deck for `seat`, if any.
    fn draw_top(&mut self, seat: usize, out: &mut Out) -> Option<Card> {
        let card = *self.deck.get(self.top)?;
        self.top += 1;
        out.events.push(Event::Draw { seat });
        out.secrets.push(Secret::Drawn { seat, card });
        Some(card)
    }

    fn perform(&mut self, seat: usize, mv: &Move, out: &mut Out) {
        match *mv {
            Move::Bid(ref cards) => {
                self.bids[seat] = Some(Cards::of(cards));
                out.secrets.push(Secret::Bid {
                    seat,
                    cards: cards.clone(),
                });
                if self.bids.iter().all(Option::is_some) {
                    self.settle_bids(out);
                }
            }
            Move::Base(sq) => {
                self.board.bases[seat] = Some(sq);
                self.next_setup_seat(Phase::Workman, out);
            }
            Move::Workman(sq) => {
                self.board.workmen[seat] = Some(sq);
                self.next_setup_seat(Phase::Card, out);
            }
            Move::Pass => {
                self.passed[seat] = true;
                self.next_card_round((seat + 1) % self.players, out);
            }
            Move::Place(p) => {
                self.hands[seat].remove(p.card);
                self.board.lay(p);
                self.next_card_round((seat + 1) % self.players, out);
            }
            Move::Ball(sq) => {
                let id = self.board.next_ball;
                self.board.next_ball += 1;
                self.board.balls.push(Ball::new(id, sq));
                let first = self.first.expect("first player known");
                self.start_turn(1, first, out);
            }
            Move::Keep | Move::Vp => {
                let card = self
                    .pending
                    .take()
                    .and_then(|p| p.card)
                    .expect("a drawn reward");
                self.keep(seat, card, mv == &Move::Vp, out);
                self.settle_next(out);
            }
            Move::Decline => {
                self.pending = None;
                self.settle_next(out);
            }
            Move::Take(s1, how) => {
                self.pending = None;
                let c = self.board.lift(s1).expect("a board card");
                out.events.push(Event::Take {
                    seat,
                    card: c.card,
                    at: s1,
                });
                self.keep(seat, c.card, how == Keep::Vp, out);
                self.settle_next(out);
            }
            Move::Discard(c) => {
                self.pending = None;
                self.hands[seat].remove(c);
                self.discards.add(c);
                self.settle_next(out);
            }
            Move::Stay | Move::Walk(_) | Move::Teleport(..) => {
                match *mv {
                    Move::Walk(sq) => self.board.workmen[seat] = Some(sq),
                    Move::Teleport(c, sq) => {
                        self.hands[seat].remove(c);
                        self.discards.add(c);
                        self.board.workmen[seat] = Some(sq);
                    }
                    _ => {}
                }
                if self.phase == Phase::Move {
                    self.phase = Phase::Use;
                } else {
                    self.end_turn(out);
                }
            }
            Move::NoUse | Move::Blowup(_) | Move::Build(_) | Move::Replace(_) => {
                let sq = self.board.workmen[seat].expect("workman placed");
                match *mv {
                    Move::Blowup(pay) => {
                        self.hands[seat].remove(pay);
                        self.discards.add(pay);
                        let c = self.board.card_at(sq).expect("a card to blow up");
                        self.board.lift(c.s1);
                        self.discards.add(c.card);
                        self.board.workmen[seat] = self.board.bases[seat];
                    }
                    Move::Build(p) => {
                        self.hands[seat].remove(p.card);
                        self.board.lay(p);
                    }
                    Move::Replace(p) => {
                        self.hands[seat].remove(Card::RP);
                        self.discards.add(Card::RP);
                        let old = self.board.card_at(sq).expect("a card to replace");
                        self.board.lift(old.s1);
                        self.discards.add(old.card);
                        self.hands[seat].remove(p.card);
                        self.board.lay(p);
                    }
                    _ => {}
                }
                if self.players >= 5 {
                    self.phase = Phase::Extra;
                    self.asked = (self.acting.expect("a turn") + 3) % self.players;
                } else {
                    self.end_turn(out);
                }
            }
        }
    }

    /// A reward card into the hand or laid as a victory point (which may win).
    fn keep(&mut self, seat: usize, card: Card, vp: bool, out: &mut Out) {
        if !vp {
            self.hands[seat].add(card);
            return;
        }
        self.vps[seat].add(card);
        out.events.push(Event::Vp { seat, card });
        if self.vps[seat].len() >= WINNING_POINTS {
            out.events.push(Event::Win { seat });
            self.queue.clear();
            self.finish(Some(seat));
        }
    }

    /// Ends the game: by five points (`winner`) or by the turn limit.
    fn finish(&mut self, winner: Option<usize>) {
        let points: Vec<usize> = self.vps.iter().map(Cards::len).collect();
        let ranks: Vec<usize> = points
            .iter()
            .map(|p| 1 + points.iter().filter(|q| *q > p).count())
            .collect();
        let winners = match winner {
            Some(s) => vec![s],
            None => (0..self.players).filter(|&s| ranks[s] == 1).collect(),
        };
        self.result = Some(Ending {
            points,
            ranks,
            winners,
            five_points: winner.is_some(),
        });
        self.phase = Phase::Over;
        self.pending = None;
    }

    /// The last bid is in: reveal, break a tie, the winner pays and places the first base.
    fn settle_bids(&mut self, out: &mut Out) {
        let bids: Vec<Cards> = self.bids.iter().map(|b| b.expect("every bid")).collect();
        let most = bids.iter().map(Cards::len).max().unwrap_or(0);
        let top: Vec<usize> = (0..self.players)
            .filter(|&s| bids[s].len() == most)
            .collect();
        let (winner, tied) = if top.len() == 1 {
            (top[0], None)
        } else {
            (top[chance::tie_break(&mut self.rng, top.len())], Some(top))
        };
        self.hands[winner].remove_all(&bids[winner]);
        self.discards.add_all(&bids[winner]);
        self.bids_revealed = true;
        out.events.push(Event::Bids {
            bids: bids.iter().map(Cards::list).collect(),
            winner,
            tied,
        });
        self.first = Some(winner);
        self.phase = Phase::Base;
        self.asked = winner;
        self.placed = 0;
    }

    /// After a base or workman: the next seat in setup order, or the next setup part.
    fn next_setup_seat(&mut self, then: Phase, out: &mut Out) {
        self.placed += 1;
        let first = self.first.expect("first player known");
        if self.placed < self.players {
            self.asked = (first + self.placed) % self.players;
            return;
        }
        self.placed = 0;
        if then == Phase::Card {
            self.next_card_round(first, out);
        } else {
            self.phase = then;
            self.asked = first;
        }
    }

    /// Whether `seat` holds a card it could place in the setup now.
    pub fn can_place(&self, seat: usize) -> bool {
        !self.placements(seat).is_empty()
    }

    /// The setup card rounds from `seat` on: the next seat that has not passed and can place
    /// is asked; the others pass without being asked; when everyone has passed, the ball.
    fn next_card_round(&mut self, mut seat: usize, out: &mut Out) {
        for _ in 0..self.players {
            if !self.passed[seat] {
                if self.can_place(seat) {
                    self.phase = Phase::Card;
                    self.asked = seat;
                    return;
                }
                self.passed[seat] = true;
                out.events.push(Event::Pass { seat });
            }
            seat = (seat + 1) % self.players;
        }
        self.phase = Phase::Ball;
        self.asked = self.first.expect("first player known");
    }

    /// A turn: the ball phase, then settlement, draw and the acting player's move.
    fn start_turn(&mut self, turn: u32, seat: usize, out: &mut Out) {
        self.turn = turn;
        self.acting = Some(seat);
        out.events.push(Event::Turn { turn, seat });
        let mut log = PhaseLog::default();
        self.board.ball_phase(&mut log);
        for c in log.destroyed {
            self.discards.add(c);
        }
        out.events.append(&mut log.events);
        self.queue = log.settle.into();
        self.settle_next(out);
    }

    /// Settles the next reward or hit that makes a request; when none is left, the draw and the
    /// acting player's move.
    fn settle_next(&mut self, out: &mut Out) {
        if self.phase == Phase::Over {
            return;
        }
        while let Some(settle) = self.queue.pop_front() {
            match settle {
                Settle::Reward { seat, .. } => {
                    if let Some(card) = self.draw_top(seat, out) {
                        self.ask_pending(settle, Some(card), seat);
                        return;
                    }
                    if !self.board.cards.is_empty() {
                        self.ask_pending(settle, None, seat);
                        return;
                    }
                }
                Settle::Hit { seat, .. } => {
                    if !self.hands[seat].is_empty() {
                        self.ask_pending(settle, None, seat);
                        return;
                    }
                }
            }
        }
        let acting = self.acting.expect("a turn");
        if self.hands[acting].len() < 4 {
            if self.top == self.deck.len() && !self.discards.is_empty() {
                let n = self.discards.len();
                self.deck = chance::reshuffle(&mut self.rng, &self.discards);
                self.top = 0;
                self.discards = Cards::default();
                out.events.push(Event::Reshuffle { cards: n });
                out.secrets.push(Secret::Reshuffle {
                    deck: self.deck.clone(),
                });
            }
            if let Some(card) = self.draw_top(acting, out) {
                self.hands[acting].add(card);
            }
        }
        self.phase = Phase::Move;
        self.asked = acting;
    }

    fn ask_pending(&mut self, settle: Settle, card: Option<Card>, seat: usize) {
        self.pending = Some(Pending { settle, card });
        self.phase = match settle {
            Settle::Reward { .. } => Phase::Reward,
            Settle::Hit { .. } => Phase::Discard,
        };
        self.asked = seat;
    }

    fn end_turn(&mut self, out: &mut Out) {
        if self.turn >= self.turn_limit {
            self.finish(None);
            return;
        }
        let next = (self.acting.expect("a turn") + 1) % self.players;
        self.start_turn(self.turn + 1, next, out);
    }
}
