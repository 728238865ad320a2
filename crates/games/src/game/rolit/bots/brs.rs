//! `brs`: Best-Reply Search (Schadd & Winands, 2011) in its BRS+ form (Esser et al., 2013),
//! with the phase-dependent evaluation of [`eval`](super::eval).
//!
//! Paranoid search treats a cycle of `k` opponents' moves as `k` layers of minimising; max^n
//! cannot prune. Best-Reply Search instead lets only one opponent reply between two moves of
//! the searching player: a MIN layer is the set of every opponent's moves, the best reply
//! against the player is searched and the others pass. Rolit has no passes, so this is BRS+:
//! the opponents who do not reply play their move-ordering move (the best tier of squares,
//! see [`eval::tiers`](super::eval::tiers), then the most balls turned) in turn order, which keeps every searched
//! position a real one. The search alternates MAX and MIN layers, one layer per unit of depth,
//! with alpha-beta pruning, moves ordered by tier (and the previous iteration's best move at
//! the root).
//!
//! With two players, once the position is within the exact solver's frontier for half the
//! move's time (with a fixed `--depth`: the last 12 moves), the solver's move is played
//! (`solver::endgame`), the search otherwise.
//!
//! The depth is fixed (`--depth`, reproducible) or found by iterative deepening against the
//! clock: a new iteration starts while less than 40% of the move's [`budget`] is spent, and an
//! iteration the deadline interrupts is thrown away.
//!
//! [`budget`]: super::mcts::budget

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::Strategy;
use super::eval::{Evaluator, WEIGHTS, WEIGHTS_MULTI, Weights, ordered, tiers};
use super::mcts::budget;
use crate::game::rolit::bitboard::{Squares, flips};
use crate::game::rolit::solver::endgame::Endgame;
use crate::game::rolit::{Colour, Position, Square};

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Layers to search (MAX and MIN layers count one each); `None`: iterative deepening
    /// against the clock.
    pub depth: Option<u32>,
    /// At most this long per move.
    pub movetime: Option<Duration>,
    /// The evaluation's weights with two players, and with three or four.
    pub weights: Weights,
    pub weights_multi: Weights,
    /// With two players, play the exact solver's move once the position is within its
    /// frontier for the move's time ([`crate::game::rolit::solver::endgame`]).
    pub endgame: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            depth: None,
            movetime: None,
            weights: WEIGHTS,
            weights_multi: WEIGHTS_MULTI,
            endgame: true,
        }
    }
}

/// The deepest iterative deepening goes.
pub const MAX_LAYERS: u32 = 64;

const INF: i32 = i32::MAX / 2;

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Layers of the last complete iteration.
    pub depth: u32,
    pub value: i32,
    /// The exact final ball difference when the endgame solver chose the move.
    pub exact: Option<i32>,
}

/// The BRS+ bot.
#[derive(Debug)]
pub struct Brs {
    config: Config,
    eval: Evaluator,
    me: Colour,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    endgame: Endgame,
    pub last: Report,
}

impl Brs {
    pub fn new(config: Config) -> Brs {
        Brs {
            eval: Evaluator::new(8, config.weights),
            config,
            me: Colour::Red,
            nodes: 0,
            deadline: None,
            aborted: false,
            endgame: Endgame::default(),
            last: Report::default(),
        }
    }

    /// The move an opponent who does not reply plays: the best tier, then the most balls.
    fn default_move(&self, pos: &Position) -> Square {
        let legal = pos.legal_moves();
        let t = tiers(&self.eval.geometry, pos, legal);
        let set = t.into_iter().find(|&s| s != 0).unwrap_or(legal);
        let own = pos.balls(pos.to_move());
        let opp = pos.occupied() & !own;
        let mut best = (0u32, set.trailing_zeros() as u8);
        for sq in Squares(set) {
            let n = flips(sq, own, opp).count_ones();
            if n > best.0 {
                best = (n, sq);
            }
        }
        Square(best.1)
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn max_node(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 || pos.is_over() {
            return self.eval.evaluate(pos, self.me);
        }
        if self.tick() {
            return alpha;
        }
        let g = self.eval.geometry;
        for sq in ordered(&g, pos, pos.legal_moves()) {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            let v = self.min_node(&next, depth - 1, alpha, beta);
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        alpha
    }

    /// A MIN layer: `pos` has the first opponent after `me` to move.
    fn min_node(&mut self, pos: &Position, depth: u32, alpha: i32, mut beta: i32) -> i32 {
        if depth == 0 || pos.is_over() {
            return self.eval.evaluate(pos, self.me);
        }
        if self.tick() {
            return beta;
        }
        let g = self.eval.geometry;
        let opponents = pos.colours().len() - 1;
        let mut base = *pos;
        for j in 0..opponents {
            if base.is_over() {
                let v = self.eval.evaluate(&base, self.me);
                return v.max(alpha).min(beta);
            }
            for sq in ordered(&g, &base, base.legal_moves()) {
                let mut q = base;
                q.play_unchecked(Square(sq));
                for _ in j + 1..opponents {
                    if q.is_over() {
                        break;
                    }
                    let d = self.default_move(&q);
                    q.play_unchecked(d);
                }
                let v = if q.is_over() {
                    self.eval.evaluate(&q, self.me)
                } else {
                    self.max_node(&q, depth - 1, alpha, beta)
                };
                if v < beta {
                    beta = v;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            }
            let d = self.default_move(&base);
            base.play_unchecked(d);
        }
        beta
    }

    /// One iteration at the root: the best move among `moves` (tried in that order) and its
    /// value, or `None` if the deadline interrupted it.
    fn root(&mut self, pos: &Position, moves: &[u8], depth: u32) -> Option<(u8, i32)> {
        let mut alpha = -INF;
        let mut best = moves[0];
        for &sq in moves {
            let mut next = *pos;
            next.play_unchecked(Square(sq));
            let v = self.min_node(&next, depth - 1, alpha, INF);
            if self.aborted {
                return None;
            }
            if v > alpha {
                alpha = v;
                best = sq;
            }
        }
        Some((best, alpha))
    }

    pub fn search(&mut self, pos: &Position, legal: u64, time_ms: Option<u64>) -> Square {
        let started = Instant::now();
        let weights = if pos.colours().len() == 2 {
            self.config.weights
        } else {
            self.config.weights_multi
        };
        if self.eval.geometry.size != pos.size() || self.eval.weights != weights {
            self.eval = Evaluator::new(pos.size(), weights);
        }
        self.me = pos.to_move();
        self.nodes = 0;
        self.aborted = false;
        let mut limit = time_ms.map(budget);
        if let Some(m) = self.config.movetime {
            limit = Some(limit.map_or(m, |l| l.min(m)));
        }
        if limit.is_none() && self.config.depth.is_none() {
            limit = Some(budget(1000));
        }
        self.deadline = limit.map(|l| started + l);
        // With a fixed depth (reproducible), only the untimed endgame.
        let solve_limit = if self.config.depth.is_some() {
            None
        } else {
            limit
        };
        if self.config.endgame
            && legal.count_ones() > 1
            && let Some((sq, solution)) = self.endgame.solve(pos, legal, started, solve_limit)
        {
            self.last = Report {
                nodes: solution.nodes,
                elapsed: started.elapsed(),
                exact: Some(solution.value),
                ..Report::default()
            };
            return sq;
        }
        let g = self.eval.geometry;
        let mut moves: Vec<u8> = ordered(&g, pos, legal).collect();
        let mut best = (moves[0], 0);
        let mut done = 0;
        let empty = pos.empty().count_ones();
        let max_depth = self
            .config
            .depth
            .unwrap_or(MAX_LAYERS)
            .min(2 * empty)
            .max(1);
        if moves.len() > 1 || self.config.depth.is_some() {
            for depth in 1..=max_depth {
                match self.root(pos, &moves, depth) {
                    Some(b) => {
                        best = b;
                        done = depth;
                        // The best move first at the next iteration.
                        let i = moves.iter().position(|&m| m == b.0).unwrap_or(0);
                        moves[..=i].rotate_right(1);
                    }
                    None => break,
                }
                if self.config.depth.is_none()
                    && let Some(l) = limit
                    && started.elapsed() > l.mul_f64(0.4)
                {
                    break;
                }
            }
        }
        self.last = Report {
            nodes: self.nodes,
            elapsed: started.elapsed(),
            depth: done,
            value: best.1,
            exact: None,
        };
        Square(best.0)
    }
}

impl Strategy for Brs {
    fn name(&self) -> &'static str {
        "brs"
    }

    fn choose(&mut self, pos: &Position, legal: u64, _rng: &mut ChaCha8Rng) -> Square {
        self.search(pos, legal, None)
    }

    fn choose_timed(
        &mut self,
        pos: &Position,
        legal: u64,
        _rng: &mut ChaCha8Rng,
        time_ms: Option<u64>,
        log: &mut String,
    ) -> Square {
        let sq = self.search(pos, legal, time_ms);
        let r = &self.last;
        if let Some(v) = r.exact {
            let _ = write!(
                log,
                "brs {sq}: solved exactly, final ball difference {v:+} with best play, {} nodes \
                 in {} ms",
                r.nodes,
                r.elapsed.as_millis()
            );
            return sq;
        }
        let secs = r.elapsed.as_secs_f64().max(1e-6);
        let _ = write!(
            log,
            "brs {sq}: value {}, depth {}, {} nodes in {} ms ({:.0}/s)",
            r.value,
            r.depth,
            r.nodes,
            r.elapsed.as_millis(),
            r.nodes as f64 / secs
        );
        sq
    }
}
