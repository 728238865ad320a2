//! Time limits and the per-move clock.
//!
//! A match's time control is a per-move cap with, where the organiser gives them, a bank per
//! seat and round, an increment and a first-move allowance ([`crate::clock::Tc`], whose
//! arithmetic the referee keeps). A move's clock starts once the bot has been resumed and its
//! request handed to the pipe; the bot is told `time_ms` (the limit, or what is left of it
//! after refused attempts), and the
//! arbiter waits that long plus a latency margin before it declares a timeout, so that pipe
//! and scheduling delays never cost a bot its move. Refused attempts never buy time.

use std::time::Duration;

use tokio::time::Instant;

/// The time limits of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// From `hello` to `ready`.
    pub startup: Duration,
    /// Per move (answer to `turn`, all attempts included): the cap of every answer.
    pub per_move: Duration,
    /// Slack the arbiter adds before declaring a timeout.
    pub margin: Duration,
    /// Each seat's bank for a round, spent by its answers (`None`: no bank).
    pub bank: Option<Duration>,
    /// Added to the bank after each accepted answer.
    pub increment: Duration,
    /// A seat's first answer of a round may take this long on top of its bank (and past the cap
    /// where longer); zero: no allowance.
    pub first_move: Duration,
}

impl TimeControl {
    /// A seat's time control as the referee keeps it.
    pub fn tc(&self) -> crate::clock::Tc {
        crate::clock::Tc {
            move_ms: self.per_move.as_millis() as u64,
            bank_ms: self.bank.map(|b| b.as_millis() as u64),
            increment_ms: self.increment.as_millis() as u64,
            first_move_ms: self.first_move.as_millis() as u64,
        }
    }
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            startup: Duration::from_secs(10),
            per_move: Duration::from_secs(60),
            margin: Duration::from_millis(200),
            bank: None,
            increment: Duration::ZERO,
            first_move: Duration::ZERO,
        }
    }
}

/// The clock of one request.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    started: Instant,
    limit: Duration,
    margin: Duration,
}

impl Clock {
    pub fn start(limit: Duration, margin: Duration) -> Clock {
        Clock {
            started: Instant::now(),
            limit,
            margin,
        }
    }

    /// When the arbiter gives up waiting.
    pub fn deadline(&self) -> Instant {
        self.started + self.limit + self.margin
    }

    /// Milliseconds left of the limit, as told to the bot.
    pub fn left_ms(&self) -> u64 {
        self.limit
            .saturating_sub(self.started.elapsed())
            .as_millis() as u64
    }

    /// Milliseconds since the clock started.
    pub fn elapsed_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }
}
