//! §12.2: push, combine, a push onto a base, and two collisions side by side, run on boards
//! set up by hand.

use super::super::ball::Ball;
use super::super::ball_phase::{PhaseLog, Settle};
use super::super::board::Board;
use super::super::card::{Card, Placed};
use super::super::events::Event;
use super::{sq, sqs};

fn board(cards: &[(Card, &str, &str)], balls: &str) -> Board {
    let mut b = Board::new(2);
    for &(c, s1, s2) in cards {
        b.lay(Placed::new(c, sq(s1), sq(s2)).unwrap());
    }
    for s in sqs(balls) {
        let id = b.next_ball;
        b.next_ball += 1;
        b.balls.push(Ball::new(id, s));
    }
    b
}

fn at(b: &Board) -> Vec<String> {
    b.balls
        .iter()
        .map(|x| format!("{}:{}", x.id, x.at))
        .collect()
}

/// One whole ball phase.
fn phase(b: &mut Board) -> PhaseLog {
    let mut log = PhaseLog::default();
    b.ball_phase(&mut log);
    log
}

#[test]
fn push_chain() {
    let mut b = board(&[(Card::UM, "e3", "e2")], "e3 f2 e2");
    let log = phase(&mut b);
    let pushes: Vec<&Event> = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Push { .. }))
        .collect();
    assert_eq!(
        pushes,
        vec![
            &Event::Push {
                ball: 2,
                from: sq("e2"),
                to: sq("d2")
            },
            &Event::Push {
                ball: 3,
                from: sq("d2"),
                to: sq("c2")
            },
        ]
    );
    assert_eq!(at(&b), vec!["1:d2", "2:c2", "3:b2"]);
}

#[test]
fn combine_on_the_y_square() {
    let mut b = board(&[(Card::SU, "e3", "e2")], "e3 f2 c8");
    let log = phase(&mut b);
    assert!(log.events.contains(&Event::Split {
        ball: 1,
        new: 4,
        at: sq("e2")
    }));
    assert!(log.events.contains(&Event::Combine {
        ball: 4,
        into: 2,
        at: sq("e2")
    }));
    assert_eq!(at(&b), vec!["1:c3", "2:d2", "3:e8"]);
    assert_eq!(b.next_ball, 5, "an id is never reused");
}

#[test]
fn push_onto_a_base() {
    let mut b = board(&[(Card::DM, "c1", "c2")], "c1 d2");
    b.bases = vec![Some(sq("b2")), Some(sq("a1"))];
    b.workmen = vec![Some(sq("h8")), Some(sq("b3"))];
    let log = phase(&mut b);
    assert_eq!(
        log.settle,
        vec![
            Settle::Reward {
                seat: 0,
                ball: 2,
                at: sq("b2")
            },
            Settle::Reward {
                seat: 0,
                ball: 1,
                at: sq("b2")
            },
            Settle::Hit {
                seat: 1,
                ball: 2,
                at: sq("b3")
            },
        ]
    );
    assert_eq!(at(&b), vec!["1:b2", "2:b3"]);
    assert_eq!(b.workmen[1], Some(sq("a1")));
}

#[test]
fn two_collisions_side_by_side() {
    let mut b = board(
        &[(Card::DM, "c8", "c7"), (Card::DM, "d8", "d7")],
        "c8 b7 d8 c7",
    );
    let log = phase(&mut b);
    let pushes: Vec<&Event> = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Push { .. }))
        .collect();
    assert_eq!(
        pushes,
        vec![
            &Event::Push {
                ball: 4,
                from: sq("d7"),
                to: sq("e7")
            },
            &Event::Push {
                ball: 2,
                from: sq("c7"),
                to: sq("d7")
            },
            &Event::Push {
                ball: 3,
                from: sq("d7"),
                to: sq("e7")
            },
            &Event::Push {
                ball: 4,
                from: sq("e7"),
                to: sq("f7")
            },
        ]
    );
    assert_eq!(at(&b), vec!["1:d7", "2:e7", "3:f7", "4:g7"]);
}
