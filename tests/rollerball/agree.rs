//! The engine and the naive implementation play the same random games, 2 to 6 players, and
//! must agree at every decision: who is asked, every asked seat's legal moves (in order), the
//! spectator's and every seat's state, the announced move, the public events and the record's
//! secrets, and the result. The engine's invariants are checked after every step, and refused
//! moves (a square changed at random, a move of another phase) must leave the state unchanged.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::rollerball::{Card, Cards, Move, Phase, Rollerball, Square};
use serde_json::Value;

use super::naive::Naive;

/// Checks the engine's invariants.
pub fn invariants(g: &Rollerball) {
    let b = g.board();
    let mut total = Cards::default();
    for s in 0..g.players() {
        total.add_all(g.hand(s));
        total.add_all(g.victory_points(s));
    }
    total.add_all(g.discards());
    total.add_all(&Cards::of(g.deck()));
    for c in &b.cards {
        total.add(c.card);
    }
    let view = g.spectator_view();
    if let Some(rollarena::game::rollerball::view::PendingView::Reward { card: Some(c), .. }) =
        view.pending
    {
        total.add(c);
    }
    assert_eq!(total, Cards::of(&Card::canonical_deck()), "34 cards");
    assert!(b.balls.len() <= 4, "at most 4 balls");
    if g.turn() > 0 {
        assert!(!b.balls.is_empty(), "a ball in play");
    }
    for (i, x) in b.balls.iter().enumerate() {
        assert!(!x.at.is_logo(), "ball on the logo");
        assert!(x.id < b.next_ball);
        for y in &b.balls[i + 1..] {
            assert!(x.id < y.id, "balls by id");
            assert_ne!(x.at, y.at, "two balls on {}", x.at);
        }
    }
    let mut covered = std::collections::BTreeSet::new();
    for w in b.cards.windows(2) {
        assert!(w[0].s1 < w[1].s1, "cards by s1");
    }
    for c in &b.cards {
        assert_ne!(c.card, Card::RP);
        let again = rollarena::game::rollerball::Placed::new(c.card, c.s2, c.s1).unwrap();
        assert_eq!(&again, c, "a card on a slot of its kind");
        for s in c.squares() {
            assert!(s.is_straight());
            assert!(covered.insert(s), "two cards on {s}");
        }
    }
    for w in b.workmen.iter().flatten() {
        assert!(!w.is_logo(), "workman on the logo");
    }
    for base in b.bases.iter().flatten() {
        assert!(base.is_base_square());
    }
    let placed: Vec<&Square> = b.bases.iter().flatten().collect();
    for (i, x) in placed.iter().enumerate() {
        assert!(!placed[i + 1..].contains(x), "two bases on {x}");
    }
    for s in 0..g.players() {
        assert!(g.victory_points(s).len() <= 5);
    }
    match g.to_act() {
        None => {
            assert_eq!(g.phase(), Phase::Over);
            assert!(g.result().is_some());
        }
        Some(t) => {
            assert!(!t.seats.is_empty());
            for &s in &t.seats {
                let legal = g.legal(s);
                assert!(!legal.is_empty(), "legal is never empty");
                for m in &legal {
                    let text = m.to_string();
                    assert_eq!(Move::parse(&text).as_ref(), Ok(m), "{text} reads back");
                }
            }
        }
    }
}

/// A state without its constant `tracks` (compared once per game).
fn without_tracks(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("tracks");
    v
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// A variant of a legal move's text: a square swapped for a random one, or another phase's move.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut toks: Vec<String> = text.split(' ').map(String::from).collect();
    let squares: Vec<usize> = (0..toks.len())
        .filter(|&i| Square::parse(&toks[i]).is_some())
        .collect();
    if squares.is_empty() || rng.random_bool(0.2) {
        let others = [
            "stay",
            "none",
            "pass",
            "keep",
            "vp",
            "decline",
            "bid RP",
            "discard UM",
            "move d4",
            "teleport SD e5",
            "blowup DM",
            "build DM d8 d7",
            "ball a1",
        ];
        return others[rng.random_range(0..others.len())].to_string();
    }
    let i = squares[rng.random_range(0..squares.len())];
    toks[i] = Square::from_index(rng.random_range(0..64)).to_string();
    toks.join(" ")
}

/// The same move written as a careless bot might: upper case squares, doubled spaces, card
/// squares swapped.
fn sloppy(text: &str) -> String {
    let mut toks: Vec<String> = text.split(' ').map(|t| t.to_ascii_uppercase()).collect();
    if matches!(toks[0].as_str(), "PLACE" | "BUILD" | "REPLACE") {
        toks.swap(2, 3);
    }
    toks.join("   ")
}

/// Plays one random game in both implementations and compares them throughout. Returns the
/// naive implementation's record of situations met.
pub fn play_both(players: usize, turn_limit: u32, seed: u64, choices: u64) -> Naive {
    let mut g = Rollerball::new(players, turn_limit, seed).unwrap();
    let mut nv = Naive::new(players, turn_limit, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(choices);
    let mut steps = 0;
    assert_eq!(
        serde_json::to_value(g.view(0)).unwrap()["tracks"],
        serde_json::to_value(super::naive::tracks()).unwrap()
    );
    loop {
        invariants(&g);
        let asked: Vec<usize> = g.to_act().map(|t| t.seats).unwrap_or_default();
        assert_eq!(asked, nv.asked(), "asked");
        assert_eq!(
            without_tracks(serde_json::to_value(g.spectator_view()).unwrap()),
            nv.state_json(None),
            "spectator state"
        );
        // Seat views: the asked seats and one other, in turn.
        let mut seats = asked.clone();
        seats.push(steps % players);
        for &s in &seats {
            assert_eq!(
                without_tracks(serde_json::to_value(g.view(s)).unwrap()),
                nv.state_json(Some(s)),
                "seat {s}'s state"
            );
            assert_eq!(texts(&g.legal(s)), nv.legal(s), "seat {s}'s legal moves");
        }
        let Some(&seat) = asked.first() else { break };
        let legal = nv.legal(seat);
        // A refused move leaves everything unchanged.
        let wrong = mutate(&legal[rng.random_range(0..legal.len())], &mut rng);
        let canonical = Move::parse(&wrong).map(|m| m.to_string());
        let same = canonical.is_ok_and(|c| legal.contains(&c));
        if !same && !wrong.starts_with("take") {
            let before = format!("{g:?}");
            let err = g.apply_text(seat, &wrong).expect_err(&wrong);
            assert!(!err.reason.is_empty());
            assert_eq!(
                format!("{g:?}"),
                before,
                "{wrong} refused changed the state"
            );
        }
        let choice = legal[rng.random_range(0..legal.len())].clone();
        let sent = if rng.random_bool(0.1) {
            sloppy(&choice)
        } else {
            choice.clone()
        };
        let applied = g
            .apply_text(seat, &sent)
            .unwrap_or_else(|e| panic!("{sent} refused: {e}"));
        nv.play(seat, &choice);
        assert_eq!(applied.played.to_string(), choice);
        let announced = if choice.starts_with("bid") {
            "bid (sealed)"
        } else {
            &choice
        };
        assert_eq!(applied.announced, announced);
        assert_eq!(
            serde_json::to_value(&applied.events).unwrap(),
            Value::from(nv.events.clone()),
            "events of {choice}"
        );
        assert_eq!(
            serde_json::to_value(&applied.secrets).unwrap(),
            Value::from(nv.secrets.clone()),
            "secrets of {choice}"
        );
        steps += 1;
        assert!(steps < 100_000);
    }
    let r = g.result().expect("over");
    assert_eq!(r.points, nv.points());
    assert_eq!(r.winners, nv.winners);
    nv
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(1500))]
    /// Short games (the setup and a few turns) in every player count.
    #[test]
    fn short_games_agree(players in 2usize..=6, limit in 1u32..=8, seed: u64, choices: u64) {
        play_both(players, limit, seed, choices);
    }
}

proptest! {
    #![proptest_config(config(24))]
    /// Whole games to five points or the full turn limit.
    #[test]
    fn whole_games_agree(players in 2usize..=6, seed: u64, choices: u64) {
        play_both(players, 360, seed, choices);
    }
}

/// Random games do reach what the rules single out, so the agreement means something.
#[test]
fn random_games_cover_the_rules() {
    let mut seen = std::collections::BTreeMap::new();
    for i in 0..30u64 {
        let nv = play_both(2 + (i as usize % 5), 360, i, i + 1000);
        for (k, v) in nv.seen {
            *seen.entry(k).or_insert(0u64) += v;
        }
    }
    for what in [
        "split",
        "no split: four balls",
        "combine",
        "push",
        "change",
        "destroy",
        "reward",
        "hit",
        "reshuffle",
        "five points",
        "turn limit",
        "extra",
        "blowup",
        "build",
        "replace",
        "take",
        "bid tie",
        "walk under a rubber-up ball",
        "reward from the board",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) > 0,
            "never seen: {what}; seen {seen:?}"
        );
    }
}
