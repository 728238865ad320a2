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

/// The solver's lower bound never exceeds the moves a lone robot needs when a blocker may be
/// put anywhere before each of its moves (computed the slow way with the naive slide), and
/// equals it almost everywhere (it may be lower: a path crossing itself passes cells a blocker
/// cannot make it stop on).
#[test]
fn lower_bounds_are_admissible_and_close() {
    use super::reference::naive_slide;
    use crate::game::robots::solver::lower_bounds;
    use crate::game::robots::{Cell, Slide};
    let (mut equal, mut all) = (0, 0);
    for seed in 0..4u64 {
        let board = random_board(seed, 0.15, if seed % 2 == 0 { 0.2 } else { 0.0 }, true);
        for robot in [Robot::Red, Robot::Black] {
            let other = if robot == Robot::Red {
                Robot::Blue
            } else {
                Robot::Red
            };
            // Every cell a move from each cell can end on, with at most one blocker anywhere.
            let mut reach: Vec<Vec<u8>> = vec![Vec::new(); 256];
            for start in Cell::all().filter(|&c| !board.is_blocked(c)) {
                for dir in Dir::ALL {
                    let mut p = Positions::new();
                    p.set(robot, start);
                    for x in Cell::all().filter(|&c| !board.is_blocked(c)) {
                        if x != start {
                            p.set(other, x);
                        }
                        if let Slide::Moved(end) = naive_slide(&board, &p, robot, dir) {
                            reach[start.index()].push(end.0);
                        }
                    }
                }
            }
            for &(_, target) in board.targets().iter().take(5) {
                let mut want = [u8::MAX; 256];
                want[target.index()] = 0;
                for k in 0..255u8 {
                    let mut changed = false;
                    for s in 0..256 {
                        if want[s] == u8::MAX && reach[s].iter().any(|&c| want[c as usize] == k) {
                            want[s] = k + 1;
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                let got = lower_bounds(&board.paths, robot.index(), target.0);
                for cell in Cell::all().filter(|&c| !board.is_blocked(c)) {
                    let (g, w) = (got[cell.index()], want[cell.index()]);
                    assert!(
                        g <= w,
                        "seed {seed}, {robot}, {target} from {cell}: {g} > {w}"
                    );
                    all += 1;
                    equal += usize::from(g == w);
                }
            }
        }
    }
    assert!(equal * 100 > all * 95, "{equal} of {all} equal");
}

/// The solver against a plain iterative deepening on random rounds with solutions up to 10
/// moves, where its shortcuts (lone searches, helper relevance, move commutation, canonical
/// keys) all come into play.
#[test]
fn optimal_against_a_plain_search_on_longer_solutions() {
    use super::reference::ida_length;
    let mut compared = 0;
    for seed in 0..300u64 {
        let board = Board::assemble(seed, seed % 4 != 0);
        let p = place_robots(&board, seed ^ 0xabc, seed % 7 == 0);
        let token = Token::all()[(seed * 7 % 17) as usize];
        let cap = 10;
        let budget = Budget {
            max_moves: cap,
            ..Budget::default()
        };
        let got = match solve(&board, &p, token, budget) {
            Solution::Optimal(m) => Some(m.len()),
            Solution::GaveUp { at_least, .. } => {
                assert_eq!(at_least, cap + 1, "seed {seed}");
                None
            }
            Solution::Impossible => panic!("seed {seed}: impossible"),
        };
        if got.is_some_and(|l| l >= 5) {
            compared += 1;
        }
        assert_eq!(
            got,
            ida_length(&board, &p, token, cap),
            "seed {seed}: {token} from {p:?}"
        );
    }
    assert!(compared > 100, "{compared} long cases only");
}
