//! A bot for every rollarena game: the Rust starter kit.
//!
//! It reads one JSON message per line on stdin and answers on stdout, one JSON message per
//! line, flushed at once, and logs to stderr (stdout belongs to the arbiter). It plays the game
//! `hello.game` names:
//! - "rolit" (here): it keeps the board it is sent (from `start` and `turn`, updated by
//!   `played`) and plays the move that turns the most balls weighted by the tactical value of
//!   the square;
//! - "robots" (Rock'n'Roll Robot, `robots.rs`): at `start` it searches breadth-first for a
//!   shortest solution, declares it, passes, and shows the moves when asked to `prove`;
//! - "goofspiel" (`goofspiel.rs`): it bids the card that ranks in its hand where the prize
//!   ranks among the prizes left;
//! - "rollerball" (`rollerball.rs`): its base on the track the fewest other bases share, every
//!   card it lays leading balls to that track, every reward laid as a victory point;
//! - any other game (`any_game.rs`, which hands the two above their `turn`s): it answers each
//!   `turn` with the first move of its `legal` list.
//!
//! Build: `cargo build --release`; check: `rollarena check target/release/starter-rust`
//! (or `--game robots`, `goofspiel`, `rollerball`).

mod any_game;
mod goofspiel;
mod robots;
mod rollerball;

use std::collections::HashSet;
use std::io::{self, BufRead, Write};

use serde_json::{json, Value};

use any_game::AnyGamePlayer;
use robots::RobotsPlayer;

const NAME: &str = "starter-rust";
const VERSION: &str = "1.0";

/// The five tactical levels of the rules, as a bonus for taking a square.
const VERY_STRONG: i32 = 30;
const STRONG: i32 = 6;
const MEDIUM: i32 = 1;
const WEAK: i32 = -6;
const VERY_WEAK: i32 = -15;

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A square as (file, rank), a1 = (0, 0).
type Square = (i32, i32);

fn square_name((file, rank): Square) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn parse_square(name: &str) -> Option<Square> {
    let file = i32::from(*name.as_bytes().first()?) - i32::from(b'a');
    let rank = name.get(1..)?.parse::<i32>().ok()? - 1;
    Some((file, rank))
}

fn letter(colour: &str) -> Option<u8> {
    match colour {
        "red" => Some(b'R'),
        "yellow" => Some(b'Y'),
        "green" => Some(b'G'),
        "blue" => Some(b'B'),
        _ => None,
    }
}

/// A board as rows of letters; row 0 is the highest rank; `.` for empty.
#[derive(Clone, Debug, Default)]
struct Board {
    rows: Vec<Vec<u8>>,
}

impl Board {
    fn from_state(state: &Value) -> Option<Board> {
        let rows = state["board"]
            .as_array()?
            .iter()
            .map(|r| r.as_str().map(|s| s.as_bytes().to_vec()))
            .collect::<Option<Vec<_>>>()?;
        Some(Board { rows })
    }

    fn n(&self) -> i32 {
        self.rows.len() as i32
    }

    fn inside(&self, (f, r): Square) -> bool {
        (0..self.n()).contains(&f) && (0..self.n()).contains(&r)
    }

    fn at(&self, (f, r): Square) -> u8 {
        self.rows[(self.n() - 1 - r) as usize][f as usize]
    }

    fn put(&mut self, sq: Square, letter: u8) {
        if self.inside(sq) {
            let n = self.n();
            self.rows[(n - 1 - sq.1) as usize][sq.0 as usize] = letter;
        }
    }

    /// How many balls a ball of letter `me` on `sq` would turn.
    fn flips(&self, sq: Square, me: u8) -> i32 {
        let mut total = 0;
        for (df, dr) in DIRECTIONS {
            let (mut f, mut r, mut run) = (sq.0 + df, sq.1 + dr, 0);
            while self.inside((f, r)) && !matches!(self.at((f, r)), b'.') && self.at((f, r)) != me {
                f += df;
                r += dr;
                run += 1;
            }
            if run > 0 && self.inside((f, r)) && self.at((f, r)) == me {
                total += run;
            }
        }
        total
    }

    /// Empty squares touching a ball; only the capturing ones if any capture.
    fn legal_moves(&self, me: u8) -> Vec<Square> {
        let mut touching = Vec::new();
        for r in 0..self.n() {
            for f in 0..self.n() {
                let touches = DIRECTIONS.iter().any(|(df, dr)| {
                    self.inside((f + df, r + dr)) && self.at((f + df, r + dr)) != b'.'
                });
                if self.at((f, r)) == b'.' && touches {
                    touching.push((f, r));
                }
            }
        }
        let captures: Vec<Square> = touching
            .iter()
            .copied()
            .filter(|&sq| self.flips(sq, me) > 0)
            .collect();
        if captures.is_empty() {
            touching
        } else {
            captures
        }
    }
}

/// The tactical value of a square: corners, edges, and the squares next to corners.
fn level((f, r): Square, n: i32) -> i32 {
    let last = n - 1;
    let edge = |v: i32| v == 0 || v == last;
    let near = |v: i32| v == 1 || v == last - 1;
    match (edge(f), edge(r)) {
        (true, true) => VERY_STRONG,
        (true, false) if near(r) => WEAK,
        (false, true) if near(f) => WEAK,
        (true, false) | (false, true) => STRONG,
        (false, false) if near(f) && near(r) => VERY_WEAK,
        (false, false) => MEDIUM,
    }
}

/// The last turn: what an `illegal` message asks about again.
struct LastTurn {
    id: Option<u64>,
    board: Board,
    me: u8,
    moves: Vec<Square>,
    tried: HashSet<Square>,
}

#[derive(Default)]
struct Bot {
    /// The board as last seen (start, turn), updated by played.
    board: Board,
    last: Option<LastTurn>,
}

impl Bot {
    /// Handles one message; returns the answer to send, if any.
    fn handle(&mut self, msg: &Value) -> Option<Value> {
        match msg["type"].as_str()? {
            "start" => {
                self.board = Board::from_state(&msg["state"])?;
                eprintln!("round {}: I play {}", msg["round"], msg["colour"]);
                None
            }
            "turn" => {
                let state = &msg["state"];
                self.board = Board::from_state(state)?;
                let me = letter(state["to_move"].as_str()?)?; // the colour to move is mine
                let moves = match msg["legal"].as_array() {
                    Some(list) => list
                        .iter()
                        .filter_map(|m| parse_square(m.as_str()?))
                        .collect(),
                    None => self.board.legal_moves(me),
                };
                self.last = Some(LastTurn {
                    id: msg["turn_id"].as_u64(),
                    board: self.board.clone(),
                    me,
                    moves,
                    tried: HashSet::new(),
                });
                self.answer()
            }
            "illegal" => {
                eprintln!("refused: {}", msg["reason"]);
                self.answer()
            }
            "played" => {
                let me = letter(msg["colour"].as_str()?)?;
                let squares = std::iter::once(&msg["move"])
                    .chain(msg["flipped"].as_array().into_iter().flatten());
                for sq in squares.filter_map(|s| parse_square(s.as_str()?)) {
                    self.board.put(sq, me);
                }
                None
            }
            "end" => {
                eprintln!("round {} over: scores {}", msg["round"], msg["scores"]);
                None
            }
            _ => None, // types this bot does not know are skipped
        }
    }

    /// The untried move (any, if all were tried) that turns the most balls, weighted.
    fn answer(&mut self) -> Option<Value> {
        let last = self.last.as_mut()?;
        let score = |&sq: &Square| 2 * last.board.flips(sq, last.me) + level(sq, last.board.n());
        let untried: Vec<Square> = last
            .moves
            .iter()
            .copied()
            .filter(|sq| !last.tried.contains(sq))
            .collect();
        let pool = if untried.is_empty() {
            &last.moves
        } else {
            &untried
        };
        // The first of the best, as the other kits do.
        let best = pool.iter().copied().rev().max_by_key(score)?;
        last.tried.insert(best);
        let mut message = json!({"type": "move", "move": square_name(best)});
        if let Some(id) = last.id {
            message["turn_id"] = json!(id);
        }
        Some(message)
    }
}

/// The player of the game `hello` names.
enum Player {
    Rolit(Bot),
    Robots(RobotsPlayer),
    Any(AnyGamePlayer),
}

impl Player {
    /// Handles one message; returns the answers to send.
    fn handle(&mut self, msg: &Value) -> Vec<Value> {
        if msg["type"] == "hello" {
            eprintln!(
                "hello: {}, seat {}, options {}",
                msg["game"], msg["seat"], msg["options"]
            );
            *self = match msg["game"].as_str() {
                Some("rolit") => Player::Rolit(Bot::default()),
                Some("robots") => Player::Robots(RobotsPlayer::new(&msg["options"])),
                game => Player::Any(AnyGamePlayer::new(game.unwrap_or(""))),
            };
            return vec![json!({
                "type": "ready",
                "name": NAME,
                "version": VERSION,
                "author": "rollarena starter kit",
            })];
        }
        match self {
            Player::Rolit(bot) => bot.handle(msg).into_iter().collect(),
            Player::Robots(bot) => bot.handle(msg),
            Player::Any(bot) => bot.handle(msg).into_iter().collect(),
        }
    }
}

fn main() -> io::Result<()> {
    let mut bot = Player::Any(AnyGamePlayer::default());
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    // lines() hands over one whole line at a time.
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let msg: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("not a message: {e}");
                continue;
            }
        };
        if msg["type"] == "bye" {
            return Ok(());
        }
        for answer in bot.handle(&msg) {
            // One JSON object per line, then flush. Rust's stdout happens to flush at each
            // newline, but saying it keeps it true if the writer is ever wrapped in a BufWriter.
            writeln!(out, "{answer}")?;
            out.flush()?;
        }
    }
    Ok(())
}
