//! One token of Rock'n'Roll Robot: the race to declare, the hourglass, and the verification, as
//! a plain state machine on round time (see [`crate::game`] for how the arbiter drives it).
//!
//! Phases: **thinking** (every live seat may `declare`; the first declaration starts the
//! hourglass, and with none by `first_declaration_ms` it is started anyway; alone, it runs from
//! the start), then **verifying** (the declarations in order, lowest first, ties to the earlier
//! declaration or, with the CPU tie-break, to the one made with less CPU time; each seat asked
//! to `prove` in turn, a failure or no answer in `prove_ms` passing to the next), then **over**.
//! Every decision is in `protocol/games/robots.md`.

use std::sync::OnceLock;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};

use super::board::Board;
use super::game::{MatchState, Robots, Tiebreak};
use super::robot::Positions;
use super::solution::{BadSolution, check_solution, parse_solution};
use super::solver::{Budget, Solution, solve};
use super::state::{self, StateView};
use super::token::Token;
use crate::duration::round_ms;
use crate::game::{Applied, Limit, Refusal, Request, Round, RoundResult, Seat, Stamp, ToAct};

/// The verification request: `prove`, answered by `solution` before the rules' deadline;
/// nobody is frozen (the others may still watch the clock).
pub const PROVE: Request = Request {
    kind: "prove",
    answer: "solution",
    clock: Limit::Rules,
    freeze_others: false,
};

/// The most moves a declaration may name.
pub const MAX_DECLARATION: u64 = 100;

/// A declaration as made.
#[derive(Clone, Debug, PartialEq)]
struct Declaration {
    seat: Seat,
    moves: u32,
    ms: f64,
    cpu_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
enum Phase {
    /// Declarations are open; the hourglass started at the given round time, if it did.
    Thinking {
        hourglass: Option<f64>,
    },
    /// `queue[0]` is asked to prove since the given round time.
    Verifying {
        queue: Vec<usize>,
        since: f64,
    },
    Over,
}

/// One token of a match.
pub struct RobotsRound {
    game: Robots,
    board: Board,
    /// The match as this token was drawn: the pile without it.
    state: MatchState,
    token: Token,
    /// Robots at the start of the token (failed demonstrations leave them there).
    start: Positions,
    phase: Phase,
    /// Every declaration, in the order made.
    declarations: Vec<Declaration>,
    forfeited: Vec<bool>,
    /// Seats that said they will not declare (again) for this token.
    passed: Vec<bool>,
    winner: Option<Seat>,
    /// Robots after the winning demonstration.
    end: Option<Positions>,
    /// Where a token nobody won goes back in the pile.
    return_at: usize,
    optimal: OnceLock<Value>,
}

impl RobotsRound {
    /// Draws the next token of `state`'s pile (the round's seed decides where it goes back
    /// if nobody wins it).
    pub fn new(game: Robots, board: Board, mut state: MatchState, round_seed: u64) -> Self {
        let token = state.pile.remove(0);
        let return_at = ChaCha8Rng::seed_from_u64(round_seed).random_range(0..=state.pile.len());
        let solo = game.players == 1;
        let start = state.robots;
        RobotsRound {
            forfeited: vec![false; game.players],
            passed: vec![false; game.players],
            game,
            board,
            state,
            token,
            start,
            phase: Phase::Thinking {
                hourglass: solo.then_some(0.0),
            },
            declarations: Vec::new(),
            winner: None,
            end: None,
            return_at,
            optimal: OnceLock::new(),
        }
    }

    /// The token drawn.
    pub fn token(&self) -> Token {
        self.token
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The robots now (their start until a demonstration succeeds).
    pub fn robots(&self) -> &Positions {
        self.end.as_ref().unwrap_or(&self.start)
    }

    fn solo(&self) -> bool {
        self.game.players == 1
    }

    /// Each seat's current declaration: its last (declarations only go down).
    fn current(&self, seat: Seat) -> Option<usize> {
        self.declarations.iter().rposition(|d| d.seat == seat)
    }

    /// The current declarations of the seats still in, in the order they are verified.
    fn verification_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.game.players)
            .filter(|&s| !self.forfeited[s])
            .filter_map(|s| self.current(s))
            .collect();
        let cpu = |i: usize| self.declarations[i].cpu_ms.unwrap_or(f64::INFINITY);
        order.sort_by(|&a, &b| {
            let (da, db) = (&self.declarations[a], &self.declarations[b]);
            let by_cpu = match self.game.tiebreak {
                Tiebreak::Cpu => cpu(a).total_cmp(&cpu(b)),
                Tiebreak::Time => std::cmp::Ordering::Equal,
            };
            // Index order is the order in which the values were declared.
            da.moves.cmp(&db.moves).then(by_cpu).then(a.cmp(&b))
        });
        order
    }

    /// Verification starts (or goes on) with `queue` at round time `at`.
    fn verify_next(&mut self, queue: Vec<usize>, at: f64) {
        self.phase = if queue.is_empty() {
            Phase::Over
        } else {
            Phase::Verifying { queue, since: at }
        };
    }

    /// Why declarations are closed, in the words of what happened: alone at the table the
    /// first declaration is verified at once (there is no hourglass to lower it in); with
    /// others, the hourglass ran out (or every seat passed).
    fn closed_because(&self) -> String {
        match (&self.phase, self.proving()) {
            (Phase::Verifying { .. }, Some((seat, moves))) if self.solo() => format!(
                "declarations are closed: playing alone (solo), a declaration is verified at \
                 once, and seat {seat}'s {moves} moves are being verified now; it cannot be \
                 lowered or passed: answer prove with a solution"
            ),
            (Phase::Verifying { .. }, _) => {
                "declarations are closed: the hourglass has ended (it ran out, or every seat \
                 passed) and the declarations are being verified"
                    .to_string()
            }
            _ => "declarations are closed: this token is over".to_string(),
        }
    }

    fn proving(&self) -> Option<(Seat, u32)> {
        match &self.phase {
            Phase::Verifying { queue, .. } => {
                let d = &self.declarations[queue[0]];
                Some((d.seat, d.moves))
            }
            _ => None,
        }
    }

    fn declare(&mut self, seat: Seat, message: &Value, at: Stamp) -> Result<Applied, Refusal> {
        let Phase::Thinking { hourglass } = self.phase else {
            return Err(Refusal::coded("declarations_closed", self.closed_because()));
        };
        let moves = match message.get("moves") {
            Some(v) => v.as_u64().ok_or_else(|| {
                Refusal::coded(
                    "bad_declaration",
                    format!(
                        "\"moves\" must be a whole number of moves, got {}",
                        crate::game::short_json(v)
                    ),
                )
            })?,
            None => {
                return Err(Refusal::coded(
                    "bad_declaration",
                    "a declaration needs \"moves\": {\"type\":\"declare\",\"moves\":5}",
                ));
            }
        };
        if self.passed[seat] {
            return Err(Refusal::coded(
                "passed_already",
                "you passed: you may not declare again for this token",
            ));
        }
        if moves < 2 {
            return Err(Refusal::coded(
                "too_few_moves",
                format!(
                    "{moves} moves cannot win a token: the robot must bounce off an obstacle at \
                 least once on its way, so it needs at least 2 moves"
                ),
            ));
        }
        if moves > MAX_DECLARATION {
            return Err(Refusal::coded(
                "too_many_moves",
                format!("{moves} moves is more than a declaration may name ({MAX_DECLARATION})"),
            ));
        }
        if let Some(i) = self.current(seat) {
            let mine = self.declarations[i].moves;
            if moves as u32 >= mine {
                return Err(Refusal::coded(
                    "not_lower",
                    format!(
                        "you declared {mine} moves already and may only lower your declaration"
                    ),
                ));
            }
        }
        self.declarations.push(Declaration {
            seat,
            moves: moves as u32,
            ms: at.ms,
            cpu_ms: at.cpu_ms,
        });
        if self.solo() {
            // Alone there is nobody to wait for: the demonstration follows at once.
            let queue = vec![self.declarations.len() - 1];
            self.verify_next(queue, at.ms);
        } else if hourglass.is_none() {
            self.phase = Phase::Thinking {
                hourglass: Some(at.ms),
            };
        }
        let mut effects = Map::new();
        if let Some(end) = self.hourglass_end() {
            effects.insert("hourglass_ends_ms".into(), json!(end));
        }
        Ok(Applied {
            kind: "declare",
            announced_as: "declared",
            seat,
            colour: None,
            notation: json!({ "moves": moves }),
            effects,
            secret: Map::new(),
            shown: None,
            fault: None,
        })
    }

    /// The seat will not declare (again) for this token. Once every seat still in the round
    /// has passed, the hourglass ends at once: verification starts, or, with no declaration,
    /// the round is over.
    fn pass(&mut self, seat: Seat, at: f64) -> Result<Applied, Refusal> {
        if !matches!(self.phase, Phase::Thinking { .. }) {
            return Err(Refusal::coded(
                "declarations_closed",
                format!("there is nothing to pass now: {}", self.closed_because()),
            ));
        }
        if self.passed[seat] {
            return Err(Refusal::coded(
                "passed_already",
                "you passed already for this token",
            ));
        }
        self.passed[seat] = true;
        self.end_if_all_passed(at);
        let mut effects = Map::new();
        if let Some(end) = self.hourglass_end() {
            effects.insert("hourglass_ends_ms".into(), json!(end));
        }
        Ok(Applied {
            kind: "pass",
            announced_as: "passed",
            seat,
            colour: None,
            notation: json!({}),
            effects,
            secret: Map::new(),
            shown: None,
            fault: None,
        })
    }

    /// While thinking, when every seat still in the round has passed (and one at least is),
    /// the hourglass ends now.
    fn end_if_all_passed(&mut self, at: f64) {
        let live: Vec<Seat> = (0..self.game.players)
            .filter(|&s| !self.forfeited[s])
            .collect();
        if matches!(self.phase, Phase::Thinking { .. })
            && !live.is_empty()
            && live.iter().all(|&s| self.passed[s])
        {
            let queue = self.verification_order();
            self.verify_next(queue, at);
        }
    }

    fn hourglass_end(&self) -> Option<f64> {
        match self.phase {
            Phase::Thinking { hourglass: Some(h) } => Some(later(h, self.game.hourglass_ms)),
            _ => None,
        }
    }

    /// Judges a demonstration (`moves` as sent; `None`: no answer in time).
    fn demonstration(&mut self, seat: Seat, moves: Option<&Value>, at: f64) -> Applied {
        let Phase::Verifying { queue, .. } = &self.phase else {
            unreachable!("only the seat asked to prove demonstrates")
        };
        let mut queue = queue.clone();
        let declared = self.declarations[queue.remove(0)].moves;
        let result = match moves {
            None => Err(BadSolution(format!(
                "no solution within {} ms of the request",
                self.game.prove_ms
            ))),
            Some(v) => parse_solution(v).and_then(|path| {
                check_solution(
                    &self.board,
                    &self.start,
                    self.token,
                    &path,
                    declared as usize,
                )
            }),
        };
        let mut effects = Map::new();
        effects.insert("declared".into(), json!(declared));
        let ok = result.is_ok();
        effects.insert("ok".into(), json!(ok));
        let fault = match result {
            Ok(end) => {
                effects.insert("robots".into(), json!(end));
                self.winner = Some(seat);
                self.end = Some(end);
                self.phase = Phase::Over;
                None
            }
            Err(BadSolution(reason)) => {
                let reason = match reason.strip_prefix("after the last move no robot stands on ") {
                    Some(target) if self.game.rules < 2 => {
                        format!("after the last move no robot stands there, not on {target}")
                    }
                    _ => reason,
                };
                effects.insert("reason".into(), json!(reason));
                self.verify_next(queue, at);
                Some(format!(
                    "failed demonstration of {declared} moves: {reason}"
                ))
            }
        };
        Applied {
            kind: "solution",
            announced_as: "verified",
            seat,
            colour: None,
            notation: json!({ "moves": moves.cloned().unwrap_or(Value::Null) }),
            effects,
            secret: Map::new(),
            shown: None,
            fault,
        }
    }

    /// The state every seat sees (`you` for a seat, the solver's answer once over for
    /// spectators).
    fn state(&self, seat: Option<Seat>) -> Value {
        let phase = match self.phase {
            Phase::Thinking { .. } => state::Phase::Thinking,
            Phase::Verifying { .. } => state::Phase::Verifying,
            Phase::Over => state::Phase::Over,
        };
        // Each seat's current declaration, in the order made (the first declarer of a tied
        // value proves first); rules version 1 listed them in seat order, forfeited seats'
        // included.
        let mut current: Vec<usize> = (0..self.game.players)
            .filter(|&s| self.game.rules < 2 || !self.forfeited[s])
            .filter_map(|s| self.current(s))
            .collect();
        if self.game.rules >= 2 {
            current.sort_unstable();
        }
        let declarations = current
            .into_iter()
            .map(|i| {
                let d = &self.declarations[i];
                state::Declaration {
                    seat: d.seat,
                    moves: d.moves,
                    at_ms: d.ms,
                }
            })
            .collect();
        let passed: Vec<Seat> = (0..self.game.players).filter(|&s| self.passed[s]).collect();
        let view = StateView {
            board: self.board.view(),
            robots: *self.robots(),
            token: self.token,
            target: self.board.target(self.token),
            phase,
            declarations,
            tokens: self.state.won.iter().map(Vec::len).collect(),
            pile: self.state.pile.len(),
            passed: (!passed.is_empty()).then_some(passed),
            hourglass_ends_ms: self.hourglass_end(),
            proving: self
                .proving()
                .map(|(seat, moves)| state::Proving { seat, moves }),
            you: seat,
            outcome: (seat.is_none() && self.phase == Phase::Over).then(|| state::Outcome {
                winner: self.winner,
                optimal: self.optimal().clone(),
            }),
        };
        serde_json::to_value(view).expect("a state serialises")
    }

    /// The solver's answer for the token from the start position (computed once, when asked:
    /// at the end of the round, never while the bots think).
    pub fn optimal(&self) -> &Value {
        self.optimal.get_or_init(|| {
            // A node budget and no time limit: the answer must not depend on the machine, so
            // that a replay finds the same.
            let budget = Budget {
                time: None,
                ..Budget::nodes(self.game.solver_nodes)
            };
            match solve(&self.board, &self.start, self.token, budget) {
                Solution::Optimal(path) => json!({"moves": path.len(), "solution": path}),
                Solution::Impossible => json!({"impossible": true}),
                Solution::GaveUp {
                    searched, at_least, ..
                } => json!({"gave_up": true, "searched": searched, "at_least": at_least}),
            }
        })
    }

    /// The match after this token.
    fn next_state(&self) -> MatchState {
        let mut next = self.state.clone();
        next.robots = *self.robots();
        match self.winner {
            Some(seat) => {
                next.won[seat].push(self.token);
                next.since_win = 0;
            }
            None if self.solo() => {
                next.face_down.push(self.token);
                next.since_win += 1;
            }
            None => {
                next.pile.insert(self.return_at, self.token);
                next.since_win += 1;
            }
        }
        next
    }
}

/// The round time `ms` after `t`, at the precision the record keeps: deadlines and the
/// hourglass's end are recorded and fed back by replays, so they must be exactly what a record
/// can hold (`t + ms` in floating point may not be).
fn later(t: f64, ms: u64) -> f64 {
    round_ms(t + ms as f64)
}

impl Round for RobotsRound {
    fn colours(&self) -> Option<Vec<String>> {
        None
    }

    fn first(&self) -> Seat {
        0
    }

    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Thinking { .. } => ToAct::Seats(
                (0..self.game.players)
                    .filter(|&s| !self.forfeited[s])
                    .collect(),
            ),
            Phase::Verifying { .. } => {
                let (seat, _) = self.proving().expect("verifying");
                ToAct::Seat(seat, PROVE)
            }
            Phase::Over => ToAct::Over,
        }
    }

    fn view(&self, seat: Seat) -> Value {
        self.state(Some(seat))
    }

    fn public_view(&self) -> Value {
        self.state(None)
    }

    fn legal_moves(&self, _seat: Seat) -> Option<Vec<Value>> {
        None
    }

    fn play(&mut self, _seat: Seat, _action: &Value) -> Result<Applied, Refusal> {
        Err(Refusal::coded(
            "no_turn",
            "Rock'n'Roll Robot has no turns: send \"declare\" or, when asked, \"solution\"",
        ))
    }

    fn act(
        &mut self,
        seat: Seat,
        kind: &str,
        message: &Value,
        at: Stamp,
    ) -> Result<Vec<Applied>, Refusal> {
        if self.forfeited.get(seat) != Some(&false) {
            return Err(Refusal::coded(
                "out_of_round",
                "this seat is out of the round",
            ));
        }
        match kind {
            "declare" => Ok(vec![self.declare(seat, message, at)?]),
            "pass" => Ok(vec![self.pass(seat, at.ms)?]),
            "solution" => {
                if self.proving().map(|(s, _)| s) != Some(seat) {
                    return Err(Refusal::coded(
                        "not_proving",
                        "no demonstration is asked of you now",
                    ));
                }
                let moves = message.get("moves").unwrap_or(&Value::Null);
                Ok(vec![self.demonstration(seat, Some(moves), at.ms)])
            }
            other => Err(Refusal::coded(
                "unknown_type",
                format!(
                    "unknown message type {other:?}: Rock'n'Roll Robot takes \"declare\", \"pass\" \
                 and \"solution\""
                ),
            )),
        }
    }

    fn deadline_ms(&self) -> Option<f64> {
        match &self.phase {
            Phase::Thinking { hourglass: Some(h) } => Some(later(*h, self.game.hourglass_ms)),
            Phase::Thinking { hourglass: None } => Some(self.game.first_declaration_ms as f64),
            Phase::Verifying { since, .. } => Some(later(*since, self.game.prove_ms)),
            Phase::Over => None,
        }
    }

    fn timeout(&mut self, at: f64) -> Vec<Applied> {
        match &self.phase {
            Phase::Thinking { hourglass: None } => {
                // Nobody declared in time: the hourglass is turned anyway.
                self.phase = Phase::Thinking {
                    hourglass: Some(at),
                };
                Vec::new()
            }
            Phase::Thinking { .. } => {
                let queue = self.verification_order();
                self.verify_next(queue, at);
                Vec::new()
            }
            Phase::Verifying { .. } => {
                let (seat, _) = self.proving().expect("verifying");
                vec![self.demonstration(seat, None, at)]
            }
            Phase::Over => Vec::new(),
        }
    }

    fn forfeit(&mut self, seat: Seat, at: f64) -> Vec<Applied> {
        self.forfeited[seat] = true;
        self.end_if_all_passed(at);
        if let Phase::Verifying { queue, .. } = &self.phase {
            let queue: Vec<usize> = queue
                .iter()
                .copied()
                .filter(|&i| self.declarations[i].seat != seat)
                .collect();
            let restart = self.proving().is_some_and(|(s, _)| s == seat);
            if restart {
                self.verify_next(queue, at);
            } else if let Phase::Verifying { queue: q, .. } = &mut self.phase {
                *q = queue;
            }
        }
        Vec::new()
    }

    fn result(&self) -> Option<RoundResult> {
        if self.phase != Phase::Over {
            return None;
        }
        let next = self.next_state();
        let scores = next
            .won
            .iter()
            .enumerate()
            .map(|(s, w)| (s.to_string(), w.len() as u32))
            .collect();
        let points = (0..self.game.players)
            .map(|s| u32::from(self.winner == Some(s)))
            .collect();
        Some(RoundResult::by_points(scores, points))
    }

    fn carry(&self) -> Option<Value> {
        (self.phase == Phase::Over).then(|| json!(self.next_state()))
    }

    fn carried(&self) -> Option<Value> {
        let mut from = self.state.clone();
        from.pile.insert(0, self.token);
        from.robots = self.start;
        Some(json!(from))
    }

    fn ends_match(&self) -> bool {
        if self.phase != Phase::Over {
            return false;
        }
        let next = self.next_state();
        let target = self.game.tokens_to_win();
        let won = target.is_some_and(|t| next.won.iter().any(|w| w.len() >= t));
        // The guard the rules lack: the pile drawn through twice without a token won.
        // (Alone, a missed token is not returned: the pile only shrinks.)
        let stuck = !self.solo() && next.since_win as usize >= 2 * next.pile.len();
        won || next.pile.is_empty() || stuck
    }

    fn render(&self) -> String {
        let robots: Vec<String> = self
            .robots()
            .iter()
            .map(|(r, c)| format!("{r} {c}"))
            .collect();
        format!(
            "{}token {} at {}; robots: {}\n",
            self.board.render(),
            self.token,
            self.board
                .target(self.token)
                .map_or("?".to_string(), |c| c.to_string()),
            robots.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(players: usize) -> RobotsRound {
        let game = Robots::new(players).expect("players");
        let board = game.board(5);
        let state = game.start_state(&board, 5);
        RobotsRound::new(game, board, state, 1)
    }

    fn at(ms: f64) -> Stamp {
        Stamp { ms, cpu_ms: None }
    }

    fn act(r: &mut RobotsRound, seat: Seat, kind: &str, ms: f64) -> Result<Vec<Applied>, Refusal> {
        let message = match kind {
            "declare" => json!({"type": "declare", "moves": 9}),
            _ => json!({"type": kind}),
        };
        r.act(seat, kind, &message, at(ms))
    }

    #[test]
    fn when_every_seat_passed_verification_starts_at_once() {
        let mut r = round(3);
        act(&mut r, 0, "declare", 10.0).unwrap();
        let applied = act(&mut r, 0, "pass", 20.0).unwrap();
        assert_eq!(applied[0].kind, "pass");
        assert_eq!(applied[0].notation, json!({}));
        assert_eq!(applied[0].effects["hourglass_ends_ms"], json!(60_010.0));
        assert!(matches!(r.to_act(), ToAct::Seats(_)), "others still think");
        assert_eq!(r.view(1)["passed"], json!([0]));
        act(&mut r, 1, "pass", 30.0).unwrap();
        let last = act(&mut r, 2, "pass", 40.0).unwrap();
        assert!(
            !last[0].effects.contains_key("hourglass_ends_ms"),
            "the last pass ended the hourglass"
        );
        assert_eq!(r.to_act(), ToAct::Seat(0, PROVE));
        assert_eq!(r.deadline_ms(), Some(40.0 + 60_000.0));
    }

    #[test]
    fn a_pass_closes_the_seats_declarations_and_is_not_repeated() {
        let mut r = round(2);
        act(&mut r, 1, "pass", 5.0).unwrap();
        let e = act(&mut r, 1, "declare", 6.0).unwrap_err();
        assert!(e.reason.contains("you passed"), "{}", e.reason);
        let e = act(&mut r, 1, "pass", 7.0).unwrap_err();
        assert!(e.reason.contains("passed already"), "{}", e.reason);
    }

    #[test]
    fn with_no_declaration_the_token_goes_back_when_all_passed() {
        let mut r = round(2);
        act(&mut r, 0, "pass", 5.0).unwrap();
        act(&mut r, 1, "pass", 6.0).unwrap();
        assert_eq!(r.to_act(), ToAct::Over);
        assert!(r.outcome().unwrap().points.iter().all(|&p| p == 0));
        let e = act(&mut r, 0, "pass", 7.0).unwrap_err();
        assert!(e.reason.contains("closed"), "{}", e.reason);
    }

    #[test]
    fn a_forfeit_of_the_last_seat_thinking_ends_the_hourglass() {
        let mut r = round(3);
        act(&mut r, 0, "declare", 10.0).unwrap();
        act(&mut r, 0, "pass", 11.0).unwrap();
        act(&mut r, 1, "pass", 12.0).unwrap();
        r.forfeit(2, 13.0);
        assert_eq!(r.to_act(), ToAct::Seat(0, PROVE));
    }

    #[test]
    fn nobody_passing_keeps_the_whole_hourglass() {
        let mut r = round(2);
        act(&mut r, 0, "declare", 10.0).unwrap();
        act(&mut r, 0, "pass", 11.0).unwrap();
        assert_eq!(r.deadline_ms(), Some(60_010.0));
        assert!(matches!(r.to_act(), ToAct::Seats(_)));
    }

    #[test]
    fn alone_a_pass_instead_of_a_declaration_ends_the_token_face_down() {
        let mut r = round(1);
        act(&mut r, 0, "pass", 3.0).unwrap();
        assert_eq!(r.to_act(), ToAct::Over);
        let carry: MatchState = serde_json::from_value(r.carry().unwrap()).unwrap();
        assert_eq!(carry.face_down, vec![r.token()]);
    }
}
