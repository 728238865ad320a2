//! `ismcts`: single-observer information-set Monte-Carlo tree search (Cowling, Powley and
//! Whitehouse 2012) for the hidden hands and deck.
//!
//! - **Determinization**: every iteration deals the cards this seat has not seen at random,
//!   consistently with what it has seen ([`Seen::sample`]: the other hands by their sizes, a
//!   reward card another seat is looking at, the deck; sealed bids as parts of those hands).
//! - **One tree for the information set**: nodes are keyed by the moves that lead to them,
//!   whoever makes them; a move that is legal in one determinization and not in another is
//!   chosen by UCB1 with *availability* counts (how often it could have been chosen) instead of
//!   the parent's visits. Each node keeps every seat's summed results, and the seat deciding
//!   there maximises its own (max^n).
//! - **Moves searched**: at the root, the best [`Config::root_width`] decisions by the
//!   [`Heuristic`]'s ranking, each starting with [`Config::prior`] virtual visits worth the
//!   heuristic's score of it through the playouts' logistic (in-process screening against
//!   `heuristic` at 1,000 iterations a decision, 200 rounds a setting: with two players 58.2%
//!   of the wins without a prior, 63.7% with 10 visits and 63.7% with 100; with four players
//!   19.3% with 10 visits and 27.6% with 100, fair share 25%); below it, every reward, discard
//!   and use decision, and workman moves that walk or stay (teleports are left to the root).
//! - **Playouts**: [`Config::rollout_turns`] turns of a light policy (points rather than cards,
//!   the cheapest card discarded, the workman mostly staying, mostly no use), then the
//!   [`eval`] scores (points, the balls' coming rewards and hits, cards) turned into a result
//!   in 0..1 per seat by a logistic of each seat's score against the others, of scale
//!   [`Config::temperature`]; a finished game gives 1 to its winners.
//! - **Screened and left off** (knobs of [`Config`], `bench/README.md`, "Rollerball's bots"): a prior that
//!   grows with the iterations, playouts guided by a short look-ahead, workman moves searched
//!   as plans with the heuristic's best use, a sharper logistic (0.5: better with four players
//!   at 1,000 iterations, worse at 10,000, neither beyond its interval).
//! - **Time**: the search stops at a deadline set from the request's `time_ms` with a wide
//!   safety margin ([`budget`]), at `--movetime`, or after `--playouts` iterations (then, with
//!   a fixed `--seed`, the same answer every time). The setup decisions (bid, base, workman,
//!   setup cards, the ball) are the heuristic's: there is nothing yet for a search to see.

use std::time::Duration;

use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::eval::{self, PerSeat, SEATS, Weights};
use super::heuristic::{Heuristic, after, cheapest};
use super::rebuild::Seen;
use super::root::{Limits, Root};
use crate::game::rollerball::moves::{Keep, Move};
use crate::game::rollerball::state::{Phase, Rollerball};

/// The search's settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Think at most this long per decision.
    pub movetime: Option<Duration>,
    /// At most this many iterations per decision.
    pub playouts: Option<u64>,
    /// UCB1's exploration constant.
    pub exploration: f32,
    /// Root decisions searched, the heuristic's best.
    pub root_width: usize,
    /// Turns of light play after the tree, before the evaluation.
    pub rollout_turns: u32,
    /// Scale of the logistic turning a score into a result.
    pub temperature: f32,
    /// Virtual visits giving each root decision the heuristic's judgement of it as a prior
    /// (its score through the same logistic); 0: none.
    pub prior: u32,
    /// Turns of ball phases the evaluation at the end of a playout looks ahead.
    pub horizon: u32,
    /// How much of a seat's rivalry is with the best other seat rather than the others'
    /// mean, in the results (0 to 1).
    pub rival: f32,
    /// Decisions deep the tree grows (the root's included); 0: no limit. Below it the
    /// playout takes over.
    pub tree_depth: u32,
    /// The prior's weight grows with the search: each root decision's virtual visits are the
    /// larger of [`Config::prior`] and this fraction of the iterations run so far (0: fixed).
    pub prior_growth: f32,
    /// Playout policy: 0, the light one; N > 0, the workman's move and use chosen as the best
    /// (by the evaluation, [`Config::guide_horizon`] turns ahead) of staying / no use and N
    /// walks / uses drawn at random.
    pub guided: u32,
    /// Turns of ball phases a guided playout decision looks ahead.
    pub guide_horizon: u32,
    /// A workman move at the root is searched as a plan: the move and the heuristic's best use
    /// of the workman after it, played together (otherwise the use below it is searched, and
    /// the move's value is averaged over uses mostly tried once).
    pub plans: bool,
    /// At most this much CPU time of the calling thread per decision (measurements: a budget
    /// that the machine's load does not shrink).
    pub cpu_time: Option<Duration>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            movetime: None,
            playouts: None,
            exploration: 0.7,
            root_width: 10,
            rollout_turns: 2,
            temperature: 1.0,
            prior: 100,
            horizon: 10,
            rival: 0.5,
            tree_depth: 0,
            prior_growth: 0.0,
            guided: 0,
            guide_horizon: 3,
            cpu_time: None,
            plans: false,
        }
    }
}

/// The thinking time for a request allowing `time_ms`: 80% of it less 50 ms (the rest is the
/// margin for reading, writing and a busy machine), at least 1 ms.
pub fn budget(time_ms: u64) -> Duration {
    Duration::from_millis((time_ms * 4 / 5).saturating_sub(50).max(1))
}

/// A node of the tree: the move that led here and who made it.
struct Node {
    mv: Option<Move>,
    children: Vec<u32>,
    visits: u32,
    avail: u32,
    sum: PerSeat,
}

impl Node {
    fn new(mv: Option<Move>) -> Node {
        Node {
            mv,
            children: Vec::new(),
            visits: 0,
            avail: 0,
            sum: [0.0; SEATS],
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The index of the chosen move in the request's `legal`.
    pub index: usize,
    /// Iterations run.
    pub iterations: u64,
    /// The chosen move's mean result for the seat.
    pub value: f32,
}

/// The search bot.
#[derive(Clone, Debug, Default)]
pub struct Ismcts {
    pub config: Config,
    pub heuristic: Heuristic,
}

impl Ismcts {
    pub fn new(config: Config) -> Ismcts {
        Ismcts {
            config,
            heuristic: Heuristic::default(),
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
        let seat = seen.seat;
        let Root { g0, ranks, order } =
            match Root::new(&self.heuristic, seen, legal, self.config.root_width, rng) {
                Ok(root) => root,
                Err(found) => return found,
            };
        let mut tree = vec![Node::new(None)];
        let root_moves: Vec<Move> = order.iter().map(|&i| legal[i].clone()).collect();
        // The use that goes with each root workman move, when moves are searched as plans.
        let uses: Vec<Option<Move>> = if self.config.plans && g0.phase == Phase::Move {
            root_moves
                .iter()
                .map(|m| self.heuristic.best_use(&g0, seat, m).1)
                .collect()
        } else {
            Vec::new()
        };
        // With a prior, every root decision is a child from the start (child k is
        // `root_moves[k]`), worth the heuristic's judgement of it over `prior` visits.
        let with_prior = self.config.prior > 0 || self.config.prior_growth > 0.0;
        let mut prior = Prior {
            values: Vec::new(),
            weight: 0.0,
        };
        if with_prior {
            for (k, m) in root_moves.iter().enumerate() {
                prior
                    .values
                    .push(logistic(ranks[order[k]] / self.config.temperature));
                tree.push(Node::new(Some(m.clone())));
                tree[0].children.push(k as u32 + 1);
            }
        }
        let mut iterations = 0u64;
        loop {
            if limits.reached(iterations) {
                break;
            }
            if with_prior {
                prior.weight = (self.config.prior as f32)
                    .max(self.config.prior_growth * iterations as f32)
                    .max(1.0);
            }
            self.iterate(&mut tree, seen, &root_moves, &uses, &prior, rng);
            iterations += 1;
        }
        let root = &tree[0];
        let mut best = (0usize, 0u32, f32::NAN);
        for (i, &c) in root.children.iter().enumerate() {
            let n = &tree[c as usize];
            if n.visits > best.1 || (with_prior && i == 0) {
                let k = root_moves
                    .iter()
                    .position(|m| Some(m) == n.mv.as_ref())
                    .expect("a root move");
                let value = match prior.values.get(k) {
                    Some(v) => (n.sum[seat] + prior.weight * v) / (n.visits as f32 + prior.weight),
                    None => n.sum[seat] / n.visits as f32,
                };
                best = (k, n.visits, value);
            }
        }
        let index = if best.1 == 0 && !with_prior {
            order[0]
        } else {
            order[best.0]
        };
        Found {
            index,
            iterations,
            value: best.2,
        }
    }

    /// One iteration: a determinization, a descent that adds one node, a playout, the results
    /// backed up.
    fn iterate(
        &self,
        tree: &mut Vec<Node>,
        seen: &Seen,
        root_moves: &[Move],
        uses: &[Option<Move>],
        prior: &Prior,
        rng: &mut ChaCha8Rng,
    ) {
        let mut g = seen.sample(rng);
        let start_turn = g.turn;
        let mut path = vec![0u32];
        let mut node = 0u32;
        let mut descend = true;
        if !prior.values.is_empty() {
            // The root: every decision is a child, its mean and count mixed with the prior.
            let w = prior.weight;
            let actor = seen.seat;
            let mut pick = (1u32, f32::NEG_INFINITY);
            for k in 0..root_moves.len() {
                let c = k as u32 + 1;
                let n = &mut tree[c as usize];
                n.avail += 1;
                let visits = n.visits as f32 + w;
                let ucb = (n.sum[actor] + w * prior.values[k]) / visits
                    + self.config.exploration * (((n.avail as f32 + w).ln()) / visits).sqrt();
                if ucb > pick.1 {
                    pick = (c, ucb);
                }
            }
            let m = tree[pick.0 as usize].mv.clone().expect("a move");
            descend = g.play(actor, &m).is_ok();
            if descend {
                path.push(pick.0);
                node = pick.0;
                self.play_use(&mut g, actor, uses, pick.0 as usize - 1);
            }
        }
        while descend && let Some(actor) = g.next_seat() {
            if self.config.tree_depth > 0 && path.len() > self.config.tree_depth as usize {
                break;
            }
            let cands = if node == 0 {
                root_moves.to_vec()
            } else {
                candidates(&g, actor)
            };
            if cands.is_empty() {
                break;
            }
            let mut untried = Vec::new();
            let mut pick: Option<(u32, f32)> = None;
            let children = tree[node as usize].children.clone();
            for m in &cands {
                match children
                    .iter()
                    .find(|&&c| tree[c as usize].mv.as_ref() == Some(m))
                {
                    None => untried.push(m.clone()),
                    Some(&c) => {
                        let n = &mut tree[c as usize];
                        n.avail += 1;
                        let ucb = n.sum[actor] / n.visits as f32
                            + self.config.exploration
                                * ((n.avail as f32).ln() / n.visits as f32).sqrt();
                        if pick.is_none_or(|(_, u)| ucb > u) {
                            pick = Some((c, ucb));
                        }
                    }
                }
            }
            if !untried.is_empty() {
                let m = untried.choose(rng).expect("not empty").clone();
                if g.play(actor, &m).is_err() {
                    break;
                }
                if node == 0
                    && let Some(k) = root_moves.iter().position(|r| *r == m)
                {
                    self.play_use(&mut g, actor, uses, k);
                }
                let id = tree.len() as u32;
                let mut n = Node::new(Some(m));
                n.avail = 1;
                tree.push(n);
                tree[node as usize].children.push(id);
                path.push(id);
                break;
            }
            let (c, _) = pick.expect("a child");
            let m = tree[c as usize].mv.clone().expect("a move");
            if g.play(actor, &m).is_err() {
                break;
            }
            if node == 0
                && let Some(k) = root_moves.iter().position(|r| *r == m)
            {
                self.play_use(&mut g, actor, uses, k);
            }
            path.push(c);
            node = c;
        }
        self.playout(&mut g, start_turn, rng);
        let results = self.results(&g);
        for id in path {
            let n = &mut tree[id as usize];
            n.visits += 1;
            for (sum, r) in n.sum.iter_mut().zip(results) {
                *sum += r;
            }
        }
    }

    /// With plans, the use planned with root move `k`, played when `seat` is asked for it.
    fn play_use(&self, g: &mut Rollerball, seat: usize, uses: &[Option<Move>], k: usize) {
        if let Some(Some(u)) = uses.get(k)
            && g.phase == Phase::Use
            && g.next_seat() == Some(seat)
        {
            // A use legal on one deal is legal on all (the board and this hand are known);
            // if not, the tree goes on from the use decision.
            let _ = g.play(seat, u);
        }
    }

    /// Light play for a few turns.
    fn playout(&self, g: &mut Rollerball, start_turn: u32, rng: &mut ChaCha8Rng) {
        let end = start_turn + self.config.rollout_turns;
        let mut steps = 0;
        while let Some(seat) = g.next_seat() {
            if g.turn > end || steps > 200 {
                break;
            }
            steps += 1;
            let mv = match (self.config.guided, g.phase) {
                (k @ 1.., Phase::Move | Phase::Use) => self.guide(g, seat, k as usize, rng),
                _ => light(g, seat, rng),
            };
            if g.play(seat, &mv).is_err() {
                break;
            }
        }
    }

    /// A guided playout decision: the best by the evaluation a few turns ahead of staying (no
    /// use) and `k` walks (uses) drawn at random.
    fn guide(&self, g: &Rollerball, seat: usize, k: usize, rng: &mut ChaCha8Rng) -> Move {
        let (pass, options) = if g.phase == Phase::Move {
            let from = g.board.workmen[seat].expect("placed");
            let walks: Vec<Move> = g.walk_targets(from).into_iter().map(Move::Walk).collect();
            (Move::Stay, walks)
        } else {
            (Move::NoUse, g.legal(seat))
        };
        let w = Weights {
            horizon: self.config.guide_horizon,
            ..Weights::default()
        };
        let mut best = (pass.clone(), after(g, seat, &pass, &w));
        for m in options.choose_multiple(rng, k) {
            if *m == pass {
                continue;
            }
            let v = after(g, seat, m, &w);
            if v > best.1 {
                best = (m.clone(), v);
            }
        }
        best.0
    }

    /// Every seat's result in 0..1.
    fn results(&self, g: &Rollerball) -> PerSeat {
        let w = Weights {
            horizon: self.config.horizon,
            ..Weights::default()
        };
        let scores = eval::scores(g, &[], &w);
        let mut out = [0.0; SEATS];
        for (s, o) in out.iter_mut().enumerate().take(g.players) {
            let r = rivalry(&scores, g.players, s, self.config.rival);
            *o = logistic(r / self.config.temperature);
        }
        out
    }
}

/// The root's prior: the heuristic's judgement of each root decision (by its index in the
/// root's moves) and the virtual visits it is worth now.
struct Prior {
    values: Vec<f32>,
    weight: f32,
}

/// The logistic turning a score difference into a result in 0..1.
fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `seat`'s score less a mix of the best other's (weight `rival`) and the others' mean.
fn rivalry(scores: &eval::PerSeat, players: usize, seat: usize, rival: f32) -> f32 {
    let others = (0..players).filter(|&s| s != seat).map(|s| scores[s]);
    let (mut best, mut sum) = (f32::MIN, 0.0);
    for v in others {
        best = best.max(v);
        sum += v;
    }
    scores[seat] - (rival * best + (1.0 - rival) * sum / (players - 1) as f32)
}

/// The decisions searched below the root.
fn candidates(g: &Rollerball, seat: usize) -> Vec<Move> {
    match g.phase {
        Phase::Move | Phase::Extra => {
            let from = g.board.workmen[seat].expect("placed");
            std::iter::once(Move::Stay)
                .chain(g.walk_targets(from).into_iter().map(Move::Walk))
                .collect()
        }
        _ => g.legal(seat),
    }
}

/// The playout policy.
fn light(g: &Rollerball, seat: usize, rng: &mut ChaCha8Rng) -> Move {
    match g.phase {
        Phase::Reward => {
            if g.pending.and_then(|p| p.card).is_some() {
                Move::Vp
            } else {
                match g.board.cards.choose(rng) {
                    Some(c) => Move::Take(c.s1, Keep::Vp),
                    None => Move::Decline,
                }
            }
        }
        Phase::Discard => Move::Discard(cheapest(g, seat).expect("a card to discard")),
        Phase::Move | Phase::Extra => {
            if rng.random_bool(0.5) {
                return Move::Stay;
            }
            let from = g.board.workmen[seat].expect("placed");
            g.walk_targets(from)
                .choose(rng)
                .map_or(Move::Stay, |&s| Move::Walk(s))
        }
        Phase::Use => {
            if rng.random_bool(0.6) {
                return Move::NoUse;
            }
            let legal = g.legal(seat);
            legal.choose(rng).cloned().unwrap_or(Move::NoUse)
        }
        _ => {
            let legal = g.legal(seat);
            legal.choose(rng).cloned().expect("a legal move")
        }
    }
}
