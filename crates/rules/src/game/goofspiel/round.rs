//! One round of Goofspiel: the deal, the sealed bids of each turn, the reveal, the score.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};

use super::Goofspiel;
use super::view::{SeatView, TurnRecord};
use crate::game::{Applied, Refusal, Request, Round, RoundResult, Seat, Shown, ToAct};

/// One round: the prize deck in order, the hands, this turn's bids, the past turns.
#[derive(Clone, Debug)]
pub struct GoofspielRound {
    rules: Goofspiel,
    /// The prize deck, top first, as shuffled at the deal.
    deck: Vec<u8>,
    /// Turns played; the prize on show is `deck[turn]`.
    turn: usize,
    hands: Vec<Vec<u8>>,
    bids: Vec<Option<u8>>,
    scores: Vec<u32>,
    history: Vec<TurnRecord>,
}

impl GoofspielRound {
    /// Deals a round: every hand 1 to N, the prize deck 1 to N shuffled by Fisher-Yates with
    /// ChaCha8 seeded by `chance_seed` (for `i` from N-1 down to 1, swap `i` with a draw in
    /// `0..=i`).
    pub fn deal(rules: Goofspiel, chance_seed: u64) -> GoofspielRound {
        let mut deck: Vec<u8> = (1..=rules.cards).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(chance_seed);
        for i in (1..deck.len()).rev() {
            let j = rng.random_range(0..=i);
            deck.swap(i, j);
        }
        GoofspielRound {
            rules,
            deck,
            turn: 0,
            hands: vec![(1..=rules.cards).collect(); rules.players],
            bids: vec![None; rules.players],
            scores: vec![0; rules.players],
            history: Vec::new(),
        }
    }

    /// The prize deck in dealt order (the record's final state shows it; no bot sees it).
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    fn over(&self) -> bool {
        self.turn >= self.deck.len()
    }

    /// Reads a bid: a card number, as a number or a string ("7").
    fn card(action: &Value) -> Result<u8, Refusal> {
        let n = match action {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        n.filter(|&n| (1..=13).contains(&n))
            .map(|n| n as u8)
            .ok_or_else(|| {
                Refusal::coded(
                    "not_a_card",
                    format!(
                        "a bid is one of your cards, like \"7\", not {}",
                        crate::game::short_json(action)
                    ),
                )
            })
    }

    /// Every bid is in: the highest single bid takes the prize, a tie for it discards it.
    fn reveal(&mut self) -> Map<String, Value> {
        let prize = self.deck[self.turn];
        let bids: Vec<u8> = self.bids.iter().map(|b| b.expect("all in")).collect();
        let top = *bids.iter().max().expect("two or more seats");
        let at_top: Vec<Seat> = (0..bids.len()).filter(|&s| bids[s] == top).collect();
        let winner = (at_top.len() == 1).then(|| at_top[0]);
        if let Some(w) = winner {
            self.scores[w] += u32::from(prize);
        }
        self.history.push(TurnRecord {
            prize,
            bids: bids.clone(),
            winner,
        });
        self.turn += 1;
        self.bids = vec![None; self.rules.players];
        let mut effects = Map::new();
        effects.insert("prize".into(), json!(prize));
        effects.insert("bids".into(), json!(bids));
        effects.insert("winner".into(), json!(winner));
        effects.insert("next_prize".into(), json!(self.deck.get(self.turn)));
        effects
    }
}

impl Round for GoofspielRound {
    fn colours(&self) -> Option<Vec<String>> {
        None
    }

    fn first(&self) -> Seat {
        0
    }

    fn to_act(&self) -> ToAct {
        if self.over() {
            return ToAct::Over;
        }
        let waiting: Vec<Seat> = (0..self.bids.len())
            .filter(|&s| self.bids[s].is_none())
            .collect();
        ToAct::Each(waiting, Request::TURN)
    }

    fn view(&self, seat: Seat) -> Value {
        serde_json::to_value(SeatView::of(self, Some(seat))).expect("views serialise")
    }

    fn public_view(&self) -> Value {
        serde_json::to_value(SeatView::of(self, None)).expect("views serialise")
    }

    fn live_view(&self) -> Value {
        serde_json::to_value(SeatView::audience(self)).expect("views serialise")
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<Value>> {
        if self.over() || self.bids.get(seat)?.is_some() {
            return None;
        }
        Some(
            self.hands[seat]
                .iter()
                .map(|c| json!(c.to_string()))
                .collect(),
        )
    }

    fn play(&mut self, seat: Seat, action: &Value) -> Result<Applied, Refusal> {
        if self.over() {
            return Err(Refusal::coded("round_over", "the round is over"));
        }
        if self.bids[seat].is_some() {
            return Err(Refusal::coded(
                "already_bid",
                "you have bid this turn already",
            ));
        }
        let card = Self::card(action)?;
        let Some(i) = self.hands[seat].iter().position(|&c| c == card) else {
            return Err(Refusal::coded(
                "not_in_hand",
                format!(
                    "you do not hold the {card}: your hand is {:?}",
                    self.hands[seat]
                ),
            ));
        };
        self.hands[seat].remove(i);
        self.bids[seat] = Some(card);
        let mut applied = Applied::moved(seat, None, json!(card.to_string()));
        if self.bids.iter().all(Option::is_some) {
            // The last bid: every bid is public now.
            applied.effects = self.reveal();
        } else {
            applied.shown = Some(Shown {
                notation: json!("sealed"),
                effects: Map::new(),
            });
        }
        Ok(applied)
    }

    fn result(&self) -> Option<RoundResult> {
        if !self.over() {
            return None;
        }
        let scores: BTreeMap<String, u32> = (0..self.scores.len())
            .map(|s| (s.to_string(), self.scores[s]))
            .collect();
        Some(RoundResult::by_points(scores, self.scores.clone()))
    }

    fn render(&self) -> String {
        super::view::render(self)
    }
}

impl GoofspielRound {
    pub fn rules(&self) -> Goofspiel {
        self.rules
    }
    pub fn turn(&self) -> usize {
        self.turn
    }
    pub fn hands(&self) -> &[Vec<u8>] {
        &self.hands
    }
    pub fn bids(&self) -> &[Option<u8>] {
        &self.bids
    }
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }
    pub fn history(&self) -> &[TurnRecord] {
        &self.history
    }
}
