//! §12.3: four players, the race to five: turns 41 and 42 from a position set up by hand, with
//! an empty deck, a reward taken from the board and a win that leaves events unsettled.

use super::super::ball::Ball;
use super::super::card::{Card, Card::*, Cards, Placed};
use super::super::events::Event;
use super::super::state::{Phase, Rollerball};
use super::{sq, sqs};

fn position() -> Rollerball {
    let mut g = Rollerball::new(4, 360, 1).unwrap();
    let b = &mut g.board;
    b.bases = sqs("a8 b2 h1 a1").into_iter().map(Some).collect();
    // Red on b3, blue on c6, green on g8, yellow on blue's base b2.
    b.workmen = sqs("b3 c6 g8 b2").into_iter().map(Some).collect();
    b.cards.clear();
    for (c, s1, s2) in [(SU, "e3", "e2"), (DM, "c1", "c2"), (RU, "h6", "h5")] {
        b.lay(Placed::new(c, sq(s1), sq(s2)).unwrap());
    }
    b.balls = sqs("e1 f3 h4 f2")
        .into_iter()
        .enumerate()
        .map(|(i, s)| Ball::new(i as u32 + 1, s))
        .collect();
    b.next_ball = 5;
    g.vps = vec![
        Cards::of(&[DM, DM]),
        Cards::of(&[UM, UM, UM, UM]),
        Cards::of(&[SD, SD, SD, SD]),
        Cards::of(&[SU]),
    ];
    g.hands = vec![
        Cards::of(&[RP, RP]),
        Cards::of(&[EN]),
        Cards::of(&[DR, DR, RU, EN]),
        Cards::of(&[SU]),
    ];
    // Everything else is in the discards; the deck is empty.
    let mut used = Cards::default();
    for h in g.hands.iter().chain(&g.vps) {
        used.add_all(h);
    }
    for c in &g.board.cards {
        used.add(c.card);
    }
    let mut discards = Cards::of(&Card::canonical_deck());
    discards.remove_all(&used);
    g.discards = discards;
    g.top = g.deck.len();
    g.bids = vec![Some(Cards::default()); 4];
    g.bids_revealed = true;
    g.passed = vec![true; 4];
    g.first = Some(0);
    g.turn = 40;
    g.acting = Some(1);
    g.asked = 1;
    g.phase = Phase::Use;
    g
}

#[test]
fn race_to_five() {
    let mut g = position();
    // Turn 41 (green): four balls, so ball 2 does not split on e3.
    let a = g.apply_text(1, "none").unwrap();
    assert!(!a.events.iter().any(|e| matches!(e, Event::Split { .. })));
    assert!(
        !a.events
            .iter()
            .any(|e| matches!(e, Event::Reshuffle { .. }))
    );
    let at: Vec<String> = g.board.balls.iter().map(|b| b.at.to_string()).collect();
    assert_eq!(at, ["c1", "d3", "h2", "d2"]);
    assert_eq!((g.phase(), g.asked), (Phase::Move, 2));
    g.apply_text(2, "stay").unwrap();
    // Turn 42 (yellow).
    let a = g.apply_text(2, "none").unwrap();
    let settled: Vec<&Event> = a
        .events
        .iter()
        .filter(|e| matches!(e, Event::Reward { .. } | Event::Hit { .. }))
        .collect();
    assert_eq!(
        settled,
        vec![
            &Event::Reward {
                seat: 2,
                ball: 3,
                at: sq("h1")
            },
            &Event::Reward {
                seat: 1,
                ball: 4,
                at: sq("b2")
            },
            &Event::Reward {
                seat: 1,
                ball: 1,
                at: sq("b2")
            },
            &Event::Hit {
                seat: 0,
                ball: 4,
                at: sq("b3"),
                home: sq("a8")
            },
        ]
    );
    assert_eq!(
        g.board.workmen[3],
        Some(sq("b2")),
        "yellow's workman is safe on a base"
    );
    assert_eq!((g.phase(), g.asked), (Phase::Reward, 2));
    let legal: Vec<String> = g.legal(2).iter().map(ToString::to_string).collect();
    assert_eq!(
        legal,
        [
            "decline",
            "take c1 keep",
            "take c1 vp",
            "take e3 keep",
            "take e3 vp",
            "take h6 keep",
            "take h6 vp"
        ]
    );
    // Either square of the card names it; the canonical move names its s1.
    let a = g.apply_text(2, "take e2 vp").unwrap();
    assert_eq!(a.announced, "take e3 vp");
    assert_eq!(
        a.events,
        vec![
            Event::Take {
                seat: 2,
                card: SU,
                at: sq("e3")
            },
            Event::Vp { seat: 2, card: SU },
            Event::Win { seat: 2 },
        ]
    );
    assert_eq!(g.phase(), Phase::Over);
    let r = g.result().unwrap();
    assert_eq!(r.winners, vec![2]);
    assert_eq!(r.points, vec![2, 4, 5, 1]);
    assert_eq!(r.ranks, vec![3, 2, 1, 4]);
    assert!(g.to_act().is_none());
}
