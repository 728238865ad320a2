//! Perft speed of the Rolit move generator: leaves per second from the 8x8 start position with
//! 4 players, red first, at several depths, best of a few runs. A plain printed figure, no
//! harness: `cargo bench --bench perft` (release profile).
//!
//! Perft counts in bulk at the last ply (the number of legal moves is a popcount), so the
//! figure is leaves per second, as chess and Othello engines usually report it; nodes visited
//! (the interior positions that were expanded) are printed too.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rollarena::game::rolit::{Colour, Position, perft};

/// Runs per depth; the best (shortest) counts, as the others were slowed by something else.
const RUNS: usize = 5;

fn main() {
    let pos = Position::start(8, 4, Colour::Red).expect("a valid variant");
    println!("rolit perft, 8x8, 4 players, red first, best of {RUNS} runs");
    println!(
        "{:>5} {:>12} {:>12} {:>10} {:>16}",
        "depth", "leaves", "interior", "best ms", "leaves/s"
    );
    let mut best_rate: f64 = 0.0;
    for depth in 6..=9 {
        let mut best = Duration::MAX;
        let mut leaves = 0;
        for _ in 0..RUNS {
            let t = Instant::now();
            leaves = black_box(perft(black_box(&pos), depth));
            best = best.min(t.elapsed());
        }
        // Interior positions: every position at depths 0..depth-1 (the leaves of perft(d)
        // for d < depth), each expanded once.
        let interior: u64 = (0..depth).map(|d| perft(&pos, d)).sum();
        let rate = leaves as f64 / best.as_secs_f64();
        best_rate = best_rate.max(rate);
        println!(
            "{depth:>5} {leaves:>12} {interior:>12} {:>10.1} {:>16.0}",
            best.as_secs_f64() * 1e3,
            rate
        );
    }
    println!("best: {:.1} million leaves/s", best_rate / 1e6);
}
