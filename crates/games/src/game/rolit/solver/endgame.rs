//! The exact endgame of the built-in bots (`mcts`, `brs`) with two players: when few enough
//! squares are empty that the solver finishes within a fraction of the move's time, the bot
//! plays a move that keeps the exact value (the best final ball difference, hence a win
//! whenever one can be forced) instead of searching.
//!
//! The frontier comes from measurements (`solver::tests::frontier_8x8`, one core, positions
//! of real endgames): the empties at which the slowest of a sample solves within the time
//! given ([`frontier`]). The solve also stops at its own deadline, so a position that turns
//! out harder than its neighbours costs only that share of the move's time, and the bot's
//! own search goes on with the rest.

use std::time::{Duration, Instant};

use super::{Limits, Solution, Solver};
use crate::game::rolit::position::{Position, Square};

/// The share of a move's time the exact solve may take.
pub const SHARE: f64 = 0.5;

/// Without a time (a bot stopped by a playout or depth count, reproducible), only positions
/// this close to the end are solved: a few milliseconds at most, whatever the machine.
pub const UNTIMED_EMPTIES: u32 = 12;

/// The transposition table of a bot's solver.
const TABLE_BYTES: usize = 32 << 20;

/// Slowest solve measured (ms, 8x8, two players, one core, a fresh table) by empties, from
/// 12 up; the frontier for a time is the deepest entry within it.
const SLOWEST_MS: [(u32, f64); 10] = [
    (12, 5.0),
    (13, 6.0),
    (14, 10.0),
    (15, 15.0),
    (16, 60.0),
    (17, 105.0),
    (18, 215.0),
    (19, 370.0),
    (20, 1850.0),
    (21, 4300.0),
];

/// The most empties a solve is expected to finish within `time`.
pub fn frontier(time: Duration) -> u32 {
    let ms = time.as_secs_f64() * 1000.0;
    SLOWEST_MS
        .iter()
        .take_while(|(_, slowest)| *slowest <= ms)
        .last()
        .map_or(10, |&(e, _)| e)
}

/// A bot's endgame solver (its table kept between moves: the positions of a round share
/// their subtrees).
#[derive(Debug, Default)]
pub struct Endgame {
    solver: Option<Solver>,
}

impl Endgame {
    /// A move that keeps the exact value of `pos` (two players), among `legal`, when `pos`
    /// is within the frontier of the time the bot has (`limit` from `started`; `None`: no
    /// time, then only the last [`UNTIMED_EMPTIES`]), and the solve finishes in its share
    /// of that time. `None` otherwise: the bot searches as usual.
    pub fn solve(
        &mut self,
        pos: &Position,
        legal: u64,
        started: Instant,
        limit: Option<Duration>,
    ) -> Option<(Square, Solution)> {
        if pos.colours().len() != 2 || legal == 0 {
            return None;
        }
        let empties = pos.empty().count_ones();
        let limits = match limit {
            None if empties <= UNTIMED_EMPTIES => Limits::none(),
            None => return None,
            Some(l) => {
                let share = l.mul_f64(SHARE);
                if empties > frontier(share) {
                    return None;
                }
                Limits {
                    deadline: Some(started + share),
                    nodes: None,
                }
            }
        };
        let solver = self.solver.get_or_insert_with(|| Solver::new(TABLE_BYTES));
        let solution = solver.solve(pos, limits)?;
        let sq = *solution.best.iter().find(|s| legal & s.bit() != 0)?;
        Some((sq, solution))
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::rolit::Colour;
    use crate::game::rolit::bitboard::Squares;
    use crate::game::rolit::bots::{Brs, Mcts, Strategy, brs, mcts};

    #[test]
    fn the_frontier_grows_with_the_time() {
        assert_eq!(frontier(Duration::ZERO), 10);
        assert_eq!(frontier(Duration::from_millis(60)), 16);
        assert_eq!(frontier(Duration::from_millis(400)), 19);
        assert_eq!(frontier(Duration::from_secs(60)), 21);
    }

    /// What the exact endgame is worth: a bot with it against the same bot without it, 8x8,
    /// two players, 2 random opening plies, seats alternated. `brs --depth 3` by default (the
    /// last 12 moves solved); `GAIN_BOT=mcts GAIN_MS=100` for `mcts` at 100 ms a move.
    /// Prints the win share with its 95% interval:
    /// `cargo test --lib solver::endgame::tests::gain -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement"]
    fn gain() {
        use crate::game::rolit::bots::{Bot, Options, arena};
        let env = |k: &str| std::env::var(k).ok();
        let rounds = env("GAIN_ROUNDS").map_or(200, |v| v.parse().unwrap());
        let ms: Option<u64> = env("GAIN_MS").map(|v| v.parse().unwrap());
        let mcts = env("GAIN_BOT").is_some_and(|b| b == "mcts");
        let bot = |endgame| {
            let strategy: Box<dyn Strategy> = if mcts {
                Box::new(Mcts::new(mcts::Config {
                    endgame,
                    ..mcts::Config::default()
                }))
            } else {
                Box::new(Brs::new(brs::Config {
                    depth: Some(3),
                    endgame,
                    ..brs::Config::default()
                }))
            };
            Bot::new(strategy, Options::default())
        };
        // GAIN_SHARD=k/n plays only the seat pairs p with p % n == k (rounds 2p and 2p+1), so
        // that n processes share a long measurement; each prints its shares for combining.
        let (k, n) = env("GAIN_SHARD").map_or((0, 1), |s| {
            let (k, n) = s.split_once('/').expect("GAIN_SHARD=k/n");
            (k.parse().unwrap(), n.parse().unwrap())
        });
        let mut shares = Vec::new();
        for r in (0..rounds).filter(|r| (r / 2) % n == k) {
            let share = arena::shares(|| (bot(true), vec![bot(false)]), 8, 2, [r], ms)[0];
            println!("round {r}: {share}");
            shares.push(share);
        }
        let (mean, se) = arena::mean_and_error(&shares);
        println!(
            "{} with the exact endgame against without it, {rounds} rounds, {}: a win share \
             of {:.1}% +- {:.1}%",
            if mcts { "mcts" } else { "brs --depth 3" },
            ms.map_or("no clock".to_string(), |ms| format!("{ms} ms a move")),
            mean * 100.0,
            1.96 * se * 100.0
        );
    }

    #[test]
    fn the_bots_play_an_exact_best_move_in_the_endgame() {
        let mut rng = ChaCha8Rng::seed_from_u64(48);
        let mut solver = Solver::new(1 << 20);
        let mut mcts = Mcts::new(mcts::Config::default());
        let mut brs = Brs::new(brs::Config::default());
        let mut untimed = Mcts::new(mcts::Config {
            playouts: Some(50),
            ..mcts::Config::default()
        });
        for game in 0..4 {
            let first = [Colour::Red, Colour::Green][game % 2];
            let mut pos = Position::start(8, 2, first).unwrap();
            while pos.empty().count_ones() > 12 {
                let legal: Vec<u8> = Squares(pos.legal_moves()).collect();
                pos.play_unchecked(Square(legal[rng.random_range(0..legal.len())]));
            }
            let best = solver.solve(&pos, Limits::none()).unwrap().best;
            let legal = pos.legal_moves();
            let mut log = String::new();
            for bot in [&mut mcts as &mut dyn Strategy, &mut brs, &mut untimed] {
                let time = (bot.name() != "mcts" || game < 2).then_some(300);
                let sq = bot.choose_timed(&pos, legal, &mut rng, time, &mut log);
                assert!(
                    best.contains(&sq),
                    "{} played {sq}, not one of {best:?}",
                    bot.name()
                );
            }
            assert!(log.contains("solved exactly"), "{log}");
        }
    }
}
