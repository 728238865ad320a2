//! Replays of Rock'n'Roll Robot records: one token (one record line) re-played through the
//! engine, for the terminal replay ([`super::show_text`]) and the HTML viewer ([`super::show_html`]).
//!
//! Like the Rolit replay, nothing shown is merely what the record claims: the board is
//! assembled again from the match seed, the token and the robots' start come from the engine's
//! match state (the record's `carry`, or the match seed for the first token), and every
//! demonstration is played move by move with [`slide_path`] and judged again with
//! [`check_solution`]. A demonstration the rules judge differently from the record, or a
//! carried state the rules refuse, makes the token unreplayable (`rollarena replay --verify`
//! is the strict judge of everything else). The solver's optimal length is taken from the
//! record (recomputing it may take seconds per token).

use serde_json::{Value, json};

use crate::game::RoundSetup;
use crate::game::robots::{
    Board, Cell, Move, Positions, Robot, Robots, Slide, Token, check_solution, parse_solution,
    slide_path,
};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;

/// What one recorded action was.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A declaration of this many moves (`None`: the record's move names no number).
    Declare { moves: Option<u64> },
    /// A demonstration, asked of the seat with the lowest declaration.
    Solution(Demonstration),
    /// An action of a kind this build does not know, shown as recorded.
    Other,
}

/// A demonstration as the engine plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct Demonstration {
    /// The declaration it had to meet.
    pub declared: Option<u64>,
    /// The bot sent moves (`false`: no answer in time).
    pub sent: bool,
    /// Why the moves could not be read, when they could not.
    pub unreadable: Option<String>,
    /// The moves the engine could play, in order (up to the first that cannot be played).
    pub steps: Vec<Step>,
    /// How many moves the bot sent (when readable).
    pub count: usize,
    /// The rules' verdict: the token is won.
    pub ok: bool,
    /// Why not, in the rules' words (or the record's, when no moves came).
    pub reason: Option<String>,
}

/// One move of a demonstration.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub mv: Move,
    /// Where the robot stood.
    pub from: Cell,
    /// The cells it passed through, ending where it stopped.
    pub path: Vec<Cell>,
    /// Diagonal walls that turned it on the way.
    pub turned: Vec<Cell>,
    /// Where it stopped (`from` when the move cannot be played).
    pub to: Cell,
    /// The move cannot be played: it stays, or it would go round forever.
    pub illegal: bool,
    /// Every robot after the move.
    pub after: Positions,
}

/// One token re-played.
#[derive(Clone, Debug)]
pub struct RobotsReplay {
    pub rules: Robots,
    pub board: Board,
    pub token: Token,
    pub target: Option<Cell>,
    /// The robots when the token was drawn (and after every failed demonstration).
    pub start: Positions,
    /// Tokens each seat had won before this one.
    pub won_before: Vec<Vec<Token>>,
    /// Solo: tokens missed before this one.
    pub face_down_before: Vec<Token>,
    /// Tokens left face down after this one was drawn (see [`RobotsReplay::pile_after`]).
    pub pile: usize,
    /// One per recorded action, in order.
    pub actions: Vec<Action>,
    /// `after[p]`: the robots after `p` actions (`after[0]` is the start).
    pub after: Vec<Positions>,
    /// The seat whose demonstration won the token, and its action's index.
    pub winner: Option<(usize, usize)>,
}

impl RobotsReplay {
    /// Tokens in the pile once this token is settled: those still face down, and this one
    /// again when nobody won it at a table of several (it goes back into the pile; solo, it is
    /// turned face down). The terminal and the viewer both say this number.
    pub fn pile_after(&self) -> usize {
        self.pile + usize::from(self.winner.is_none() && self.rules.players > 1)
    }

    /// Each seat's tokens after this one.
    pub fn tokens_after(&self) -> Vec<usize> {
        self.won_before
            .iter()
            .enumerate()
            .map(|(s, w)| w.len() + usize::from(self.winner.is_some_and(|(w, _)| w == s)))
            .collect()
    }

    /// Each seat's declaration standing after `p` actions (its last), as (seat, moves, action).
    pub fn declarations(&self, record: &RoundRecord, p: usize) -> Vec<(usize, u64, usize)> {
        let mut out: Vec<(usize, u64, usize)> = Vec::new();
        for (i, a) in self.actions.iter().enumerate().take(p) {
            if let Action::Declare { moves: Some(n) } = a {
                let seat = record.moves[i].seat;
                out.retain(|d| d.0 != seat);
                out.push((seat, *n, i));
            }
        }
        out.sort_by_key(|d| d.0);
        out
    }
}

/// The robots variant a record's options name, checked against the rules this build knows.
pub fn robots_of(record: &RoundRecord) -> Result<Robots, crate::Error> {
    use crate::game::robots::RULES_VERSION;
    if record.game != "robots" {
        return Err(crate::Error::Record(format!(
            "the record is of {:?}, not robots",
            record.game
        )));
    }
    if record.rules == 0 || record.rules > RULES_VERSION {
        return Err(crate::Error::Record(format!(
            "the record was played under robots rules version {}; this build knows versions 1 \
             to {RULES_VERSION}",
            record.rules
        )));
    }
    Robots::from_options(&record.options)
        .map(|g| Robots {
            rules: record.rules,
            ..g
        })
        .map_err(crate::Error::record)
}

/// Plays one token's recorded actions through the engine. `game` is the token's index in its
/// file (from 1), for the error.
pub fn replay(game: usize, record: &RoundRecord) -> Result<RobotsReplay, Discrepancy> {
    let fail = |ply: Option<u32>, reason: String| Discrepancy { game, ply, reason };
    let rules = robots_of(record).map_err(|r| fail(None, r.to_string()))?;
    let board = rules.board(record.match_seed);
    let state = match &record.carry {
        Some(c) => serde_json::from_value(c.clone())
            .map_err(|e| fail(None, format!("the carried state cannot be read: {e}")))?,
        None => rules.start_state(&board, record.match_seed),
    };
    let setup = RoundSetup {
        round: record.round.saturating_sub(1),
        match_seed: record.match_seed,
        round_seed: record.seed,
        chance_seed: record.seed,
    };
    let round = rules
        .round_from(setup, state.clone())
        .map_err(|e| fail(None, format!("the round's carried start is refused: {e}")))?;
    let token = round.token();
    let start = *round.robots();
    let target = board.target(token);
    let mut actions = Vec::with_capacity(record.moves.len());
    let mut after = vec![start];
    let mut current = start;
    let mut winner = None;
    for (i, m) in record.moves.iter().enumerate() {
        let ply = Some(i as u32 + 1);
        let action = match m.kind.as_deref() {
            Some("declare") => Action::Declare {
                moves: m.mv.get("moves").and_then(Value::as_u64),
            },
            Some("solution") => {
                if winner.is_some() {
                    return Err(fail(
                        ply,
                        "a demonstration is recorded after the token was won".into(),
                    ));
                }
                let d = demonstration(&board, &start, token, m)?;
                let recorded = m.effects.get("ok").and_then(Value::as_bool);
                if recorded != Some(d.ok) {
                    return Err(fail(
                        ply,
                        format!(
                            "the record says the demonstration {}, but the rules say it {}",
                            match recorded {
                                Some(true) => "succeeded",
                                Some(false) => "failed",
                                None => "has no verdict",
                            },
                            match &d.reason {
                                None => "succeeds".to_string(),
                                Some(r) => format!("fails: {r}"),
                            }
                        ),
                    ));
                }
                if d.ok {
                    winner = Some((m.seat, i));
                    current = d.steps.last().map_or(start, |s| s.after);
                }
                Action::Solution(d)
            }
            _ => Action::Other,
        };
        actions.push(action);
        after.push(current);
    }
    if let Some((seat, _)) = winner
        && seat >= rules.players
    {
        return Err(fail(
            None,
            format!("seat {seat} wins, but there is no such seat"),
        ));
    }
    Ok(RobotsReplay {
        won_before: state.won.clone(),
        face_down_before: state.face_down.clone(),
        pile: state.pile.len().saturating_sub(1),
        rules,
        board,
        token,
        target,
        start,
        actions,
        after,
        winner,
    })
}

/// Plays a recorded `solution` action from the token's start.
fn demonstration(
    board: &Board,
    start: &Positions,
    token: Token,
    m: &crate::record::MoveRecord,
) -> Result<Demonstration, Discrepancy> {
    let declared = m.effects.get("declared").and_then(Value::as_u64);
    let moves = m.mv.get("moves").unwrap_or(&Value::Null);
    let recorded_reason = m
        .effects
        .get("reason")
        .and_then(Value::as_str)
        .map(str::to_string);
    if moves.is_null() {
        return Ok(Demonstration {
            declared,
            sent: false,
            unreadable: None,
            steps: Vec::new(),
            count: 0,
            ok: false,
            reason: Some(recorded_reason.unwrap_or_else(|| "no solution in time".into())),
        });
    }
    let parsed = match parse_solution(moves) {
        Ok(p) => p,
        Err(e) => {
            return Ok(Demonstration {
                declared,
                sent: true,
                unreadable: Some(e.0.clone()),
                steps: Vec::new(),
                count: 0,
                ok: false,
                reason: Some(e.0),
            });
        }
    };
    let steps = play_moves(board, start, &parsed);
    let verdict = check_solution(
        board,
        start,
        token,
        &parsed,
        declared.map_or(0, |d| usize::try_from(d).unwrap_or(usize::MAX)),
    );
    Ok(Demonstration {
        declared,
        sent: true,
        unreadable: None,
        count: parsed.len(),
        steps,
        ok: verdict.is_ok(),
        reason: verdict.err().map(|e| e.0),
    })
}

/// Plays moves from `start` up to the first that cannot be played (which is included, marked
/// illegal, with the robots unmoved).
pub fn play_moves(board: &Board, start: &Positions, moves: &[Move]) -> Vec<Step> {
    let mut pos = *start;
    let mut steps = Vec::with_capacity(moves.len());
    for &mv in moves {
        let Some(from) = pos.get(mv.robot) else {
            break;
        };
        let (path, outcome) = slide_path(board, &pos, mv.robot, mv.dir);
        let turned = path
            .iter()
            .copied()
            .filter(|&c| {
                board
                    .diagonal(c)
                    .is_some_and(|d| Some(d.colour) != mv.robot.colour())
            })
            .collect();
        let (to, illegal) = match outcome {
            Slide::Moved(to) => (to, false),
            Slide::Stays | Slide::Endless => (from, true),
        };
        pos.set(mv.robot, to);
        steps.push(Step {
            mv,
            from,
            path,
            turned,
            to,
            illegal,
            after: pos,
        });
        if illegal {
            break;
        }
    }
    steps
}

/// The robots as `{"red": "a1", ...}`.
pub fn robots_json(p: &Positions) -> Value {
    json!(p)
}

/// The letter a robot is drawn with: `R G B Y`, and `K` for black.
pub const fn letter(robot: Robot) -> char {
    match robot.colour() {
        Some(c) => c.letter(),
        None => 'K',
    }
}
