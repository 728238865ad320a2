//! What every game's scenarios share: the `hello` of a conversation, opening one (its
//! start-up problems are the scenario's), closing it with what it saw kept, the handshake
//! item, and the end of a `bye` scenario.

use serde_json::Value;

use super::CheckConfig;
use super::talk::{Junk, Problem, Talk};
use crate::arbiter::matches::BYE_GRACE;
use crate::game::Seat;
use crate::wire::{Hello, PROTOCOL_VERSION, Ready};

/// What the scenarios saw besides their verdicts.
#[derive(Default)]
pub struct Seen {
    /// Junk lines found.
    pub junk: Junk,
    /// Lines received from the bot.
    pub received: u32,
    /// The bot's `ready`, once seen.
    pub ready: Option<Ready>,
}

/// The verdict of a scenario: a one-line detail when it passed.
pub type Verdict = Result<String, Problem>;

/// The `hello` of a match of `game` (its name and options) with the bot in `seat` of
/// `players`, the other seats named `check-N`.
pub fn hello(
    config: &CheckConfig,
    game: &str,
    options: Value,
    seat: Seat,
    players: usize,
    rounds: u32,
) -> Hello {
    let mut seats: Vec<String> = (0..players).map(|s| format!("check-{s}")).collect();
    seats[seat] = config.bot.name.clone();
    Hello {
        protocol: PROTOCOL_VERSION,
        game: game.into(),
        options,
        seat,
        seats,
        rounds,
        startup_ms: config.time.startup.as_millis() as u64,
        move_ms: config.time.per_move.as_millis() as u64,
        bank_ms: None,
        increment_ms: None,
        first_move_ms: None,
    }
    .with_tc(&config.time.tc())
}

/// Starts a conversation; the start-up problems of a later scenario are its own. `freeze`:
/// idle bots are frozen (sequential games, where the check freezes as a match does).
pub async fn open(
    config: &CheckConfig,
    hello: Hello,
    freeze: bool,
    seen: &mut Seen,
) -> Result<Talk, Problem> {
    match Talk::open(
        &config.bot,
        config.limits,
        &config.isolation,
        config.time,
        freeze,
        hello,
    )
    .await
    {
        Ok((talk, ready, _)) => {
            seen.ready.get_or_insert(ready);
            Ok(talk)
        }
        Err((problem, junk)) => {
            seen.junk.merge(junk);
            Err(problem)
        }
    }
}

/// Ends a conversation, keeping what it saw.
pub async fn close(talk: Talk, seen: &mut Seen) {
    seen.received += talk.received;
    seen.junk.merge(talk.close().await);
}

/// The handshake item: `hello`, then `ready` with a name within the start-up budget.
pub async fn handshake(
    config: &CheckConfig,
    hello: Hello,
    freeze: bool,
    seen: &mut Seen,
) -> Verdict {
    match Talk::open(
        &config.bot,
        config.limits,
        &config.isolation,
        config.time,
        freeze,
        hello,
    )
    .await
    {
        Ok((talk, ready, ms)) => {
            let detail = format!(
                "ready from {:?} version {:?} in {ms:.0} ms (budget {} ms)",
                ready.name,
                ready.version,
                config.time.startup.as_millis()
            );
            seen.ready = Some(ready);
            close(talk, seen).await;
            Ok(detail)
        }
        Err((problem, junk)) => {
            seen.junk.merge(junk);
            Err(problem)
        }
    }
}

/// The end of a `bye` scenario, once its round was played and `end` sent: lets the bot show
/// that it does not leave after `end`, then sends `bye` and judges the exit.
pub async fn bye(mut talk: Talk, seen: &mut Seen) -> Verdict {
    if let Err(p) = talk.settle().await {
        close(talk, seen).await;
        return Err(p);
    }
    seen.received += talk.received;
    seen.junk.merge(std::mem::take(&mut talk.junk));
    let (exit, ms) = talk.bye(BYE_GRACE).await?;
    Ok(format!(
        "{exit} {ms:.0} ms after bye (grace {} ms)",
        BYE_GRACE.as_millis()
    ))
}

/// Runs `body` on a fresh conversation (opened with [`open`]) and closes it whatever happens.
#[macro_export]
macro_rules! with_talk {
    ($config:expr, $hello:expr, $freeze:expr, $seen:expr, |$talk:ident| $body:expr) => {{
        let mut $talk = $crate::check::conversation::open($config, $hello, $freeze, $seen).await?;
        let verdict: $crate::check::Verdict = async { $body }.await;
        $crate::check::conversation::close($talk, $seen).await;
        verdict
    }};
}
