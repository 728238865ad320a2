//! `mcts`: multi-player Monte-Carlo tree search for Rolit, on every board size and player
//! count.
//!
//! What it is made of (after Nijssen & Winands' multi-player MCTS and MP-MCTS-Solver):
//!
//! - **max^n backups**: every node keeps the sum of each colour's result over the simulations
//!   through it, and a node is chosen by the colour to move in its parent for that colour's
//!   own mean (plus exploration), so each player is assumed to play for itself.
//! - **Results**: per colour, the win share (1 for a sole winner, 1/k for k tied at the top,
//!   0 otherwise) mixed with the ball margin against the best other colour (a small share,
//!   [`Config::margin`], so that a bigger win or a smaller loss is still preferred).
//! - **Leaves with two players** ([`Leaf::Estimate`]): no playout. The node reached is
//!   expanded, each new child starts with the [`Estimator`]'s expected shares of its position
//!   after a one-ply search, i.e. the opponent's best reply (the tuned evaluation of `brs`
//!   through a fitted logistic; minimax-informed priors after Baier & Winands), as 3 virtual
//!   visits, and the simulation's result is the best of them for the colour to move. Against
//!   `brs` at 250 ms a move the plain evaluation took `mcts` from 5% of the rounds to about
//!   44%, the one-ply search to about 63% (a two-ply one, ten times slower, 48%); playouts
//!   cut after 8 plies and then evaluated won 10%.
//! - **Playouts** with three or four players ([`Leaf::Playout`]), better than uniform: with probability [`Config::epsilon`] a uniformly random
//!   legal move, otherwise a random one among the best tier of the legal moves (corners; edge
//!   squares (those of a taken corner included); the middle; C and X squares next to an empty
//!   corner last).
//!   Captures come first by the rules already (a move that captures nothing is legal only
//!   when no move captures). A playout allocates nothing and uses its own xorshift generator,
//!   seeded from the bot's ChaCha8 generator, so everything stays reproducible.
//! - **Progressive history** (Nijssen & Winands): a table of each colour's mean result after
//!   playing each square, over every move of every simulation (tree and playout), adds
//!   `W * history / (n * (1 - mean) + 1)` to a child's score; unvisited children are tried in
//!   the order of their history.
//! - **Solver** near the end of the round: a node whose position is final has an exact value;
//!   a node whose children all have exact values has the exact value of the child best for its
//!   mover (max^n), and the backups carry exact values upwards. A solved root stops the search.
//! - **Exact endgame** with two players ([`Config::endgame`]): once the position is within
//!   the exact solver's frontier for half the move's time, the solver's move (the best final
//!   ball difference) is played instead of searching; a solve that does not finish in its
//!   half leaves the other half to the tree search (`solver::endgame`).
//! - **Tree reuse**: the tree below the move played is kept; at the next turn the node whose
//!   position is the new one (a whole cycle of moves below the old root) becomes the root, and
//!   its subtree is compacted into a fresh arena.
//! - **Time**: a search stops at a deadline computed from the turn's `time_ms` with a safety
//!   margin ([`budget`]), at `--movetime`, after `--playouts` simulations, or when the root is
//!   solved, whichever comes first. With a fixed number of playouts and no deadline reached, a
//!   move depends only on the seeds.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Strategy;
use super::estimate::{Estimator, SCALE, SCALE_MULTI};
use super::eval::{Geometry, WEIGHTS, WEIGHTS_MULTI};
use super::random_square;
use crate::game::rolit::bitboard::{Squares, capture_moves, neighbours};
use crate::game::rolit::solver::endgame::Endgame;
use crate::game::rolit::{Position, Square};

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// At most this long per move, whatever the turn allows.
    pub movetime: Option<Duration>,
    /// At most this many simulations per move.
    pub playouts: Option<u64>,
    /// UCB exploration constant.
    pub exploration: f32,
    /// Progressive history weight (0: none).
    pub history: f32,
    /// Probability of a uniformly random move in playouts.
    pub epsilon: f32,
    /// Share of the ball margin in a result (the rest is the win share).
    pub margin: f32,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// Nodes the tree may hold (28 bytes each; twice that while a new move's tree is
    /// compacted). With [`Leaf::Estimate`] a search stops when the tree is full: a simulation
    /// that cannot expand learns nothing new.
    pub max_nodes: usize,
    /// How a simulation ends below the tree with two players.
    pub leaf: Leaf,
    /// With two players, play the exact solver's move once the position is within its
    /// frontier for the move's time ([`crate::game::rolit::solver::endgame`]).
    pub endgame: bool,
    /// The same with three or four players.
    pub leaf_multi: Leaf,
}

/// How a simulation ends once it leaves the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    /// A playout to the end of the round; the round's result.
    Playout,
    /// No playout: the node reached is expanded, each new child gets the [`Estimator`]'s
    /// shares of its position after a `depth`-ply search ([`Estimator::searched`]) as
    /// `priors` virtual visits (at least 1), and the simulation's result is the child best
    /// for the colour to move (a one-ply max^n look-ahead above that search).
    Estimate { priors: u32, depth: u32 },
}

impl Default for Config {
    fn default() -> Config {
        Config {
            movetime: None,
            playouts: None,
            exploration: 0.35,
            history: 1.0,
            epsilon: 0.15,
            margin: 0.15,
            reuse: true,
            max_nodes: 8_000_000,
            leaf: Leaf::Estimate {
                priors: 3,
                depth: 1,
            },
            leaf_multi: Leaf::Playout,
            endgame: true,
        }
    }
}

/// Thinking time for a move that allows `time_ms`: 85% of it less 50 ms for the process, the
/// pipes and a loaded machine, at least 2 ms.
pub fn budget(time_ms: u64) -> Duration {
    let ms = (time_ms as f64 * 0.85 - 50.0).max(2.0);
    Duration::from_micros((ms * 1000.0) as u64)
}

/// The time used when neither the turn nor `--movetime` nor `--playouts` says anything.
const DEFAULT_TIME_MS: u64 = 1000;

/// A tree node. Children of a node are contiguous in the arena.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Sum of each colour's results (by `Colour as usize`); the exact result once solved.
    sum: [f32; 4],
    visits: u32,
    /// First child (0: not expanded; the root is node 0, never anyone's child).
    first: u32,
    children: u8,
    /// The move that leads here.
    sq: u8,
    solved: bool,
}

impl Node {
    fn new(sq: u8) -> Node {
        Node {
            sum: [0.0; 4],
            visits: 0,
            first: 0,
            children: 0,
            sq,
            solved: false,
        }
    }

    #[inline]
    fn mean(&self, c: usize) -> f32 {
        if self.solved {
            self.sum[c]
        } else if self.visits == 0 {
            0.0
        } else {
            self.sum[c] / self.visits as f32
        }
    }
}

/// A small fast generator for playouts (xorshift64*).
#[derive(Clone, Copy, Debug)]
struct Fast(u64);

impl Fast {
    #[inline(always)]
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in 0..n (n > 0), by multiply-shift.
    #[inline(always)]
    fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// A uniformly random square of a non-empty bitboard.
    #[inline(always)]
    fn pick(&mut self, mut set: u64) -> u8 {
        for _ in 0..self.below(set.count_ones()) {
            set &= set - 1;
        }
        set.trailing_zeros() as u8
    }

    /// True with probability `p`.
    #[inline(always)]
    fn chance(&mut self, p: f32) -> bool {
        ((self.next() >> 40) as f32) < p * (1u64 << 24) as f32
    }
}

/// What a search did, for the `log` line and the benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    pub playouts: u64,
    pub elapsed: Duration,
    pub nodes: usize,
    /// Deepest node reached below the root, in plies.
    pub depth: u32,
    /// Visits kept from the previous move's tree.
    pub reused: u32,
    /// The chosen move's visits and mean result for the mover.
    pub visits: u32,
    pub value: f32,
    pub solved: bool,
    /// The exact final ball difference when the endgame solver chose the move.
    pub exact: Option<i32>,
}

/// The multi-player MCTS bot.
#[derive(Debug)]
pub struct Mcts {
    config: Config,
    geometry: Geometry,
    nodes: Vec<Node>,
    /// The position at node 0.
    root: Option<Position>,
    /// Progressive history: per colour and square, the sum of results and the count.
    history: [[(f32, u32); 64]; 4],
    fast: Fast,
    /// How simulations end, for this round's player count.
    leaf: Leaf,
    /// The tree could not grow in this search ([`Leaf::Estimate`] only).
    full: bool,
    estimator: Estimator,
    endgame: Endgame,
    pub last: Report,
}

/// Plies a simulation can have: moves on an 8x8 board, plus room.
const MAX_PLIES: usize = 64;

/// The playout policy (see the module's documentation).
#[inline(always)]
fn playout_with(
    fast: &mut Fast,
    g: &Geometry,
    eps: f32,
    mut pos: Position,
    moves: &mut [(u8, u8); MAX_PLIES],
    len: &mut usize,
) -> Position {
    let mask = pos.mask();
    loop {
        let occ = pos.occupied();
        let empty = mask & !occ;
        if empty == 0 {
            return pos;
        }
        let me = pos.to_move();
        let own = pos.balls(me);
        let caps = capture_moves(own, occ & !own, empty);
        let legal = if caps != 0 {
            caps
        } else {
            neighbours(occ) & empty
        };
        let set = if fast.chance(eps) {
            legal
        } else if legal & g.corners != 0 {
            legal & g.corners
        } else {
            let danger = g.danger(empty);
            let safe = legal & !danger;
            let edge = safe & g.edges;
            if edge != 0 {
                edge
            } else if safe != 0 {
                safe
            } else {
                legal
            }
        };
        let sq = fast.pick(set);
        if *len < MAX_PLIES {
            moves[*len] = (me as u8, sq);
            *len += 1;
        }
        pos.play_unchecked(Square(sq));
    }
}

impl Mcts {
    pub fn new(config: Config) -> Mcts {
        Mcts {
            config,
            geometry: Geometry::new(8),
            nodes: Vec::new(),
            root: None,
            history: [[(0.0, 0); 64]; 4],
            fast: Fast(1),
            leaf: Leaf::Playout,
            full: false,
            estimator: Estimator::new(8, WEIGHTS, SCALE),
            endgame: Endgame::default(),
            last: Report::default(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Each colour's result of a finished round.
    #[inline]
    fn result(&self, pos: &Position) -> [f32; 4] {
        let counts = pos.counts();
        let colours = pos.colours();
        let mut best = 0;
        let mut second = 0;
        let mut tied = 0;
        for &c in colours {
            let n = counts[c as usize];
            if n > best {
                second = best;
                best = n;
                tied = 1;
            } else if n == best {
                second = best;
                tied += 1;
            } else if n > second {
                second = n;
            }
        }
        let cells = self.geometry.cells as f32;
        let m = self.config.margin;
        let mut out = [0.0; 4];
        for &c in colours {
            let n = counts[c as usize];
            let (win, other) = if n == best {
                (1.0 / tied as f32, second)
            } else {
                (0.0, best)
            };
            let margin = (n as f32 - other as f32) / cells;
            out[c as usize] = (1.0 - m) * win + m * (0.5 + 0.5 * margin);
        }
        out
    }

    /// Plays `pos` to the end with the playout policy, recording the moves after the first
    /// `*len` of `moves`; returns each colour's result.
    #[inline]
    fn playout(
        &mut self,
        pos: Position,
        moves: &mut [(u8, u8); MAX_PLIES],
        len: &mut usize,
    ) -> [f32; 4] {
        let g = self.geometry;
        let eps = self.config.epsilon;
        let end = playout_with(&mut self.fast, &g, eps, pos, moves, len);
        self.result(&end)
    }

    /// Gives node `n` (position `pos`, not final) its children, if the arena has room.
    fn expand(&mut self, n: usize, pos: &Position) -> bool {
        let moves = pos.legal_moves();
        let count = moves.count_ones() as usize;
        if self.nodes.len() + count > self.config.max_nodes {
            return false;
        }
        let first = self.nodes.len();
        self.nodes.extend(Squares(moves).map(Node::new));
        self.nodes[n].first = first as u32;
        self.nodes[n].children = count as u8;
        true
    }

    /// Gives the new children of `n` (position `pos`, `c` to move) their estimates after a
    /// `depth`-ply search as `k` virtual visits (exact values for final positions, solved);
    /// returns the estimate of the child best for `c` ([`Leaf::Estimate`]).
    fn priors(&mut self, n: usize, pos: &Position, c: usize, k: u32, depth: u32) -> [f32; 4] {
        let first = self.nodes[n].first as usize;
        let mut best = [f32::NEG_INFINITY; 4];
        for i in first..first + self.nodes[n].children as usize {
            let mut next = *pos;
            next.play_unchecked(Square(self.nodes[i].sq));
            let over = next.is_over();
            let v = if over {
                self.result(&next)
            } else {
                self.estimator.searched(&next, depth)
            };
            let node = &mut self.nodes[i];
            if over {
                node.solved = true;
                node.sum = v;
            } else {
                node.visits = k;
                node.sum = v.map(|e| e * k as f32);
            }
            if v[c] > best[c] {
                best = v;
            }
        }
        best
    }

    /// The child of `n` the colour `c` (to move at `n`) would try next.
    #[inline]
    fn select(&self, n: usize, c: usize) -> usize {
        let node = &self.nodes[n];
        let first = node.first as usize;
        let log_n = (node.visits.max(1) as f32).ln();
        let cfg = &self.config;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for i in first..first + node.children as usize {
            let child = &self.nodes[i];
            let (hs, hc) = self.history[c][child.sq as usize];
            let hist = if hc == 0 { 0.5 } else { hs / hc as f32 };
            let score = if child.solved {
                child.sum[c]
            } else if child.visits == 0 {
                1e6 + hist
            } else {
                let v = child.visits as f32;
                let mean = child.sum[c] / v;
                mean + cfg.exploration * (log_n / v).sqrt()
                    + cfg.history * hist / (v * (1.0 - mean) + 1.0)
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// One simulation from the root: selection, expansion, playout, backup, solver.
    fn iterate(&mut self, root: &Position, depth: &mut u32) {
        let mut path = [0u32; MAX_PLIES + 1];
        // The colour to move at each node of the path.
        let mut movers = [0u8; MAX_PLIES + 1];
        let mut plen = 0;
        let mut moves = [(0u8, 0u8); MAX_PLIES];
        let mut mlen = 0;
        let mut pos = *root;
        let mut n = 0usize;
        let result = loop {
            path[plen] = n as u32;
            movers[plen] = pos.to_move() as u8;
            plen += 1;
            if self.nodes[n].solved {
                break self.nodes[n].sum;
            }
            if pos.is_over() {
                let r = self.result(&pos);
                let node = &mut self.nodes[n];
                node.solved = true;
                node.sum = r;
                break r;
            }
            if let (0, Leaf::Estimate { priors, depth }) = (self.nodes[n].children, self.leaf) {
                if self.expand(n, &pos) {
                    let c = pos.to_move() as usize;
                    break self.priors(n, &pos, c, priors.max(1), depth);
                }
                self.full = true;
                break self.estimator.shares(&pos);
            }
            if self.nodes[n].children == 0
                && (n != 0 && self.nodes[n].visits == 0 || !self.expand(n, &pos))
            {
                break self.playout(pos, &mut moves, &mut mlen);
            }
            let c = pos.to_move() as usize;
            let child = self.select(n, c);
            let sq = self.nodes[child].sq;
            if mlen < MAX_PLIES {
                moves[mlen] = (c as u8, sq);
                mlen += 1;
            }
            pos.play_unchecked(Square(sq));
            n = child;
            if plen >= MAX_PLIES {
                // Cannot happen on 8x8 (60 moves); a guard for the arrays.
                break self.playout(pos, &mut moves, &mut mlen);
            }
        };
        *depth = (*depth).max(plen as u32 - 1);
        for &p in &path[..plen] {
            let node = &mut self.nodes[p as usize];
            node.visits = node.visits.saturating_add(1);
            if !node.solved {
                for (s, r) in node.sum.iter_mut().zip(result) {
                    *s += r;
                }
            }
        }
        for &(c, sq) in &moves[..mlen] {
            let h = &mut self.history[c as usize][sq as usize];
            h.0 += result[c as usize];
            h.1 += 1;
        }
        // Solver: a parent whose children are all solved takes its mover's best child.
        for i in (0..plen - 1).rev() {
            let p = path[i] as usize;
            let c = movers[i] as usize;
            let node = self.nodes[p];
            if node.solved || node.children == 0 {
                break;
            }
            let first = node.first as usize;
            let mut best: Option<[f32; 4]> = None;
            for ch in &self.nodes[first..first + node.children as usize] {
                if !ch.solved {
                    best = None;
                    break;
                }
                if best.is_none_or(|b| ch.sum[c] > b[c]) {
                    best = Some(ch.sum);
                }
            }
            match best {
                Some(v) => {
                    let node = &mut self.nodes[p];
                    node.solved = true;
                    node.sum = v;
                }
                None => break,
            }
        }
    }

    /// Makes `pos` the root: the node of the old tree with that position (at most one cycle
    /// of moves below the old root), its subtree compacted, or a fresh tree.
    fn set_root(&mut self, pos: &Position) -> u32 {
        let found = match (self.config.reuse, self.root) {
            (true, Some(old)) if !self.nodes.is_empty() => self.find(&old, pos),
            _ => None,
        };
        let Some(found) = found else {
            self.nodes.clear();
            self.nodes.push(Node::new(0));
            self.root = Some(*pos);
            return 0;
        };
        // Breadth-first copy: children stay contiguous.
        let mut fresh = Vec::with_capacity(self.nodes.len().min(self.config.max_nodes));
        fresh.push(self.nodes[found]);
        let mut i = 0;
        while i < fresh.len() {
            let node: Node = fresh[i];
            if node.children > 0 {
                let first = fresh.len();
                let old = node.first as usize;
                fresh.extend_from_slice(&self.nodes[old..old + node.children as usize]);
                fresh[i].first = first as u32;
            }
            i += 1;
        }
        self.nodes = fresh;
        self.root = Some(*pos);
        self.nodes[0].visits
    }

    /// The node at most one cycle of moves below the root whose position is `target`.
    fn find(&self, root: &Position, target: &Position) -> Option<usize> {
        if root == target {
            return Some(0);
        }
        let plies = target.ply().checked_sub(root.ply())? as usize;
        if plies == 0 || plies > 4 {
            return None;
        }
        let mut stack = vec![(0usize, *root, 0usize)];
        while let Some((n, pos, d)) = stack.pop() {
            if d == plies {
                if pos == *target {
                    return Some(n);
                }
                continue;
            }
            let node = self.nodes[n];
            let first = node.first as usize;
            for ch in first..first + node.children as usize {
                let mut next = pos;
                next.play_unchecked(Square(self.nodes[ch].sq));
                // Prune: the balls already placed on the target must be placed here too.
                if next.occupied() & !target.occupied() == 0 {
                    stack.push((ch, next, d + 1));
                }
            }
        }
        None
    }

    /// Searches `pos` and returns the chosen move among `legal`, with a report.
    pub fn search(
        &mut self,
        pos: &Position,
        legal: u64,
        rng: &mut ChaCha8Rng,
        time_ms: Option<u64>,
    ) -> Square {
        let started = Instant::now();
        if self.geometry.size != pos.size() {
            self.geometry = Geometry::new(pos.size());
            self.nodes.clear();
            self.root = None;
        }
        let two = pos.colours().len() == 2;
        let (leaf, weights, scale) = if two {
            (self.config.leaf, WEIGHTS, SCALE)
        } else {
            (self.config.leaf_multi, WEIGHTS_MULTI, SCALE_MULTI)
        };
        self.leaf = leaf;
        if self.estimator.eval.geometry.size != pos.size() || self.estimator.eval.weights != weights
        {
            self.estimator = Estimator::new(pos.size(), weights, scale);
            self.nodes.clear();
            self.root = None;
        }
        self.fast = Fast(rng.random::<u64>() | 1);
        // Older history counts half.
        for row in &mut self.history {
            for h in row.iter_mut() {
                h.0 *= 0.5;
                h.1 /= 2;
            }
        }
        let mut limit = match (time_ms, self.config.movetime, self.config.playouts) {
            (Some(t), _, _) => Some(budget(t)),
            (None, None, None) => Some(budget(DEFAULT_TIME_MS)),
            _ => None,
        };
        if let Some(m) = self.config.movetime {
            limit = Some(limit.map_or(m, |l| l.min(m)));
        }
        let deadline = limit.map(|l| started + l);
        if self.config.endgame
            && legal.count_ones() > 1
            && let Some((sq, solution)) = self.endgame.solve(pos, legal, started, limit)
        {
            self.last = Report {
                elapsed: started.elapsed(),
                exact: Some(solution.value),
                solved: true,
                ..Report::default()
            };
            return sq;
        }
        let max_playouts = self.config.playouts.unwrap_or(u64::MAX);
        let reused = self.set_root(pos);
        let mut depth = 0;
        let mut playouts = 0u64;
        if legal.count_ones() > 1 {
            self.full = false;
            while playouts < max_playouts && !self.nodes[0].solved && !self.full {
                self.iterate(pos, &mut depth);
                playouts += 1;
                if playouts.is_multiple_of(16) && deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
        }
        let c = pos.to_move() as usize;
        let root = self.nodes[0];
        let first = root.first as usize;
        let mut choice: Option<(usize, (bool, u32, f32))> = None;
        for i in first..first + root.children as usize {
            let ch = &self.nodes[i];
            if legal & (1u64 << ch.sq) == 0 {
                continue;
            }
            // A solved root: the exact best; otherwise the most visited, then the best mean.
            let key = if root.solved {
                (true, 0, ch.sum[c])
            } else {
                (false, ch.visits, ch.mean(c))
            };
            if choice.is_none_or(|(_, k)| (key.1, key.2) > (k.1, k.2)) {
                choice = Some((i, key));
            }
        }
        match choice {
            Some((i, _)) => {
                let ch = self.nodes[i];
                self.last = Report {
                    playouts,
                    elapsed: started.elapsed(),
                    nodes: self.nodes.len(),
                    depth,
                    reused,
                    visits: ch.visits,
                    value: ch.mean(c),
                    solved: ch.solved,
                    exact: None,
                };
                Square(ch.sq)
            }
            None => {
                self.last = Report {
                    playouts,
                    elapsed: started.elapsed(),
                    ..Report::default()
                };
                random_square(legal, rng)
            }
        }
    }
}

impl Strategy for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn choose(&mut self, pos: &Position, legal: u64, rng: &mut ChaCha8Rng) -> Square {
        self.search(pos, legal, rng, None)
    }

    fn choose_timed(
        &mut self,
        pos: &Position,
        legal: u64,
        rng: &mut ChaCha8Rng,
        time_ms: Option<u64>,
        log: &mut String,
    ) -> Square {
        let sq = self.search(pos, legal, rng, time_ms);
        let r = &self.last;
        if let Some(v) = r.exact {
            let _ = write!(
                log,
                "mcts {sq}: solved exactly, final ball difference {v:+} with best play, in {} ms",
                r.elapsed.as_millis()
            );
            return sq;
        }
        let secs = r.elapsed.as_secs_f64().max(1e-6);
        let _ = write!(
            log,
            "mcts {sq}: value {:.3}{} ({} visits), {} simulations in {} ms ({:.0}/s), depth {}, \
             {} nodes, {} reused",
            r.value,
            if r.solved { " solved" } else { "" },
            r.visits,
            r.playouts,
            r.elapsed.as_millis(),
            r.playouts as f64 / secs,
            r.depth,
            r.nodes,
            r.reused,
        );
        sq
    }

    fn new_round(&mut self) {
        self.nodes.clear();
        self.root = None;
        self.history = [[(0.0, 0); 64]; 4];
    }
}

/// Simulations per second from `pos` with a fresh tree and `playouts` simulations (for the
/// benchmarks).
pub fn speed(pos: &Position, playouts: u64) -> (u64, Duration) {
    let mut bot = Mcts::new(Config {
        playouts: Some(playouts),
        reuse: false,
        ..Config::default()
    });
    let mut rng = crate::bots::round_rng(0, 0);
    let started = Instant::now();
    bot.search(pos, pos.legal_moves(), &mut rng, None);
    (bot.last.playouts, started.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rolit::Colour;
    use crate::game::rolit::bots::arena::play;
    use crate::game::rolit::bots::brs::{self, Brs};
    use crate::game::rolit::bots::{Bot, Options};

    #[test]
    fn a_full_tree_stops_an_evaluating_search_but_not_playouts() {
        let mut rng = crate::bots::round_rng(0, 0);
        let config = Config {
            playouts: Some(3_000),
            max_nodes: 1_000,
            reuse: false,
            ..Config::default()
        };
        // Two players: simulations expand and evaluate; a full tree ends the search.
        let pos = Position::start(8, 2, Colour::Red).unwrap();
        let mut bot = Mcts::new(config);
        bot.search(&pos, pos.legal_moves(), &mut rng, None);
        assert!(bot.last.nodes <= 1_000, "{:?}", bot.last);
        assert!(bot.last.playouts < 1_000, "{:?}", bot.last);
        // Four players: playouts go on from the leaves of a full tree.
        let pos = Position::start(8, 4, Colour::Red).unwrap();
        let mut bot = Mcts::new(config);
        bot.search(&pos, pos.legal_moves(), &mut rng, None);
        assert!(bot.last.nodes <= 1_000, "{:?}", bot.last);
        assert_eq!(bot.last.playouts, 3_000, "{:?}", bot.last);
    }

    /// `mcts` against `brs` in-process, both with `VS_TIME` ms a move (default 100), over
    /// `VS_GAMES` 8x8 rounds of `VS_PLAYERS` players (2; with more, one mcts against brs
    /// bots), seats rotated, 2 random opening plies per rotation from seed `VS_SEED` on;
    /// prints mcts's win share with a 95% interval. `VS_PRIORS` and `VS_DEPTH` change the
    /// two-player [`Leaf::Estimate`] (defaults: [`Config::default`]'s):
    ///
    /// `VS_GAMES=40 cargo test --release --lib bots::mcts::tests::against_brs -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, minutes"]
    fn against_brs() {
        let env = |k: &str, d: u64| std::env::var(k).map_or(d, |v| v.parse().unwrap());
        let games = env("VS_GAMES", 40) as u32;
        let time = env("VS_TIME", 100);
        let players = env("VS_PLAYERS", 2) as usize;
        let first = env("VS_SEED", 0);
        let Leaf::Estimate { priors, depth } = Config::default().leaf else {
            panic!("the two-player default is an estimate");
        };
        let config = Config {
            leaf: Leaf::Estimate {
                priors: env("VS_PRIORS", priors.into()) as u32,
                depth: env("VS_DEPTH", depth.into()) as u32,
            },
            ..Config::default()
        };
        let mut shares = Vec::new();
        let mut balls = 0i64;
        for g in 0..games {
            let seat = g as usize % players;
            let mut bots: Vec<Bot> = (0..players)
                .map(|i| {
                    if i == seat {
                        Bot::new(Box::new(Mcts::new(config)), Options::default())
                    } else {
                        Bot::new(
                            Box::new(Brs::new(brs::Config::default())),
                            Options::default(),
                        )
                    }
                })
                .collect();
            let seed = first + u64::from(g) / players as u64;
            let round = play(&mut bots, 8, 2, seed, Some(time));
            shares.push(round.share[seat]);
            balls += i64::from(round.balls[seat]) - i64::from(round.balls[(seat + 1) % players]);
            println!(
                "round {g}: mcts in seat {seat}: {:?} {:?}",
                round.balls, round.share
            );
        }
        let n = shares.len() as f64;
        let mean = shares.iter().sum::<f64>() / n;
        let sd = (shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        println!(
            "mcts against brs, {players} players, {time} ms, {games} rounds: {:.1}% +- {:.1}% \
             (mean ball margin {:+.1})",
            100.0 * mean,
            196.0 * sd / n.sqrt(),
            balls as f64 / n
        );
    }
}
