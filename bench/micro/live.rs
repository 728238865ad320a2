//! The cost of watching a match live: rounds refereed in process with every seat answering a
//! uniform choice from its legal list, once plainly and once spectated (each action's public
//! part and the audience's state kept, [`Referee::spectated`]) and projected to the stream's
//! JSON messages ([`rollarena::arena::live::project`]) as the arena's workers do. A plain
//! printed report: `cargo bench --bench live` (release profile); `LIVE_ROUNDS` changes the
//! rounds per game (100 by default).
//!
//! Printed per game: µs per action plain and watched, the difference, and the mean bytes of a
//! move's message (what each spectator's stream carries per action).

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::arbiter::events::Event;
use rollarena::arena::live::project;
use rollarena::game::{Game, RoundSetup};
use rollarena::referee::{Input, Output, Referee, Settings};
use serde_json::{Value, json};

fn settings() -> Settings {
    Settings {
        move_ms: 1000.0,
        margin_ms: 100.0,
        retries: 2,
        freeze: false,
        hide_legal: false,
        max_unasked: 1000,
        max_log_bytes: 64 * 1024,
        timed: false,
    }
}

/// Plays one round; returns (actions, bytes of the move messages when watched).
fn round(game: &dyn Game, seed: u64, watched: bool) -> (usize, usize) {
    let seats = game.seats();
    let r = game.new_round(RoundSetup {
        round: 0,
        match_seed: seed,
        round_seed: seed,
        chance_seed: seed,
    });
    let mut referee = Referee::new(r, seats, settings(), 1, seed, 0);
    if watched {
        referee = referee.spectated();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut requests: Vec<Option<Value>> = vec![None; seats];
    let mut at = 0.0;
    let mut bytes = 0;
    let mut projected = 0;
    referee.start(7);
    referee.input(0.0, Input::Tick);
    loop {
        loop {
            let outs: Vec<Output> = referee.take_outputs().collect();
            if outs.is_empty() {
                break;
            }
            for o in outs {
                match o {
                    Output::Send { seat, line, .. } => {
                        let v: Value = serde_json::from_slice(&line).expect("JSON");
                        if v.get("legal").is_some() {
                            requests[seat] = Some(v);
                        }
                    }
                    Output::Drain(seat) => referee.input(at, Input::Drained(seat)),
                    _ => {}
                }
            }
        }
        if watched {
            let play = referee.play();
            for i in projected..play.moves.len() {
                let event = Event::Moved {
                    round: 1,
                    mv: &play.moves[i],
                    public: referee.public().get(i),
                };
                bytes += serde_json::to_string(&project(&event)).unwrap().len();
            }
            projected = play.moves.len();
        }
        if referee.is_over() {
            return (referee.play().moves.len(), bytes);
        }
        for seat in referee.listening() {
            let legal = requests[seat].take().expect("a request")["legal"].clone();
            let legal = legal.as_array().expect("legal moves");
            let mv = &legal[rng.random_range(0..legal.len())];
            at += 1.0;
            let line = json!({"type": "move", "move": mv}).to_string();
            referee.input(
                at,
                Input::Line {
                    seat,
                    line: line.as_bytes(),
                    cpu_ms: None,
                },
            );
        }
    }
}

fn main() {
    let rounds: u64 = std::env::var("LIVE_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let games: Vec<(&str, Box<dyn Game>)> = vec![
        (
            "rolit 8x8, 2 seats",
            Box::new(rollarena::game::rolit::Rolit::new(8, 2).unwrap()),
        ),
        (
            "rollerball, 2 seats",
            Box::new(rollarena::game::rollerball::RollerballGame::new(2, 360).unwrap()),
        ),
        (
            "goofspiel 13, 2 seats",
            Box::new(rollarena::game::goofspiel::Goofspiel::new(2, 13).unwrap()),
        ),
    ];
    println!("live projection cost, {rounds} rounds per game, random legal moves");
    println!(
        "{:<22} {:>10} {:>14} {:>16} {:>12} {:>14}",
        "game", "actions", "plain µs/act", "watched µs/act", "extra µs", "bytes/message"
    );
    for (name, game) in &games {
        let mut per = [0.0f64; 2];
        let mut actions = 0;
        let mut bytes = 0;
        for (i, watched) in [false, true].into_iter().enumerate() {
            let t = Instant::now();
            let mut n = 0;
            for seed in 0..rounds {
                let (a, b) = round(game.as_ref(), seed + 1, watched);
                n += a;
                bytes += b;
            }
            per[i] = t.elapsed().as_secs_f64() * 1e6 / n as f64;
            actions = n;
        }
        println!(
            "{name:<22} {actions:>10} {:>14.2} {:>16.2} {:>12.2} {:>14}",
            per[0],
            per[1],
            per[1] - per[0],
            bytes / actions.max(1)
        );
    }
}
