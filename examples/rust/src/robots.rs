//! Rock'n'Roll Robot (`hello.game` "robots"): protocol/games/robots.md and SPEC.md section 13.
//! At `start` the bot searches for a solution, declares its length, then passes (it will not
//! declare again), and answers `prove` with the moves.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The share of the hourglass (`hello.options.hourglass_ms`) the search may run per token.
const THINK_SHARE: f64 = 0.5;
/// Positions kept in memory, at most.
const MAX_NODES: usize = 4_000_000;
const SIZE: i32 = 16;

const DIRS: [&str; 4] = ["up", "down", "left", "right"];
const STEP: [i32; 4] = [SIZE, -SIZE, -1, 1];
const SIDE: [char; 4] = ['N', 'S', 'W', 'E'];
/// How a diagonal wall turns a robot entering its cell: `[kind: 0 '/', 1 '\'][direction]`.
const TURN: [[usize; 4]; 2] = [[3, 2, 1, 0], [2, 3, 0, 1]];

/// "a1" -> 0, "b1" -> 1, ... (rank index * 16 + file index).
fn cell(name: &str) -> Option<i32> {
    let file = i32::from(*name.as_bytes().first()?) - i32::from(b'a');
    let rank: i32 = name.get(1..)?.parse().ok()?;
    ((0..SIZE).contains(&file) && (1..=SIZE).contains(&rank)).then_some((rank - 1) * SIZE + file)
}

struct Board {
    /// Closed sides per cell, a bit per direction.
    walls: Vec<u8>,
    /// Per cell: the diagonal's kind (0 '/', 1 '\') and colour.
    diagonals: Vec<Option<(usize, String)>>,
}

impl Board {
    fn from_json(board: &Value) -> Option<Board> {
        let mut walls = vec![0u8; (SIZE * SIZE) as usize];
        for (name, sides) in board["walls"].as_object()? {
            for (d, side) in SIDE.iter().enumerate() {
                if sides.as_str()?.contains(*side) {
                    walls[cell(name)? as usize] |= 1 << d;
                }
            }
        }
        let mut diagonals = vec![None; (SIZE * SIZE) as usize];
        for d in board["diagonals"].as_array().into_iter().flatten() {
            let kind = usize::from(d["kind"].as_str()? != "/");
            diagonals[cell(d["cell"].as_str()?)? as usize] =
                Some((kind, d["colour"].as_str()?.to_string()));
        }
        Some(Board { walls, diagonals })
    }

    /// Where robot `r` (named `names[r]`) stops moving `dir` from `cells`, or `None` when the
    /// move is not legal (it changes nothing, or goes round through diagonal walls forever).
    fn slide(&self, cells: &[i32], names: &[String], r: usize, mut dir: usize) -> Option<i32> {
        let start = cells[r];
        let mut at = start;
        let mut seen = HashSet::new();
        loop {
            if self.walls[at as usize] & (1 << dir) != 0 {
                break; // a wall (the edge and the centre count)
            }
            let next = at + STEP[dir];
            if cells.iter().enumerate().any(|(i, &c)| i != r && c == next) {
                break; // stop before another robot
            }
            if !seen.insert((next, dir)) {
                return None; // round forever
            }
            at = next;
            if let Some((kind, colour)) = &self.diagonals[at as usize] {
                if *colour != names[r] {
                    dir = TURN[*kind][dir]; // the black robot: every colour turns it
                }
            }
        }
        (at != start).then_some(at)
    }
}

/// A search node: the robots' cells (8 bits each) and each goal robot's moves up to 2 (2 bits
/// each), its parent and the move from it (robot * 4 + direction).
struct Node {
    key: u64,
    parent: usize,
    mv: usize,
}

fn pack(cells: &[i32], counts: &[u8]) -> u64 {
    let k = cells.iter().fold(0u64, |k, &c| k << 8 | c as u64);
    counts.iter().fold(k, |k, &n| k << 2 | u64::from(n))
}

fn unpack(mut k: u64, cells: &mut [i32], counts: &mut [u8]) {
    for n in counts.iter_mut().rev() {
        *n = (k & 3) as u8;
        k >>= 2;
    }
    for c in cells.iter_mut().rev() {
        *c = (k & 255) as i32;
        k >>= 8;
    }
}

/// Breadth-first search over the positions of all robots for a shortest solution: moves after
/// which a robot the token accepts stands on the target, having moved at least twice (the
/// bounce rule). `None` if the time or memory runs out first.
fn solve(board: &Board, state: &Value, deadline: Instant) -> Option<Vec<(String, usize)>> {
    let robots = state["robots"].as_object()?;
    let names: Vec<String> = robots.keys().cloned().collect();
    let start: Vec<i32> = robots
        .values()
        .map(|c| cell(c.as_str()?))
        .collect::<Option<_>>()?;
    let token = state["token"].as_str()?;
    let goal: Vec<usize> = (0..names.len())
        .filter(|&i| token == "vortex" || token.starts_with(&format!("{}-", names[i])))
        .collect();
    let target = cell(state["target"].as_str()?)?;
    let mut cells = start.clone();
    let mut counts = vec![0u8; goal.len()];
    let mut next = counts.clone();
    let mut nodes = vec![Node {
        key: pack(&start, &counts),
        parent: usize::MAX,
        mv: 0,
    }];
    let mut seen: HashSet<u64> = HashSet::from([nodes[0].key]);
    let path = |nodes: &[Node], mut i: usize, last: (usize, usize)| {
        let mut moves = vec![(names[last.0].clone(), last.1)];
        while nodes[i].parent != usize::MAX {
            moves.push((names[nodes[i].mv / 4].clone(), nodes[i].mv % 4));
            i = nodes[i].parent;
        }
        moves.reverse();
        moves
    };
    let (mut begin, mut end) = (0, 1);
    for _depth in 0..40 {
        // The last move of a shortest solution is one of a goal robot's: try those first.
        for i in begin..end {
            unpack(nodes[i].key, &mut cells, &mut counts);
            for (g, &r) in goal.iter().enumerate() {
                if counts[g] < 1 {
                    continue; // it would have moved once only
                }
                for d in 0..4 {
                    if board.slide(&cells, &names, r, d) == Some(target) {
                        return Some(path(&nodes, i, (r, d)));
                    }
                }
            }
        }
        // Otherwise, every position one move further.
        for i in begin..end {
            if i % 1024 == 0 && Instant::now() > deadline {
                return None;
            }
            unpack(nodes[i].key, &mut cells, &mut counts);
            for r in 0..names.len() {
                for d in 0..4 {
                    let Some(stop) = board.slide(&cells, &names, r, d) else {
                        continue;
                    };
                    let was = cells[r];
                    cells[r] = stop;
                    for (g, &gr) in goal.iter().enumerate() {
                        next[g] = (counts[g] + u8::from(gr == r)).min(2);
                    }
                    let key = pack(&cells, &next);
                    cells[r] = was;
                    if !seen.insert(key) {
                        continue;
                    }
                    if nodes.len() >= MAX_NODES {
                        return None;
                    }
                    nodes.push(Node {
                        key,
                        parent: i,
                        mv: r * 4 + d,
                    });
                }
            }
        }
        (begin, end) = (end, nodes.len());
        if begin == end {
            return None;
        }
    }
    None
}

/// Plays Rock'n'Roll Robot.
pub struct RobotsPlayer {
    /// Alone, a declaration is verified at once: no pass after it.
    solo: bool,
    /// How long the search may run per token.
    think: Duration,
    solution: Option<Vec<(String, usize)>>,
}

impl RobotsPlayer {
    pub fn new(options: &Value) -> Self {
        // Another seat may turn the hourglass at once: declare well before it can run out.
        let hourglass = options["hourglass_ms"].as_f64().unwrap_or(60_000.0);
        let think = Duration::from_millis((hourglass * THINK_SHARE) as u64);
        eprintln!(
            "robots: searching at most {} ms a token (hourglass {hourglass} ms)",
            think.as_millis()
        );
        RobotsPlayer {
            solo: options["players"].as_u64() == Some(1),
            think,
            solution: None,
        }
    }

    /// Handles one message; returns the answers to send.
    pub fn handle(&mut self, msg: &Value) -> Vec<Value> {
        match msg["type"].as_str() {
            Some("start") => {
                let state = &msg["state"];
                // STRATEGY: a better search (or declaring early and lowering later) goes here.
                self.solution = Board::from_json(&state["board"])
                    .and_then(|board| solve(&board, state, Instant::now() + self.think));
                let found = self.solution.as_ref().map(Vec::len);
                eprintln!(
                    "round {}: {} at {}: {found:?} moves",
                    msg["round"], state["token"], state["target"]
                );
                let mut out = Vec::new();
                if let Some(n) = found {
                    out.push(json!({"type": "declare", "moves": n}));
                }
                if found.is_none() || !self.solo {
                    out.push(json!({"type": "pass"})); // done declaring
                }
                out
            }
            Some("prove") => {
                let moves: Vec<Value> = self
                    .solution
                    .iter()
                    .flatten()
                    .map(|(robot, d)| json!({"robot": robot, "dir": DIRS[*d]}))
                    .collect();
                vec![json!({"type": "solution", "moves": moves, "turn_id": msg["turn_id"]})]
            }
            _ => Vec::new(), // declared, passed, verified, end: nothing to answer
        }
    }
}
