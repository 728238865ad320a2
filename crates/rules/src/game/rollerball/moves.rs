//! Moves in the canonical notation of rules §11.1: one typed [`Move`] per decision, its
//! canonical text ([`fmt::Display`]) and a lenient reader ([`Move::parse`]: any run of spaces,
//! either case, a card's two squares in either order).

use std::fmt;

use super::card::{Card, Placed};
use super::square::Square;

/// What a reward taken from the board becomes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Keep {
    /// Into the hand.
    Keep,
    /// Laid as a victory point.
    Vp,
}

/// One decision.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `bid C1 C2 …` (canonical order; empty for `bid`).
    Bid(Vec<Card>),
    /// `base SQ`.
    Base(Square),
    /// `workman SQ`.
    Workman(Square),
    /// `pass` (setup cards).
    Pass,
    /// `place CODE s1 s2` (setup cards).
    Place(Placed),
    /// `ball SQ`.
    Ball(Square),
    /// `keep` (reward from the deck).
    Keep,
    /// `vp` (reward from the deck).
    Vp,
    /// `decline` (reward with an empty deck).
    Decline,
    /// `take SQ keep|vp`: the board card whose s1 is SQ.
    Take(Square, Keep),
    /// `discard CODE` (hit).
    Discard(Card),
    /// `stay` (move, extra).
    Stay,
    /// `move SQ` (move, extra).
    Walk(Square),
    /// `teleport CODE SQ` (move, extra).
    Teleport(Card, Square),
    /// `none` (use).
    NoUse,
    /// `blowup CODE`: the card paid.
    Blowup(Card),
    /// `build CODE s1 s2`.
    Build(Placed),
    /// `replace CODE s1 s2`: the new card; the Replacer is implied.
    Replace(Placed),
}

/// A move that is not accepted, with the reason a bot author reads. `Display` gives
/// `"<move>: <reason>"`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveError {
    /// The move as sent (or canonicalised, once it could be read).
    pub text: String,
    pub reason: String,
    /// The refusal's stable code (protocol/SPEC.md §7.2): `not_a_move` for text that is no
    /// move, `illegal_move` for a move the rules do not allow now, or a narrower one.
    pub code: &'static str,
}

impl MoveError {
    /// Text that does not read as a move (`not_a_move`).
    pub fn new(text: impl Into<String>, reason: impl Into<String>) -> MoveError {
        MoveError::coded("not_a_move", text, reason)
    }

    pub fn coded(
        code: &'static str,
        text: impl Into<String>,
        reason: impl Into<String>,
    ) -> MoveError {
        MoveError {
            text: text.into(),
            reason: reason.into(),
            code,
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Bid(cards) => {
                f.write_str("bid")?;
                for c in cards {
                    write!(f, " {c}")?;
                }
                Ok(())
            }
            Move::Base(s) => write!(f, "base {s}"),
            Move::Workman(s) => write!(f, "workman {s}"),
            Move::Pass => f.write_str("pass"),
            Move::Place(p) => write!(f, "place {p}"),
            Move::Ball(s) => write!(f, "ball {s}"),
            Move::Keep => f.write_str("keep"),
            Move::Vp => f.write_str("vp"),
            Move::Decline => f.write_str("decline"),
            Move::Take(s, Keep::Keep) => write!(f, "take {s} keep"),
            Move::Take(s, Keep::Vp) => write!(f, "take {s} vp"),
            Move::Discard(c) => write!(f, "discard {c}"),
            Move::Stay => f.write_str("stay"),
            Move::Walk(s) => write!(f, "move {s}"),
            Move::Teleport(c, s) => write!(f, "teleport {c} {s}"),
            Move::NoUse => f.write_str("none"),
            Move::Blowup(c) => write!(f, "blowup {c}"),
            Move::Build(p) => write!(f, "build {p}"),
            Move::Replace(p) => write!(f, "replace {p}"),
        }
    }
}

fn square(text: &str, tok: &str) -> Result<Square, MoveError> {
    Square::parse(tok)
        .ok_or_else(|| MoveError::new(text, format!("{tok:?} is not a square (a1 to h8)")))
}

fn card(text: &str, tok: &str) -> Result<Card, MoveError> {
    Card::parse(tok).ok_or_else(|| {
        MoveError::new(
            text,
            format!("{tok:?} is not a card code (DM, DR, EN, RP, RU, SD, SU, UM)"),
        )
    })
}

fn placed(text: &str, args: &[&str]) -> Result<Placed, MoveError> {
    let c = card(text, args[0])?;
    let a = square(text, args[1])?;
    let b = square(text, args[2])?;
    Placed::new(c, a, b)
        .map_err(|e| MoveError::new(text, format!("{c} cannot lie on {a} and {b}: {e}")))
}

impl Move {
    /// Reads a move leniently and returns it in canonical form; the error names what could not
    /// be read.
    pub fn parse(input: &str) -> Result<Move, MoveError> {
        let toks: Vec<&str> = input.split_whitespace().collect();
        let text = toks.join(" ");
        let Some(&head) = toks.first() else {
            return Err(MoveError::new(input, "empty move"));
        };
        let head = head.to_ascii_lowercase();
        let args = &toks[1..];
        let want = |n: usize, form: &str| -> Result<(), MoveError> {
            if args.len() == n {
                Ok(())
            } else {
                Err(MoveError::new(&text, format!("expected {form:?}")))
            }
        };
        Ok(match head.as_str() {
            "bid" => {
                let mut cards = args
                    .iter()
                    .map(|t| card(&text, t))
                    .collect::<Result<Vec<_>, _>>()?;
                cards.sort();
                Move::Bid(cards)
            }
            "base" => {
                want(1, "base SQ")?;
                Move::Base(square(&text, args[0])?)
            }
            "workman" => {
                want(1, "workman SQ")?;
                Move::Workman(square(&text, args[0])?)
            }
            "pass" => {
                want(0, "pass")?;
                Move::Pass
            }
            "place" => {
                want(3, "place CODE SQ SQ")?;
                Move::Place(placed(&text, args)?)
            }
            "ball" => {
                want(1, "ball SQ")?;
                Move::Ball(square(&text, args[0])?)
            }
            "keep" => {
                want(0, "keep")?;
                Move::Keep
            }
            "vp" => {
                want(0, "vp")?;
                Move::Vp
            }
            "decline" => {
                want(0, "decline")?;
                Move::Decline
            }
            "take" => {
                want(2, "take SQ keep|vp")?;
                let s = square(&text, args[0])?;
                match args[1].to_ascii_lowercase().as_str() {
                    "keep" => Move::Take(s, Keep::Keep),
                    "vp" => Move::Take(s, Keep::Vp),
                    _ => return Err(MoveError::new(&text, "expected \"take SQ keep|vp\"")),
                }
            }
            "discard" => {
                want(1, "discard CODE")?;
                Move::Discard(card(&text, args[0])?)
            }
            "stay" => {
                want(0, "stay")?;
                Move::Stay
            }
            "move" => {
                want(1, "move SQ")?;
                Move::Walk(square(&text, args[0])?)
            }
            "teleport" => {
                want(2, "teleport CODE SQ")?;
                Move::Teleport(card(&text, args[0])?, square(&text, args[1])?)
            }
            "none" => {
                want(0, "none")?;
                Move::NoUse
            }
            "blowup" => {
                want(1, "blowup CODE")?;
                Move::Blowup(card(&text, args[0])?)
            }
            "build" => {
                want(3, "build CODE SQ SQ")?;
                Move::Build(placed(&text, args)?)
            }
            "replace" => {
                want(3, "replace CODE SQ SQ")?;
                Move::Replace(placed(&text, args)?)
            }
            other => {
                return Err(MoveError::new(&text, format!("unknown move {other:?}")));
            }
        })
    }

    /// The phase name of the decision this kind of move answers (`move` and `extra` share).
    pub fn kind(&self) -> &'static str {
        match self {
            Move::Bid(_) => "bid",
            Move::Base(_) => "base",
            Move::Workman(_) => "workman",
            Move::Pass | Move::Place(_) => "card",
            Move::Ball(_) => "ball",
            Move::Keep | Move::Vp | Move::Decline | Move::Take(..) => "reward",
            Move::Discard(_) => "discard",
            Move::Stay | Move::Walk(_) | Move::Teleport(..) => "move",
            Move::NoUse | Move::Blowup(_) | Move::Build(_) | Move::Replace(_) => "use",
        }
    }
}

impl std::str::FromStr for Move {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<Move, MoveError> {
        Move::parse(s)
    }
}
