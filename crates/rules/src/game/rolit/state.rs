//! The JSON form of a Rolit position: what a bot receives in `start` and `turn`, what
//! `perft --position` reads, and the final `board` of a record.
//!
//! `{"board": ["........", ...], "to_move": "red", "ply": 1, "colours": ["red", "green"]}`:
//! rows from the highest rank down, letters `R Y G B` and `.` for empty; `colours` are the
//! colours in play in turn order (optional when reading: the player count then decides).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::position::{BadPosition, Colour, Position, Square};

/// A Rolit position as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct State {
    /// Rows from the highest rank down; `R`, `Y`, `G`, `B` for balls, `.` for empty squares.
    pub board: Vec<String>,
    /// The colour to move.
    pub to_move: String,
    /// The number of the move to be played, from 1 (balls placed so far + 1).
    pub ply: u32,
    /// The colours in play, in turn order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colours: Vec<String>,
}

impl State {
    pub fn of(pos: &Position) -> State {
        State {
            board: pos.rows(),
            to_move: pos.to_move().name().to_string(),
            ply: pos.ply(),
            colours: pos.colours().iter().map(|c| c.name().to_string()).collect(),
        }
    }

    /// Reads a position; `players` decides the colours in play when the state does not list
    /// them. The `ply` field is informative and not checked (it follows from the board).
    pub fn to_position(&self, players: usize) -> Result<Position, BadPosition> {
        let n = self.board.len();
        if !matches!(n, 4 | 6 | 8) {
            return Err(BadPosition(format!(
                "the board has {n} rows; Rolit boards are 8x8, 6x6 or 4x4"
            )));
        }
        let mut balls = [0u64; 4];
        for (i, row) in self.board.iter().enumerate() {
            let rank = (n - 1 - i) as u8;
            if row.chars().count() != n {
                return Err(BadPosition(format!(
                    "row {} of the board ({row:?}) has {} squares, not {n}",
                    i + 1,
                    row.chars().count()
                )));
            }
            for (f, ch) in row.chars().enumerate() {
                if ch == '.' {
                    continue;
                }
                let c = Colour::from_letter(ch).ok_or_else(|| {
                    BadPosition(format!(
                        "row {} of the board has {ch:?}; use R, Y, G, B or .",
                        i + 1
                    ))
                })?;
                balls[c as usize] |= Square::new(f as u8, rank).bit();
            }
        }
        let colours: Vec<Colour> = if self.colours.is_empty() {
            Colour::for_players(players).to_vec()
        } else {
            self.colours
                .iter()
                .map(|s| colour(s))
                .collect::<Result<_, _>>()?
        };
        Position::from_parts(n as u8, balls, &colours, colour(&self.to_move)?)
    }
}

/// Appends a position's state as compact JSON, byte for byte what `serde_json` writes of
/// [`State::of`] as a value (keys in alphabetical order, as a `turn` carries it), without
/// building either: every request of a match carries one. Every piece is plain ASCII (rows of
/// letters, colour names), so nothing needs escaping.
pub fn write_json(pos: &Position, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"board\":[");
    let n = pos.size();
    for r in (0..n).rev() {
        out.push(b'"');
        for f in 0..n {
            out.push(pos.at(Square::new(f, r)).map_or(b'.', |c| c.letter() as u8));
        }
        out.push(b'"');
        if r > 0 {
            out.push(b',');
        }
    }
    out.push(b']');
    if !pos.colours().is_empty() {
        out.extend_from_slice(b",\"colours\":[");
        for (i, c) in pos.colours().iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            quoted(c.name(), out);
        }
        out.push(b']');
    }
    out.extend_from_slice(b",\"ply\":");
    out.extend_from_slice(itoa::Buffer::new().format(pos.ply()).as_bytes());
    out.extend_from_slice(b",\"to_move\":");
    quoted(pos.to_move().name(), out);
    out.push(b'}');
}

fn quoted(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

fn colour(s: &str) -> Result<Colour, BadPosition> {
    Colour::from_name(s).ok_or_else(|| {
        BadPosition(format!(
            "{s:?} is not a colour; use red, yellow, green or blue"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut p = Position::start(6, 3, Colour::Yellow).unwrap();
        p.play(Square::parse("b4", 6).unwrap()).unwrap();
        let s = State::of(&p);
        assert_eq!(s.to_position(4).unwrap(), p);
        let json = serde_json::to_string(&s).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn the_written_state_is_serde_json_s_to_the_byte() {
        for (size, players) in [(8, 4), (8, 2), (6, 3), (4, 2)] {
            let mut p = Position::start(size, players, Colour::Green).unwrap();
            loop {
                let mut fast = Vec::new();
                write_json(&p, &mut fast);
                let value = serde_json::to_value(State::of(&p)).unwrap();
                assert_eq!(
                    String::from_utf8(fast).unwrap(),
                    serde_json::to_string(&value).unwrap()
                );
                let legal = p.legal_moves();
                if p.is_over() || legal == 0 {
                    break;
                }
                // The highest legal square each time: a different game from the lowest.
                p.play(Square(63 - legal.leading_zeros() as u8)).unwrap();
            }
        }
    }

    #[test]
    fn bad_states_say_what_is_wrong() {
        let s = State {
            board: vec!["....".into(), ".RX.".into(), ".BG.".into(), "....".into()],
            to_move: "red".into(),
            ply: 1,
            colours: vec![],
        };
        assert!(s.to_position(2).unwrap_err().0.contains("'X'"));
    }
}
