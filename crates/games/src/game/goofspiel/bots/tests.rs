//! Goofspiel's bots played on the round directly: every answer is in `legal` for 2 to 4
//! players, a fixed seed and playout count give the same round, and (as measurements,
//! ignored by default) how they fare against each other and `random`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::{BOTS, Known};
use crate::game::Round;
use crate::game::bot::{BotRequest, BotSettings, GameBot};
use crate::game::goofspiel::{Goofspiel, GoofspielRound};

/// Builds a registry bot by name.
fn bot(name: &str, settings: BotSettings) -> Box<dyn GameBot> {
    let b = BOTS.iter().find(|b| b.name == name).expect("a bot");
    (b.build.request().expect("buildable"))(&settings).expect("builds")
}

/// Plays one round; `seats[i]` is `None` for a uniformly random seat. Checks every answer is
/// legal; returns the points and the bids played.
fn play(
    cards: u8,
    seed: u64,
    seats: &mut [Option<Box<dyn GameBot>>],
    time_ms: Option<u64>,
) -> (Vec<u32>, Vec<String>) {
    let rules = Goofspiel::new(seats.len(), cards).unwrap();
    let mut round = GoofspielRound::deal(rules, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut bids = Vec::new();
    while round.result().is_none() {
        // Every seat bids on the same view of the turn (nobody sees a sealed bid).
        let states: Vec<Value> = (0..seats.len()).map(|s| round.view(s)).collect();
        for (seat, b) in seats.iter_mut().enumerate() {
            let legal = round.legal_moves(seat).expect("a bid to make");
            let index = match b {
                None => rng.random_range(0..legal.len()),
                Some(b) => {
                    let req = BotRequest {
                        seat,
                        state: &states[seat],
                        legal: &legal,
                        time_ms,
                    };
                    let mut note = String::new();
                    b.choose(&req, &mut rng, &mut note).unwrap()
                }
            };
            assert!(index < legal.len());
            round.play(seat, &legal[index]).expect("a legal bid");
            bids.push(legal[index].to_string());
        }
    }
    (round.result().unwrap().points, bids)
}

fn quick_search() -> Box<dyn GameBot> {
    bot(
        "search",
        BotSettings {
            playouts: Some(20),
            ..BotSettings::default()
        },
    )
}

#[test]
fn every_answer_is_legal_for_2_to_4_players() {
    for players in 2..=4 {
        for cards in [1u8, 5, 13] {
            let mut seats: Vec<Option<Box<dyn GameBot>>> = (0..players)
                .map(|s| match s % 3 {
                    0 => Some(quick_search()),
                    1 => Some(bot("heuristic", BotSettings::default())),
                    _ => None,
                })
                .collect();
            let (_, bids) = play(
                cards,
                players as u64 * 100 + u64::from(cards),
                &mut seats,
                None,
            );
            assert_eq!(bids.len(), players * cards as usize);
        }
    }
}

#[test]
fn the_heuristic_bids_the_card_of_the_prize_s_rank() {
    // Prize 9 among 4, 9, 12 is the middle one; the hand's middle card is 6.
    let state = serde_json::json!({"cards": 13, "turn": 10, "prize": 9, "prizes_left": [4, 12],
        "seat": 0, "hand": ["2", "6", "13"], "hands": [3, 3], "bids": [null, null],
        "scores": [0, 0], "history": history(&[2, 6, 13])});
    let legal: Vec<Value> = ["2", "6", "13"].iter().map(|s| Value::from(*s)).collect();
    let req = BotRequest {
        seat: 0,
        state: &state,
        legal: &legal,
        time_ms: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let i = bot("heuristic", BotSettings::default())
        .choose(&req, &mut rng, &mut String::new())
        .unwrap();
    assert_eq!(legal[i], "6");
}

/// Ten turns in which seat 0 bid every card but `kept` and seat 1 the same cards, all ties.
fn history(kept: &[u8]) -> Value {
    let prizes = [1u8, 2, 3, 5, 6, 7, 8, 10, 11, 13];
    let spent: Vec<u8> = (1..=13).filter(|c| !kept.contains(c)).collect();
    let turns: Vec<Value> = prizes
        .iter()
        .zip(&spent)
        .map(|(p, b)| serde_json::json!({"prize": p, "bids": [b, b], "winner": null}))
        .collect();
    Value::Array(turns)
}

#[test]
fn the_state_is_read_with_every_hand_from_the_history() {
    let state = serde_json::json!({"cards": 13, "turn": 10, "prize": 9, "prizes_left": [4, 12],
        "seat": 1, "hand": ["2", "6", "13"], "hands": [3, 3], "bids": [null, null],
        "scores": [0, 0], "history": history(&[2, 6, 13])});
    let k = Known::read(&state).unwrap();
    assert_eq!(k.hands, vec![k.hands[1]; 2]);
    assert_eq!(known_cards(k.hands[0]), vec![2, 6, 13]);
    // A hand the history does not leave is an error that says so.
    let mut wrong = state.clone();
    wrong["hand"] = serde_json::json!(["2", "7", "13"]);
    let e = Known::read(&wrong).unwrap_err().0;
    assert!(e.contains("history"), "{e}");
}

fn known_cards(s: super::known::Set) -> Vec<u8> {
    super::known::cards(s).collect()
}

#[test]
fn same_seed_and_playouts_same_round() {
    for players in [2, 3] {
        let run = || {
            let mut seats: Vec<Option<Box<dyn GameBot>>> = (0..players)
                .map(|s| if s == 0 { Some(quick_search()) } else { None })
                .collect();
            play(13, 7, &mut seats, None)
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn search_beats_random_and_the_heuristic_with_two_players() {
    // The equilibrium needs no time budget: the same search every time.
    let mut score = [0.0; 2];
    for (i, other) in ["random", "heuristic"].iter().enumerate() {
        for g in 0..10u64 {
            let seat = (g % 2) as usize;
            let mut seats: Vec<Option<Box<dyn GameBot>>> = vec![None, None];
            seats[seat] = Some(quick_search());
            if *other == "heuristic" {
                seats[1 - seat] = Some(bot("heuristic", BotSettings::default()));
            }
            let (points, _) = play(13, g, &mut seats, None);
            score[i] += match points[seat].cmp(&points[1 - seat]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
    }
    assert!(
        score[0] >= 8.0,
        "search scored {} of 10 against random",
        score[0]
    );
    assert!(
        score[1] >= 6.0,
        "search scored {} of 10 against heuristic",
        score[1]
    );
}

/// Win shares of `GS_BOT` against `GS_OTHER` (`random`, a bot name, or `search-mc`: `search`
/// without its endgame equilibrium; the others' seats),
/// seats rotated, the two-player search's `GS_EXACT` and `GS_DEPTH` as given (`GS_SAMPLED=1`: the
/// simulations instead): `GS_PLAYERS=3 GS_GAMES=60 GS_TIME=100 cargo test --release --lib
/// goofspiel::bots::tests::versus -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement"]
fn versus() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let players: usize = env("GS_PLAYERS", "2").parse().unwrap();
    let games: u64 = env("GS_GAMES", "40").parse().unwrap();
    let time: u64 = env("GS_TIME", "100").parse().unwrap();
    let (me, other) = (env("GS_BOT", "search"), env("GS_OTHER", "heuristic"));
    let d = super::equilibrium::Config::default();
    let config = super::equilibrium::Config {
        exact: env("GS_EXACT", &d.exact.to_string()).parse().unwrap(),
        depth: env("GS_DEPTH", &d.depth.to_string()).parse().unwrap(),
    };
    let make = |name: &str| -> Option<Box<dyn GameBot>> {
        match name {
            "random" => None,
            "search" => Some(Box::new(super::Search {
                movetime: None,
                playouts: None,
                config,
                equilibrium: std::env::var("GS_SAMPLED").is_err(),
            })),
            // The simulations to the end, without the two-player endgame equilibrium.
            "search-mc" => Some(Box::new(super::Search {
                movetime: None,
                playouts: None,
                config,
                equilibrium: false,
            })),
            _ => Some(bot(name, BotSettings::default())),
        }
    };
    let mut shares = Vec::new();
    let started = std::time::Instant::now();
    for g in 0..games {
        let seat = g as usize % players;
        let mut seats: Vec<Option<Box<dyn GameBot>>> = (0..players)
            .map(|s| if s == seat { make(&me) } else { make(&other) })
            .collect();
        let (points, bids) = play(13, 1000 + g / players as u64, &mut seats, Some(time));
        if std::env::var("GS_BIDS").is_ok() {
            let rules = Goofspiel::new(players, 13).unwrap();
            let deck = GoofspielRound::deal(rules, 1000 + g / players as u64)
                .deck()
                .to_vec();
            println!("deck {deck:?} bids {}", bids.join(" "));
        }
        let best = *points.iter().max().unwrap();
        let tied = points.iter().filter(|&&p| p == best).count() as f64;
        shares.push(if points[seat] == best {
            1.0 / tied
        } else {
            0.0
        });
        println!("round {g}: {me} in seat {seat}: points {points:?}");
    }
    let n = shares.len() as f64;
    let mean = shares.iter().sum::<f64>() / n;
    let sd = (shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    println!(
        "{me} against {other}, {players} players, {time} ms, {games} rounds: {:.1}% +- {:.1}% \
         ({config:?}, {:.1} s)",
        100.0 * mean,
        196.0 * sd / n.sqrt(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "a look at the two-player search's decisions"]
fn show_decisions() {
    let mut round = GoofspielRound::deal(Goofspiel::new(2, 13).unwrap(), 5);
    let search = super::Search {
        movetime: None,
        playouts: None,
        config: super::equilibrium::Config::default(),
        equilibrium: true,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    while round.result().is_none() {
        let seat = std::env::var("GS_SEAT").map_or(0, |s| s.parse().unwrap());
        let legal = round.legal_moves(1 - seat).unwrap();
        let k = Known::read(&round.view(seat)).unwrap();
        let (card, note) = search.bid(&k, None, &mut rng);
        println!("prize {}: {card} ({note})", k.prize);
        round.play(seat, &Value::from(card.to_string())).unwrap();
        round
            .play(1 - seat, &legal[rng.random_range(0..legal.len())])
            .unwrap();
    }
}
