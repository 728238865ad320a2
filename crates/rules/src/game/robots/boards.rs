//! The eight double-sided quarter boards (data files in `boards/`) and their assembly into a
//! 16x16 board.
//!
//! Each file draws one quarter board, both sides, as the top-left quarter of the board (see
//! [`super::text`] for the format): its top and left borders are the board's edge, its right and
//! bottom borders are seams with the neighbouring quarters (no walls there), and its bottom-right
//! cell `##` is the quarter's corner of the central 2x2 block. Side A has straight walls only,
//! side B diagonal walls as well. The two boards of a colour indicator carry, on both sides, the
//! same four targets, one per colour and per symbol (a Latin square across the indicators), and
//! the red indicator's boards also the vortex; so any assembly of one board per indicator holds
//! all 17 targets exactly once.
//!
//! An assembly ([`Board::assemble`]) takes one board per indicator, on a random side, in a random
//! corner, turned clockwise a quarter per corner from the top-left (0 turns top-left, 1 top-right,
//! 2 bottom-right, 3 bottom-left).

use std::sync::OnceLock;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Diagonal, Placement};
use super::cell::Dir;
use super::robot::Colour;
use super::text::{Code, Drawing, parse_sides};
use crate::Error;

/// Cells per side of a quarter board.
pub const QUARTER: usize = 8;

/// The corners of the board, in the order of the quarter turns that bring a top-left quarter
/// there.
pub const CORNERS: [&str; 4] = ["top-left", "top-right", "bottom-right", "bottom-left"];

/// The data files, by colour indicator (red, green, blue, yellow) and board number (1, 2).
const FILES: [[(&str, &str); 2]; 4] = [
    [
        ("red-1", include_str!("boards/red-1.txt")),
        ("red-2", include_str!("boards/red-2.txt")),
    ],
    [
        ("green-1", include_str!("boards/green-1.txt")),
        ("green-2", include_str!("boards/green-2.txt")),
    ],
    [
        ("blue-1", include_str!("boards/blue-1.txt")),
        ("blue-2", include_str!("boards/blue-2.txt")),
    ],
    [
        ("yellow-1", include_str!("boards/yellow-1.txt")),
        ("yellow-2", include_str!("boards/yellow-2.txt")),
    ],
];

/// One quarter board: its name and its two sides.
#[derive(Clone, Debug)]
pub struct QuarterBoard {
    pub name: String,
    pub indicator: Colour,
    /// Side A (straight walls only) and side B (with diagonals), as top-left quarters.
    pub sides: [Drawing; 2],
}

/// Which board of an indicator goes in a corner, and on which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub indicator: Colour,
    /// 0 for board 1, 1 for board 2.
    pub board: usize,
    /// Side B (with diagonals) rather than side A.
    pub side_b: bool,
}

/// Parses one quarter-board file and checks what makes it a quarter: 8x8, sides A and B, the
/// edge walled on the top and left borders, nothing on the seams but the central block's
/// walls, exactly one `##` in the bottom-right cell, no diagonal on side A, the same targets on
/// both sides.
pub fn parse_quarter(name: &str, indicator: Colour, text: &str) -> Result<QuarterBoard, Error> {
    let sides = parse_sides(text, QUARTER).map_err(|e| Error::Parse(format!("{name}: {e}")))?;
    let names: Vec<&str> = sides.iter().map(|(s, _)| s.as_str()).collect();
    if names != ["A", "B"] {
        return Err(Error::Parse(format!(
            "{name}: expected side A then side B, found sides {names:?}"
        )));
    }
    let mut drawings = sides.into_iter().map(|(_, d)| d);
    let sides = [drawings.next().unwrap(), drawings.next().unwrap()];
    for (side, d) in ["A", "B"].iter().zip(&sides) {
        check_quarter(d, *side == "B")
            .map_err(|e| Error::Parse(format!("{name} side {side}: {e}")))?;
    }
    let targets = |d: &Drawing| {
        let mut t: Vec<_> = d
            .codes
            .iter()
            .filter_map(|c| match c {
                Code::Target(t) => Some(*t),
                _ => None,
            })
            .collect();
        t.sort();
        t
    };
    if targets(&sides[0]) != targets(&sides[1]) {
        return Err(Error::Parse(format!(
            "{name}: sides A and B carry different targets"
        )));
    }
    Ok(QuarterBoard {
        name: name.to_string(),
        indicator,
        sides,
    })
}

fn check_quarter(d: &Drawing, side_b: bool) -> Result<(), Error> {
    let n = QUARTER;
    let centre = (n - 1, n - 1);
    for i in 0..n {
        if !d.wall(0, i, Dir::Up) || !d.wall(i, 0, Dir::Left) {
            return Err(Error::Parse(
                "the top and left borders (the board's edge) must be walled".into(),
            ));
        }
        let seam = i < n - 1; // the last cell of each seam is the central block's
        if seam && (d.wall(n - 1, i, Dir::Down) || d.wall(i, n - 1, Dir::Right)) {
            return Err(Error::Parse(
                "the right and bottom borders are seams with other quarters: only the central \
                 block may have walls there"
                    .into(),
            ));
        }
    }
    for row in 0..n {
        for col in 0..n {
            let code = d.codes[row * n + col];
            let here = format!("row {} column {}", row + 1, col + 1);
            match code {
                Code::Blocked if (row, col) != centre => {
                    return Err(Error::Parse(format!(
                        "{here}: ## belongs in the bottom-right cell only"
                    )));
                }
                Code::Diagonal(_) if !side_b => {
                    return Err(Error::Parse(format!(
                        "{here}: side A has straight walls only"
                    )));
                }
                _ => {}
            }
        }
    }
    if d.codes[centre.0 * n + centre.1] != Code::Blocked {
        return Err(Error::Parse(
            "the bottom-right cell must be ## (the corner of the central block)".into(),
        ));
    }
    if Dir::ALL
        .into_iter()
        .any(|dir| !d.wall(centre.0, centre.1, dir))
    {
        return Err(Error::Parse(
            "the central block's cell must be walled on all four sides".into(),
        ));
    }
    if side_b && !d.codes.iter().any(|c| matches!(c, Code::Diagonal(_))) {
        return Err(Error::Parse("side B must have diagonal walls".into()));
    }
    Ok(())
}

/// The eight quarter boards, parsed once. Panics if a data file is malformed (the tests parse
/// them all, so a bad file never ships).
pub fn quarter_boards() -> &'static [[QuarterBoard; 2]; 4] {
    static BOARDS: OnceLock<[[QuarterBoard; 2]; 4]> = OnceLock::new();
    BOARDS.get_or_init(|| {
        std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let (name, text) = FILES[i][j];
                parse_quarter(name, Colour::ALL[i], text).unwrap_or_else(|e| panic!("{e}"))
            })
        })
    })
}

/// A drawing turned a quarter clockwise.
fn turned(d: &Drawing) -> Drawing {
    let n = d.n;
    let mut out = Drawing::empty(n);
    for row in 0..n {
        for col in 0..n {
            let (r2, c2) = (col, n - 1 - row);
            let w = d.walls[row * n + col];
            // N -> E -> S -> W -> N: each flag moves one bit up, W wraps to N.
            out.walls[r2 * n + c2] = ((w << 1) | (w >> 3)) & 0xf;
            out.codes[r2 * n + c2] = match d.codes[row * n + col] {
                Code::Diagonal(Diagonal { colour, kind }) => Code::Diagonal(Diagonal {
                    colour,
                    kind: kind.turned(),
                }),
                other => other,
            };
        }
    }
    out
}

impl Board {
    /// The board assembled with these choices, one per corner (top-left, top-right,
    /// bottom-right, bottom-left). Panics unless the four indicators are distinct.
    pub fn assemble_from(choices: &[Choice; 4]) -> Board {
        let boards = quarter_boards();
        let mut indicators: Vec<Colour> = choices.iter().map(|c| c.indicator).collect();
        indicators.sort();
        assert_eq!(indicators, Colour::ALL, "one board per colour indicator");
        let n = 2 * QUARTER;
        let mut full = Drawing::empty(n);
        let mut placements = Vec::new();
        for (corner, choice) in choices.iter().enumerate() {
            let quarter = &boards[choice.indicator.index()][choice.board];
            let side = &quarter.sides[choice.side_b as usize];
            let mut d = Drawing::empty(n);
            for row in 0..QUARTER {
                for col in 0..QUARTER {
                    d.walls[row * n + col] = side.walls[row * QUARTER + col];
                    d.codes[row * n + col] = side.codes[row * QUARTER + col];
                }
            }
            for _ in 0..corner {
                d = turned(&d);
            }
            for i in 0..n * n {
                full.walls[i] |= d.walls[i];
                if d.codes[i] != Code::Empty {
                    full.codes[i] = d.codes[i];
                }
            }
            placements.push(Placement {
                board: quarter.name.clone(),
                side: if choice.side_b { "B" } else { "A" }.to_string(),
                corner: CORNERS[corner].to_string(),
            });
        }
        Board::from_drawing(&full, placements).expect("quarter boards assemble into a valid board")
    }

    /// A random assembly, a function of the seed alone: ChaCha8 seeded by `seed` shuffles the
    /// four indicators into the corners (top-left, top-right, bottom-right, bottom-left), then
    /// for each corner in that order draws the board (1 or 2) and, when `diagonals` is on, the
    /// side (A or B); without diagonals every board lies on side A.
    pub fn assemble(seed: u64, diagonals: bool) -> Board {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut order = Colour::ALL;
        order.shuffle(&mut rng);
        let choices = order.map(|indicator| {
            let board = rng.random_range(0..2);
            let side_b = diagonals && rng.random_range(0..2) == 1;
            Choice {
                indicator,
                board,
                side_b,
            }
        });
        Board::assemble_from(&choices)
    }

    /// Every possible assembly's choices: 24 orders of the indicators in the corners, times 2
    /// boards and 2 sides per indicator (6,144 in all; side A only without `diagonals`: 384).
    pub fn all_assemblies(diagonals: bool) -> Vec<[Choice; 4]> {
        let mut out = Vec::new();
        let sides = if diagonals { 2 } else { 1 };
        for perm in permutations() {
            for boards in 0..16usize {
                for side_bits in 0..(1usize << (4 * (sides - 1))) {
                    out.push(std::array::from_fn(|k| Choice {
                        indicator: Colour::ALL[perm[k]],
                        board: boards >> k & 1,
                        side_b: side_bits >> k & 1 == 1,
                    }));
                }
            }
        }
        out
    }
}

fn permutations() -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let p = [a, b, c, d];
                    if (0..4).all(|i| p.contains(&i)) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}
