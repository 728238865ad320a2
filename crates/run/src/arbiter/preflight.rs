//! The pre-flight: before a match or a tournament plays or writes anything, every bot is started
//! once, as it will be in the first round (same sandbox, same limits), given `hello` and
//! allowed its start-up time to answer `ready`, then told `bye` and stopped. A bot that cannot
//! start (a misspelt built-in bot or flag, a missing interpreter, a crash on start, no `ready`
//! in time) would otherwise forfeit every round of the run; here it is named with what it
//! wrote on stderr, and the caller stops before the schedule begins.
//!
//! The bots start together, so the pre-flight takes about the slowest bot's start-up, not the
//! sum of them.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::bot::{Bot, BotSpec, Limits};
use super::clock::TimeControl;
use crate::game::Game;
use crate::sandbox::Isolation;
use crate::wire::{Bye, Hello, PROTOCOL_VERSION, ToBot, to_line};

/// How long a bot that answered has to exit after `bye` before it is killed.
const BYE_GRACE: Duration = Duration::from_secs(1);

/// A bot that failed the pre-flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Failed {
    /// The bot's name (its seat's, or the tournament file's).
    pub name: String,
    /// Its command line.
    pub command: String,
    /// What went wrong, in words (the forfeit's kind and detail a round would have recorded).
    pub reason: String,
    /// The last lines it wrote to stderr.
    pub stderr: String,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.name, self.command, self.reason)?;
        let tail: Vec<&str> = self
            .stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect();
        let shown = &tail[tail.len().saturating_sub(STDERR_LINES)..];
        if !shown.is_empty() {
            write!(f, "\n    its stderr ended with:")?;
            for line in shown {
                write!(f, "\n    | {line}")?;
            }
        }
        Ok(())
    }
}

/// Lines of a failed bot's stderr shown.
const STDERR_LINES: usize = 6;

/// Starts every bot once (`hello` as seat 0 of a table of the game, then `ready` awaited within
/// the start-up time and its margin), stops it, and returns those that failed, in the order
/// given.
pub async fn run(
    bots: &[BotSpec],
    game: &dyn Game,
    rounds: u32,
    time: TimeControl,
    limits: Limits,
    isolation: &Isolation,
) -> Vec<Failed> {
    let failed = |spec: &BotSpec, reason: String, stderr: String| Failed {
        name: spec.name.clone(),
        command: spec.command_line(),
        reason,
        stderr,
    };
    let mut out: Vec<Option<Failed>> = vec![None; bots.len()];
    let mut live: Vec<(usize, Bot)> = Vec::new();
    for (i, spec) in bots.iter().enumerate() {
        match Bot::spawn_isolated(spec, limits, isolation) {
            Ok(bot) => {
                let seats: Vec<String> = (0..game.seats())
                    .map(|s| {
                        if s == 0 {
                            spec.name.clone()
                        } else {
                            format!("seat {s}")
                        }
                    })
                    .collect();
                let hello = ToBot::Hello(
                    Hello {
                        protocol: PROTOCOL_VERSION,
                        game: game.name().to_string(),
                        options: game.options(),
                        seat: 0,
                        seats,
                        rounds,
                        startup_ms: time.startup.as_millis() as u64,
                        move_ms: time.per_move.as_millis() as u64,
                        bank_ms: None,
                        increment_ms: None,
                        first_move_ms: None,
                    }
                    .with_tc(&spec.tc.unwrap_or(time.tc())),
                );
                bot.send(Arc::from(to_line(&hello)));
                live.push((i, bot));
            }
            Err(reason) => out[i] = Some(failed(spec, reason.to_string(), String::new())),
        }
    }
    let deadline = Instant::now() + time.startup + time.margin;
    let bye: Arc<[u8]> = Arc::from(to_line(&ToBot::Bye(Bye {
        standings: Vec::new(),
    })));
    for (i, mut bot) in live {
        match bot.await_ready(deadline, time.startup).await {
            Ok(()) => {
                bot.send(bye.clone());
                bot.finish(Instant::now() + BYE_GRACE).await;
            }
            Err(f) => {
                bot.kill().await;
                let reason = format!("{}: {}", f.kind, f.detail);
                out[i] = Some(failed(&bots[i], reason, bot.stderr_tail()));
            }
        }
    }
    out.into_iter().flatten().collect()
}

/// The message for a pre-flight that failed: every failed bot, what it did, and the way out.
pub fn message(failed: &[Failed], of: usize) -> String {
    let mut text = format!(
        "pre-flight: {} of {of} {} did not start, so every round {} would play would be a \
         forfeit; nothing was played or written:",
        failed.len(),
        if of == 1 { "bot" } else { "bots" },
        if failed.len() == 1 { "it" } else { "they" },
    );
    for f in failed {
        text.push_str(&format!("\n  {f}"));
    }
    text.push_str(
        "\nFix the command (try it with `rollarena check \"COMMAND\"`), or run anyway with \
         --no-preflight.",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_each_bot_with_its_stderr() {
        let f = Failed {
            name: "typo".into(),
            command: "rollarena bot positonal".into(),
            reason: "crash: the bot exited with status 2".into(),
            stderr: "\nerror: unknown bot \"positonal\"\n\n".into(),
        };
        let text = message(&[f], 6);
        assert!(
            text.starts_with("pre-flight: 1 of 6 bots did not start"),
            "{text}"
        );
        assert!(
            text.contains("typo (rollarena bot positonal): crash: the bot exited with status 2")
        );
        assert!(
            text.contains("    | error: unknown bot \"positonal\""),
            "{text}"
        );
        assert!(text.contains("--no-preflight"), "{text}");
    }
}
