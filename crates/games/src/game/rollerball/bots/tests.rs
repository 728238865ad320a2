//! The Rollerball bots played on the engine directly: every state a seat sees rebuilds into an
//! engine that shows that seat exactly the same view; every answer is in `legal`; a fixed seed
//! and playout count give the same game (for both searches); a short clock is kept with a wide
//! margin.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::{BOTS, Seen};
use crate::game::bot::{BotRequest, BotSettings, GameBot, Unreadable};
use crate::game::rollerball::Rollerball;

/// Builds a registry bot by name.
fn bot(name: &str, settings: BotSettings) -> Box<dyn GameBot> {
    let b = BOTS.iter().find(|b| b.name == name).expect("a bot");
    (b.build.request().expect("buildable"))(&settings).expect("builds")
}

/// Plays one game; `seats[i]` is `None` for a uniformly random seat. Checks every answer is
/// legal and every view rebuilds faithfully; returns the moves played.
fn play(
    players: usize,
    turn_limit: u32,
    seed: u64,
    seats: &mut [Option<Box<dyn GameBot>>],
    time_ms: Option<u64>,
) -> Vec<String> {
    let mut g = Rollerball::new(players, turn_limit, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut moves = Vec::new();
    while let Some(to_act) = g.to_act() {
        let seat = to_act.seats[0];
        let view = g.view(seat);
        // The rebuilt engine shows the seat the very view it was rebuilt from.
        let seen = Seen::new(&view).unwrap_or_else(|e| panic!("{e}: {view:?}"));
        assert_eq!(seen.sample(&mut rng).view(seat), view);
        let legal: Vec<Value> = g
            .legal(seat)
            .iter()
            .map(|m| Value::String(m.to_string()))
            .collect();
        assert!(!legal.is_empty());
        let state = serde_json::to_value(&view).unwrap();
        let index = match &mut seats[seat] {
            None => rng.random_range(0..legal.len()),
            Some(b) => {
                let req = BotRequest {
                    seat,
                    state: &state,
                    legal: &legal,
                    time_ms,
                };
                let mut note = String::new();
                b.choose(&req, &mut rng, &mut note).unwrap()
            }
        };
        assert!(index < legal.len(), "index {index} of {}", legal.len());
        let text = legal[index].as_str().unwrap().to_string();
        g.apply_text(seat, &text)
            .unwrap_or_else(|e| panic!("{text} refused: {e}"));
        moves.push(text);
    }
    moves
}

fn quick_ismcts() -> Box<dyn GameBot> {
    bot(
        "ismcts",
        BotSettings {
            playouts: Some(30),
            ..BotSettings::default()
        },
    )
}

fn quick_rollout() -> Box<dyn GameBot> {
    bot(
        "rollout",
        BotSettings {
            playouts: Some(12),
            ..BotSettings::default()
        },
    )
}

#[test]
fn every_answer_is_legal_and_every_view_rebuilds_for_2_to_6_players() {
    for players in 2..=6 {
        for game in 0..3u64 {
            let mut seats: Vec<Option<Box<dyn GameBot>>> = (0..players)
                .map(|s| match (s + game as usize) % 4 {
                    0 => Some(bot("heuristic", BotSettings::default())),
                    1 => Some(quick_ismcts()),
                    2 => Some(quick_rollout()),
                    _ => None,
                })
                .collect();
            let moves = play(players, 24, 100 * players as u64 + game, &mut seats, None);
            assert!(moves.len() > 4 * players, "{players} players: {moves:?}");
        }
    }
}

#[test]
fn random_games_rebuild_at_every_decision() {
    // Longer games between random seats reach empty decks, reshuffles, takes and discards.
    for players in 2..=6 {
        let mut seats: Vec<Option<Box<dyn GameBot>>> = (0..players).map(|_| None).collect();
        play(players, 360, 7 + players as u64, &mut seats, None);
    }
}

#[test]
fn same_seed_and_playouts_same_game() {
    let run = || {
        let mut seats: Vec<Option<Box<dyn GameBot>>> = vec![
            Some(quick_ismcts()),
            Some(bot("heuristic", BotSettings::default())),
            Some(quick_rollout()),
        ];
        play(3, 30, 99, &mut seats, None)
    };
    assert_eq!(run(), run());
}

#[test]
fn the_heuristic_beats_random() {
    let mut wins = 0;
    for seed in 0..6 {
        let mut seats: Vec<Option<Box<dyn GameBot>>> =
            vec![Some(bot("heuristic", BotSettings::default())), None];
        let moves = play(2, 360, seed, &mut seats, None);
        // Replay to read the result.
        let mut g = Rollerball::new(2, 360, seed).unwrap();
        for m in &moves {
            let seat = g.to_act().unwrap().seats[0];
            g.apply_text(seat, m).unwrap();
        }
        if g.result().unwrap().winners == vec![0] {
            wins += 1;
        }
    }
    assert!(wins >= 5, "the heuristic won {wins} of 6 against random");
}

#[test]
fn a_short_clock_is_kept_with_a_wide_margin() {
    // 600 ms a decision: the searches think 430 ms; they must answer within the 600.
    for name in ["ismcts", "rollout"] {
        let mut b = bot(name, BotSettings::default());
        let mut g = Rollerball::new(4, 360, 5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut timed = 0;
        while let Some(to_act) = g.to_act() {
            if timed >= 12 {
                break;
            }
            let seat = to_act.seats[0];
            let legal: Vec<Value> = g
                .legal(seat)
                .iter()
                .map(|m| Value::String(m.to_string()))
                .collect();
            let index = if g.turn() == 0 {
                rng.random_range(0..legal.len())
            } else {
                let state = serde_json::to_value(g.view(seat)).unwrap();
                let req = BotRequest {
                    seat,
                    state: &state,
                    legal: &legal,
                    time_ms: Some(600),
                };
                let started = Instant::now();
                let i = b.choose(&req, &mut rng, &mut String::new()).unwrap();
                let took = started.elapsed();
                assert!(took < Duration::from_millis(600), "{name} took {took:?}");
                timed += 1;
                i
            };
            g.apply_text(seat, legal[index].as_str().unwrap()).unwrap();
        }
        assert_eq!(timed, 12, "{name}");
    }
}

#[test]
fn every_registry_bot_builds_and_refuses_zero_playouts() {
    for b in BOTS {
        (b.build.request().unwrap())(&BotSettings::default()).unwrap();
    }
    let zero = BotSettings {
        playouts: Some(0),
        ..BotSettings::default()
    };
    for b in BOTS.iter().filter(|b| b.name != "heuristic") {
        assert!((b.build.request().unwrap())(&zero).is_err(), "{}", b.name);
    }
}

/// Screening: a search bot (settings from the environment) against `heuristic` in every other
/// seat, seats rotated, in-process. `RB_BOT` (`ismcts`, the default, `rollout`, or
/// `light`: the rollouts' cheaper policy as a player, evaluation horizon `RB_LIGHT`),
/// `RB_PLAYERS` (2), `RB_GAMES` (40), `RB_LIMIT` (turn limit, 120 as in the ladder),
/// `RB_PLAYOUTS` (iterations or rollouts a decision; unset: `RB_TIME` ms a request, 200;
/// `RB_CPU_MS`: that much CPU time of the thread a decision instead), `RB_SEED`; `ismcts`'s
/// `RB_C`, `RB_WIDTH`, `RB_ROLLOUT`, `RB_TEMP`, `RB_PRIOR`, `RB_GROWTH`, `RB_GUIDED`,
/// `RB_GHORIZON`, `RB_PLANS` (1: on), `RB_HORIZON`, `RB_RIVAL`, `RB_DEPTH`; `rollout`'s
/// `RB_WIDTH`, `RB_TURNS`, `RB_HORIZON`, `RB_TEMP`, `RB_Z`, `RB_MIN`, `RB_KEEP`, `RB_LIGHT`
/// (the cheaper rollout policy's evaluation horizon; unset: the heuristic itself):
/// `RB_GAMES=60 RB_PLAYOUTS=300 cargo test --release --lib rollerball::bots::tests::versus --
/// --ignored --nocapture`. Prints the win share (a shared win counts as a share) with a 95%
/// interval, and the mean paired difference against the same round with `heuristic` in the
/// search bot's seat too.
#[test]
#[ignore = "a measurement, minutes"]
fn versus() {
    use super::ismcts::{Config, Ismcts};
    use super::rollout::{self, Policy, Rollout};
    let env = |k: &str| std::env::var(k).ok();
    let num = |k: &str, d: f64| env(k).map_or(d, |v| v.parse().unwrap());
    let players = num("RB_PLAYERS", 2.0) as usize;
    let games = num("RB_GAMES", 40.0) as u64;
    let limit = num("RB_LIMIT", 120.0) as u32;
    let first = num("RB_SEED", 0.0) as u64;
    let playouts = env("RB_PLAYOUTS").map(|v| v.parse::<u64>().unwrap());
    let cpu_time = env("RB_CPU_MS").map(|v| Duration::from_millis(v.parse().unwrap()));
    let time = (playouts.is_none() && cpu_time.is_none()).then(|| num("RB_TIME", 200.0) as u64);
    let which = env("RB_BOT").unwrap_or_else(|| "ismcts".into());
    let d = Config::default();
    let config = Config {
        playouts,
        exploration: num("RB_C", d.exploration.into()) as f32,
        root_width: num("RB_WIDTH", d.root_width as f64) as usize,
        rollout_turns: num("RB_ROLLOUT", d.rollout_turns.into()) as u32,
        temperature: num("RB_TEMP", d.temperature.into()) as f32,
        prior: num("RB_PRIOR", d.prior.into()) as u32,
        horizon: num("RB_HORIZON", d.horizon.into()) as u32,
        rival: num("RB_RIVAL", d.rival.into()) as f32,
        tree_depth: num("RB_DEPTH", d.tree_depth.into()) as u32,
        prior_growth: num("RB_GROWTH", d.prior_growth.into()) as f32,
        guided: num("RB_GUIDED", d.guided.into()) as u32,
        guide_horizon: num("RB_GHORIZON", d.guide_horizon.into()) as u32,
        cpu_time,
        plans: num("RB_PLANS", 0.0) > 0.0,
        ..d
    };
    let r = rollout::Config::default();
    let rconfig = rollout::Config {
        playouts,
        cpu_time,
        width: num("RB_WIDTH", r.width as f64) as usize,
        turns: num("RB_TURNS", r.turns.into()) as u32,
        horizon: num("RB_HORIZON", r.horizon.into()) as u32,
        temperature: num("RB_TEMP", r.temperature.into()) as f32,
        z: num("RB_Z", r.z.into()) as f32,
        min_samples: num("RB_MIN", r.min_samples.into()) as u32,
        keep: num("RB_KEEP", r.keep.into()) as f32,
        policy: match env("RB_LIGHT") {
            Some(h) => Policy::Light(h.parse().unwrap()),
            None => Policy::Full,
        },
        ..r
    };
    let searcher = || -> Box<dyn GameBot> {
        match which.as_str() {
            "ismcts" => Box::new(Ismcts::new(config)),
            "rollout" => Box::new(Rollout::new(rconfig)),
            "light" => Box::new(Light(num("RB_LIGHT", 6.0) as u32)),
            other => panic!("RB_BOT={other}: ismcts, rollout or light"),
        }
    };
    if which == "rollout" {
        println!("{rconfig:?}");
    } else {
        println!("{config:?}");
    }
    // The round's share for `seat`, with the search bot in it or `heuristic` everywhere.
    let round = |seed: u64, seat: usize, search: bool| {
        let mut seats: Vec<Option<Box<dyn GameBot>>> = (0..players)
            .map(|s| -> Option<Box<dyn GameBot>> {
                if s == seat && search {
                    Some(searcher())
                } else {
                    Some(bot("heuristic", BotSettings::default()))
                }
            })
            .collect();
        let moves = play(players, limit, seed, &mut seats, time);
        let mut end = Rollerball::new(players, limit, seed).unwrap();
        for m in &moves {
            let s = end.to_act().unwrap().seats[0];
            end.apply_text(s, m).unwrap();
        }
        end.result().unwrap().clone()
    };
    let share_of = |r: &crate::game::rollerball::Ending, seat: usize| {
        if r.winners.contains(&seat) {
            1.0 / r.winners.len() as f64
        } else {
            0.0
        }
    };
    let mut shares = Vec::new();
    let mut diffs = Vec::new();
    let mut margin = 0i64;
    let started = Instant::now();
    for g in 0..games {
        let seat = g as usize % players;
        let seed = first + g / players as u64;
        let r = round(seed, seat, true);
        let share = share_of(&r, seat);
        let base = share_of(&round(seed, seat, false), seat);
        let best_other = (0..players)
            .filter(|&s| s != seat)
            .map(|s| r.points[s])
            .max()
            .unwrap();
        margin += r.points[seat] as i64 - best_other as i64;
        shares.push(share);
        diffs.push(share - base);
        println!(
            "round {g}: {which} in seat {seat}: points {:?}, share {share:.2}, heuristic there \
             {base:.2}",
            r.points
        );
    }
    let mean_ci = |v: &[f64]| {
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let sd = (v.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        (100.0 * mean, 196.0 * sd / n.sqrt())
    };
    let (share, ci) = mean_ci(&shares);
    let (diff, dci) = mean_ci(&diffs);
    println!(
        "{which} against heuristic, {players} players, {playouts:?} playouts / {time:?} ms / \
         {cpu_time:?} CPU, {games} rounds: {share:.1}% +- {ci:.1}% (paired against heuristic \
         there: {diff:+.1} +- {dci:.1} points; mean point margin {:+.2}) in {:.0} s",
        margin as f64 / shares.len() as f64,
        started.elapsed().as_secs_f64()
    );
}

/// The rollouts' cheaper policy (no teleports, a shorter evaluation horizon) as a player.
struct Light(u32);

impl GameBot for Light {
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        rng: &mut ChaCha8Rng,
        _note: &mut String,
    ) -> Result<usize, Unreadable> {
        let (seen, legal) = super::read(req)?;
        let h = super::Heuristic {
            weights: super::eval::Weights {
                horizon: self.0,
                ..Default::default()
            },
            teleports: false,
        };
        let g = seen.sample(rng);
        Ok(h.choose(&g, seen.seat, &legal, rng))
    }
}
