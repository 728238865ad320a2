//! `rollout`: policy improvement by rollouts of the heuristic (Tesauro and Galperin 1996,
//! "On-line policy improvement using Monte-Carlo search"; Bertsekas' rollout algorithm): a
//! one-step look-ahead whose continuation is the base policy improves on the base policy.
//!
//! - **Candidates**: the [`Heuristic`]'s best [`Config::width`] decisions (its ranking).
//! - **Rollouts**: each candidate is played on a determinization of the seat's view
//!   ([`Seen::sample`]) and the round goes on for [`Config::turns`] turns with the heuristic
//!   deciding for *every* seat, the opponents included (an opponent model: the best one we
//!   have), then the [`eval`] scores of the position are turned into a result in 0..1 by the
//!   logistic of the seat's score against the others (a finished round: 1 to its winners).
//! - **Common random numbers**: sample `i` is the same determinization and the same chance
//!   (deck, reshuffles) for every candidate, so candidates are compared pairwise on the same
//!   deals and the comparison's noise is that of the differences, not of the deals.
//! - **Racing**: samples are spent on the candidates still in the race; once each has
//!   [`Config::min_samples`], a candidate whose paired difference to the leader is below zero
//!   by [`Config::z`] standard errors leaves it. The search stops when one is left, at the
//!   budget or at the deadline; the answer is the leader.
//! - **The rollouts' policy** is the heuristic itself. A cheaper one ([`Policy::Light`]: no
//!   teleports, a 6-turn evaluation horizon, a fifth of the cost) was screened and left off:
//!   as a player it wins 27% of two-player and 15.5% of four-player rounds against the
//!   heuristic it would stand for (`bench/README.md`, "Rollerball's bots", the fourth round).
//! - **Time**: as `ismcts` ([`super::ismcts::budget`]): the deadline is checked before every
//!   rollout, which takes a few milliseconds at most. The setup decisions are the heuristic's.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::eval::{self, Weights};
use super::heuristic::Heuristic;
use super::ismcts::Found;
use super::rebuild::Seen;
use super::root::{Limits, Root};
use crate::game::rollerball::moves::Move;
use crate::game::rollerball::state::Rollerball;

/// The rollout bot's settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Think at most this long per decision.
    pub movetime: Option<Duration>,
    /// At most this many rollouts per decision (one candidate on one determinization).
    pub playouts: Option<u64>,
    /// At most this much CPU time of the calling thread per decision.
    pub cpu_time: Option<Duration>,
    /// Candidates: the heuristic's best this many decisions.
    pub width: usize,
    /// Turns played by the heuristic after the decision's own turn; 0: one per seat.
    pub turns: u32,
    /// Turns of ball phases the evaluation at the end of a rollout looks ahead.
    pub horizon: u32,
    /// Scale of the logistic turning a score into a result.
    pub temperature: f32,
    /// Standard errors below the leader that put a candidate out of the race.
    pub z: f32,
    /// Samples every candidate gets before any leaves the race.
    pub min_samples: u32,
    /// Standard errors the leader must be ahead of the heuristic's own choice to be played
    /// instead of it (0: the leader is played).
    pub keep: f32,
    /// The rollouts' policy for the workman's move.
    pub policy: Policy,
}

/// The rollouts' policy for the workman's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The heuristic as it plays.
    Full,
    /// The heuristic without teleports (a teleport is weighed with every use after it: most
    /// of the heuristic's time) and with an evaluation horizon of this many turns.
    Light(u32),
}

impl Default for Config {
    fn default() -> Config {
        Config {
            movetime: None,
            playouts: None,
            cpu_time: None,
            width: 6,
            turns: 0,
            horizon: 10,
            temperature: 1.0,
            z: 2.0,
            min_samples: 8,
            keep: 0.0,
            policy: Policy::Full,
        }
    }
}

/// The rollout bot.
#[derive(Clone, Debug, Default)]
pub struct Rollout {
    pub config: Config,
    pub heuristic: Heuristic,
}

impl Rollout {
    pub fn new(config: Config) -> Rollout {
        Rollout {
            config,
            heuristic: Heuristic::default(),
        }
    }

    /// The policy the rollouts play for every seat.
    fn policy(&self) -> Heuristic {
        match self.config.policy {
            Policy::Full => self.heuristic.clone(),
            Policy::Light(horizon) => Heuristic {
                weights: Weights {
                    horizon,
                    ..self.heuristic.weights
                },
                teleports: false,
            },
        }
    }

    /// Chooses one of `legal` for the seat of `seen`, within `time_ms` when given.
    pub fn search(
        &self,
        seen: &Seen,
        legal: &[Move],
        time_ms: Option<u64>,
        rng: &mut ChaCha8Rng,
    ) -> Found {
        let limits = Limits::new(
            time_ms,
            self.config.movetime,
            self.config.playouts,
            self.config.cpu_time,
        );
        let Root { order, .. } =
            match Root::new(&self.heuristic, seen, legal, self.config.width, rng) {
                Ok(root) => root,
                Err(found) => return found,
            };
        let policy = self.policy();
        let turns = match self.config.turns {
            0 => seen.players() as u32,
            t => t,
        };
        let end_weights = Weights {
            horizon: self.config.horizon,
            ..self.heuristic.weights
        };
        // values[k][i]: candidate k's result on sample i (every candidate in the race has
        // been played on every sample so far).
        let mut values: Vec<Vec<f32>> = vec![Vec::new(); order.len()];
        let mut alive: Vec<usize> = (0..order.len()).collect();
        let mut rollouts = 0u64;
        'samples: loop {
            let sample_seed: u64 = rng.random();
            for &k in &alive {
                if limits.reached(rollouts) {
                    break 'samples;
                }
                let v = self.rollout(
                    seen,
                    &legal[order[k]],
                    sample_seed,
                    turns,
                    &policy,
                    &end_weights,
                );
                values[k].push(v);
                rollouts += 1;
            }
            let n = values[alive[0]].len();
            if n >= self.config.min_samples as usize {
                let lead = leader(&values, &alive, n);
                alive.retain(|&k| {
                    k == lead || {
                        let (mean, se) = paired(&values[k], &values[lead], n);
                        mean + self.config.z * se >= 0.0
                    }
                });
                if alive.len() == 1 {
                    break;
                }
            }
        }
        // Only samples every candidate still in the race played count (a sample cut short
        // by the budget is left out).
        let n = alive.iter().map(|&k| values[k].len()).min().unwrap_or(0);
        if n == 0 {
            return Found {
                index: order[0],
                iterations: rollouts,
                value: f32::NAN,
            };
        }
        let mut pick = leader(&values, &alive, n);
        if self.config.keep > 0.0 && pick != 0 && alive.contains(&0) {
            let (mean, se) = paired(&values[pick], &values[0], n);
            if mean < self.config.keep * se {
                pick = 0;
            }
        }
        Found {
            index: order[pick],
            iterations: rollouts,
            value: values[pick][..n].iter().sum::<f32>() / n as f32,
        }
    }

    /// One rollout: `mv` played on the determinization drawn from `seed`, then `turns` turns
    /// of `policy` for every seat; the seat's result in 0..1.
    fn rollout(
        &self,
        seen: &Seen,
        mv: &Move,
        seed: u64,
        turns: u32,
        policy: &Heuristic,
        end_weights: &Weights,
    ) -> f32 {
        let seat = seen.seat;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = seen.sample(&mut rng);
        let end = g.turn() + turns;
        if g.play(seat, mv).is_err() {
            return 0.0;
        }
        let mut steps = 0;
        while let Some(s) = g.next_seat() {
            if g.turn() > end || steps > 400 {
                break;
            }
            steps += 1;
            let legal = g.legal(s);
            let i = policy.choose(&g, s, &legal, &mut rng);
            if g.play(s, &legal[i]).is_err() {
                break;
            }
        }
        result(&g, seat, end_weights, self.config.temperature)
    }
}

/// The seat's result in 0..1: the logistic of its score against the others.
fn result(g: &Rollerball, seat: usize, w: &Weights, temperature: f32) -> f32 {
    let scores = eval::scores(g, &[], w);
    let r = eval::relative(&scores, g.players(), seat);
    1.0 / (1.0 + (-r / temperature).exp())
}

/// The candidate in the race with the best mean over the first `n` samples.
fn leader(values: &[Vec<f32>], alive: &[usize], n: usize) -> usize {
    let mean = |k: usize| values[k][..n].iter().sum::<f32>();
    *alive
        .iter()
        .max_by(|&&a, &&b| mean(a).total_cmp(&mean(b)))
        .expect("a candidate")
}

/// The mean of `a - b` over the first `n` samples and its standard error.
fn paired(a: &[f32], b: &[f32], n: usize) -> (f32, f32) {
    let d: Vec<f32> = (0..n).map(|i| a[i] - b[i]).collect();
    let mean = d.iter().sum::<f32>() / n as f32;
    if n < 2 {
        return (mean, f32::INFINITY);
    }
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / (n - 1) as f32;
    (mean, (var / n as f32).sqrt())
}
