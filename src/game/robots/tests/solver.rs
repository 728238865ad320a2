//! The solver against a plain breadth-first search over full positions, on assembled boards and
//! on random boards full of walls and diagonals; every solution it returns is checked.

use proptest::prelude::*;

use crate::game::robots::{
    Board, Budget, Dir, Move, Positions, Robot, Solution, Token, check_solution, place_robots,
    quick_solution, solve,
};

use super::reference::{Builder, bfs_length, c, play, random_board, random_positions};

/// Solves with a length cap and compares with the breadth-first search up to the same cap.
fn agree(board: &Board, p: &Positions, token: Token, cap: usize) -> Result<(), TestCaseError> {
    let budget = Budget {
        max_moves: cap,
        ..Budget::default()
    };
    let want = bfs_length(board, p, token, cap);
    match solve(board, p, token, budget) {
        Solution::Optimal(moves) => {
            prop_assert_eq!(Some(moves.len()), want, "{} from {:?}", token, p);
            let end = check_solution(board, p, token, &moves, moves.len());
            prop_assert!(end.is_ok(), "{:?}", end);
            // The naive slide plays the same moves to the same end.
            prop_assert_eq!(play(board, p, &moves), end.ok());
        }
        Solution::GaveUp { at_least, best, .. } => {
            prop_assert_eq!(want, None, "{} from {:?}: gave up", token, p);
            prop_assert!(at_least > cap, "{}", at_least);
            if let Some(best) = best {
                prop_assert!(best.len() > cap);
                prop_assert!(check_solution(board, p, token, &best, best.len()).is_ok());
            }
        }
        Solution::Impossible => prop_assert_eq!(want, None),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn optimal_on_assembled_boards(seed in any::<u64>(), diagonals: bool, black: bool, t in 0..17usize) {
        let board = Board::assemble(seed, diagonals);
        let p = place_robots(&board, seed, black);
        agree(&board, &p, Token::all()[t], 4)?;
    }

    #[test]
    fn optimal_on_random_boards(
        seed in any::<u64>(),
        walls in 0.05..0.35f64,
        diags in 0.0..0.25f64,
        robots in 1..5usize,
        black: bool,
        t in 0..17usize,
    ) {
        let board = random_board(seed, walls, diags, seed % 2 == 0);
        let token = Token::all()[t];
        // The token's robot, then others.
        let mut who: Vec<Robot> = token.robot().into_iter().collect();
        who.extend(Robot::ALL[..4].iter().filter(|&&r| Some(r) != token.robot()).take(robots - 1 + usize::from(token.robot().is_none())));
        if black {
            who.push(Robot::Black);
        }
        let p = random_positions(&board, seed.rotate_left(7), &who);
        agree(&board, &p, token, if who.len() > 3 { 4 } else { 6 })?;
    }
}

#[test]
fn finds_the_bounce_when_the_straight_run_is_not_enough() {
    // Red at f16 reaches f1 straight down in one move, which does not count: the shortest
    // is three (left, down, right).
    let b = Builder::new(false)
        .target("f1", "red-moon")
        .walls("f1", &[Dir::Right])
        .build();
    let mut p = Positions::new();
    p.set(Robot::Red, c("f16"));
    let Solution::Optimal(moves) = solve(&b, &p, "red-moon".parse().unwrap(), Budget::default())
    else {
        panic!()
    };
    assert_eq!(moves.len(), 3, "{moves:?}");
    // Standing on the target: leave and come back.
    p.set(Robot::Red, c("f1"));
    let Solution::Optimal(moves) = solve(&b, &p, "red-moon".parse().unwrap(), Budget::default())
    else {
        panic!()
    };
    assert_eq!(
        moves,
        [
            Move::new(Robot::Red, Dir::Up),
            Move::new(Robot::Red, Dir::Down)
        ]
    );
}

#[test]
fn gives_up_honestly_and_knows_the_impossible() {
    let board = Board::assemble(7, true);
    let token: Token = "blue-gear".parse().unwrap();
    let p = place_robots(&board, 7, false);
    let Solution::Optimal(best) = solve(&board, &p, token, Budget::default()) else {
        panic!()
    };
    match solve(&board, &p, token, Budget::nodes(1)) {
        Solution::GaveUp {
            searched,
            at_least,
            best: quick,
        } => {
            assert!(searched <= 2);
            assert!(at_least <= best.len());
            if let Some(q) = quick {
                assert!(q.len() >= best.len());
                assert!(check_solution(&board, &p, token, &q, q.len()).is_ok());
            }
        }
        other => panic!("{other:?}"),
    }
    // A target walled in on every side.
    let b = Builder::new(false)
        .target("f6", "red-moon")
        .walls("f6", &[Dir::Up, Dir::Right, Dir::Down, Dir::Left])
        .build();
    let mut p = Positions::new();
    p.set(Robot::Red, c("a1"));
    assert_eq!(
        solve(&b, &p, "red-moon".parse().unwrap(), Budget::default()),
        Solution::Impossible
    );
    assert_eq!(quick_solution(&b, &p, "red-moon".parse().unwrap()), None);
}

#[test]
fn every_solution_checks_on_many_rounds() {
    for seed in 0..200u64 {
        let board = Board::assemble(seed, seed % 3 != 0);
        let p = place_robots(&board, seed, seed % 5 == 0);
        let token = Token::all()[seed as usize % 17];
        match solve(&board, &p, token, Budget::nodes(2_000_000)) {
            Solution::Optimal(m) => {
                assert!(check_solution(&board, &p, token, &m, m.len()).is_ok());
                if m.len() > 1 {
                    // Not one move shorter: the breadth-first search agrees (checked up to 4).
                    if m.len() <= 4 {
                        assert_eq!(bfs_length(&board, &p, token, m.len()), Some(m.len()));
                    }
                }
            }
            Solution::GaveUp { .. } => {}
            Solution::Impossible => panic!("seed {seed}: impossible"),
        }
    }
}
