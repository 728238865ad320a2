//! Any other game (Goofspiel, Rollerball, ...): every decision is a `turn` with a `legal` list.

use serde_json::{json, Value};

/// Plays any game that lists the legal moves.
#[derive(Default)]
pub struct AnyGamePlayer {
    turn_id: Value,
    state: Value,
    untried: Vec<Value>,
}

impl AnyGamePlayer {
    /// STRATEGY: the place for your own play. `state` is the game's state (its `phase` names
    /// the decision), `legal` every move the rules accept now (not tried yet). Returns the
    /// index of the one to send: this takes the first.
    fn choose(&self, _state: &Value, _legal: &[Value]) -> usize {
        0
    }

    /// Handles one message; returns the answer to send, if any.
    pub fn handle(&mut self, msg: &Value) -> Option<Value> {
        match msg["type"].as_str()? {
            "turn" => {
                self.turn_id = msg["turn_id"].clone();
                self.state = msg["state"].clone();
                self.untried = msg["legal"].as_array().cloned().unwrap_or_default();
            }
            "illegal" => eprintln!("refused: {}", msg["reason"]),
            _ => return None,
        }
        if self.untried.is_empty() {
            eprintln!("no legal move left to send");
            return None;
        }
        let i = self.choose(&self.state, &self.untried);
        let mv = self.untried.remove(i); // if it is refused, the next answer is another one
        Some(json!({"type": "move", "move": mv, "turn_id": self.turn_id}))
    }
}
