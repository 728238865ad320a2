//! Reading and checking solutions: the bounce rule, the declared count, the vortex, illegal
//! moves, with the reasons a bot author reads.

use serde_json::json;

use crate::game::robots::{Dir, Move, Positions, Robot, Token, check_solution, parse_solution};

use super::reference::{Builder, c};

fn at(robots: &[(Robot, &str)]) -> Positions {
    let mut p = Positions::new();
    for &(r, cell) in robots {
        p.set(r, c(cell));
    }
    p
}

fn tok(s: &str) -> Token {
    s.parse().unwrap()
}

fn mv(robot: Robot, dir: Dir) -> Move {
    Move::new(robot, dir)
}

#[test]
fn parses_moves_and_explains_bad_ones() {
    let v = json!([{"robot":"red","dir":"up"},{"robot":"black","dir":"left","why":"ignored"}]);
    assert_eq!(
        parse_solution(&v).unwrap(),
        [mv(Robot::Red, Dir::Up), mv(Robot::Black, Dir::Left)]
    );
    let cases = [
        (json!({"robot":"red"}), "a solution is a list of moves"),
        (json!(["red up"]), "move 1: a move is an object"),
        (
            json!([{"robot":"red","dir":"up"},{"dir":"up"}]),
            "move 2: missing \"robot\"",
        ),
        (
            json!([{"robot":"purple","dir":"up"}]),
            "move 1: \"purple\" is not a robot",
        ),
        (
            json!([{"robot":"red","dir":"north"}]),
            "move 1: \"north\" is not a direction",
        ),
        (
            json!([{"robot":"red","dir":1}]),
            "move 1: \"dir\" must be a string",
        ),
    ];
    for (v, want) in cases {
        let e = parse_solution(&v).unwrap_err().to_string();
        assert!(e.starts_with(want), "{e}");
    }
    assert_eq!(
        serde_json::to_value(mv(Robot::Red, Dir::Up)).unwrap(),
        json!({"robot":"red","dir":"up"})
    );
}

#[test]
fn the_goal_robot_must_bounce() {
    // The red moon at f1, on the bottom edge, walled on its right.
    let b = Builder::new(false)
        .target("f1", "red-moon")
        .walls("f1", &[Dir::Right])
        .build();
    let red_moon = tok("red-moon");
    // A straight run down onto it is one move of red: refused, even after another robot moved.
    let p = at(&[(Robot::Red, "f16"), (Robot::Blue, "k10")]);
    let e = check_solution(&b, &p, red_moon, &[mv(Robot::Red, Dir::Down)], 5)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the red robot reached f1 in its only move"),
        "{e}"
    );
    assert!(e.contains("bounce"), "{e}");
    let moves = [mv(Robot::Blue, Dir::Up), mv(Robot::Red, Dir::Down)];
    assert!(check_solution(&b, &p, red_moon, &moves, 5).is_err());
    // Down to a1 then right against the wall: two moves of red.
    let p = at(&[(Robot::Red, "a16")]);
    let moves = [mv(Robot::Red, Dir::Down), mv(Robot::Red, Dir::Right)];
    let end = check_solution(&b, &p, red_moon, &moves, 2).unwrap();
    assert_eq!(end.get(Robot::Red), Some(c("f1")));
    // Starting on the target: leaving and coming back is two moves.
    let p = at(&[(Robot::Red, "f1")]);
    let moves = [mv(Robot::Red, Dir::Up), mv(Robot::Red, Dir::Down)];
    assert!(check_solution(&b, &p, red_moon, &moves, 2).is_ok());
    // Passing over the target does not count.
    let p = at(&[(Robot::Red, "f16")]);
    let moves = [
        mv(Robot::Red, Dir::Left),
        mv(Robot::Red, Dir::Down),
        mv(Robot::Red, Dir::Right),
    ];
    let e = check_solution(&b, &p, red_moon, &moves[..2], 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the red robot stands on a1, not on the red-moon target at f1"),
        "{e}"
    );
    assert!(check_solution(&b, &p, red_moon, &moves, 3).is_ok());
}

#[test]
fn declared_counts_vortex_and_illegal_moves() {
    // The vortex at c3, walled above and on the left.
    let b = Builder::new(false)
        .target("c3", "vortex")
        .walls("c3", &[Dir::Up, Dir::Left])
        .build();
    // Black left from e1 stops at c1 (red on b1), then up against the wall above c3.
    let p = at(&[(Robot::Black, "e1"), (Robot::Red, "b1")]);
    let sol = [mv(Robot::Black, Dir::Left), mv(Robot::Black, Dir::Up)];
    let end = check_solution(&b, &p, Token::Vortex, &sol, 2).unwrap();
    assert_eq!(end.get(Robot::Black), Some(c("c3")));
    let e = check_solution(&b, &p, Token::Vortex, &sol, 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("2 moves, more than the 1 declared"), "{e}");
    // Any robot takes the vortex.
    let p3 = at(&[(Robot::Red, "e1"), (Robot::Blue, "b1")]);
    let sol = [mv(Robot::Red, Dir::Left), mv(Robot::Red, Dir::Up)];
    assert!(check_solution(&b, &p3, Token::Vortex, &sol, 2).is_ok());
    // One straight run into the L is not enough, for black too.
    let p5 = at(&[(Robot::Black, "p3"), (Robot::Red, "a1")]);
    let e = check_solution(&b, &p5, Token::Vortex, &[mv(Robot::Black, Dir::Left)], 1)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the black robot reached c3 in its only move"),
        "{e}"
    );
    // No robot on the vortex: the reason says so plainly.
    let short = [mv(Robot::Black, Dir::Left), mv(Robot::Red, Dir::Up)];
    let e = check_solution(&b, &p, Token::Vortex, &short, 2)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "after the last move no robot stands on the vortex target at c3"
    );
    // A start with two robots on one cell is refused.
    let twice = at(&[(Robot::Red, "c4"), (Robot::Blue, "c4")]);
    let e = check_solution(&b, &twice, Token::Vortex, &sol, 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the start position is not valid: two robots stand on c4"),
        "{e}"
    );
    // The wrong robot on a coloured target.
    let b2 = Builder::new(false)
        .target("c3", "red-moon")
        .walls("c3", &[Dir::Up, Dir::Left])
        .build();
    let p4 = at(&[
        (Robot::Blue, "e1"),
        (Robot::Green, "b1"),
        (Robot::Red, "p16"),
    ]);
    let sol = [mv(Robot::Blue, Dir::Left), mv(Robot::Blue, Dir::Up)];
    let e = check_solution(&b2, &p4, tok("red-moon"), &sol, 2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the blue robot stands on the red-moon target at c3, which only the red robot"),
        "{e}"
    );
    // Illegal moves.
    let e = check_solution(&b, &p, Token::Vortex, &[mv(Robot::Black, Dir::Down)], 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("move 1: black cannot move down from e1: it is blocked at once"),
        "{e}"
    );
    let e = check_solution(&b, &p, Token::Vortex, &[mv(Robot::Green, Dir::Down)], 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("move 1: there is no green robot in this game"),
        "{e}"
    );
    assert!(
        check_solution(&b, &p, Token::Vortex, &[], 3)
            .unwrap_err()
            .to_string()
            .contains("no move")
    );
    let e = check_solution(&b2, &p, tok("blue-star"), &sol, 3)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no blue-star target"), "{e}");
}

#[test]
fn an_endless_move_is_refused() {
    let b = Builder::new(false)
        .diagonal("f3", "g/")
        .diagonal("f8", "g\\")
        .diagonal("c8", "g/")
        .diagonal("c3", "g\\")
        .target("k12", "red-moon")
        .build();
    let p = at(&[(Robot::Red, "d3")]);
    let e = check_solution(&b, &p, tok("red-moon"), &[mv(Robot::Red, Dir::Right)], 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("would go round through diagonal walls forever"),
        "{e}"
    );
}
