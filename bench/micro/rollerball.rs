//! Speed of the Rollerball engine alone: random playouts from the deal to the end (five points
//! or the turn limit of 360) for 2, 4 and 6 players, every decision a uniform choice from the
//! legal list. A plain printed report, no harness: `cargo bench --bench rollerball` (release
//! profile). `ROLLERBALL_GAMES` changes the number of games per player count (200 by default).
//!
//! The figure is playouts per second; decisions per second and the mean game length (turns)
//! are printed beside it, since a random playout's cost is mostly its length. Rates are per
//! second of the thread's CPU time ([`cpu`]), so that a shared machine's load does not change
//! them much.

use std::hint::black_box;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::rollerball::Rollerball;

#[path = "cpu.rs"]
mod cpu;
use cpu::cpu;

/// One random game; returns (decisions, turns, ended by five points).
fn playout(players: usize, seed: u64, rng: &mut ChaCha8Rng) -> (u64, u64, bool) {
    let mut g = Rollerball::new(players, 360, seed).expect("2 to 6 players");
    let mut decisions = 0;
    while let Some(to_act) = g.to_act() {
        let seat = to_act.seats[0];
        let legal = g.legal(seat);
        let mv = &legal[rng.random_range(0..legal.len())];
        black_box(g.apply(seat, mv).expect("a legal move"));
        decisions += 1;
    }
    let five = g.result().is_some_and(|r| r.five_points);
    (decisions, g.turn() as u64, five)
}

fn main() {
    let games: u64 = std::env::var("ROLLERBALL_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    println!(
        "rollerball random playouts, turn limit 360, {games} games per player count, per CPU second"
    );
    println!(
        "{:>7} {:>12} {:>14} {:>11} {:>12}",
        "players", "playouts/s", "decisions/s", "mean turns", "five points"
    );
    for players in [2, 4, 6] {
        let mut rng = ChaCha8Rng::seed_from_u64(players as u64);
        let (mut decisions, mut turns, mut fives) = (0, 0, 0);
        let t = cpu();
        for seed in 0..games {
            let (d, n, five) = playout(players, seed, &mut rng);
            decisions += d;
            turns += n;
            fives += five as u64;
        }
        let secs = (cpu() - t).as_secs_f64();
        println!(
            "{players:>7} {:>12.0} {:>14.0} {:>11.1} {:>11.0}%",
            games as f64 / secs,
            decisions as f64 / secs,
            turns as f64 / games as f64,
            100.0 * fives as f64 / games as f64
        );
    }
}
