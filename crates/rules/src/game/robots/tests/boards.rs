//! The quarter boards' design: every assembly holds all 17 targets once, walls agree on both
//! sides, targets sit in L corners and never on diagonals, nothing is enclosed; and assembly is
//! a function of the seed.

use crate::game::robots::boards::{CORNERS, parse_quarter, quarter_boards};
use crate::game::robots::cell::CELLS;
use crate::game::robots::solver::lower_bounds;
use crate::game::robots::text::Code;
use crate::game::robots::{Board, Cell, Colour, Dir, Robot, Token};

use super::reference::c;

#[test]
fn quarter_files_parse_with_their_sides() {
    for (i, pair) in quarter_boards().iter().enumerate() {
        for b in pair {
            assert_eq!(b.indicator, Colour::ALL[i]);
            let diagonals = |side: usize| {
                b.sides[side]
                    .codes
                    .iter()
                    .filter(|c| matches!(c, Code::Diagonal(_)))
                    .count()
            };
            assert_eq!(diagonals(0), 0, "{} side A has diagonals", b.name);
            assert!(diagonals(1) > 0, "{} side B has none", b.name);
        }
    }
}

#[test]
fn every_assembly_holds_all_17_targets_once_and_is_sound() {
    let all = Board::all_assemblies(true);
    assert_eq!(all.len(), 24 * 16 * 16);
    assert_eq!(Board::all_assemblies(false).len(), 24 * 16);
    for choices in &all {
        let board = Board::assemble_from(choices);
        check_board(&board);
    }
}

fn check_board(board: &Board) {
    let name = || format!("{:?}", board.assembly());
    // All 17 targets, once each (the board keeps one cell per token; check the cells differ).
    let mut tokens: Vec<Token> = board.targets().iter().map(|&(t, _)| t).collect();
    tokens.sort();
    assert_eq!(tokens, Token::all().to_vec(), "{}", name());
    let mut cells: Vec<Cell> = board.targets().iter().map(|&(_, c)| c).collect();
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), 17, "{}", name());
    // The central block, and nothing else blocked.
    let blocked: Vec<String> = Cell::all()
        .filter(|&c| board.is_blocked(c))
        .map(|c| c.to_string())
        .collect();
    assert_eq!(blocked, ["h8", "i8", "h9", "i9"], "{}", name());
    for cell in Cell::all() {
        for dir in Dir::ALL {
            match cell.step(dir) {
                None => assert!(board.wall(cell, dir), "edge open at {cell} {dir}"),
                Some(next) => assert_eq!(
                    board.wall(cell, dir),
                    board.wall(next, dir.opposite()),
                    "wall between {cell} and {next} on one side only, {}",
                    name()
                ),
            }
        }
    }
    for &(t, cell) in board.targets() {
        assert!(board.diagonal(cell).is_none(), "{t} on a diagonal");
        assert!(!board.is_blocked(cell));
        let w = |d: Dir| board.wall(cell, d);
        let l_corner = Dir::ALL.into_iter().any(|d| w(d) && w(d.clockwise()));
        assert!(l_corner, "{t} at {cell} has no L corner, {}", name());
    }
    // Nothing enclosed: the free cells are connected through open sides.
    let mut seen = [false; CELLS];
    let mut stack = vec![c("a1")];
    seen[0] = true;
    while let Some(cell) = stack.pop() {
        for dir in Dir::ALL {
            if !board.wall(cell, dir) {
                let next = cell.step(dir).unwrap();
                if !seen[next.index()] {
                    seen[next.index()] = true;
                    stack.push(next);
                }
            }
        }
    }
    let free = Cell::all().filter(|&c| !board.is_blocked(c)).count();
    assert_eq!(
        seen.iter().filter(|&&s| s).count(),
        free,
        "enclosed cells, {}",
        name()
    );
}

#[test]
fn every_target_is_in_reach_of_every_robot_from_every_cell() {
    // With helpers to stop it anywhere along its paths (the solver's lower bound), each robot
    // reaches each target from every free cell: no target is cut off, whatever the diagonals.
    for seed in 0..64 {
        let board = Board::assemble(seed, true);
        for &(t, target) in board.targets() {
            for r in Robot::ALL {
                let h = lower_bounds(&board.paths, r.index(), target.0);
                for cell in Cell::all().filter(|&c| !board.is_blocked(c)) {
                    assert!(
                        h[cell.index()] < 40,
                        "seed {seed}: {r} cannot reach {t} from {cell}"
                    );
                }
            }
        }
    }
}

#[test]
fn assembly_is_a_function_of_the_seed() {
    for seed in [0, 1, 42, u64::MAX] {
        assert_eq!(Board::assemble(seed, true), Board::assemble(seed, true));
        assert!(!Board::assemble(seed, false).has_diagonals());
    }
    let boards: Vec<Board> = (0..20).map(|s| Board::assemble(s, true)).collect();
    assert!(boards.iter().any(|b| b.has_diagonals()));
    assert!(boards.windows(2).any(|w| w[0] != w[1]));
    let b = &boards[0];
    let corners: Vec<&str> = b.assembly().iter().map(|p| p.corner.as_str()).collect();
    assert_eq!(corners, CORNERS);
}

#[test]
fn a_quarter_turns_into_its_corner() {
    // Red-1 side A in each corner: the target cells move with the quarter turns.
    let q = &quarter_boards()[0][0].sides[0];
    let (row, col) = (0..64)
        .map(|i| (i / 8, i % 8))
        .find(|&(r, c)| q.codes[r * 8 + c] == Code::Target("red-moon".parse().unwrap()))
        .unwrap();
    for corner in 0..4 {
        let mut choices = Board::all_assemblies(false)
            .into_iter()
            .find(|ch| ch[corner].indicator == Colour::Red && ch[corner].board == 0)
            .unwrap();
        choices[corner].side_b = false;
        let board = Board::assemble_from(&choices);
        // Top-left quarter coordinates (row from the top, col from the left) turned clockwise.
        let (mut r, mut k) = (row, col);
        for _ in 0..corner {
            (r, k) = (k, 15 - r);
        }
        let cell = Cell::new(k, 15 - r);
        assert_eq!(
            board.target("red-moon".parse().unwrap()),
            Some(cell),
            "corner {corner}"
        );
    }
}

#[test]
fn text_and_json_views_round_trip() {
    for seed in 0..20 {
        let b = Board::assemble(seed, true);
        let text = b.render();
        let back = Board::from_text(&text).unwrap();
        assert_eq!(back.render(), text);
        let json = b.to_json();
        let back = Board::from_json(&json).unwrap();
        assert_eq!(back, b);
        assert_eq!(json["walls"]["a1"], "SW");
        assert_eq!(json["blocked"], serde_json::json!(["h8", "i8", "h9", "i9"]));
        assert_eq!(json["targets"].as_array().unwrap().len(), 17);
    }
}

/// The text with `from` replaced by `to` on the first drawing line (one starting with `|`) of
/// side `side` that contains it.
fn edit(text: &str, side: &str, from: &str, to: &str) -> String {
    let mut in_side = false;
    let mut done = false;
    let mut out = String::new();
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("side ") {
            in_side = s.trim() == side;
        }
        if in_side && !done && line.starts_with('|') && line.contains(from) {
            out.push_str(&line.replacen(from, to, 1));
            done = true;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    assert!(done, "{from:?} not found on side {side}");
    out
}

#[test]
fn bad_quarter_files_are_refused_with_reasons() {
    let good = include_str!("../boards/red-1.txt");
    assert!(parse_quarter("red-1", Colour::Red, good).is_ok());
    let bad = |side: &str, from: &str, to: &str| {
        parse_quarter("red-1", Colour::Red, &edit(good, side, from, to))
            .unwrap_err()
            .to_string()
    };
    let e = bad("A", "Rm", "Rx");
    assert!(e.starts_with("red-1: side A: line "), "{e}");
    assert!(e.contains("unknown cell \"Rx\""), "{e}");
    let e = bad("A", "|   ", "|r/ ");
    assert!(
        e.contains("red-1 side A: row") && e.contains("side A has straight walls only"),
        "{e}"
    );
    let e = bad("B", "Rm", "  ");
    assert!(e.contains("sides A and B carry different targets"), "{e}");
    let e = bad("B", "##", "  ");
    assert!(e.contains("the bottom-right cell must be ##"), "{e}");
    let e = parse_quarter("x", Colour::Red, &good.replacen("side B", "side C", 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected side A then side B"), "{e}");
}

#[test]
#[ignore = "prints an example for the documentation"]
fn print_example_view() {
    let b = Board::assemble(1, true);
    println!("{}", b.render());
    println!("{}", serde_json::to_string(&b.to_json()).unwrap());
}

/// The JSON Schemas generated from the types accept what the types write.
#[test]
fn schemas_accept_the_views() {
    use crate::game::robots::{BoardView, Move, Positions, place_robots};
    fn valid<T: schemars::JsonSchema>(instance: &serde_json::Value) {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
        let v = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = v.iter_errors(instance).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{instance}");
    }
    for seed in 0..5 {
        let board = Board::assemble(seed, true);
        valid::<BoardView>(&board.to_json());
        let p = place_robots(&board, seed, true);
        valid::<Positions>(&serde_json::to_value(p).unwrap());
    }
    valid::<Vec<Move>>(&serde_json::json!([{"robot":"black","dir":"left"}]));
    valid::<Token>(&serde_json::json!("vortex"));
    let schema = serde_json::to_value(schemars::schema_for!(Positions)).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    assert!(!v.is_valid(&serde_json::json!({"red": "q1"})));
    assert!(!v.is_valid(&serde_json::json!({"purple": "a1"})));
}
