//! Rollerball behind the game boundary: the engine's decisions as requests (the sealed bid to
//! every seat at once, every other decision a `turn` to one seat), its moves as canonical
//! strings, its public events announced in `played`, its secrets (the deal, every bid, every
//! card drawn, every reshuffle) kept in the record only, and a bid announced to the other
//! seats as `"bid (sealed)"` until the last one reveals all (protocol/games/rollerball.md).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{COLOURS, Rollerball, TURN_LIMIT};
use crate::Error;
use crate::game::{
    Applied, Game, Refusal, Request, Round, RoundResult, RoundSetup, Seat, Shown, ToAct,
};

/// Bumped whenever a rule as implemented changes (the rules are `rollerball-v4-hr2`).
pub const RULES_VERSION: u32 = 1;

/// The options of a Rollerball match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollerballGame {
    /// Seats, 2 to 6.
    pub players: usize,
    /// The game ends after this many turns if nobody has five victory points.
    pub turn_limit: u32,
}

impl RollerballGame {
    pub fn new(players: usize, turn_limit: u32) -> Result<RollerballGame, Error> {
        if !(2..=6).contains(&players) {
            return Err(Error::Options(format!(
                "Rollerball is for 2 to 6 players, not {players}"
            )));
        }
        if turn_limit == 0 {
            return Err(Error::Options("turn_limit must be 1 or more".into()));
        }
        Ok(RollerballGame {
            players,
            turn_limit,
        })
    }

    /// The default turn limit of the rules.
    pub fn default_turn_limit() -> u32 {
        TURN_LIMIT
    }
}

impl Game for RollerballGame {
    fn name(&self) -> &'static str {
        "rollerball"
    }
    fn rules_version(&self) -> u32 {
        RULES_VERSION
    }
    fn options(&self) -> Value {
        json!({"players": self.players, "turn_limit": self.turn_limit})
    }
    fn seats(&self) -> usize {
        self.players
    }
    fn hidden_information(&self) -> bool {
        true
    }
    fn new_round(&self, setup: RoundSetup) -> Box<dyn Round> {
        let engine = Rollerball::new(self.players, self.turn_limit, setup.chance_seed)
            .expect("options checked in RollerballGame::new");
        Box::new(RollerballRound {
            engine,
            dealt: false,
        })
    }
}

/// One game of Rollerball as a round.
pub struct RollerballRound {
    engine: Rollerball,
    /// The deal's deck order went into the record (with the first action).
    dealt: bool,
}

impl Round for RollerballRound {
    fn colours(&self) -> Option<Vec<String>> {
        Some(
            COLOURS[..self.engine.players()]
                .iter()
                .map(|c| c.to_string())
                .collect(),
        )
    }

    fn first(&self) -> Seat {
        0
    }

    fn to_act(&self) -> ToAct {
        match self.engine.to_act() {
            None => ToAct::Over,
            Some(t) if t.phase == super::Phase::Bid => ToAct::Each(t.seats, Request::TURN),
            Some(t) => ToAct::Seat(t.seats[0], Request::TURN),
        }
    }

    fn view(&self, seat: Seat) -> Value {
        serde_json::to_value(self.engine.view(seat)).expect("views serialise")
    }

    fn public_view(&self) -> Value {
        serde_json::to_value(self.engine.spectator_view()).expect("views serialise")
    }

    fn live_view(&self) -> Value {
        serde_json::to_value(self.engine.audience_view()).expect("views serialise")
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<Value>> {
        if !self.engine.is_asked(seat) {
            return None;
        }
        let legal: Vec<Value> = self
            .engine
            .legal(seat)
            .iter()
            .map(|m| Value::String(m.to_string()))
            .collect();
        (!legal.is_empty()).then_some(legal)
    }

    fn play(&mut self, seat: Seat, action: &Value) -> Result<Applied, Refusal> {
        let Value::String(text) = action else {
            return Err(Refusal::coded(
                "not_a_move",
                format!(
                    "a move is a string from turn.legal, such as \"stay\", not {}",
                    crate::game::short_json(action)
                ),
            ));
        };
        if !self.engine.is_asked(seat) {
            return Err(Refusal::coded(
                "not_your_turn",
                "it is not your decision now",
            ));
        }
        let applied = self
            .engine
            .apply_text(seat, text)
            .map_err(|e| Refusal::coded(e.code, e.to_string()))?;
        let colour = COLOURS.get(seat).map(|c| c.to_string());
        let played = applied.played.to_string();
        let mut effects = Map::new();
        if !applied.events.is_empty() {
            effects.insert("events".into(), json!(applied.events));
        }
        let mut secret = Map::new();
        if !self.dealt {
            self.dealt = true;
            secret.insert("deal".into(), json!(self.engine.deal_secret()));
        }
        if !applied.secrets.is_empty() {
            secret.insert("secrets".into(), json!(applied.secrets));
        }
        let shown = (applied.announced != played).then(|| Shown {
            notation: json!(applied.announced),
            effects: effects.clone(),
        });
        let mut out = Applied::moved(seat, colour, json!(played));
        out.effects = effects;
        out.secret = secret;
        out.shown = shown;
        Ok(out)
    }

    fn result(&self) -> Option<RoundResult> {
        let ending = self.engine.result()?;
        let points: Vec<u32> = ending.points.iter().map(|&p| p as u32).collect();
        let scores: BTreeMap<String, u32> = COLOURS[..points.len()]
            .iter()
            .zip(&points)
            .map(|(c, &p)| (c.to_string(), p))
            .collect();
        // The rules' own ranking: the five-point winner first, then by points.
        let order: Vec<u32> = (0..points.len())
            .map(|s| {
                if ending.five_points && ending.winners.contains(&s) {
                    1
                } else {
                    ending.ranks[s] as u32 + u32::from(ending.five_points)
                }
            })
            .collect();
        Some(RoundResult {
            scores,
            points,
            order: Some(order),
        })
    }

    fn render(&self) -> String {
        render(&self.engine)
    }
}

/// The game as text: the turn and phase, each player's base, workman, hand and victory points,
/// the balls and the cards on the board.
pub fn render(engine: &Rollerball) -> String {
    let v = engine.spectator_view();
    let mut out = format!(
        "turn {} of {}, {}{}\n",
        v.turn,
        v.turn_limit,
        v.phase.name(),
        v.acting
            .map(|a| format!(", {} acting", COLOURS[a]))
            .unwrap_or_default()
    );
    for (s, p) in v.players.iter().enumerate() {
        let hand = v
            .hands
            .as_ref()
            .and_then(|h| h.get(s))
            .map(|h| json!(h).to_string())
            .unwrap_or_default();
        out.push_str(&format!(
            "  {:<7} base {}, workman {}, hand {hand}, vp {}\n",
            p.colour,
            p.base.map(|b| b.to_string()).unwrap_or("-".into()),
            p.workman.map(|w| w.to_string()).unwrap_or("-".into()),
            json!(p.vp),
        ));
    }
    let balls: Vec<String> = v
        .balls
        .iter()
        .map(|b| {
            let mut s = format!("{}@{}", b.id, b.at);
            if b.energised {
                s.push('*');
            }
            if let Some(r) = &b.rubber {
                s.push_str(&format!("({})", json!(r).as_str().unwrap_or("")));
            }
            s
        })
        .collect();
    out.push_str(&format!("  balls: {}\n", balls.join(" ")));
    let cards: Vec<String> = v
        .cards
        .iter()
        .map(|c| {
            format!(
                "{} {}-{}",
                json!(c.card).as_str().unwrap_or(""),
                c.at[0],
                c.at[1]
            )
        })
        .collect();
    out.push_str(&format!(
        "  cards: {}; deck {}, discards {}\n",
        cards.join(", "),
        v.deck,
        v.discards.len()
    ));
    out
}
