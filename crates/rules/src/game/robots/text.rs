//! The text drawing of a board, read from the quarter-board files and written by
//! [`Board::render`](super::board::Board::render): one format for both, so a drawing can be
//! pasted from a test failure into a test.
//!
//! A drawing of `n` x `n` cells is `2n + 1` lines of `3n + 1` characters (shorter lines are
//! padded with spaces, so editors may strip trailing blanks). Even lines carry horizontal walls:
//! `+` at every corner and `--` (a wall) or two spaces (none) above each cell. Odd lines carry
//! the cells: `|` (a wall) or a space (none) left of each cell, then the cell's two-character
//! code:
//!
//! | code | meaning |
//! |---|---|
//! | two spaces | an empty cell |
//! | `##` | a cell of the central block |
//! | `Rm` `Gs` `Bg` `Yp` ... | a target: colour `R G B Y`, symbol `m`oon `s`tar `g`ear `p`lanet |
//! | `**` | the chromatic vortex |
//! | `r/` `g\` ... | a diagonal wall: colour `r g b y`, then `/` or `\` as drawn |
//!
//! The top line is the highest rank. Walls on the drawing's border are read like any other, so
//! the caller decides what the border means (the edge of the board, or a seam between quarters).

use std::fmt::Write;

use super::board::{Diagonal, Kind};
use super::cell::Dir;
use super::robot::Colour;
use super::token::Token;
use crate::Error;

/// What a cell of a drawing holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Empty,
    Blocked,
    Target(Token),
    Diagonal(Diagonal),
}

impl Code {
    fn parse(s: &str) -> Option<Code> {
        let b = s.as_bytes();
        match s {
            "  " => Some(Code::Empty),
            "##" => Some(Code::Blocked),
            _ if b.len() == 2 && (b[1] == b'/' || b[1] == b'\\') => {
                let colour = Colour::ALL
                    .into_iter()
                    .find(|c| c.letter().to_ascii_lowercase() as u8 == b[0])?;
                let kind = if b[1] == b'/' {
                    Kind::Slash
                } else {
                    Kind::Backslash
                };
                Some(Code::Diagonal(Diagonal { colour, kind }))
            }
            _ => Token::from_code(s).map(Code::Target),
        }
    }

    fn text(self) -> String {
        match self {
            Code::Empty => "  ".into(),
            Code::Blocked => "##".into(),
            Code::Target(t) => t.code(),
            Code::Diagonal(d) => format!("{}{}", d.colour.letter().to_ascii_lowercase(), d.kind),
        }
    }
}

/// A parsed drawing: `n` x `n` cells, row 0 at the top, each with its wall flags (N 1, E 2, S 4,
/// W 8, as [`Dir::bit`]) and its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    pub n: usize,
    pub walls: Vec<u8>,
    pub codes: Vec<Code>,
}

impl Drawing {
    /// An empty drawing without any wall.
    pub fn empty(n: usize) -> Drawing {
        Drawing {
            n,
            walls: vec![0; n * n],
            codes: vec![Code::Empty; n * n],
        }
    }

    pub fn wall(&self, row: usize, col: usize, dir: Dir) -> bool {
        self.walls[row * self.n + col] & dir.bit() != 0
    }

    /// Parses a drawing of `n` rows from its `2n + 1` lines, each given with its line number in
    /// the file (for error messages).
    pub fn parse(lines: &[(usize, &str)], n: usize) -> Result<Drawing, Error> {
        if lines.len() != 2 * n + 1 {
            return Err(Error::Parse(format!(
                "a drawing of {n} rows has {} lines, found {}",
                2 * n + 1,
                lines.len()
            )));
        }
        let width = 3 * n + 1;
        let mut d = Drawing::empty(n);
        for (i, &(number, raw)) in lines.iter().enumerate() {
            let at = |col: usize| format!("line {number}, column {}", col + 1);
            if !raw.is_ascii() {
                return Err(Error::Parse(format!(
                    "line {number}: only ASCII characters are allowed"
                )));
            }
            if raw.trim_end().len() > width {
                return Err(Error::Parse(format!(
                    "{}: the line is longer than {width} characters",
                    at(width)
                )));
            }
            let line = format!("{raw:width$}");
            let b = line.as_bytes();
            if i % 2 == 0 {
                // Horizontal walls between row i/2 - 1 (above) and row i/2 (below).
                let below = i / 2;
                for col in 0..=n {
                    if b[3 * col] != b'+' {
                        return Err(Error::Parse(format!(
                            "{}: expected '+' at a corner",
                            at(3 * col)
                        )));
                    }
                    if col == n {
                        break;
                    }
                    let wall = match &line[3 * col + 1..3 * col + 3] {
                        "--" => true,
                        "  " => false,
                        other => {
                            return Err(Error::Parse(format!(
                                "{}: expected \"--\" (a wall) or two spaces, found {other:?}",
                                at(3 * col + 1)
                            )));
                        }
                    };
                    if wall {
                        if below > 0 {
                            d.walls[(below - 1) * n + col] |= Dir::Down.bit();
                        }
                        if below < n {
                            d.walls[below * n + col] |= Dir::Up.bit();
                        }
                    }
                }
            } else {
                let row = i / 2;
                for col in 0..=n {
                    let wall = match b[3 * col] {
                        b'|' => true,
                        b' ' => false,
                        other => {
                            return Err(Error::Parse(format!(
                                "{}: expected '|' (a wall) or a space, found {:?}",
                                at(3 * col),
                                other as char
                            )));
                        }
                    };
                    if wall {
                        if col > 0 {
                            d.walls[row * n + col - 1] |= Dir::Right.bit();
                        }
                        if col < n {
                            d.walls[row * n + col] |= Dir::Left.bit();
                        }
                    }
                    if col == n {
                        break;
                    }
                    let text = &line[3 * col + 1..3 * col + 3];
                    d.codes[row * n + col] = Code::parse(text).ok_or_else(|| {
                        Error::Parse(format!(
                            "{}: unknown cell {text:?}: expected two spaces, ## (central block), \
                             a target like Rm (colour R G B Y, symbol m s g p), ** (vortex) or a \
                             diagonal like r/ or b\\",
                            at(3 * col + 1)
                        ))
                    })?;
                }
            }
        }
        Ok(d)
    }

    /// The drawing as text, in the format [`Drawing::parse`] reads (trailing spaces removed).
    pub fn render(&self) -> String {
        let n = self.n;
        let mut out = String::new();
        for i in 0..=2 * n {
            let mut line = String::new();
            if i % 2 == 0 {
                let below = i / 2;
                for col in 0..n {
                    let wall = if below < n {
                        self.wall(below, col, Dir::Up)
                    } else {
                        self.wall(n - 1, col, Dir::Down)
                    };
                    line.push('+');
                    line.push_str(if wall { "--" } else { "  " });
                }
                line.push('+');
            } else {
                let row = i / 2;
                for col in 0..=n {
                    let wall = if col < n {
                        self.wall(row, col, Dir::Left)
                    } else {
                        self.wall(row, n - 1, Dir::Right)
                    };
                    line.push(if wall { '|' } else { ' ' });
                    if col < n {
                        line.push_str(&self.codes[row * n + col].text());
                    }
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }
}

/// Parses a file of named drawings: `side A` and `side B` headers, each followed by its drawing
/// of `n` rows. Lines starting with `#` before a header are comments, blank lines there are
/// ignored. Returns the drawings in file order with their side names.
pub fn parse_sides(text: &str, n: usize) -> Result<Vec<(String, Drawing)>, Error> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (number, line) = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let Some(side) = trimmed.strip_prefix("side ") else {
            return Err(Error::Parse(format!(
                "line {number}: expected a header like \"side A\", a comment (#) or a blank line, \
                 found {trimmed:?}"
            )));
        };
        let grid = lines.get(i + 1..i + 2 + 2 * n).ok_or_else(|| {
            Error::Parse(format!(
                "line {number}: side {side} needs {} lines of drawing after its header",
                2 * n + 1
            ))
        })?;
        let drawing =
            Drawing::parse(grid, n).map_err(|e| Error::Parse(format!("side {side}: {e}")))?;
        out.push((side.trim().to_string(), drawing));
        i += 2 + 2 * n;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<(usize, &str)> {
        s.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
    }

    #[test]
    fn parses_and_renders_back() {
        let text = "\
+--+--+
|Rm|r/|
+  +--+
|** ##
+--+--+";
        let d = Drawing::parse(&lines(text), 2).unwrap();
        assert_eq!(d.codes[0], Code::Target("red-moon".parse().unwrap()));
        assert!(matches!(
            d.codes[1],
            Code::Diagonal(Diagonal {
                colour: Colour::Red,
                kind: Kind::Slash
            })
        ));
        assert_eq!(d.codes[2], Code::Target(Token::Vortex));
        assert_eq!(d.codes[3], Code::Blocked);
        assert!(d.wall(0, 0, Dir::Right) && d.wall(0, 1, Dir::Left));
        assert!(d.wall(0, 1, Dir::Down) && d.wall(1, 1, Dir::Up));
        assert!(!d.wall(1, 1, Dir::Right));
        assert_eq!(d.render(), text.to_string() + "\n");
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = "+--+\n|Xq|\n+--+";
        let e = Drawing::parse(&lines(text), 1).unwrap_err().to_string();
        assert!(
            e.starts_with("line 2, column 2: unknown cell \"Xq\""),
            "{e}"
        );
        let e = Drawing::parse(&lines("+-+\n|  |\n+--+"), 1)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line 1, column 2"), "{e}");
        let e = parse_sides("side A\n+--+\n", 1).unwrap_err().to_string();
        assert!(e.contains("needs 3 lines"), "{e}");
        let e = parse_sides("board\n", 1).unwrap_err().to_string();
        assert!(e.contains("expected a header"), "{e}");
    }
}
