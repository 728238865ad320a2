//! A game's bots without a protocol loop of their own: each `turn` is answered with one of the
//! moves the arbiter lists in `turn.legal`. A game's own bot (a [`GameBot`] from its registry
//! entry) chooses which, from the request; without one (`random`, or a bot the game does not
//! have) the choice is uniform. Either way the choice uses the bot's seeded generator, so a
//! match replays, and after an `illegal` the bot sends a listed move it has not tried yet, at
//! random.

use std::io::{self, Write};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::Value;

use crate::game::bot::{BotRequest, GameBot};

/// What a `turn` of any game brings that this needs.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnAny {
    turn_id: Option<u64>,
    time_ms: Option<u64>,
    bank_ms: Option<u64>,
    state: Value,
    legal: Option<Vec<Value>>,
}

/// The listed moves of the open request, and those already sent for it.
#[derive(Default)]
pub struct Listed {
    seat: u64,
    turn_id: Option<u64>,
    left: Vec<Value>,
}

/// How a `turn` was answered, for the bot loop's `log` lines.
#[derive(Default, Debug)]
pub struct Answered {
    /// A move was sent (false: the turn listed none).
    pub sent: bool,
    /// The game bot's note on its choice (may be empty).
    pub note: String,
    /// Why the game bot could not choose (a random listed move was sent instead).
    pub error: Option<String>,
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

    /// Answers a `turn`: the game bot's choice among its listed moves, or (no bot, `noise`
    /// drawn, or the bot failing) one at random.
    pub fn turn(
        &mut self,
        text: &[u8],
        bot: Option<&mut (dyn GameBot + '_)>,
        noise: f64,
        rng: &mut ChaCha8Rng,
        out: &mut impl Write,
    ) -> io::Result<Answered> {
        let turn: TurnAny = serde_json::from_slice(text).unwrap_or_default();
        self.turn_id = turn.turn_id;
        self.left = turn.legal.unwrap_or_default();
        let mut answered = Answered::default();
        if self.left.is_empty() {
            return Ok(answered);
        }
        let noisy = noise > 0.0 && rng.random_bool(noise);
        let mut index = None;
        if let Some(bot) = bot.filter(|_| !noisy) {
            let req = BotRequest {
                seat: self.seat as usize,
                state: &turn.state,
                legal: &self.left,
                time_ms: crate::clock::plan_ms(turn.time_ms, turn.bank_ms),
            };
            match bot.choose(&req, rng, &mut answered.note) {
                Ok(i) if i < self.left.len() => index = Some(i),
                Ok(i) => answered.error = Some(format!("chose move {i} of {}", self.left.len())),
                Err(e) => answered.error = Some(e.0),
            }
        }
        let index = index.unwrap_or_else(|| rng.random_range(0..self.left.len()));
        answered.sent = self.send(index, out)?;
        Ok(answered)
    }

    /// Answers an `illegal`: another listed move not yet sent.
    pub fn next(&mut self, rng: &mut ChaCha8Rng, out: &mut impl Write) -> io::Result<bool> {
        if self.left.is_empty() {
            return Ok(false);
        }
        let index = rng.random_range(0..self.left.len());
        self.send(index, out)
    }

    /// Sends the listed move at `index` and strikes it off.
    fn send(&mut self, index: usize, out: &mut impl Write) -> io::Result<bool> {
        let mv = self.left.swap_remove(index);
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
