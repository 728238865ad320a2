//! A Rolit position: the balls of each colour, the board size, the colours in play in their
//! clockwise turn order, and the colour to move. Copyable and small, so search can copy it.
//!
//! Legal moves follow the rules as `protocol/games/rolit.md` ("A move") reads them: a ball goes on an empty square touching a
//! ball; if any move captures, only capturing moves are legal; otherwise any empty square
//! touching a ball is. There is never a pass, so a round lasts exactly `n*n - 4` moves.

use std::fmt;

use super::bitboard::{Squares, board_mask, capture_moves, flips, legal_moves, neighbours};

/// A Rolit colour, in the clockwise order of the board: red, yellow, green, blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red = 0,
    Yellow = 1,
    Green = 2,
    Blue = 3,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Green, Colour::Blue];

    /// The colours played by `players` players, in turn order (`protocol/games/rolit.md`,
    /// "Variants").
    pub fn for_players(players: usize) -> &'static [Colour] {
        match players {
            2 => &[Colour::Red, Colour::Green],
            3 => &[Colour::Red, Colour::Yellow, Colour::Green],
            4 => &Colour::ALL,
            _ => &[],
        }
    }

    pub fn name(self) -> &'static str {
        ["red", "yellow", "green", "blue"][self as usize]
    }

    pub fn letter(self) -> char {
        ['R', 'Y', 'G', 'B'][self as usize]
    }

    pub fn from_name(s: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.name() == s)
    }

    pub fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|col| col.letter() == c)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square index on the 8x8 grid: `rank * 8 + file`, a1 = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    pub fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }
    pub fn file(self) -> u8 {
        self.0 % 8
    }
    pub fn rank(self) -> u8 {
        self.0 / 8
    }
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses a square name such as "d3" (a file letter, either case, then a rank number) on
    /// an `n`x`n` board, with a reason a bot author understands when it is not one.
    pub fn parse(s: &str, n: u8) -> Result<Square, MoveError> {
        let shape = || MoveError::NotASquare {
            text: s.to_string(),
            size: n,
        };
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(shape)?.to_ascii_lowercase();
        let rank: u8 = chars.as_str().parse().map_err(|_| shape())?;
        let digits = chars.as_str();
        if !file.is_ascii_lowercase() || digits.starts_with(['+', '0']) {
            return Err(shape());
        }
        let f = file as u8 - b'a';
        if f >= n || rank == 0 || rank > n {
            return Err(MoveError::OffBoard {
                text: s.to_string(),
                size: n,
            });
        }
        Ok(Square::new(f, rank - 1))
    }
}

/// Why the engine refused a move: a square name that is not one, or a square the rules do not
/// allow. Its text is what a bot is told (the [`Round`](crate::game::Round) turns it into a
/// [`Refusal`](crate::game::Refusal)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a file letter then a rank number.
    NotASquare { text: String, size: u8 },
    /// A square name beyond the board's files or ranks.
    OffBoard { text: String, size: u8 },
    /// The square holds a ball.
    Occupied { square: Square, colour: Colour },
    /// The square touches no ball.
    TouchesNoBall(Square),
    /// A capture is possible and this move captures nothing; `legal` is the legal moves.
    CapturesNothing { legal: u64 },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotASquare { text, size: n } => write!(
                f,
                "{text:?} is not a square: a square is a file letter a-{} then a rank 1-{n}, \
                 like \"d3\"",
                (b'a' + n - 1) as char
            ),
            MoveError::OffBoard { text, size: n } => write!(
                f,
                "{text} is off the {n}x{n} board (files a-{}, ranks 1-{n})",
                (b'a' + n - 1) as char
            ),
            MoveError::Occupied { square, colour } => {
                write!(f, "{square} is occupied (a {colour} ball)")
            }
            MoveError::TouchesNoBall(square) => write!(
                f,
                "{square} touches no ball: a ball must be placed next to one already on the board"
            ),
            MoveError::CapturesNothing { legal } => {
                let some: Vec<String> = Squares(*legal)
                    .take(8)
                    .map(|s| Square(s).to_string())
                    .collect();
                let more = if legal.count_ones() > 8 { ", ..." } else { "" };
                write!(
                    f,
                    "a capture is possible, so a move that captures nothing is illegal: try one \
                     of {}{more}",
                    some.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl Square {
    /// The square's name ("d3"), as `Display` writes it but without the formatting machinery:
    /// every move, flip and legal move of a match (and of its verification) is named so.
    pub fn name(self) -> String {
        let mut name = Vec::with_capacity(3);
        self.push_name(&mut name);
        String::from_utf8(name).expect("a square's name is ASCII")
    }

    /// Appends the square's name ("d3") to text being written.
    pub fn push_name(self, out: &mut Vec<u8>) {
        out.push(b'a' + self.file());
        let rank = self.rank() + 1;
        if rank >= 10 {
            out.push(b'0' + rank / 10);
        }
        out.push(b'0' + rank % 10);
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A Rolit position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    balls: [u64; 4],
    size: u8,
    /// Colours in play, in turn order; only the first `players` entries count.
    order: [Colour; 4],
    players: u8,
    /// Index into `order` of the colour to move.
    turn: u8,
}

/// Why a position could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPosition(pub String);

impl fmt::Display for BadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadPosition {}

impl Position {
    /// Checks a board size and player count against the rules' variants.
    pub fn check_variant(size: u8, players: usize) -> Result<(), BadPosition> {
        match (size, players) {
            (8 | 6, 2..=4) | (4, 2) => Ok(()),
            (8 | 6, _) => Err(BadPosition(format!(
                "Rolit on {size}x{size} is for 2, 3 or 4 players, not {players}"
            ))),
            (4, _) => Err(BadPosition(format!(
                "Rolit on 4x4 is for 2 players only, not {players}"
            ))),
            _ => Err(BadPosition(format!(
                "Rolit boards are 8x8, 6x6 or 4x4, not {size}x{size}"
            ))),
        }
    }

    /// The start position: the centre 2x2 holds one ball of each colour, clockwise from the
    /// top-left (on 8x8: d5 red, e5 yellow, e4 green, d4 blue), whatever the player count.
    pub fn start(size: u8, players: usize, first: Colour) -> Result<Position, BadPosition> {
        Position::check_variant(size, players)?;
        let colours = Colour::for_players(players);
        let turn = colours.iter().position(|&c| c == first).ok_or_else(|| {
            BadPosition(format!(
                "{first} does not play with {players} players (colours: {})",
                names(colours)
            ))
        })?;
        let lo = size / 2 - 1;
        let hi = size / 2;
        let mut balls = [0u64; 4];
        balls[Colour::Red as usize] = Square::new(lo, hi).bit();
        balls[Colour::Yellow as usize] = Square::new(hi, hi).bit();
        balls[Colour::Green as usize] = Square::new(hi, lo).bit();
        balls[Colour::Blue as usize] = Square::new(lo, lo).bit();
        let mut order = Colour::ALL;
        order[..players].copy_from_slice(colours);
        Ok(Position {
            balls,
            size,
            order,
            players: players as u8,
            turn: turn as u8,
        })
    }

    /// Builds a position from its parts; checks everything a user could get wrong.
    pub fn from_parts(
        size: u8,
        balls: [u64; 4],
        colours: &[Colour],
        to_move: Colour,
    ) -> Result<Position, BadPosition> {
        Position::check_variant(size, colours.len())?;
        let mask = board_mask(size);
        let mut seen = 0u64;
        for (i, &b) in balls.iter().enumerate() {
            if b & !mask != 0 || b & seen != 0 {
                return Err(BadPosition(format!(
                    "{} balls lie off the board or on other balls",
                    Colour::ALL[i]
                )));
            }
            seen |= b;
        }
        if seen == 0 {
            return Err(BadPosition(
                "the board is empty: a ball must be placed next to a ball, so a Rolit board \
                 always holds at least one"
                    .into(),
            ));
        }
        let turn = colours.iter().position(|&c| c == to_move).ok_or_else(|| {
            BadPosition(format!(
                "to_move is {to_move}, which is not one of the colours in play ({})",
                names(colours)
            ))
        })?;
        let mut order = Colour::ALL;
        order[..colours.len()].copy_from_slice(colours);
        Ok(Position {
            balls,
            size,
            order,
            players: colours.len() as u8,
            turn: turn as u8,
        })
    }

    pub fn size(&self) -> u8 {
        self.size
    }
    pub fn mask(&self) -> u64 {
        board_mask(self.size)
    }
    pub fn balls(&self, c: Colour) -> u64 {
        self.balls[c as usize]
    }
    pub fn all_balls(&self) -> [u64; 4] {
        self.balls
    }
    pub fn occupied(&self) -> u64 {
        self.balls[0] | self.balls[1] | self.balls[2] | self.balls[3]
    }
    pub fn empty(&self) -> u64 {
        self.mask() & !self.occupied()
    }
    /// The colours in play, in turn order.
    pub fn colours(&self) -> &[Colour] {
        &self.order[..self.players as usize]
    }
    pub fn to_move(&self) -> Colour {
        self.order[self.turn as usize]
    }
    /// The colour that moves after the one to move.
    #[inline]
    pub fn next_to_move(&self) -> Colour {
        let next = self.turn as usize + 1;
        self.order[if next == self.players as usize {
            0
        } else {
            next
        }]
    }
    /// The number of the move to be played next, from 1 (balls placed so far + 1). Positions
    /// built by hand with fewer than the 4 start balls count from 1 too.
    pub fn ply(&self) -> u32 {
        self.occupied().count_ones().saturating_sub(3).max(1)
    }
    /// The round is over when the board is full.
    pub fn is_over(&self) -> bool {
        self.empty() == 0
    }
    /// The colour of the ball on a square, if any.
    pub fn at(&self, sq: Square) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|&c| self.balls[c as usize] & sq.bit() != 0)
    }
    /// Balls of each colour.
    pub fn counts(&self) -> [u32; 4] {
        self.balls.map(u64::count_ones)
    }

    /// Squares where the mover captures at least one ball.
    #[inline(always)]
    pub fn capture_moves(&self) -> u64 {
        let own = self.balls[self.turn_colour_index()];
        let occ = self.occupied();
        capture_moves(own, occ & !own, self.mask() & !occ)
    }

    /// The legal moves: the capturing ones if any, else every empty square touching a ball.
    #[inline(always)]
    pub fn legal_moves(&self) -> u64 {
        let own = self.balls[self.turn_colour_index()];
        legal_moves(own, self.occupied(), self.mask())
    }

    #[inline(always)]
    fn turn_colour_index(&self) -> usize {
        self.order[self.turn as usize] as usize
    }

    /// Places the mover's ball on `sq`, which must be legal; returns the balls turned.
    #[inline(always)]
    pub fn play_unchecked(&mut self, sq: Square) -> u64 {
        let me = self.turn_colour_index();
        let own = self.balls[me];
        let opp = self.occupied() & !own;
        let turned = flips(sq.0, own, opp);
        for b in &mut self.balls {
            *b &= !turned;
        }
        self.balls[me] |= turned | sq.bit();
        // Not `% players`: a division at every move of a search.
        self.turn = if self.turn + 1 == self.players {
            0
        } else {
            self.turn + 1
        };
        turned
    }

    /// Checks a move and plays it, or says why it is illegal. The position is unchanged on
    /// refusal.
    pub fn play(&mut self, sq: Square) -> Result<u64, MoveError> {
        if let Some(colour) = self.at(sq) {
            return Err(MoveError::Occupied { square: sq, colour });
        }
        if neighbours(self.occupied()) & sq.bit() == 0 {
            return Err(MoveError::TouchesNoBall(sq));
        }
        let legal = self.legal_moves();
        if legal & sq.bit() == 0 {
            return Err(MoveError::CapturesNothing { legal });
        }
        Ok(self.play_unchecked(sq))
    }

    /// The board as rows of letters, highest rank first ("." for empty).
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .rev()
            .map(|r| {
                (0..self.size)
                    .map(|f| self.at(Square::new(f, r)).map_or('.', Colour::letter))
                    .collect()
            })
            .collect()
    }
}

fn names(colours: &[Colour]) -> String {
    colours
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_display() {
        for sq in 0..64 {
            assert_eq!(Square(sq).name(), Square(sq).to_string());
        }
    }

    #[test]
    fn start_positions() {
        let p = Position::start(8, 4, Colour::Red).unwrap();
        assert_eq!(p.rows()[3], "...RY...");
        assert_eq!(p.rows()[4], "...BG...");
        let p = Position::start(4, 2, Colour::Green).unwrap();
        assert_eq!(p.rows(), vec!["....", ".RY.", ".BG.", "...."]);
        assert_eq!(p.to_move(), Colour::Green);
        assert_eq!(p.ply(), 1);
        assert!(Position::start(4, 3, Colour::Red).is_err());
        assert!(Position::start(8, 2, Colour::Yellow).is_err());
    }

    #[test]
    fn square_names() {
        assert_eq!(Square::parse("d3", 8).unwrap().to_string(), "d3");
        assert_eq!(Square::parse("H8", 8).unwrap().to_string(), "h8");
        assert!(
            Square::parse("g1", 6)
                .unwrap_err()
                .to_string()
                .contains("off the 6x6")
        );
        for bad in ["", "d", "3d", "d0", "d+3", "d03", "dd3", "d3 ", "é3"] {
            assert!(Square::parse(bad, 8).is_err(), "{bad:?}");
        }
    }
}
