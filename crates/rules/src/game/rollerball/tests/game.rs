//! §12.1: the two-player game, turns 1 to 10, move by move, with the state a bot sees in turn 3
//! (§11.2) and the legal list given there.

use serde_json::json;

use super::super::ball::Rubber;
use super::super::card::Card::{self, *};
use super::super::events::{Event, Secret};
use super::super::state::{Applied, Phase, Rollerball};
use super::sq;

/// The deal of §12.1: red `DM EN RP SD`, blue `DR RU SU UM`, then the cards drawn in turns 1 to
/// 4 (`SU` red, `DM` blue, `UM` red's reward, `EN` red, `SD` blue), then the rest in canonical
/// order.
fn deal() -> Vec<Card> {
    let mut d = vec![DM, DR, EN, RU, RP, SU, SD, UM, SU, DM, UM, EN, SD];
    let mut rest = Card::canonical_deck();
    for c in &d {
        let i = rest.iter().position(|x| x == c).unwrap();
        rest.remove(i);
    }
    d.extend(rest);
    d
}

fn play(g: &mut Rollerball, seat: usize, text: &str) -> Applied {
    g.apply_text(seat, text)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"))
}

fn ball(g: &Rollerball, id: u32) -> String {
    let b = g.board().balls.iter().find(|b| b.id == id).expect("ball");
    format!(
        "{}{}{}",
        b.at,
        if b.energised { "E" } else { "" },
        match b.rubber {
            None => "",
            Some(Rubber::Up) => "^",
            Some(Rubber::Down) => "v",
        }
    )
}

fn setup() -> Rollerball {
    let mut g = Rollerball::with_deal(2, 360, 7, Some(deal())).unwrap();
    assert_eq!(g.hand(0).list(), vec![DM, EN, RP, SD]);
    assert_eq!(g.hand(1).list(), vec![DR, RU, SU, UM]);
    let a = play(&mut g, 0, "bid RP");
    assert_eq!(a.announced, "bid (sealed)");
    assert!(a.events.is_empty());
    assert_eq!(
        a.secrets,
        vec![Secret::Bid {
            seat: 0,
            cards: vec![RP]
        }]
    );
    assert_eq!(
        g.view(1).players[0].bid,
        Some(super::super::view::BidView::Sealed(
            super::super::view::Sealed::Sealed
        ))
    );
    let a = play(&mut g, 1, "bid");
    assert_eq!(
        a.events,
        vec![Event::Bids {
            bids: vec![vec![RP], vec![]],
            winner: 0,
            tied: None
        }]
    );
    for (seat, m) in [
        (0, "base h8"),
        (1, "base h1"),
        (0, "workman c5"),
        (1, "workman g6"),
        (0, "place SD d8 d7"),
        (1, "place UM g4 h4"),
        (0, "place EN e7 f7"),
        (1, "pass"),
        (0, "pass"),
    ] {
        play(&mut g, seat, m);
    }
    assert_eq!(g.phase(), Phase::Ball);
    let a = play(&mut g, 0, "ball b8");
    assert_eq!(a.events[0], Event::Turn { turn: 1, seat: 0 });
    g
}

#[test]
fn turns_1_to_5() {
    let mut g = setup();
    // Turn 1: b8 -> c8 -> d8; red draws SU.
    assert_eq!(ball(&g, 1), "d8");
    assert_eq!(g.hand(0).list(), vec![DM, SU]);
    play(&mut g, 0, "stay");
    // Turn 2: the split.
    let a = play(&mut g, 0, "none");
    assert!(a.events.contains(&Event::Split {
        ball: 1,
        new: 2,
        at: sq("d7")
    }));
    assert_eq!((ball(&g, 1), ball(&g, 2)), ("f8".into(), "e7".into()));
    play(&mut g, 1, "stay");
    // Turn 3: red's reward and the energiser.
    let a = play(&mut g, 1, "none");
    assert!(a.events.contains(&Event::Reward {
        seat: 0,
        ball: 1,
        at: sq("h8")
    }));
    assert_eq!((ball(&g, 1), ball(&g, 2)), ("h8".into(), "g7E".into()));
    assert_eq!(g.phase(), Phase::Reward);
    assert_eq!(
        g.view(0).pending.unwrap(),
        super::super::view::PendingView::Reward {
            seat: 0,
            ball: 1,
            at: sq("h8"),
            card: Some(UM)
        }
    );
    let blue = serde_json::to_value(g.view(1)).unwrap();
    assert_eq!(
        blue["pending"],
        json!({"kind": "reward", "seat": 0, "ball": 1, "at": "h8"})
    );
    let legal: Vec<String> = g.legal(0).iter().map(ToString::to_string).collect();
    assert_eq!(legal, ["keep", "vp"]);
    let a = play(&mut g, 0, "vp");
    assert_eq!(a.events[0], Event::Vp { seat: 0, card: UM });
    assert!(a.secrets.contains(&Secret::Drawn { seat: 0, card: EN }));
    play(&mut g, 0, "move d3");
    state_example(&g);
    play(&mut g, 0, "BUILD  su d2   D3");
    // Turn 4: blue's workman is hit on g6.
    assert!(g.board().cards.iter().any(|c| c.to_string() == "SU d3 d2"));
    assert_eq!(g.phase(), Phase::Discard);
    assert_eq!(g.board().workmen[1], Some(sq("h1")));
    assert_eq!((ball(&g, 1), ball(&g, 2)), ("h6".into(), "g5E".into()));
    play(&mut g, 1, "discard DR");
    play(&mut g, 1, "teleport DM e2");
    play(&mut g, 1, "build RU e2 f2");
    // Turn 5: the dead end and the destroyed Up Move.
    assert_eq!((ball(&g, 1), ball(&g, 2)), ("h4".into(), "g3".into()));
    assert!(
        !g.board().cards.iter().any(|c| c.card == UM),
        "the Up Move was destroyed"
    );
    assert!(g.discards().has(UM));
    turns_6_to_10(g);
}

/// The state example of §11.2 (red asked `use` in turn 3) and its legal list.
fn state_example(g: &Rollerball) {
    let mut v = serde_json::to_value(g.view(0)).unwrap();
    let tracks = v.as_object_mut().unwrap().remove("tracks").unwrap();
    assert_eq!(tracks[0][0], "a8");
    assert_eq!(tracks[2][11], "c5");
    assert_eq!(
        v,
        json!({
          "rules": "rollerball-v4-hr2",
          "phase": "use",
          "turn": 3,
          "turn_limit": 360,
          "acting": 0,
          "asked": 0,
          "first_player": 0,
          "seat": 0,
          "hand": ["DM", "EN", "SU"],
          "players": [
            {"colour": "red",  "base": "h8", "workman": "d3", "hand": 3, "vp": ["UM"], "bid": ["RP"], "passed": true},
            {"colour": "blue", "base": "h1", "workman": "g6", "hand": 4, "vp": [],     "bid": [],     "passed": true}
          ],
          "balls": [
            {"id": 1, "at": "h8", "energised": false, "rubber": null},
            {"id": 2, "at": "g7", "energised": true,  "rubber": null}
          ],
          "cards": [
            {"card": "UM", "at": ["g4", "h4"]},
            {"card": "EN", "at": ["e7", "f7"]},
            {"card": "SD", "at": ["d8", "d7"]}
          ],
          "deck": 22,
          "discards": ["RP"],
          "pending": null
        })
    );
    let legal: Vec<String> = g.legal(0).iter().map(ToString::to_string).collect();
    assert_eq!(
        legal,
        ["none", "build DM d2 d3", "build EN e3 d3", "build SU d3 d2"]
    );
}

/// Turn 7 onwards: the rubber ball of §12.1.
fn turns_6_to_10(mut g: Rollerball) {
    play(&mut g, 0, "stay");
    play(&mut g, 0, "none");
    // Turn 6 (blue): blue's workman leaves e2 before ball 2 arrives there.
    assert_eq!((ball(&g, 1), ball(&g, 2)), ("h2".into(), "f2".into()));
    play(&mut g, 1, "move f3");
    let a = play(&mut g, 1, "none");
    // Turn 7 (red): ball 1 rewards blue on h1; ball 2 leaves the Rubberiser rubber-up onto d2.
    assert!(a.events.contains(&Event::Change {
        ball: 2,
        card: RU,
        energised: false,
        rubber: Some(Rubber::Up)
    }));
    assert_eq!((ball(&g, 1), ball(&g, 2)), ("g1".into(), "d2^".into()));
    assert_eq!(g.phase(), Phase::Reward);
    play(&mut g, 1, "keep");
    play(&mut g, 0, "stay");
    play(&mut g, 0, "none");
    // Turn 8 (blue): rubber-down.
    assert_eq!(ball(&g, 2), "b2v");
    play(&mut g, 1, "stay");
    play(&mut g, 1, "none");
    // Turn 9 (red): rubber-up again; red walks onto b4 under it.
    assert_eq!(ball(&g, 2), "b4^");
    assert!(g.legal(0).iter().any(|m| m.to_string() == "move b4"));
    play(&mut g, 0, "move b4");
    let a = play(&mut g, 0, "none");
    // Turn 10 (blue): rubber-down, rolls on to b6 without hitting red.
    assert_eq!(ball(&g, 2), "b6v");
    assert_eq!(g.board().workmen[0], Some(sq("b4")));
    assert!(!a.events.iter().any(|e| matches!(e, Event::Hit { .. })));
    assert_eq!(g.turn(), 10);
}

/// Refusals say what was wrong, in a bot author's words, and change nothing.
#[test]
fn refusals() {
    let mut g = setup();
    let before = format!("{g:?}");
    let refused = |g: &mut Rollerball, seat: usize, text: &str| {
        g.apply_text(seat, text).expect_err(text).to_string()
    };
    assert_eq!(
        refused(&mut g, 0, "teleport RP e2"),
        "teleport RP e2: you hold no RP"
    );
    assert_eq!(
        refused(&mut g, 1, "stay"),
        "stay: red is asked (move), not you"
    );
    assert_eq!(
        refused(&mut g, 0, "none"),
        "none: the decision asked is move (e.g. \"stay\"), not use"
    );
    assert_eq!(
        refused(&mut g, 0, "move h1"),
        "move h1: h1 is 9 steps from your workman on c5"
    );
    assert_eq!(refused(&mut g, 0, "move d5"), "move d5: d5 is on the logo");
    assert_eq!(
        refused(&mut g, 0, "teleport DM d8"),
        "teleport DM d8: d8 holds ball 1"
    );
    assert!(refused(&mut g, 0, "fly c4").contains("unknown move"));
    assert!(refused(&mut g, 0, "build SD d8 e8").contains("cannot lie on d8 and e8"));
    assert_eq!(format!("{g:?}"), before);
    assert_eq!(g.deal_secret(), Secret::Deal { deck: deal() });
}
