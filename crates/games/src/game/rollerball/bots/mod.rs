//! Rollerball's built-in bots (`rollarena bot heuristic`, `ismcts`, `rollout`), listed in its
//! registry entry. Each answers a request from the request alone: the seat's `state` is
//! read into a [`View`], the engine is rebuilt from it with the unseen cards sampled
//! ([`rebuild`]), and the answer is an index into the request's `legal` list.

pub mod eval;
pub mod heuristic;
pub mod ismcts;
pub mod rebuild;
pub mod rollout;
pub mod root;

use rand_chacha::ChaCha8Rng;

use super::moves::Move;
use super::view::View;
use crate::game::bot::{BotFlag, BotRequest, BotSettings, Build, BuiltinBot, GameBot, Unreadable};
pub use heuristic::Heuristic;
pub use ismcts::{Found, Ismcts};
pub use rebuild::Seen;
pub use rollout::Rollout;

/// The bots of the registry entry.
pub const BOTS: &[BuiltinBot] = &[
    BuiltinBot {
        name: "heuristic",
        help: "plays every decision that scores best one turn ahead: victory points, the \
               rewards and hits the balls will bring over the next turns if the board stays \
               as it is (scoring into its base, blocking the others', keeping its workman out \
               of the way), and cards in hand; a workman move is judged with the best build, \
               blow-up or replace after it. Answers in milliseconds.",
        flags: &[],
        build: Build::Request(build_heuristic),
    },
    BuiltinBot {
        name: "ismcts",
        help: "information-set Monte-Carlo tree search: every iteration deals the cards it has \
               not seen at random (consistently with the hand sizes, the board, the discards \
               and the points), searches the heuristic's best decisions (each starting \
               with the heuristic's judgement of it as a prior) and the replies to them, and \
               judges a few turns of light play by the heuristic's evaluation. \
               Thinks for 80% of the request's time_ms less 50 ms; --movetime MS caps that, \
               --playouts N stops after N iterations (with a fixed --seed: the same moves \
               every time). The setup decisions are the heuristic's.",
        flags: &[BotFlag::Movetime, BotFlag::Playouts],
        build: Build::Request(build_ismcts),
    },
    BuiltinBot {
        name: "rollout",
        help: "the strongest: policy improvement by rollouts of the heuristic. The \
               heuristic's 6 best decisions are each played on the same random deals of the \
               cards it has not seen, then one turn per seat is played by the heuristic for \
               every seat, and the position judged by the heuristic's evaluation; decisions \
               clearly behind the leader on the same deals are dropped as the samples come \
               in, and the leader is played. Thinks for 80% of the request's time_ms less \
               50 ms; --movetime MS caps that, --playouts N stops after N rollouts (with a \
               fixed --seed: the same moves every time). The setup decisions are the \
               heuristic's.",
        flags: &[BotFlag::Movetime, BotFlag::Playouts],
        build: Build::Request(build_rollout),
    },
];

fn build_rollout(settings: &BotSettings) -> Result<Box<dyn GameBot>, crate::Error> {
    settings.search_limits()?;
    Ok(Box::new(Rollout::new(rollout::Config {
        movetime: settings.movetime,
        playouts: settings.playouts,
        ..rollout::Config::default()
    })))
}

fn build_heuristic(_: &BotSettings) -> Result<Box<dyn GameBot>, crate::Error> {
    Ok(Box::new(HeuristicBot))
}

fn build_ismcts(settings: &BotSettings) -> Result<Box<dyn GameBot>, crate::Error> {
    settings.search_limits()?;
    Ok(Box::new(Ismcts::new(ismcts::Config {
        movetime: settings.movetime,
        playouts: settings.playouts,
        ..ismcts::Config::default()
    })))
}

/// The request read: the seat's knowledge and the legal moves, typed.
pub fn read(req: &BotRequest<'_>) -> Result<(Seen, Vec<Move>), Unreadable> {
    let view: View = serde_json::from_value(req.state.clone())
        .map_err(|e| format!("the state is not a Rollerball state: {e}"))?;
    let seen = Seen::new(&view)?;
    let legal = req
        .legal
        .iter()
        .map(|v| {
            v.as_str()
                .ok_or_else(|| format!("a legal move that is not a string: {v}"))
                .and_then(|s| Move::parse(s).map_err(|e| e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((seen, legal))
}

/// `heuristic` as a game bot.
struct HeuristicBot;

impl GameBot for HeuristicBot {
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        rng: &mut ChaCha8Rng,
        _note: &mut String,
    ) -> Result<usize, Unreadable> {
        let (seen, legal) = read(req)?;
        Ok(heuristic::answer(&seen, &legal, rng))
    }
}

/// A search's answer to a request, with its log line: `N <unit>, "<move>" expected V`.
fn searched(
    req: &BotRequest<'_>,
    rng: &mut ChaCha8Rng,
    note: &mut String,
    unit: &str,
    search: impl FnOnce(&Seen, &[Move], Option<u64>, &mut ChaCha8Rng) -> Found,
) -> Result<usize, Unreadable> {
    let (seen, legal) = read(req)?;
    let found = search(&seen, &legal, req.time_ms, rng);
    if found.iterations > 0 {
        note.push_str(&format!(
            "{} {unit}, {} expected {:.3}",
            found.iterations, req.legal[found.index], found.value
        ));
    }
    Ok(found.index)
}

impl GameBot for Rollout {
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        rng: &mut ChaCha8Rng,
        note: &mut String,
    ) -> Result<usize, Unreadable> {
        searched(req, rng, note, "rollouts", |s, l, t, r| {
            self.search(s, l, t, r)
        })
    }
}

impl GameBot for Ismcts {
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        rng: &mut ChaCha8Rng,
        note: &mut String,
    ) -> Result<usize, Unreadable> {
        searched(req, rng, note, "iterations", |s, l, t, r| {
            self.search(s, l, t, r)
        })
    }
}

#[cfg(test)]
mod tests;
