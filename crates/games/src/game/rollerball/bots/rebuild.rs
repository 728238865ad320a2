//! The engine state rebuilt from what one seat sees (its `turn.state`, [`View`]), with the
//! hidden part sampled: a *determinization*. Everything public is taken as shown; the unseen
//! cards (the 34 of the deck less this seat's hand, the board's cards, the discards, every
//! victory point and a reward card this seat was shown) are dealt at random into the other
//! seats' hands (by their known sizes), a reward card another seat is looking at (when the
//! counts say one was drawn), and the deck. A sealed bid of another seat becomes a random part
//! of its sampled hand. Nothing hidden is read: a bot using this sees what its seat sees.
//!
//! Two facts are not in the state and are approximated: the rewards and hits of the last ball
//! phase still waiting behind the one being settled (taken as none), and which cards of a
//! revealed losing bid are still in that seat's hand (not used).

use std::collections::VecDeque;

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::game::bot::Unreadable;
use crate::game::rollerball::ball::Ball;
use crate::game::rollerball::ball_phase::Settle;
use crate::game::rollerball::board::Board;
use crate::game::rollerball::card::{Card, Cards, Placed};
use crate::game::rollerball::chance;
use crate::game::rollerball::state::{Pending, Phase, Rollerball};
use crate::game::rollerball::view::{BidView, PendingView, View};

/// One seat's knowledge of a round, ready to be sampled.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The seat whose view this is.
    pub seat: usize,
    /// The engine with every public fact set and the hidden ones empty.
    base: Rollerball,
    /// The cards this seat has not seen, in canonical order.
    unseen: Vec<Card>,
    /// Hand sizes of the seats.
    hand_sizes: Vec<usize>,
    /// Cards in the deck.
    deck: usize,
    /// Another seat is shown a reward card this seat cannot see.
    hidden_reward: bool,
    /// Seats whose bid is in but sealed.
    sealed: Vec<usize>,
}

impl Seen {
    /// Reads a seat's view; the error says what does not add up.
    pub fn new(view: &View) -> Result<Seen, Unreadable> {
        let seat = view
            .seat
            .ok_or("the state is a spectator's, not a seat's")?;
        let players = view.players.len();
        if !(2..=6).contains(&players) || seat >= players {
            return Err(format!("seat {seat} of {players} players").into());
        }
        let hand = Cards::of(view.hand.as_deref().ok_or("the state has no hand")?);
        let mut board = Board::new(players);
        for (i, p) in view.players.iter().enumerate() {
            board.bases[i] = p.base;
            board.workmen[i] = p.workman;
        }
        for c in &view.cards {
            let placed = Placed::new(c.card, c.at[0], c.at[1])
                .map_err(|e| format!("the card {} on {:?}: {e}", c.card, c.at))?;
            board.lay(placed);
        }
        for b in &view.balls {
            board.balls.push(Ball {
                id: b.id,
                at: b.at,
                energised: b.energised,
                rubber: b.rubber,
            });
            board.next_ball = board.next_ball.max(b.id + 1);
        }
        // Every card whose place this seat knows.
        let mut known = hand;
        let discards = Cards::of(&view.discards);
        known.add_all(&discards);
        for c in &board.cards {
            known.add(c.card);
        }
        let vps: Vec<Cards> = view.players.iter().map(|p| Cards::of(&p.vp)).collect();
        for v in &vps {
            known.add_all(v);
        }
        let mut pending = None;
        let mut other_reward = false;
        if let Some(p) = &view.pending {
            pending = Some(match *p {
                PendingView::Reward {
                    seat: s,
                    ball,
                    at,
                    card,
                } => {
                    if let Some(c) = card {
                        known.add(c);
                    } else if s != seat {
                        other_reward = true;
                    }
                    Pending {
                        settle: Settle::Reward { seat: s, ball, at },
                        card,
                    }
                }
                PendingView::Discard { seat: s, ball, at } => Pending {
                    settle: Settle::Hit { seat: s, ball, at },
                    card: None,
                },
            });
        }
        let mut all = Cards(Card::COPIES);
        if !all.contains(&known) {
            return Err("the state shows more copies of a card than the deck has".into());
        }
        all.remove_all(&known);
        let unseen = all.list();
        let hand_sizes: Vec<usize> = view.players.iter().map(|p| p.hand).collect();
        if hand_sizes[seat] != hand.len() {
            return Err("the hand and its size disagree".into());
        }
        let others: usize = (0..players)
            .filter(|&s| s != seat)
            .map(|s| hand_sizes[s])
            .sum();
        let accounted = others + view.deck;
        let hidden_reward = match unseen.len().checked_sub(accounted) {
            Some(0) => false,
            Some(1) if other_reward => true,
            _ => {
                return Err(format!(
                    "{} unseen cards, but the other hands and the deck hold {accounted}",
                    unseen.len()
                )
                .into());
            }
        };
        let mut bids = vec![None; players];
        let mut sealed = Vec::new();
        let mut revealed = false;
        for (i, p) in view.players.iter().enumerate() {
            match &p.bid {
                None => {}
                Some(BidView::Cards(c)) => {
                    revealed = true;
                    bids[i] = Some(Cards::of(c));
                }
                Some(BidView::Sealed(_)) => {
                    sealed.push(i);
                    bids[i] = Some(Cards::default());
                }
            }
        }
        let placed = match view.phase {
            Phase::Base => board.bases.iter().flatten().count(),
            Phase::Workman => board.workmen.iter().flatten().count(),
            _ => 0,
        };
        let mut hands = vec![Cards::default(); players];
        hands[seat] = hand;
        let base = Rollerball {
            players,
            turn_limit: view.turn_limit,
            rng: chance::generator(0),
            deal: Vec::new(),
            deck: Vec::new(),
            top: 0,
            discards,
            hands,
            vps,
            bids,
            bids_revealed: revealed,
            passed: view.players.iter().map(|p| p.passed).collect(),
            board,
            phase: view.phase,
            turn: view.turn,
            acting: view.acting,
            first: view.first_player,
            asked: view.asked.unwrap_or(seat),
            placed,
            pending,
            queue: VecDeque::new(),
            result: None,
        };
        Ok(Seen {
            seat,
            base,
            unseen,
            hand_sizes,
            deck: view.deck,
            hidden_reward,
            sealed,
        })
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.base.players
    }

    /// The public engine state with the hidden part empty (no other hand, no deck): for
    /// questions about the board and this seat's hand only.
    pub fn public(&self) -> &Rollerball {
        &self.base
    }

    /// One determinization: the unseen cards dealt at random as described above, and the
    /// engine's own generator (reshuffles, a bid tie-break) seeded from `rng`.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Rollerball {
        let mut g = self.base.clone();
        let mut pool = self.unseen.clone();
        pool.shuffle(rng);
        let mut next = pool.into_iter();
        for s in 0..g.players {
            if s == self.seat {
                continue;
            }
            for _ in 0..self.hand_sizes[s] {
                g.hands[s].add(next.next().expect("counts checked"));
            }
        }
        if self.hidden_reward
            && let Some(p) = &mut g.pending
        {
            p.card = next.next();
        }
        g.deck = next.collect();
        debug_assert_eq!(g.deck.len(), self.deck);
        for &s in &self.sealed {
            let mut bid = Cards::default();
            for c in g.hands[s].list() {
                if rng.random_bool(0.3) {
                    bid.add(c);
                }
            }
            g.bids[s] = Some(bid);
        }
        g.rng = chance::generator(rng.random());
        g
    }
}
