//! Movement: hand-built cases for every rule (diagonals, blocking, the loop guard) and the fast
//! tables against the naive cell-by-cell slide on random boards.

use proptest::prelude::*;

use crate::game::robots::{Board, Dir, Positions, Robot, Slide, slide, slide_path};

use super::reference::{Builder, c, naive_slide, random_board, random_positions};

fn at(robots: &[(Robot, &str)]) -> Positions {
    let mut p = Positions::new();
    for &(r, cell) in robots {
        p.set(r, c(cell));
    }
    p
}

fn check(board: &Board, p: &Positions, robot: Robot, dir: Dir, want: Slide) {
    let (_, got) = slide_path(board, p, robot, dir);
    assert_eq!(got, want, "{robot} {dir}");
    assert_eq!(
        naive_slide(board, p, robot, dir),
        want,
        "naive {robot} {dir}"
    );
    let cell = match want {
        Slide::Moved(c) => c,
        _ => p.get(robot).unwrap(),
    };
    assert_eq!(slide(board, p, robot, dir), cell, "fast {robot} {dir}");
}

fn moved(cell: &str) -> Slide {
    Slide::Moved(c(cell))
}

#[test]
fn straight_slides_stop_at_walls_robots_edge_and_centre() {
    let b = Builder::new(true).walls("c5", &[Dir::Right]).build();
    let p = at(&[(Robot::Red, "a1"), (Robot::Blue, "a10")]);
    check(&b, &p, Robot::Red, Dir::Up, moved("a9"));
    check(&b, &p, Robot::Red, Dir::Right, moved("p1"));
    check(&b, &p, Robot::Red, Dir::Down, Slide::Stays);
    let p = at(&[(Robot::Red, "h1"), (Robot::Green, "a5")]);
    check(&b, &p, Robot::Red, Dir::Up, moved("h7"));
    check(&b, &p, Robot::Green, Dir::Right, moved("c5"));
    let (path, _) = slide_path(&b, &p, Robot::Green, Dir::Right);
    assert_eq!(path, [c("b5"), c("c5")]);
}

#[test]
fn diagonals_turn_other_colours_and_let_their_own_pass() {
    let b = Builder::new(false)
        .diagonal("e5", "g/")
        .diagonal("k5", "r\\")
        .build();
    let p = at(&[
        (Robot::Red, "a5"),
        (Robot::Green, "a6"),
        (Robot::Black, "p6"),
    ]);
    // Red turned up by the green "/".
    check(&b, &p, Robot::Red, Dir::Right, moved("e16"));
    let (path, _) = slide_path(&b, &p, Robot::Red, Dir::Right);
    assert_eq!(path.first(), Some(&c("b5")));
    assert!(path.contains(&c("e5")) && path.contains(&c("e6")));
    // Green passes its own diagonal, then is turned down by the red "\" at k5.
    let p = at(&[(Robot::Green, "a5")]);
    check(&b, &p, Robot::Green, Dir::Right, moved("k1"));
    // Black is turned by every colour: left along row 5 from p5 meets k5 "\" going left: up.
    let p = at(&[(Robot::Black, "p5")]);
    check(&b, &p, Robot::Black, Dir::Left, moved("k16"));
    // Coming down onto "/" turns left.
    let p = at(&[(Robot::Blue, "e10")]);
    check(&b, &p, Robot::Blue, Dir::Down, moved("a5"));
}

#[test]
fn blocked_at_a_diagonal() {
    // Turned up at e5 and walled at once: stops on the diagonal.
    let b = Builder::new(false)
        .diagonal("e5", "g/")
        .walls("e5", &[Dir::Up])
        .build();
    let p = at(&[(Robot::Red, "a5")]);
    check(&b, &p, Robot::Red, Dir::Right, moved("e5"));
    // A robot just past the turn does the same.
    let b = Builder::new(false).diagonal("e5", "g/").build();
    let p = at(&[(Robot::Red, "a5"), (Robot::Blue, "e6")]);
    check(&b, &p, Robot::Red, Dir::Right, moved("e5"));
    // A robot on the diagonal's cell: the mover stops before it.
    let p = at(&[(Robot::Red, "a5"), (Robot::Blue, "e5")]);
    check(&b, &p, Robot::Red, Dir::Right, moved("d5"));
    // A move from a diagonal's cell leaves straight.
    let p = at(&[(Robot::Red, "e5")]);
    check(&b, &p, Robot::Red, Dir::Right, moved("p5"));
    check(&b, &p, Robot::Red, Dir::Down, moved("e1"));
}

/// Four green diagonals that send a robot round the rectangle c3-f3-f8-c8.
fn loop_board() -> Board {
    Builder::new(false)
        .diagonal("f3", "g/")
        .diagonal("f8", "g\\")
        .diagonal("c8", "g/")
        .diagonal("c3", "g\\")
        .build()
}

#[test]
fn a_slide_round_a_loop_of_diagonals_is_endless() {
    let b = loop_board();
    let p = at(&[(Robot::Red, "d3")]);
    check(&b, &p, Robot::Red, Dir::Right, Slide::Endless);
    // Starting on a diagonal of the loop, leaving straight along it.
    let p = at(&[(Robot::Red, "c3")]);
    check(&b, &p, Robot::Red, Dir::Right, Slide::Endless);
    // Green passes its own diagonals.
    let p = at(&[(Robot::Green, "d3")]);
    check(&b, &p, Robot::Green, Dir::Right, moved("p3"));
    // A robot on the loop stops it: turned left at f8, blocked at once by blue on e8.
    let p = at(&[(Robot::Red, "d3"), (Robot::Blue, "e8")]);
    check(&b, &p, Robot::Red, Dir::Right, moved("f8"));
    // Leaving the loop's cells sideways is an ordinary slide.
    let p = at(&[(Robot::Red, "d3")]);
    check(&b, &p, Robot::Red, Dir::Up, moved("d16"));
}

#[test]
fn a_slide_that_comes_back_to_its_cell_is_no_move() {
    // Up from d3: "\" at d5 turns left, "/" at c5 turns down, "\" at c3 turns right, back into
    // d3, walled on its right.
    let b = Builder::new(false)
        .diagonal("d5", "y\\")
        .diagonal("c5", "y/")
        .diagonal("c3", "y\\")
        .walls("d3", &[Dir::Right])
        .build();
    let p = at(&[(Robot::Red, "d3")]);
    check(&b, &p, Robot::Red, Dir::Up, Slide::Stays);
    let (path, _) = slide_path(&b, &p, Robot::Red, Dir::Up);
    assert_eq!(path.last(), Some(&c("d3")));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tables_agree_with_the_naive_slide(seed in any::<u64>(), walls in 0.0..0.3f64, diags in 0.0..0.3f64, centre: bool) {
        let board = random_board(seed, walls, diags, centre);
        for k in 0..8u64 {
            let p = random_positions(&board, seed ^ k, &Robot::ALL);
            for r in Robot::ALL {
                for dir in Dir::ALL {
                    let (_, fast) = slide_path(&board, &p, r, dir);
                    prop_assert_eq!(&fast, &naive_slide(&board, &p, r, dir));
                    let cell = match fast { Slide::Moved(c) => c, _ => p.get(r).unwrap() };
                    prop_assert_eq!(slide(&board, &p, r, dir), cell);
                }
            }
        }
    }
}
