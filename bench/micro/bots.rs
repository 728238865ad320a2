//! Speed of the searching bots, single thread, release profile: `cargo bench --bench bots`.
//!
//! - `mcts`: simulations (playouts) per second on 8x8 with 4 players, from the start and from
//!   move 30 (a position reached by 29 moves of a fixed seeded game), with a fresh tree of
//!   a fixed number of simulations; best of a few runs. Then the same with 2 players, where a
//!   simulation evaluates the children of the node it reaches, each after a one-ply search,
//!   instead of playing out.
//! - `brs`: nodes per second of a fixed-depth Best-Reply Search from the same positions.
//!
//! Rates are per second of the thread's CPU time (the machine may be shared: wall-clock time
//! would count the time other processes ran), best of a few runs. A plain printed figure, no
//! harness; `--quick` runs fewer simulations.

use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rollarena::game::rolit::bots::brs::{self, Brs};
use rollarena::game::rolit::bots::{mcts, random_square};
use rollarena::game::rolit::{Colour, Position};

#[path = "cpu.rs"]
mod cpu;
use cpu::cpu;

const RUNS: usize = 3;

/// The position before move `n` of a game of uniformly random moves (seed 30).
fn at_move(n: u32, players: usize) -> Position {
    let mut pos = Position::start(8, players, Colour::Red).expect("a valid variant");
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    while pos.ply() < n {
        pos.play_unchecked(random_square(pos.legal_moves(), &mut rng));
    }
    pos
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let playouts = if quick { 50_000 } else { 300_000 };
    for (players, what) in [(4, "playouts"), (2, "evaluated simulations")] {
        println!(
            "mcts, 8x8, {players} players, one thread, {playouts} simulations, best of {RUNS}"
        );
        for (label, pos) in [
            ("start", at_move(1, players)),
            ("move 30", at_move(30, players)),
        ] {
            let mut best = Duration::MAX;
            let mut n = 0;
            for _ in 0..RUNS {
                let t = cpu();
                let (p, _) = mcts::speed(&pos, playouts);
                n = p;
                best = best.min(cpu() - t);
            }
            println!(
                "  from {label:<8} {:>10.0} {what}/s",
                n as f64 / best.as_secs_f64()
            );
        }
    }
    let depth = if quick { 5 } else { 6 };
    println!("brs, 8x8, 4 players, one thread, depth {depth} layers, best of {RUNS}");
    for (label, pos) in [("start", at_move(1, 4)), ("move 30", at_move(30, 4))] {
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..RUNS {
            let mut bot = Brs::new(brs::Config {
                depth: Some(depth),
                ..brs::Config::default()
            });
            let t = cpu();
            bot.search(&pos, pos.legal_moves(), None);
            best = best.min((cpu() - t).as_secs_f64());
            nodes = bot.last.nodes;
        }
        println!(
            "  from {label:<8} {:>10.0} nodes/s ({nodes} nodes)",
            nodes as f64 / best
        );
    }
}
