//! Rock'n'Roll Robot as a [`Game`]: the options of a match and the state a match carries from
//! token to token.
//!
//! A round is one token (one line of the record). The board is assembled and the robots placed
//! once per match, from the match seed; the token pile is shuffled from it too. What changes
//! from token to token (where the robots stand, the pile, the tokens each seat won, draws since
//! the last win) is a [`MatchState`] that a round hands to the next through [`Round::carry`],
//! and that each record line keeps, so a line replays on its own.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::board::Board;
use super::robot::{Positions, place_robots};
use super::round::RobotsRound;
use super::token::Token;
use crate::Error;
use crate::game::{Game, Round, RoundSetup};

/// The rules version of this implementation, bumped whenever what a record says can change.
/// Version 2: the state lists the declarations in the order they were made, and a forfeited
/// seat's declaration leaves it; a failed vortex demonstration reads "no robot stands on the
/// vortex target at ..." (version 1: "no robot stands there, not on the vortex target at ...").
pub const RULES_VERSION: u32 = 2;

/// Most seats a match may have.
pub const MAX_PLAYERS: usize = 8;

/// Salts that keep the draws of one match seed apart.
const BOARD_SALT: u64 = 0x626f_6172_6473;
const ROBOTS_SALT: u64 = 0x726f_626f_7473;
const PILE_SALT: u64 = 0x7069_6c65;

/// How a tie between equal declarations is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tiebreak {
    /// Who declared that number first (the rules).
    Time,
    /// Who had used less CPU time when declaring it (for machines where bots share cores).
    Cpu,
}

/// The rules of a Rock'n'Roll Robot match.
#[derive(Clone, Debug, PartialEq)]
pub struct Robots {
    /// Seats; 1 is the solo variant.
    pub players: usize,
    /// Boards on a random side (true) or side A only, without diagonal walls.
    pub diagonals: bool,
    /// The black robot variant.
    pub black: bool,
    /// The hourglass, started by the first declaration.
    pub hourglass_ms: u64,
    /// With no declaration by then, the hourglass is started anyway.
    pub first_declaration_ms: u64,
    /// Time to answer `prove`.
    pub prove_ms: u64,
    pub tiebreak: Tiebreak,
    /// Nodes the arbiter's solver may search for each token's optimal length.
    pub solver_nodes: u64,
    /// The rules version played ([`RULES_VERSION`], or an earlier one for an older record).
    pub rules: u32,
}

impl Robots {
    /// The rules' defaults for `players` seats.
    pub fn new(players: usize) -> Result<Robots, Error> {
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(Error::Options(format!(
                "Rock'n'Roll Robot is for 1 to {MAX_PLAYERS} players, not {players}"
            )));
        }
        Ok(Robots {
            players,
            diagonals: true,
            black: false,
            hourglass_ms: 60_000,
            first_declaration_ms: 300_000,
            prove_ms: 60_000,
            tiebreak: Tiebreak::Time,
            solver_nodes: 20_000_000,
            rules: RULES_VERSION,
        })
    }

    /// Tokens that win the match at once: 8, 6, 5 for 2, 3, 4 players (the rules' table);
    /// alone or with more than 4, the match runs until the tokens run out.
    pub fn tokens_to_win(&self) -> Option<usize> {
        match self.players {
            2 => Some(8),
            3 => Some(6),
            4 => Some(5),
            _ => None,
        }
    }

    /// The options as recorded and sent in `hello`.
    pub fn to_options(&self) -> Value {
        json!({
            "players": self.players,
            "diagonals": self.diagonals,
            "black": self.black,
            "hourglass_ms": self.hourglass_ms,
            "first_declaration_ms": self.first_declaration_ms,
            "prove_ms": self.prove_ms,
            "tiebreak": self.tiebreak,
            "solver_nodes": self.solver_nodes,
            "tokens_to_win": self.tokens_to_win(),
        })
    }

    /// The options a record names, read back (replays).
    pub fn from_options(v: &Value) -> Result<Robots, Error> {
        let num = |k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| Error::Options(format!("the options lack a whole number {k:?}")))
        };
        let flag = |k: &str| {
            v.get(k)
                .and_then(Value::as_bool)
                .ok_or_else(|| Error::Options(format!("the options lack a true/false {k:?}")))
        };
        let mut g = Robots::new(num("players")? as usize)?;
        g.diagonals = flag("diagonals")?;
        g.black = flag("black")?;
        g.hourglass_ms = num("hourglass_ms")?;
        g.first_declaration_ms = num("first_declaration_ms")?;
        g.prove_ms = num("prove_ms")?;
        g.solver_nodes = num("solver_nodes")?;
        g.tiebreak = serde_json::from_value(v.get("tiebreak").cloned().unwrap_or(Value::Null))
            .map_err(|_| {
                Error::Options("the options' \"tiebreak\" is not \"time\" or \"cpu\"".into())
            })?;
        if g.to_options() != *v {
            return Err(Error::Options(format!(
                "the options {} are not the canonical {}",
                crate::game::short_json(v),
                g.to_options()
            )));
        }
        Ok(g)
    }

    /// The match's board (the same for every token of a match).
    pub fn board(&self, match_seed: u64) -> Board {
        Board::assemble(match_seed ^ BOARD_SALT, self.diagonals)
    }

    /// The state a match starts from: robots placed, pile shuffled, nothing won.
    pub fn start_state(&self, board: &Board, match_seed: u64) -> MatchState {
        let robots = place_robots(board, match_seed ^ ROBOTS_SALT, self.black);
        let mut pile: Vec<Token> = Token::all().to_vec();
        let mut rng = ChaCha8Rng::seed_from_u64(match_seed ^ PILE_SALT);
        for i in (1..pile.len()).rev() {
            pile.swap(i, rng.random_range(0..=i));
        }
        MatchState {
            robots,
            pile,
            won: vec![Vec::new(); self.players],
            face_down: Vec::new(),
            since_win: 0,
        }
    }

    /// The round that continues a match from `state` (replays check the state first).
    pub fn round_from(&self, setup: RoundSetup, state: MatchState) -> Result<RobotsRound, Error> {
        let board = self.board(setup.match_seed);
        state.check(&board, self)?;
        Ok(RobotsRound::new(
            self.clone(),
            board,
            state,
            setup.round_seed,
        ))
    }
}

/// What a match carries from one token to the next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchState {
    /// Where the robots stand.
    pub robots: Positions,
    /// Tokens still face down, the next to draw first.
    pub pile: Vec<Token>,
    /// Tokens each seat won (solo: won face up), in order.
    pub won: Vec<Vec<Token>>,
    /// Solo: tokens missed (face down).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub face_down: Vec<Token>,
    /// Tokens drawn since one was last won (the guard against a match without end).
    pub since_win: u32,
}

impl MatchState {
    /// A carried state is whole: one list per seat, each token once, robots on free cells.
    fn check(&self, board: &Board, game: &Robots) -> Result<(), Error> {
        if self.won.len() != game.players {
            return Err(Error::Unplayable(format!(
                "the carried state lists tokens for {} seats, not {}",
                self.won.len(),
                game.players
            )));
        }
        let mut seen: Vec<Token> = self
            .pile
            .iter()
            .chain(self.won.iter().flatten())
            .chain(&self.face_down)
            .copied()
            .collect();
        let n = seen.len();
        seen.sort();
        seen.dedup();
        if seen.len() != n || n != Token::all().len() {
            return Err(Error::Unplayable(
                "the carried state does not hold each of the 17 tokens once".into(),
            ));
        }
        if self.pile.is_empty() {
            return Err(Error::Unplayable(
                "the carried state has no token left to draw".into(),
            ));
        }
        for (robot, cell) in self.robots.iter() {
            if board.is_blocked(cell) {
                return Err(Error::Unplayable(format!(
                    "the carried state puts the {robot} robot in the centre"
                )));
            }
        }
        if self.robots.get(super::robot::Robot::Black).is_some() != game.black {
            return Err(Error::Unplayable(
                "the carried state's black robot does not match the options".into(),
            ));
        }
        Ok(())
    }
}

impl Game for Robots {
    fn name(&self) -> &'static str {
        "robots"
    }

    fn rules_version(&self) -> u32 {
        self.rules
    }

    fn under_rules(&self, version: u32) -> Option<std::sync::Arc<dyn Game>> {
        (1..=RULES_VERSION).contains(&version).then(|| {
            std::sync::Arc::new(Robots {
                rules: version,
                ..self.clone()
            }) as std::sync::Arc<dyn Game>
        })
    }

    fn options(&self) -> Value {
        self.to_options()
    }

    fn seats(&self) -> usize {
        self.players
    }

    fn new_round(&self, setup: RoundSetup) -> Box<dyn Round> {
        let board = self.board(setup.match_seed);
        let state = self.start_state(&board, setup.match_seed);
        Box::new(RobotsRound::new(
            self.clone(),
            board,
            state,
            setup.round_seed,
        ))
    }

    fn next_round(&self, setup: RoundSetup, carry: &Value) -> Result<Box<dyn Round>, Error> {
        let state: MatchState = serde_json::from_value(carry.clone())
            .map_err(|e| Error::Unplayable(format!("the carried state cannot be read: {e}")))?;
        Ok(Box::new(self.round_from(setup, state)?))
    }

    fn simultaneous(&self) -> bool {
        true
    }

    fn default_rounds(&self) -> Option<u32> {
        // Each draw either wins a token (17 at most) or returns it; the guard ends a match
        // after twice the pile's draws without a win: 17 + 2 * (17 + 16 + ... + 1) at most.
        Some(17 + 17 * 18)
    }
}
