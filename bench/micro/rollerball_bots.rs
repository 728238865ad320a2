//! Speed of the Rollerball search bot: `ismcts` iterations (determinization, tree descent,
//! playout, evaluation) per second for 2, 4 and 6 players, in positions reached by playing
//! heuristic moves for a few turns after a random setup. A plain printed report, no harness:
//! `cargo bench --bench rollerball_bots` (release profile). `ISMCTS_PLAYOUTS` sets the
//! iterations per search (2,000 by default); each player count searches 5 positions.
//! Rates are per second of the thread's CPU time ([`cpu`]): the machine may be shared.
//! First it times `heuristic`'s decisions (the rollouts' policy) by phase, over the decisions
//! of whole heuristic games.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::rollerball::Rollerball;
use rollarena::game::rollerball::bots::eval::Weights;
use rollarena::game::rollerball::bots::{Heuristic, Ismcts, Seen, ismcts};

#[path = "cpu.rs"]
mod cpu;
use cpu::cpu;

/// A position of turn `turns` or so, `seat` asked a decision of the turn (not the setup).
fn position(players: usize, seed: u64, turns: u32) -> Option<Rollerball> {
    let mut g = Rollerball::new(players, 360, seed).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let h = Heuristic::default();
    while let Some(to_act) = g.to_act() {
        let seat = to_act.seats[0];
        let legal = g.legal(seat);
        if g.turn() >= turns && legal.len() > 1 {
            return Some(g);
        }
        let i = if g.turn() == 0 {
            rng.random_range(0..legal.len())
        } else {
            h.choose(&g, seat, &legal, &mut rng)
        };
        g.apply(seat, &legal[i]).ok()?;
    }
    None
}

/// `heuristic`'s CPU time per decision, by phase, over whole games among heuristic players:
/// the heuristic as it plays, and the cheaper rollout policy of `rollout` (no teleports, an
/// evaluation horizon of 6 turns).
fn heuristic_cost(name: &str, h: &Heuristic) {
    println!("rollerball {name}, per decision (4 games per player count, CPU time)");
    println!(
        "{:>7} {:>9} {:>9} {:>12}",
        "players", "phase", "decisions", "us/decision"
    );
    for players in [2, 4, 6] {
        let mut by_phase: std::collections::BTreeMap<&str, (u64, f64)> = Default::default();
        for seed in 0..4 {
            let mut g = Rollerball::new(players, 120, seed).expect("a round");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while let Some(to_act) = g.to_act() {
                let seat = to_act.seats[0];
                let legal = g.legal(seat);
                let started = cpu();
                let i = h.choose(&g, seat, &legal, &mut rng);
                let took = (cpu() - started).as_secs_f64();
                if g.turn() > 0 {
                    let e = by_phase.entry(g.phase().name()).or_default();
                    e.0 += 1;
                    e.1 += took;
                }
                g.apply(seat, &legal[i]).expect("legal");
            }
        }
        for (phase, (n, secs)) in by_phase {
            println!(
                "{players:>7} {phase:>9} {n:>9} {:>12.1}",
                secs * 1e6 / n as f64
            );
        }
    }
}

fn main() {
    heuristic_cost("heuristic", &Heuristic::default());
    let light = Heuristic {
        weights: Weights {
            horizon: 6,
            ..Weights::default()
        },
        teleports: false,
    };
    heuristic_cost("rollout's light policy", &light);
    let playouts: u64 = std::env::var("ISMCTS_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    println!(
        "rollerball ismcts, {playouts} iterations per search, 5 positions per player count, per CPU second"
    );
    println!(
        "{:>7} {:>14} {:>14}",
        "players", "iterations/s", "ms/search"
    );
    for players in [2, 4, 6] {
        let bot = Ismcts::new(ismcts::Config {
            playouts: Some(playouts),
            movetime: Some(std::time::Duration::from_secs(600)),
            ..ismcts::Config::default()
        });
        let (mut iterations, mut searches, mut secs) = (0u64, 0u32, 0.0f64);
        let mut seed = 0;
        while searches < 5 {
            seed += 1;
            let Some(g) = position(players, seed, 12) else {
                continue;
            };
            let seat = g.to_act().expect("asked").seats[0];
            let seen = Seen::new(&g.view(seat)).expect("a seat's view");
            let legal = g.legal(seat);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let started = cpu();
            let found = bot.search(&seen, &legal, None, &mut rng);
            secs += (cpu() - started).as_secs_f64();
            iterations += found.iterations;
            searches += 1;
        }
        println!(
            "{players:>7} {:>14.0} {:>14.1}",
            iterations as f64 / secs,
            secs * 1000.0 / searches as f64
        );
    }
}
