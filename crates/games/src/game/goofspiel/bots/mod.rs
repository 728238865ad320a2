//! Goofspiel's built-in bots (`rollarena bot heuristic`, `rollarena bot search`), listed in its
//! registry entry. Both answer a request from the request alone: the seat's `state` is read
//! into what the seat knows ([`Known`]: every hand is public knowledge, since every bid is
//! revealed), and the answer is an index into the request's `legal` list.

pub mod equilibrium;
pub mod known;
pub mod matrix;
pub mod sampled;

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use crate::game::bot::{BotFlag, BotRequest, BotSettings, Build, BuiltinBot, GameBot, Unreadable};
pub use known::Known;

/// The bots of the registry entry.
pub const BOTS: &[BuiltinBot] = &[
    BuiltinBot {
        name: "heuristic",
        help: "bids by prize rank: the card whose rank in its hand is the rank of the prize on \
               show among the prizes left (the highest card for the highest prize, the lowest \
               for the lowest). Deterministic, instant.",
        flags: &[],
        build: Build::Request(build_heuristic),
    },
    BuiltinBot {
        name: "search",
        help: "judges each card by Monte-Carlo simulation of the rest of the round (the prize \
               order dealt at random) against a model of each other seat learnt from its bids \
               so far (how far its bids stray from the prize's rank), and plays the best; with \
               two players, the last 5 turns are an exact equilibrium instead (every turn a \
               matrix game of the two public hands, solved to the end of the round for a win). \
               Thinks at most half the request's time_ms less 50 ms; --movetime MS caps that, \
               --playouts N stops after N simulations of each card (with a fixed --seed: the \
               same bids every time).",
        flags: &[BotFlag::Movetime, BotFlag::Playouts],
        build: Build::Request(build_search),
    },
];

fn build_heuristic(_: &BotSettings) -> Result<Box<dyn GameBot>, crate::Error> {
    Ok(Box::new(Heuristic))
}

fn build_search(settings: &BotSettings) -> Result<Box<dyn GameBot>, crate::Error> {
    settings.search_limits()?;
    Ok(Box::new(Search {
        movetime: settings.movetime,
        playouts: settings.playouts,
        config: equilibrium::Config::default(),
        equilibrium: true,
    }))
}

/// The index of `card` in `legal`.
fn index_of(legal: &[serde_json::Value], card: u8) -> Result<usize, Unreadable> {
    legal
        .iter()
        .position(|v| match v {
            serde_json::Value::String(s) => s.trim().parse() == Ok(card),
            v => v.as_u64() == Some(u64::from(card)),
        })
        .ok_or_else(|| Unreadable(format!("the card {card} is not in legal")))
}

/// `heuristic`: bids by prize rank.
struct Heuristic;

impl GameBot for Heuristic {
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        _rng: &mut ChaCha8Rng,
        _note: &mut String,
    ) -> Result<usize, Unreadable> {
        let k = Known::read(req.state)?;
        index_of(req.legal, known::by_rank(k.hands[k.seat], k.prize, k.rest))
    }
}

/// `search`: the equilibrium with two players, simulations with more.
pub struct Search {
    pub movetime: Option<Duration>,
    pub playouts: Option<u64>,
    pub config: equilibrium::Config,
    /// With two players, the exact equilibrium once [`equilibrium::Config::exact`] or fewer
    /// prizes are face down (else the simulations to the end, as with more players).
    pub equilibrium: bool,
}

/// The time used when neither the request nor `--movetime` says anything.
const DEFAULT_TIME_MS: u64 = 1000;

impl Search {
    /// The thinking time for a request allowing `time_ms`.
    fn limit(&self, time_ms: Option<u64>) -> Option<Duration> {
        let mut limit = time_ms.map(|t| Duration::from_millis((t / 2).saturating_sub(50).max(1)));
        if let Some(m) = self.movetime {
            limit = Some(limit.map_or(m, |l| l.min(m)));
        }
        if limit.is_none() && self.playouts.is_none() {
            limit = Some(Duration::from_millis(DEFAULT_TIME_MS));
        }
        limit
    }

    /// The card for seat `k.seat`, and a line for the log.
    pub fn bid(&self, k: &Known, time_ms: Option<u64>, rng: &mut ChaCha8Rng) -> (u8, String) {
        let start = Instant::now();
        if k.players == 2 && self.equilibrium && k.rest.count_ones() <= self.config.exact {
            let mut solver = equilibrium::Solver::new(self.config);
            let opp = 1 - k.seat;
            let d = solver.decide(
                k.prize,
                k.rest,
                k.hands[k.seat],
                k.hands[opp],
                k.scores[k.seat] - k.scores[opp],
            );
            let card = d.draw(rng);
            let mix: Vec<String> = d
                .cards
                .iter()
                .zip(&d.strategy)
                .filter(|(_, p)| **p > 0.005)
                .map(|(c, p)| format!("{c}:{p:.2}"))
                .collect();
            let note = format!(
                "value {:+.3}, mix {}, {} matrix games in {} ms",
                d.value,
                mix.join(" "),
                solver.games,
                start.elapsed().as_millis()
            );
            return (card, note);
        }
        let deadline = self.limit(time_ms).map(|l| start + l);
        let cap = self.playouts;
        let judged = sampled::judge(k, rng, |n| {
            if n == 0 {
                return true;
            }
            if cap.is_some_and(|c| n >= c) {
                return false;
            }
            deadline.is_none_or(|d| Instant::now() < d)
        });
        let card = judged.best();
        let i = judged
            .cards
            .iter()
            .position(|&c| c == card)
            .expect("a card");
        let note = format!(
            "{} simulations in {} ms, {card} expected {:.3}",
            judged.simulations,
            start.elapsed().as_millis(),
            judged.mean[i]
        );
        (card, note)
    }
}

impl GameBot for Search {
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        rng: &mut ChaCha8Rng,
        note: &mut String,
    ) -> Result<usize, Unreadable> {
        let k = Known::read(req.state)?;
        let (card, line) = self.bid(&k, req.time_ms, rng);
        note.push_str(&line);
        index_of(req.legal, card)
    }
}

#[cfg(test)]
mod tests;
