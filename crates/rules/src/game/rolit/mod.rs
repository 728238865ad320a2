//! Rolit, as documented in `protocol/games/rolit.md` (where the rule sheets are silent, its
//! "Decisions").
//!
//! The fast engine ([`Position`], bitboards, [`perft()`]) is plain and synchronous; [`Rolit`] and
//! its rounds wrap it behind the [`Game`]/[`Round`] traits for the arbiter, adding what belongs
//! to a match rather than a position: the colour rotation between rounds and the first colour
//! drawn once per match.

pub mod bitboard;
pub mod options;
pub mod perft;
pub mod position;
pub mod state;
pub mod values;

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::game::{Applied, Game, Refusal, Request, Round, RoundResult, RoundSetup, Seat, ToAct};
pub use perft::perft;
pub use position::{BadPosition, Colour, MoveError, Position, Square};
pub use state::State;

/// Bumped whenever a rule as implemented changes.
pub const RULES_VERSION: u32 = 1;

/// Rolit with the options of one match.
#[derive(Clone, Debug)]
pub struct Rolit {
    pub size: u8,
    pub players: usize,
}

impl Rolit {
    /// Checks the variant: 8x8 or 6x6 with 2 to 4 players, 4x4 with 2.
    pub fn new(size: u8, players: usize) -> Result<Rolit, BadPosition> {
        Position::check_variant(size, players)?;
        Ok(Rolit { size, players })
    }

    /// The colour that moves first in every round of a match: drawn once from the match seed
    /// (the rules roll a ball), with ChaCha8 seeded by the match seed, first draw below k.
    pub fn first_colour(&self, match_seed: u64) -> Colour {
        let colours = Colour::for_players(self.players);
        let mut rng = ChaCha8Rng::seed_from_u64(match_seed);
        colours[rng.random_range(0..colours.len())]
    }

    /// The colour of each seat in round `round` (0-based): seat i plays
    /// `order[(i + round) mod k]`, so over k rounds each seat plays every colour once.
    pub fn seat_colours(&self, round: u32) -> Vec<Colour> {
        let order = Colour::for_players(self.players);
        let k = order.len();
        (0..k).map(|i| order[(i + round as usize) % k]).collect()
    }
}

impl Game for Rolit {
    fn name(&self) -> &'static str {
        "rolit"
    }
    fn rules_version(&self) -> u32 {
        RULES_VERSION
    }
    fn options(&self) -> Value {
        json!({"size": self.size, "players": self.players})
    }
    fn seats(&self) -> usize {
        self.players
    }
    fn new_round(&self, setup: RoundSetup) -> Box<dyn Round> {
        let first = self.first_colour(setup.match_seed);
        let pos =
            Position::start(self.size, self.players, first).expect("variant checked in Rolit::new");
        Box::new(RolitRound::from_position(
            pos,
            self.seat_colours(setup.round),
        ))
    }
    fn schedule_warning(&self, rounds: u32) -> Option<String> {
        let k = self.players as u32;
        (!rounds.is_multiple_of(k)).then(|| {
            format!(
                "{rounds} {} not a multiple of {k}: seats will not play every colour \
                 and start equally often, so the seating is not balanced",
                if rounds == 1 { "round is" } else { "rounds is" }
            )
        })
    }
}

/// One round of Rolit.
#[derive(Clone, Debug)]
pub struct RolitRound {
    pos: Position,
    /// Colour of each seat.
    colours: Vec<Colour>,
    /// The seat that moved first.
    first: Seat,
}

impl RolitRound {
    /// A round from a given position (tests, openings).
    pub fn from_position(pos: Position, colours: Vec<Colour>) -> RolitRound {
        let first = colours
            .iter()
            .position(|&c| c == pos.to_move())
            .expect("every colour in play has a seat");
        RolitRound {
            pos,
            colours,
            first,
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    fn seat_of(&self, c: Colour) -> Seat {
        self.colours
            .iter()
            .position(|&x| x == c)
            .expect("every colour in play has a seat")
    }
}

impl Round for RolitRound {
    fn colours(&self) -> Option<Vec<String>> {
        Some(self.colours.iter().map(|c| c.name().to_string()).collect())
    }

    fn first(&self) -> Seat {
        self.first
    }

    fn to_act(&self) -> ToAct {
        if self.pos.is_over() {
            ToAct::Over
        } else {
            ToAct::Seat(self.seat_of(self.pos.to_move()), Request::TURN)
        }
    }

    fn view(&self, _seat: Seat) -> Value {
        self.public_view()
    }

    fn public_view(&self) -> Value {
        serde_json::to_value(State::of(&self.pos)).expect("a state serialises")
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<Value>> {
        if self.to_act() != ToAct::Seat(seat, Request::TURN) {
            return None;
        }
        let moves = self.pos.legal_moves();
        Some(
            bitboard::Squares(moves)
                .map(|s| Value::String(Square(s).name()))
                .collect(),
        )
    }

    fn write_view(&self, _seat: Seat, out: &mut Vec<u8>) {
        state::write_json(&self.pos, out);
    }

    fn write_legal(&self, seat: Seat, out: &mut Vec<u8>) -> bool {
        if self.to_act() != ToAct::Seat(seat, Request::TURN) {
            return false;
        }
        out.push(b'[');
        for (i, s) in bitboard::Squares(self.pos.legal_moves()).enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            Square(s).push_name(out);
            out.push(b'"');
        }
        out.push(b']');
        true
    }

    fn play(&mut self, seat: Seat, action: &Value) -> Result<Applied, Refusal> {
        let colour = self.pos.to_move();
        if self.pos.is_over() || self.seat_of(colour) != seat {
            return Err(Refusal::coded("not_your_turn", "it is not your turn"));
        }
        let Some(text) = action.as_str() else {
            return Err(Refusal::coded(
                "not_a_square",
                format!(
                    "a move is a square name in a string, like \"d3\"; got {}",
                    crate::game::short_json(action)
                ),
            ));
        };
        let sq = Square::parse(text, self.pos.size()).map_err(refusal)?;
        let turned = self.pos.play(sq).map_err(refusal)?;
        let flipped: Vec<Value> = bitboard::Squares(turned)
            .map(|s| Value::String(Square(s).name()))
            .collect();
        let mut effects = serde_json::Map::new();
        effects.insert("flipped".into(), Value::Array(flipped));
        let mut applied = Applied::moved(
            seat,
            Some(colour.name().to_string()),
            Value::String(sq.name()),
        );
        applied.effects = effects;
        Ok(applied)
    }

    fn result(&self) -> Option<RoundResult> {
        if !self.pos.is_over() {
            return None;
        }
        let counts = self.pos.counts();
        let scores: BTreeMap<String, u32> = Colour::ALL
            .iter()
            .map(|&c| (c.name().to_string(), counts[c as usize]))
            .collect();
        let points: Vec<u32> = self.colours.iter().map(|&c| counts[c as usize]).collect();
        Some(RoundResult::by_points(scores, points))
    }

    fn render(&self) -> String {
        render(&self.pos)
    }
}

/// The engine's reason for refusing a move, as the bot is told it.
fn refusal(e: MoveError) -> Refusal {
    let code = match e {
        MoveError::NotASquare { .. } => "not_a_square",
        MoveError::OffBoard { .. } => "off_board",
        MoveError::Occupied { .. } => "occupied",
        MoveError::TouchesNoBall(_) => "touches_no_ball",
        MoveError::CapturesNothing { .. } => "captures_nothing",
    };
    Refusal::coded(code, e.to_string())
}

/// The board as text: ranks down the left, files along the bottom, letters for balls.
pub fn render(pos: &Position) -> String {
    let n = pos.size() as usize;
    let mut out = String::new();
    for (i, row) in pos.rows().iter().enumerate() {
        out.push_str(&format!("{:>2} ", n - i));
        for ch in row.chars() {
            out.push(' ');
            out.push(ch);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for f in 0..n {
        out.push(' ');
        out.push((b'a' + f as u8) as char);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_covers_every_colour_and_start() {
        let g = Rolit::new(8, 3).unwrap();
        let first = g.first_colour(7);
        let mut starters = vec![];
        for r in 0..3 {
            let round = g.new_round(RoundSetup {
                round: r,
                match_seed: 7,
                round_seed: 0,
                chance_seed: 0,
            });
            starters.push(round.first());
            let cs = g.seat_colours(r);
            assert_eq!(cs[round.first()], first);
        }
        starters.sort();
        assert_eq!(starters, vec![0, 1, 2]);
    }

    #[test]
    fn refusals_are_explained() {
        let g = Rolit::new(8, 2).unwrap();
        let mut r = g.new_round(RoundSetup {
            round: 0,
            match_seed: 1,
            round_seed: 0,
            chance_seed: 0,
        });
        let ToAct::Seat(seat, _) = r.to_act() else {
            panic!()
        };
        let other = 1 - seat;
        assert_eq!(
            r.play(other, &json!("c3")).unwrap_err().reason,
            "it is not your turn"
        );
        assert!(
            r.play(seat, &json!(3))
                .unwrap_err()
                .reason
                .contains("got 3")
        );
        assert!(
            r.play(seat, &json!("d4"))
                .unwrap_err()
                .reason
                .contains("occupied")
        );
        assert!(
            r.play(seat, &json!("a1"))
                .unwrap_err()
                .reason
                .contains("touches no ball")
        );
        assert!(
            r.play(seat, &json!("i1"))
                .unwrap_err()
                .reason
                .contains("off the 8x8")
        );
    }
}
