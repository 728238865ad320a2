//! The live projection as data: a round of each game is refereed in process (scripted bots
//! picking from their legal moves), every move goes through the arena's projection
//! (`arena::live::project`) as the worker sends it, and the messages are checked against what
//! the referee told the seats and against the round's record: no hand, deck order or sealed
//! bid before the round ends, and enough for a viewer to show the round move by move.

use rollarena::arbiter::events::Event;
use rollarena::arena::live::project;
use rollarena::game::goofspiel::Goofspiel;
use rollarena::game::rollerball::RollerballGame;
use rollarena::game::{Game, RoundSetup};
use rollarena::referee::{Input, Output, Referee};
use serde_json::{Value, json};

/// A refereed round and what came of it.
struct Watched {
    /// The projected message of each move, in order.
    messages: Vec<Value>,
    /// Every line each seat received.
    received: Vec<Vec<Value>>,
    referee: Referee,
}

/// Plays a round of `game` to its end, each asked seat taking its legal move at index
/// `pick(seat, n)`, and projects every move as the live stream does.
fn watch(game: &dyn Game, seed: u64, mut pick: impl FnMut(usize, usize) -> usize) -> Watched {
    let seats = game.seats();
    let round = game.new_round(RoundSetup {
        round: 0,
        match_seed: seed,
        round_seed: seed,
        chance_seed: seed,
    });
    let settings = crate::referee::settings();
    let referee = Referee::new(round, seats, settings, 1, seed, 0).spectated();
    let mut w = Watched {
        messages: Vec::new(),
        received: vec![Vec::new(); seats],
        referee,
    };
    w.referee.start(7);
    w.referee.input(0.0, Input::Tick);
    w.pump(0.0);
    let mut at = 0.0;
    let mut guard = 0;
    while !w.referee.is_over() {
        guard += 1;
        assert!(guard < 50_000, "the round ends");
        for seat in w.referee.listening() {
            let request = w.received[seat]
                .iter()
                .rev()
                .find(|m| m.get("turn_id").is_some() && m["type"] != "illegal")
                .expect("a request")
                .clone();
            let legal = request["legal"].as_array().expect("legal moves").clone();
            let mv = legal[pick(seat, legal.len())].clone();
            at += 1.0;
            let line = json!({"type": "move", "move": mv}).to_string();
            w.referee.input(
                at,
                Input::Line {
                    seat,
                    line: line.as_bytes(),
                    cpu_ms: None,
                },
            );
            w.pump(at);
        }
    }
    w
}

impl Watched {
    fn pump(&mut self, at: f64) {
        loop {
            let outs: Vec<Output> = self.referee.take_outputs().collect();
            if outs.is_empty() {
                break;
            }
            for o in outs {
                match o {
                    Output::Send { seat, line, .. } => {
                        self.received[seat].push(serde_json::from_slice(&line).expect("JSON"))
                    }
                    Output::Drain(seat) => self.referee.input(at, Input::Drained(seat)),
                    _ => {}
                }
            }
        }
        let play = self.referee.play();
        for i in self.messages.len()..play.moves.len() {
            let event = Event::Moved {
                round: 1,
                mv: &play.moves[i],
                public: self.referee.public().get(i),
            };
            self.messages.push(project(&event).expect("a move shows"));
        }
    }

    /// The `played` announcements a seat received, in order.
    fn announced(&self, seat: usize) -> Vec<&Value> {
        self.received[seat]
            .iter()
            .filter(|m| m["type"] == "played")
            .collect()
    }
}

/// A small deterministic sequence of picks.
fn lcg(seed: u64) -> impl FnMut(usize, usize) -> usize {
    let mut n = seed;
    move |seat, len| {
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(seat as u64 + 1);
        (n >> 33) as usize % len
    }
}

/// Every key anywhere in a value, with the value under it.
pub fn walk<'a>(v: &'a Value, out: &mut Vec<(&'a str, &'a Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push((k, x));
                walk(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
        _ => {}
    }
}

/// No key that holds a secret in any game's record or spectator view.
fn no_secret_keys(msg: &Value) {
    let mut keys = Vec::new();
    walk(msg, &mut keys);
    for (k, v) in keys {
        assert!(
            !["secrets", "secret", "deal"].contains(&k),
            "a live message holds {k}: {msg}"
        );
        if k == "hand" {
            assert!(v.is_number(), "a live message holds a hand: {msg}");
        }
        if k == "hands" {
            // How many cards each seat holds, never which.
            let counts = v.as_array().is_some_and(|h| h.iter().all(Value::is_number));
            assert!(counts, "a live message holds hands: {msg}");
        }
        if k == "deck" {
            assert!(v.is_number(), "a live message holds a deck order: {msg}");
        }
    }
}

/// Each move's message: numbered from 1 without a gap, its seat and the state after it, and
/// (the seats other than the mover being told exactly what the audience is) the move and its
/// effects as a seat other than the mover was told.
fn shows_every_move_as_the_other_seats_heard_it(w: &Watched) {
    let play = w.referee.play();
    assert_eq!(w.messages.len(), play.moves.len());
    let seats = w.received.len();
    let mut heard: Vec<std::vec::IntoIter<&Value>> =
        (0..seats).map(|s| w.announced(s).into_iter()).collect();
    for (i, m) in w.messages.iter().enumerate() {
        assert_eq!(m["type"], "move");
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["seat"], play.moves[i].seat);
        assert!(m["state"].is_object(), "no state: {m}");
        for (s, it) in heard.iter_mut().enumerate() {
            let told = it.next().expect("every seat hears every move");
            if s != play.moves[i].seat {
                assert_eq!(
                    m["move"],
                    told["move"],
                    "move {} as seat {s} heard it",
                    i + 1
                );
                for (k, v) in m["effects"].as_object().unwrap() {
                    assert_eq!(&told[k], v, "effect {k} of move {}", i + 1);
                }
            }
        }
    }
}

#[test]
fn rolit_shows_every_move_and_the_board_after_it() {
    let game = rollarena::game::rolit::Rolit::new(6, 3).expect("a variant");
    let w = watch(&game, 11, lcg(3));
    shows_every_move_as_the_other_seats_heard_it(&w);
    // No hidden information: the state after the last move is the record's board.
    let last = w.messages.last().unwrap();
    assert_eq!(last["state"], w.referee.round().public_view());
    for m in &w.messages {
        no_secret_keys(m);
    }
}

#[test]
fn rollerball_shows_no_hand_deck_or_sealed_bid_before_the_round_ends() {
    let game = RollerballGame::new(4, 60).expect("options");
    let w = watch(&game, 2024, lcg(9));
    shows_every_move_as_the_other_seats_heard_it(&w);
    // The record holds the secrets the messages must not: the deal, the bids, the draws.
    let play = w.referee.play();
    assert!(play.moves[0].effects.contains_key("deal"));
    assert!(play.moves.iter().any(|m| m.effects.contains_key("secrets")));
    let board = w.referee.round().public_view();
    assert!(
        board["hands"].is_array(),
        "the record's board shows every hand"
    );
    let mut revealed = false;
    for (i, m) in w.messages.iter().enumerate() {
        no_secret_keys(m);
        let state = &m["state"];
        assert!(state["seat"].is_null() && state.get("hand").is_none());
        if let Some(p) = state.get("pending").filter(|p| !p.is_null()) {
            assert!(p.get("card").is_none(), "the card of a reward: {m}");
        }
        let events = m["effects"]["events"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if events.iter().any(|e| e["event"] == "bids") {
            revealed = true;
        }
        if !revealed {
            for p in state["players"].as_array().unwrap() {
                assert!(
                    p["bid"].is_null() || p["bid"] == "sealed",
                    "a bid at move {}: {m}",
                    i + 1
                );
            }
            if play.moves[i]
                .mv
                .as_str()
                .is_some_and(|s| s.starts_with("bid"))
            {
                assert_eq!(m["move"], "bid (sealed)");
            }
        }
        for e in &events {
            if e["event"] == "draw" {
                assert!(e.get("card").is_none(), "a drawn card: {m}");
            }
        }
        // What the record keeps of the move beyond what was announced stays out.
        for k in play.moves[i].effects.keys() {
            if k == "deal" || k == "secrets" {
                assert!(m["effects"].get(k).is_none(), "{k} in move {}: {m}", i + 1);
            }
        }
    }
    assert!(revealed, "the bids were revealed during the round");
    // Enough to show the game: the last state is the record's board but for the hands.
    let last = &w.messages.last().unwrap()["state"];
    for k in [
        "players", "balls", "cards", "turn", "phase", "discards", "deck",
    ] {
        assert_eq!(last[k], board[k], "{k} of the last state");
    }
}

/// The messages of the first bidding turn, seat 0 bidding its `k`-th listed bid.
fn first_bids(game: &dyn Game, k: usize) -> Vec<Value> {
    let mut first = true;
    let w = watch(game, 77, move |seat, len| {
        if seat == 0 && first {
            first = false;
            k % len
        } else {
            0
        }
    });
    // Up to the message that reveals the bids (the turn's last bid).
    let end = w
        .messages
        .iter()
        .position(|m| {
            m["effects"]["events"]
                .as_array()
                .is_some_and(|e| e.iter().any(|e| e["event"] == "bids"))
                || m["effects"].get("bids").is_some()
        })
        .expect("a reveal");
    w.messages[..end]
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.as_object_mut().unwrap().remove("ms");
            m
        })
        .collect()
}

#[test]
fn a_sealed_rollerball_bid_changes_nothing_in_the_stream_before_the_reveal() {
    let game = RollerballGame::new(3, 60).expect("options");
    let a = first_bids(&game, 0);
    let b = first_bids(&game, 3);
    assert!(!a.is_empty());
    assert_eq!(a, b, "the audience learnt something of seat 0's bid");
}

#[test]
fn goofspiel_shows_no_prize_order_or_bid_before_its_reveal() {
    let game = Goofspiel::new(3, 8).expect("options");
    let w = watch(&game, 5, lcg(4));
    shows_every_move_as_the_other_seats_heard_it(&w);
    let board = w.referee.round().public_view();
    assert!(
        board["deck"].is_array(),
        "the record's board shows the prize order"
    );
    for m in &w.messages {
        no_secret_keys(m);
        let state = &m["state"];
        for (s, b) in state["bids"].as_array().unwrap().iter().enumerate() {
            assert!(b.is_null() || b == "sealed", "seat {s}'s bid shown: {m}");
        }
        if m["effects"].get("bids").is_none() {
            assert_eq!(m["move"], "sealed", "a bid shown: {m}");
        }
    }
    let a = first_bids(&game, 0);
    let b = first_bids(&game, 5);
    assert!(!a.is_empty());
    assert_eq!(a, b, "the audience learnt something of seat 0's bid");
    // Enough to follow the game: every turn's prize, bids and winner as they were revealed.
    let last = &w.messages.last().unwrap()["state"];
    assert_eq!(last["history"], board["history"]);
    assert_eq!(last["scores"], board["scores"]);
}

#[test]
fn a_rounds_start_shows_its_state_as_its_audience_sees_it() {
    let games: [Box<dyn Game>; 2] = [
        Box::new(RollerballGame::new(2, 60).expect("options")),
        Box::new(Goofspiel::new(2, 8).expect("options")),
    ];
    for game in &games {
        let round = game.new_round(RoundSetup {
            round: 0,
            match_seed: 11,
            round_seed: 11,
            chance_seed: 11,
        });
        let state = round.live_view();
        let colours = round.colours();
        let m = project(&Event::RoundDealt {
            round: 1,
            state: &state,
            colours: colours.as_deref(),
            first: round.first(),
        })
        .expect("a message");
        assert_eq!(m["type"], "start");
        assert_eq!(m["round"], 1);
        assert_eq!(m["first"], round.first());
        assert_eq!(m["colours"], json!(colours));
        assert_eq!(m["state"], state);
        // The spectator's view of the record shows every hand; the start's does not.
        assert_ne!(m["state"], round.public_view(), "{m}");
        let mut keys = Vec::new();
        walk(&m, &mut keys);
        for (k, v) in keys {
            assert!(!["deal", "secrets", "secret"].contains(&k), "{k} in {m}");
            if k == "hands" {
                let counts = v.as_array().expect("the hands");
                assert!(counts.iter().all(Value::is_number), "hands in {m}");
            }
            if k == "hand" || k == "deck" {
                assert!(
                    v.is_number() || v.is_null(),
                    "a {k} that is not a count in {m}"
                );
            }
        }
    }
}
