//! The Rock'n'Roll Robot solver on random rounds and on the hardest positions found: solve times
//! (median, p90, p99, worst), searches that gave up, and the distribution of optimal lengths,
//! with diagonals (the default game) and without. A plain printed report, no harness:
//! `cargo bench --bench robots` (release profile). `ROBOTS_ROUNDS` changes the number of random
//! rounds (1,000 by default).
//!
//! A random round is what the game deals: an assembly from a seed, the four robots placed from
//! the seed, one of the 17 tokens. The hard positions are found by search, since the published
//! record puzzles (22 to 25 moves on the commercial boards) are not on our boards: many random
//! rounds are solved under a budget, the longest are kept, and each is then improved by moving
//! one robot at a time to any free cell while its optimal length does not drop. The best found
//! by a long hunt are listed in [`HARD`] and timed by every run; `ROBOTS_HUNT=N` hunts again
//! from N rounds (`ROBOTS_KEEP`, `ROBOTS_CLIMB`, `ROBOTS_HUNT_NODES`, `ROBOTS_HUNT_SALT` tune it).

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::robots::{
    Board, Budget, Cell, Positions, Robot, Solution, Token, check_solution, place_robots,
    solve_counting,
};

/// The hardest positions found by a long hunt (`ROBOTS_HUNT=20000 ROBOTS_KEEP=6
/// ROBOTS_CLIMB=300 ROBOTS_HUNT_NODES=10000000`, the climb skipping positions that need more
/// than 10 million nodes): diagonals, assembly seed, robots, token, optimal length.
const HARD: &[(bool, u64, &str, &str, usize)] = &[
    (
        true,
        1101104218621,
        r#"{"red":"b1","green":"l6","blue":"p14","yellow":"a2"}"#,
        "blue-moon",
        23,
    ),
    (
        true,
        1101104232848,
        r#"{"red":"a1","green":"p5","blue":"a11","yellow":"p16"}"#,
        "green-gear",
        23,
    ),
    (
        true,
        1101104236890,
        r#"{"red":"b16","green":"p16","blue":"l16","yellow":"o16"}"#,
        "red-gear",
        23,
    ),
    (
        true,
        1101104233774,
        r#"{"red":"g16","green":"o16","blue":"h4","yellow":"a3"}"#,
        "yellow-gear",
        21,
    ),
    (
        true,
        1101104224582,
        r#"{"red":"n2","green":"b14","blue":"f7","yellow":"p11"}"#,
        "red-gear",
        21,
    ),
    (
        false,
        1592609339,
        r#"{"red":"p12","green":"c1","blue":"n16","yellow":"l6"}"#,
        "green-star",
        23,
    ),
    (
        false,
        1592596626,
        r#"{"red":"a12","green":"d5","blue":"a2","yellow":"f12"}"#,
        "blue-moon",
        22,
    ),
    (
        false,
        1592596079,
        r#"{"red":"a7","green":"n1","blue":"n14","yellow":"c15"}"#,
        "green-star",
        21,
    ),
    (
        false,
        1592591047,
        r#"{"red":"a15","green":"n16","blue":"o3","yellow":"e1"}"#,
        "green-star",
        21,
    ),
    (
        false,
        1592607217,
        r#"{"red":"f1","green":"g13","blue":"p11","yellow":"b16"}"#,
        "blue-moon",
        21,
    ),
];

/// The budget of a timed solve: generous, so "gave up" means the solver is too slow.
fn budget() -> Budget {
    Budget {
        nodes: u64::MAX,
        time: Some(Duration::from_secs(30)),
        ..Budget::default()
    }
}

struct Outcome {
    time: Duration,
    nodes: u64,
    length: Option<usize>,
}

fn timed(board: &Board, p: &Positions, token: Token) -> Outcome {
    let t = Instant::now();
    let (s, nodes) = black_box(solve_counting(board, p, token, budget()));
    let time = t.elapsed();
    let length = match s {
        Solution::Optimal(m) => {
            assert!(check_solution(board, p, token, &m, m.len()).is_ok());
            Some(m.len())
        }
        _ => None,
    };
    Outcome {
        time,
        nodes,
        length,
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn report(title: &str, outcomes: &[Outcome]) {
    let mut times: Vec<Duration> = outcomes.iter().map(|o| o.time).collect();
    times.sort();
    let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
    let gave_up = outcomes.iter().filter(|o| o.length.is_none()).count();
    let lengths: Vec<usize> = outcomes.iter().filter_map(|o| o.length).collect();
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64;
    println!("{title}: {} rounds", outcomes.len());
    println!(
        "  solve time: median {}, p90 {}, p99 {}, worst {}; total {:.2} s",
        ms(q(0.5)),
        ms(q(0.9)),
        ms(q(0.99)),
        ms(q(1.0)),
        times.iter().sum::<Duration>().as_secs_f64()
    );
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    let most = outcomes.iter().map(|o| o.nodes).max().unwrap_or(0);
    println!(
        "  positions expanded: {nodes} in all ({:.1} million/s), most in one solve {most}",
        nodes as f64 / times.iter().sum::<Duration>().as_secs_f64() / 1e6
    );
    println!("  gave up: {gave_up}");
    let max = lengths.iter().copied().max().unwrap_or(0);
    let mut hist = vec![0usize; max + 1];
    for &l in &lengths {
        hist[l] += 1;
    }
    println!("  optimal lengths: mean {mean:.2}, longest {max}");
    for (len, &n) in hist.iter().enumerate().filter(|&(_, &n)| n > 0) {
        let bar = "#".repeat((n * 60).div_ceil(outcomes.len()));
        println!("  {len:>4} {n:>6}  {bar}");
    }
}

/// Random rounds: assembly, robots and token from the seed.
fn rounds(count: usize, diagonals: bool, salt: u64) -> Vec<Outcome> {
    (0..count as u64)
        .map(|i| {
            let seed = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
            let board = Board::assemble(seed, diagonals);
            let p = place_robots(&board, seed.rotate_left(17), false);
            let token = Token::all()[(seed % 17) as usize];
            timed(&board, &p, token)
        })
        .collect()
}

/// The optimal length and the nodes it took, under the hunt's budget (the hunt skips what it
/// cannot solve within it).
fn quick(board: &Board, p: &Positions, token: Token) -> Option<(usize, u64)> {
    let nodes = env("ROBOTS_HUNT_NODES", 4_000_000) as u64;
    match solve_counting(board, p, token, Budget::nodes(nodes)) {
        (Solution::Optimal(m), nodes) => Some((m.len(), nodes)),
        _ => None,
    }
}

struct Hard {
    board: Board,
    seed: u64,
    p: Positions,
    token: Token,
    /// Optimal length, then nodes: the harder the larger.
    score: (usize, u64),
}

/// Searches `count` random rounds for long optimal solutions, then climbs from the longest:
/// one robot at a time moves to a random free cell, kept when the optimal length does not
/// drop (equal lengths let the climb wander along a plateau).
fn hunt(count: usize, diagonals: bool) -> Vec<Hard> {
    let keep = env("ROBOTS_KEEP", 5);
    let mut found: Vec<Hard> = Vec::new();
    for i in 0..count as u64 {
        let seed = i ^ env("ROBOTS_HUNT_SALT", 0x5eed_0000) as u64 ^ u64::from(diagonals) << 40;
        let board = Board::assemble(seed, diagonals);
        let p = place_robots(&board, seed, false);
        let token = Token::all()[(seed % 17) as usize];
        if let Some(score) = quick(&board, &p, token)
            && (found.len() < keep || found.last().is_some_and(|h| h.score < score))
        {
            found.push(Hard {
                board,
                seed,
                p,
                token,
                score,
            });
            found.sort_by_key(|h| std::cmp::Reverse(h.score));
            found.truncate(keep);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for h in &mut found {
        for _ in 0..env("ROBOTS_CLIMB", 100) {
            let robot = Robot::ALL[rng.random_range(0..4)];
            let cell = Cell(rng.random_range(0..=255u8));
            if !h.board.is_start_cell(cell) || h.p.at(cell).is_some() {
                continue;
            }
            let mut p = h.p;
            p.set(robot, cell);
            if let Some(score) = quick(&h.board, &p, h.token)
                && score.0 >= h.score.0
            {
                h.p = p;
                h.score = score;
            }
        }
    }
    found.sort_by_key(|h| std::cmp::Reverse(h.score));
    found
}

fn main() {
    let n = env("ROBOTS_ROUNDS", 1000);
    let hunt_n = env("ROBOTS_HUNT", 0);
    println!("rock'n'roll robot solver: {n} random rounds per table, optimal solutions checked");
    let mut slowest = Duration::ZERO;
    for diagonals in [true, false] {
        let label = if diagonals {
            "with diagonals"
        } else {
            "without diagonals"
        };
        let outcomes = rounds(n, diagonals, 0);
        report(&format!("random rounds, {label}"), &outcomes);
        let mut order: Vec<usize> = (0..outcomes.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(outcomes[i].time));
        for &i in order.iter().take(3) {
            let o = &outcomes[i];
            println!(
                "  slow: round {i}, {} moves, {} nodes, {}",
                o.length.map_or("?".to_string(), |l| l.to_string()),
                o.nodes,
                ms(o.time)
            );
        }
        slowest = slowest.max(outcomes[order[0]].time);
        println!("  hardest known ({label}; found by a long hunt, see HARD):");
        for &(_, seed, robots, token, length) in HARD.iter().filter(|h| h.0 == diagonals) {
            let board = Board::assemble(seed, diagonals);
            let p: Positions = serde_json::from_str(robots).expect("positions");
            let token: Token = token.parse().expect("a token");
            let o = timed(&board, &p, token);
            assert_eq!(o.length, Some(length), "seed {seed}: the optimum changed");
            slowest = slowest.max(o.time);
            println!(
                "    {length:>2} moves, {:>8} nodes, {:>12}: {token} at {}, assembly seed {seed}, robots {robots}",
                o.nodes,
                ms(o.time),
                board.target(token).unwrap(),
            );
        }
        if hunt_n == 0 {
            continue;
        }
        let hard = hunt(hunt_n, diagonals);
        println!("  hardest found ({label}; the longest of {hunt_n} rounds, then climbing):");
        for h in &hard {
            let o = timed(&h.board, &h.p, h.token);
            slowest = slowest.max(o.time);
            println!(
                "    {:>2} moves, {:>8} nodes, {:>12}: {} at {}, assembly seed {}, robots {}",
                o.length.map_or("?".to_string(), |l| l.to_string()),
                o.nodes,
                ms(o.time),
                h.token,
                h.board.target(h.token).unwrap(),
                h.seed,
                serde_json::to_string(&h.p).unwrap(),
            );
        }
    }
    println!("slowest solve of all: {}", ms(slowest));
}
