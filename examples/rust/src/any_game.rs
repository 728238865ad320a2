//! Any game whose every decision is a `turn` with a `legal` list (Goofspiel, Rollerball, ...):
//! the game's strategy (`goofspiel.rs`, `rollerball.rs`) chooses among the moves not tried yet.

use serde_json::{json, Value};

use crate::{goofspiel, rollerball};

/// Plays any game that lists the legal moves.
#[derive(Default)]
pub struct AnyGamePlayer {
    game: String,
    turn_id: Value,
    state: Value,
    untried: Vec<String>,
}

impl AnyGamePlayer {
    /// A player of the game `hello.game` names.
    pub fn new(game: &str) -> AnyGamePlayer {
        AnyGamePlayer {
            game: game.to_string(),
            ..AnyGamePlayer::default()
        }
    }

    /// The game's strategy, given the legal moves not tried yet; in a game the kit does not
    /// know, the first of them.
    fn choose(&self, state: &Value, legal: &[String]) -> String {
        match self.game.as_str() {
            "goofspiel" => goofspiel::choose(state, legal),
            "rollerball" => rollerball::choose(state, legal),
            _ => legal[0].clone(),
        }
    }

    /// Handles one message; returns the answer to send, if any.
    pub fn handle(&mut self, msg: &Value) -> Option<Value> {
        match msg["type"].as_str()? {
            "turn" => {
                self.turn_id = msg["turn_id"].clone();
                self.state = msg["state"].clone();
                let legal = msg["legal"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                self.untried = legal
                    .iter()
                    .filter_map(|m| m.as_str().map(String::from))
                    .collect();
            }
            "illegal" => eprintln!("refused: {}", msg["reason"]),
            _ => return None,
        }
        if self.untried.is_empty() {
            eprintln!("no legal move left to send");
            return None;
        }
        let mv = self.choose(&self.state, &self.untried);
        self.untried.retain(|m| *m != mv); // if it is refused, the next answer is another one
        Some(json!({"type": "move", "move": mv, "turn_id": self.turn_id}))
    }
}
