//! What both searches (`ismcts`, `rollout`) share at the root of a decision: when to stop
//! (the request's clock with its margin, `--movetime`, `--playouts`, a CPU-time budget), and
//! which decisions to search (the heuristic's best, ranked on one determinization; the setup
//! and a lone candidate are answered by the heuristic at once).

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::heuristic::{Heuristic, SKIP, best_index};
use super::ismcts::{Found, budget};
use super::rebuild::Seen;
use crate::game::bot::thread_cpu;
use crate::game::rollerball::moves::Move;
use crate::game::rollerball::state::{Phase, Rollerball};

/// The time used when neither the request nor `--movetime` says anything.
const DEFAULT_TIME_MS: u64 = 1000;

/// When a search stops: whichever of its limits comes first.
pub struct Limits {
    deadline: Option<Instant>,
    playouts: Option<u64>,
    cpu_end: Option<Duration>,
}

impl Limits {
    /// The limits of a search starting now: the request's `time_ms` (through [`budget`]) and
    /// `movetime`, whichever is less; `playouts` iterations; `cpu_time` of the thread. With
    /// none of them, [`DEFAULT_TIME_MS`].
    pub fn new(
        time_ms: Option<u64>,
        movetime: Option<Duration>,
        playouts: Option<u64>,
        cpu_time: Option<Duration>,
    ) -> Limits {
        let start = Instant::now();
        let mut limit = time_ms.map(budget);
        if let Some(m) = movetime {
            limit = Some(limit.map_or(m, |l| l.min(m)));
        }
        if limit.is_none() && playouts.is_none() && cpu_time.is_none() {
            limit = Some(Duration::from_millis(DEFAULT_TIME_MS));
        }
        Limits {
            deadline: limit.map(|l| start + l),
            playouts,
            cpu_end: cpu_time.map(|c| thread_cpu() + c),
        }
    }

    /// Whether the search must stop after `done` iterations (checked before each: one is far
    /// shorter than the clock's margin).
    pub fn reached(&self, done: u64) -> bool {
        self.playouts.is_some_and(|n| done >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cpu_end.is_some_and(|c| thread_cpu() >= c)
    }
}

/// The root of a search: one determinization, the heuristic's scores of `legal` on it, and
/// the indices of its best decisions, best first.
pub struct Root {
    pub g0: Rollerball,
    pub ranks: Vec<f32>,
    pub order: Vec<usize>,
}

impl Root {
    /// The root with the heuristic's best `width` decisions; `Err` with the heuristic's own
    /// answer when there is nothing to search (the setup, or one candidate).
    pub fn new(
        heuristic: &Heuristic,
        seen: &Seen,
        legal: &[Move],
        width: usize,
        rng: &mut ChaCha8Rng,
    ) -> Result<Root, Found> {
        let g0 = seen.sample(rng);
        let ranks = heuristic.rank(&g0, seen.seat, legal);
        let setup = matches!(
            g0.phase(),
            Phase::Bid | Phase::Base | Phase::Workman | Phase::Card | Phase::Ball
        );
        let mut order: Vec<usize> = (0..legal.len()).filter(|&i| ranks[i] > SKIP).collect();
        order.sort_by(|&a, &b| ranks[b].total_cmp(&ranks[a]));
        order.truncate(width.max(1));
        if setup || order.len() <= 1 {
            return Err(Found {
                index: best_index(&ranks, rng),
                iterations: 0,
                value: f32::NAN,
            });
        }
        Ok(Root { g0, ranks, order })
    }
}
