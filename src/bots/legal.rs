//! Any other game: a built-in bot at a game it has no strategy for chooses uniformly among the
//! moves the arbiter lists in `turn.legal` (with its seeded generator, so a match replays), and
//! after an `illegal` among those it has not tried yet. Every game that lists its moves
//! (Goofspiel, and games to come) can so be played by every built-in bot.

use std::io::{self, Write};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::Value;

/// What a `turn` of any game brings that this needs.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnAny {
    turn_id: Option<u64>,
    legal: Option<Vec<Value>>,
}

/// The listed moves of the open request, and those already sent for it.
#[derive(Default)]
pub struct Listed {
    seat: u64,
    turn_id: Option<u64>,
    left: Vec<Value>,
}

impl Listed {
    /// For the bot at `seat` (from `hello`).
    pub fn for_seat(seat: u64) -> Listed {
        Listed {
            seat,
            ..Listed::default()
        }
    }

    /// Mixed into the round's seed: bots of the same kind at different seats of a game where
    /// seats act at once draw differently.
    pub fn salt(&self) -> u64 {
        crate::seed::mix(self.seat + 1)
    }

    /// Answers a `turn`: one of its listed moves at random. Returns false when it lists none
    /// (hidden legal moves: this bot cannot play then).
    pub fn turn(
        &mut self,
        text: &[u8],
        rng: &mut ChaCha8Rng,
        out: &mut impl Write,
    ) -> io::Result<bool> {
        let turn: TurnAny = serde_json::from_slice(text).unwrap_or_default();
        self.turn_id = turn.turn_id;
        self.left = turn.legal.unwrap_or_default();
        self.next(rng, out)
    }

    /// Answers an `illegal`: another listed move not yet sent.
    pub fn next(&mut self, rng: &mut ChaCha8Rng, out: &mut impl Write) -> io::Result<bool> {
        if self.left.is_empty() {
            return Ok(false);
        }
        let mv = self.left.swap_remove(rng.random_range(0..self.left.len()));
        let mut msg = serde_json::json!({"type": "move", "move": mv});
        if let Some(id) = self.turn_id {
            msg["turn_id"] = Value::from(id);
        }
        serde_json::to_writer(&mut *out, &msg)?;
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(true)
    }
}
