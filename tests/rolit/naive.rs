//! A deliberately naive second implementation of Rolit, written from the rules (`protocol/games/rolit.md`
//! and the rule documents in `seeds/`), not from the fast engine: the board is a
//! `Vec<Vec<Option<u8>>>`, every question is answered by walking the board square by square, and
//! nothing here knows about bitboards. It is slow on purpose; its only job is to be obviously
//! right, so that the fast engine can be checked against it.
//!
//! Colours are numbers in the clockwise order of the board: 0 red, 1 yellow, 2 green, 3 blue.
//! Squares are (file, rank) pairs from 0, file 0 = "a", rank 0 = "1".

use std::fmt;

/// Colour names, in the clockwise order of the board.
pub const NAMES: [&str; 4] = ["red", "yellow", "green", "blue"];
/// Colour letters on the board.
pub const LETTERS: [char; 4] = ['R', 'Y', 'G', 'B'];

/// The eight directions a line can leave a square in, as (file step, rank step).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A square as (file, rank), both from 0.
pub type Sq = (usize, usize);

/// The colour number of a colour name.
pub fn colour_number(name: &str) -> u8 {
    NAMES
        .iter()
        .position(|&n| n == name)
        .unwrap_or_else(|| panic!("{name:?} is not a colour")) as u8
}

/// The colours played by `players` players, in turn order: 2 players red and green; 3 red,
/// yellow, green; 4 all four.
pub fn colours_for(players: usize) -> Vec<u8> {
    match players {
        2 => vec![0, 2],
        3 => vec![0, 1, 2],
        4 => vec![0, 1, 2, 3],
        _ => panic!("Rolit is for 2 to 4 players"),
    }
}

/// The name of a square, like "d3".
pub fn name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// Names of several squares, sorted, for comparisons.
pub fn names(squares: &[Sq]) -> Vec<String> {
    let mut v: Vec<String> = squares.iter().map(|&s| name(s)).collect();
    v.sort();
    v
}

/// Parses "d3" (lowercase only: this is for tests).
pub fn parse(s: &str) -> Sq {
    let file = s.as_bytes()[0] - b'a';
    let rank: usize = s[1..].parse().expect("a rank number");
    (file as usize, rank - 1)
}

/// A Rolit game in progress.
#[derive(Clone, PartialEq, Eq)]
pub struct Naive {
    /// Board side: 8, 6 or 4.
    pub n: usize,
    /// `board[rank][file]`, rank 0 being rank 1 (the bottom row).
    pub board: Vec<Vec<Option<u8>>>,
    /// The colours in play, in turn order.
    pub order: Vec<u8>,
    /// Index into `order` of the colour to move.
    pub turn: usize,
}

impl Naive {
    /// The start position: the centre 2x2 holds one ball of each colour, clockwise from the
    /// top-left with the highest rank at the top: red top-left, yellow top-right, green
    /// bottom-right, blue bottom-left (on 8x8: d5 red, e5 yellow, e4 green, d4 blue).
    pub fn start(n: usize, players: usize, first: u8) -> Naive {
        let mut board = vec![vec![None; n]; n];
        let left = n / 2 - 1;
        let right = n / 2;
        let top = n / 2;
        let bottom = n / 2 - 1;
        board[top][left] = Some(0); // red
        board[top][right] = Some(1); // yellow
        board[bottom][right] = Some(2); // green
        board[bottom][left] = Some(3); // blue
        let order = colours_for(players);
        let turn = order
            .iter()
            .position(|&c| c == first)
            .expect("the first colour is in play");
        Naive {
            n,
            board,
            order,
            turn,
        }
    }

    /// A position from rows of letters (highest rank first), the colours in play in turn
    /// order, and the colour to move.
    pub fn from_rows(rows: &[&str], colours: &[&str], to_move: &str) -> Naive {
        let n = rows.len();
        let mut board = vec![vec![None; n]; n];
        for (i, row) in rows.iter().enumerate() {
            let rank = n - 1 - i;
            assert_eq!(row.chars().count(), n, "row {row:?}");
            for (file, ch) in row.chars().enumerate() {
                board[rank][file] = match ch {
                    '.' => None,
                    c => Some(
                        LETTERS
                            .iter()
                            .position(|&l| l == c)
                            .unwrap_or_else(|| panic!("bad letter {c:?}"))
                            as u8,
                    ),
                };
            }
        }
        let order: Vec<u8> = colours.iter().map(|c| colour_number(c)).collect();
        let turn = order
            .iter()
            .position(|&c| c == colour_number(to_move))
            .expect("to_move is in play");
        Naive {
            n,
            board,
            order,
            turn,
        }
    }

    pub fn at(&self, sq: Sq) -> Option<u8> {
        self.board[sq.1][sq.0]
    }

    pub fn to_move(&self) -> u8 {
        self.order[self.turn]
    }

    pub fn to_move_name(&self) -> &'static str {
        NAMES[self.to_move() as usize]
    }

    /// Every square of the board, a1 first, then b1, ..., rank by rank.
    pub fn squares(&self) -> Vec<Sq> {
        let mut v = Vec::new();
        for rank in 0..self.n {
            for file in 0..self.n {
                v.push((file, rank));
            }
        }
        v
    }

    /// The square one step from `sq` in direction `d`, if it is on the board.
    fn step(&self, sq: Sq, d: (i32, i32)) -> Option<Sq> {
        let f = sq.0 as i32 + d.0;
        let r = sq.1 as i32 + d.1;
        if f < 0 || r < 0 || f >= self.n as i32 || r >= self.n as i32 {
            None
        } else {
            Some((f as usize, r as usize))
        }
    }

    /// Does an empty square touch a ball, in any of the 8 directions?
    pub fn touches_ball(&self, sq: Sq) -> bool {
        DIRECTIONS
            .iter()
            .any(|&d| self.step(sq, d).is_some_and(|s| self.at(s).is_some()))
    }

    /// The runs a ball of `colour` placed on `sq` would turn, one per line: along each of the 8
    /// lines leaving `sq`, a run of one or more balls of other colours that ends at a ball of
    /// `colour` (the first one met). A run ending at an empty square or the edge turns nothing.
    pub fn lines_for(&self, sq: Sq, colour: u8) -> Vec<Vec<Sq>> {
        let mut lines = Vec::new();
        for &d in &DIRECTIONS {
            let mut run = Vec::new();
            let mut cur = self.step(sq, d);
            let mut closed = false;
            while let Some(s) = cur {
                match self.at(s) {
                    None => break,
                    Some(c) if c == colour => {
                        closed = true;
                        break;
                    }
                    Some(_) => {
                        run.push(s);
                        cur = self.step(s, d);
                    }
                }
            }
            if closed && !run.is_empty() {
                lines.push(run);
            }
        }
        lines
    }

    /// The balls a ball of `colour` placed on `sq` would turn (every run of [`Self::lines_for`]).
    pub fn flips_for(&self, sq: Sq, colour: u8) -> Vec<Sq> {
        self.lines_for(sq, colour).concat()
    }

    /// Flips for the colour to move.
    pub fn flips(&self, sq: Sq) -> Vec<Sq> {
        self.flips_for(sq, self.to_move())
    }

    /// Empty squares touching a ball.
    pub fn touching(&self) -> Vec<Sq> {
        self.squares()
            .into_iter()
            .filter(|&s| self.at(s).is_none() && self.touches_ball(s))
            .collect()
    }

    /// Empty squares touching a ball where the mover turns at least one ball.
    pub fn captures(&self) -> Vec<Sq> {
        self.touching()
            .into_iter()
            .filter(|&s| !self.flips(s).is_empty())
            .collect()
    }

    /// The legal moves: the capturing ones if there are any; otherwise every empty square
    /// touching a ball.
    pub fn legal(&self) -> Vec<Sq> {
        let caps = self.captures();
        if caps.is_empty() {
            self.touching()
        } else {
            caps
        }
    }

    /// The round is over when every square holds a ball.
    pub fn is_over(&self) -> bool {
        self.board.iter().all(|row| row.iter().all(|b| b.is_some()))
    }

    /// Plays a move for the colour to move, or says why it is illegal (short reasons of our
    /// own, not the engine's). Returns the balls turned.
    pub fn play(&mut self, sq: Sq) -> Result<Vec<Sq>, String> {
        if self.at(sq).is_some() {
            return Err("occupied".into());
        }
        if !self.touches_ball(sq) {
            return Err("touches no ball".into());
        }
        let turned = self.flips(sq);
        if turned.is_empty() && !self.captures().is_empty() {
            return Err("a capture is possible".into());
        }
        let me = self.to_move();
        for &s in &turned {
            self.board[s.1][s.0] = Some(me);
        }
        self.board[sq.1][sq.0] = Some(me);
        self.turn = (self.turn + 1) % self.order.len();
        Ok(turned)
    }

    /// Balls of each colour (red, yellow, green, blue).
    pub fn counts(&self) -> [u32; 4] {
        let mut c = [0; 4];
        for row in &self.board {
            for b in row.iter().flatten() {
                c[*b as usize] += 1;
            }
        }
        c
    }

    /// Balls placed so far + 1 - 4: the number of the next move, from 1.
    pub fn ply(&self) -> u32 {
        self.counts().iter().sum::<u32>() - 3
    }

    /// The board as rows of letters, highest rank first.
    pub fn rows(&self) -> Vec<String> {
        (0..self.n)
            .rev()
            .map(|rank| {
                self.board[rank]
                    .iter()
                    .map(|b| b.map_or('.', |c| LETTERS[c as usize]))
                    .collect()
            })
            .collect()
    }

    /// The JSON state a bot receives.
    pub fn state_json(&self) -> serde_json::Value {
        serde_json::json!({
            "board": self.rows(),
            "to_move": self.to_move_name(),
            "ply": self.ply(),
            "colours": self.order.iter().map(|&c| NAMES[c as usize]).collect::<Vec<_>>(),
        })
    }

    /// Perft at every depth up to `max` in one walk: `counts[d]` is the number of move
    /// sequences of exactly `d` moves.
    pub fn perft_counts(&self, max: u32) -> Vec<u64> {
        let mut counts = vec![0; max as usize + 1];
        self.count_into(0, max, &mut counts);
        counts
    }

    fn count_into(&self, depth: u32, max: u32, counts: &mut [u64]) {
        counts[depth as usize] += 1;
        if depth == max {
            return;
        }
        for sq in self.legal() {
            let mut next = self.clone();
            next.play(sq).expect("a legal move plays");
            next.count_into(depth + 1, max, counts);
        }
    }

    /// Perft with statistics about the moves played at the last ply (see [`Stats`]).
    pub fn perft_stats(&self, depth: u32) -> Stats {
        let mut s = Stats::default();
        self.stats_into(depth, &mut s);
        s
    }

    fn stats_into(&self, depth: u32, s: &mut Stats) {
        if depth == 0 {
            s.leaves += 1;
            return;
        }
        let legal = self.legal();
        let capture_possible = !self.captures().is_empty();
        for sq in legal {
            if depth == 1 {
                s.leaves += 1;
                if !capture_possible {
                    s.fallbacks += 1;
                }
                let on_edge = |v: usize| v == 0 || v == self.n - 1;
                if on_edge(sq.0) && on_edge(sq.1) {
                    s.corners += 1;
                }
                if on_edge(sq.0) || on_edge(sq.1) {
                    s.edges += 1;
                }
                s.flipped += self.flips(sq).len() as u64;
            } else {
                let mut next = self.clone();
                next.play(sq).expect("a legal move plays");
                next.stats_into(depth - 1, s);
            }
        }
    }
}

/// Perft with statistics about the last ply's moves, like chess perft tables that count
/// captures and checks. At depth 0 only `leaves` counts (1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Move sequences of exactly the depth (the perft number).
    pub leaves: u64,
    /// Last moves played where no capture was possible (the no-capture fallback).
    pub fallbacks: u64,
    /// Last moves onto a corner.
    pub corners: u64,
    /// Last moves onto the outer ring (corners included).
    pub edges: u64,
    /// Balls turned by the last moves, summed.
    pub flipped: u64,
}

impl fmt::Debug for Naive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} to move", self.to_move_name())?;
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[test]
fn naive_start_positions() {
    let p = Naive::start(8, 4, 0);
    assert_eq!(p.rows()[3], "...RY...");
    assert_eq!(p.rows()[4], "...BG...");
    assert_eq!(p.at(parse("d5")), Some(0));
    assert_eq!(p.at(parse("e5")), Some(1));
    assert_eq!(p.at(parse("e4")), Some(2));
    assert_eq!(p.at(parse("d4")), Some(3));
    assert_eq!(
        Naive::start(6, 2, 2).rows(),
        vec!["......", "......", "..RY..", "..BG..", "......", "......"]
    );
    assert_eq!(
        Naive::start(4, 2, 0).rows(),
        vec!["....", ".RY.", ".BG.", "...."]
    );
    // Red's three captures from the start: d3 (over blue d4), f3 (over green e4), f5 (over
    // yellow e5).
    assert_eq!(names(&p.legal()), vec!["d3", "f3", "f5"]);
}
