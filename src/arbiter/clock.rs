//! Time limits and the per-move clock.
//!
//! A move's clock starts once the bot has been resumed and its request handed to the pipe; the
//! bot is told `time_ms` (the limit, or what is left of it after refused attempts), and the
//! arbiter waits that long plus a latency margin before it declares a timeout, so that pipe
//! and scheduling delays never cost a bot its move. Refused attempts never buy time.

use std::time::Duration;

use tokio::time::Instant;

/// The time limits of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// From `hello` to `ready`.
    pub startup: Duration,
    /// Per move (answer to `turn`, all attempts included).
    pub per_move: Duration,
    /// Slack the arbiter adds before declaring a timeout.
    pub margin: Duration,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            startup: Duration::from_secs(10),
            per_move: Duration::from_secs(60),
            margin: Duration::from_millis(200),
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
