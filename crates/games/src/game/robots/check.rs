//! Rock'n'Roll Robot's scenarios for `rollarena check --game robots` (the entry's
//! [`GameCheck`]), one per checklist item, each on a fresh bot process. The check sits at a two-seat table with the bot (seat 0)
//! and plays seat 1 itself, on the real rules ([`RobotsRound`]: every line of the bot is judged
//! by the same `act` as in a match, announced with the arbiter's own `declared`, `passed` and
//! `verified`). Its tokens are easy ones (a shortest solution of 3 or 4 moves, found by the
//! library's solver), so any working search finds them at once; the hourglass, the first
//! declaration's wait and the time to prove are all `--time`.
//!
//! | item | script |
//! |---|---|
//! | handshake | `hello` (game robots) → `ready` within the start-up budget, with a name |
//! | declare | `start` → a `declare` in time, of a number the shortest solution allows |
//! | prove | `start`, seat 1 passes → declarations (the latest, lowest one counts) → `prove` → a `solution` the rules accept |
//! | others | seat 1 declares one move fewer than the shortest solution at once, the bot declares, seat 1 passes; seat 1's demonstration fails (`verified` ok false), then the bot proves its own |
//! | pass | seat 1 passes at once; after its declaration the bot must `pass` before the hourglass runs out (which ends it at once) |
//! | quiet | seat 1 declares the shortest solution at once and proves it: the bot is asked nothing; then a second token in the same process (seat 1 passes at once), which the bot declares and proves |
//! | solo | a token played alone (`hello` with one player): the bot declares, its declaration is verified at once, so it answers `prove` with its `solution` and never passes (protocol/games/robots.md, "Playing alone") |
//! | bye | a token (seat 1 passes at once), `end`, `bye` → the process exits with status 0 within the grace |

use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use super::wire;
use super::{Budget, MatchState, PROVE, Robots, RobotsRound, Solution, solve};
use crate::arbiter::matches::BYE_GRACE;
use crate::check::conversation::{self, Seen, Verdict};
use crate::check::talk::{Cause, Problem, Talk};
use crate::check::{CheckConfig, GameCheck, Item, Running, Scenario};
use crate::game::{Applied, Game, Outcome, Round, Seat, Stamp, ToAct};
use crate::seed::{mix, round_seed};
use crate::wire::{End, Hello, Start, ToBot, announcement};

/// The bot's seat; the check plays the other.
const BOT: Seat = 0;
const OTHER: Seat = 1;

/// Rock'n'Roll Robot's checks.
pub struct RobotsCheck;

/// The entry's checks.
pub static CHECK: RobotsCheck = RobotsCheck;

const DECLARE: Item = Item {
    id: "declare",
    title: "a provable declaration after start, in time",
};
const PROVE_ITEM: Item = Item {
    id: "prove",
    title: "prove answered with a solution the rules accept",
};
const OTHERS: Item = Item {
    id: "others",
    title: "other seats' declarations and failed demonstrations",
};
const PASS: Item = Item {
    id: "pass",
    title: "pass after declaring, before the hourglass runs out",
};
const QUIET: Item = Item {
    id: "quiet",
    title: "a token where nothing is asked of it, then another",
};
const SOLO: Item = Item {
    id: "solo",
    title: "a token played alone: declare, prove at once, never pass",
};

/// The scenarios, in the order they run.
const SCENARIOS: &[Scenario] = &[
    Scenario {
        item: Item::HANDSHAKE,
        requires: &[],
        script: "hello (game robots), then ready within the start-up budget, with a name",
    },
    Scenario {
        item: DECLARE,
        requires: &[Item::HANDSHAKE],
        script: "start, then a declaration in time that the shortest solution allows",
    },
    Scenario {
        item: PROVE_ITEM,
        requires: &[Item::HANDSHAKE, DECLARE],
        script: "start, declarations, prove for the latest, then a solution the rules accept",
    },
    Scenario {
        item: OTHERS,
        requires: &[Item::HANDSHAKE, DECLARE],
        script: "another seat declares lower and fails its demonstration; the bot proves its own",
    },
    Scenario {
        item: PASS,
        requires: &[Item::HANDSHAKE, DECLARE],
        script: "the other seat passes at once; the bot declares, then passes before the hourglass",
    },
    Scenario {
        item: QUIET,
        requires: &[Item::HANDSHAKE, DECLARE],
        script: "a token the other seat wins with nothing asked of the bot, then another token",
    },
    Scenario {
        item: SOLO,
        requires: &[Item::HANDSHAKE, DECLARE],
        script: "one player: the bot declares, is asked to prove at once, and proves without a pass",
    },
    Scenario {
        item: Item::BYE,
        requires: &[Item::HANDSHAKE, DECLARE],
        script: "a token, end, bye, then an exit with status 0 within the grace",
    },
];

impl GameCheck for RobotsCheck {
    fn scenarios(&self) -> &'static [Scenario] {
        SCENARIOS
    }

    /// Two seats, whatever was asked: the check plays the other one.
    fn prepare(&self, config: &mut CheckConfig) -> Result<(), rollarena_run::Error> {
        if config.players.iter().any(|&p| p != 2) {
            return Err(rollarena_run::Error::Settings(
                "the robots check sits at a table of two (the check plays the other \
                        seat): leave --players out"
                    .into(),
            ));
        }
        config.players = vec![2];
        (super::entry::ENTRY.build)(&config.options_with(2))
            .map(|_| ())
            .map_err(rollarena_run::Error::settings)
    }

    fn run<'a>(&'a self, item: Item, config: &'a CheckConfig, seen: &'a mut Seen) -> Running<'a> {
        Box::pin(async move {
            match item.id {
                "handshake" => conversation::handshake(config, hello(config, 1), false, seen).await,
                "declare" => declare(config, seen).await,
                "prove" => prove(config, seen).await,
                "others" => others(config, seen).await,
                "pass" => pass(config, seen).await,
                "quiet" => quiet(config, seen).await,
                "solo" => solo(config, seen).await,
                "bye" => bye(config, seen).await,
                other => unreachable!("{other} is not one of this game's scenarios"),
            }
        })
    }

    fn options(&self, config: &CheckConfig) -> Value {
        options(config)
    }

    fn setup(&self, config: &CheckConfig) -> String {
        format!(
            "robots, two seats (and one alone for solo), {} ms for the hourglass and to prove",
            config.time.per_move.as_millis()
        )
    }
}

/// The options the check plays with: the contest's rules (diagonals, the black robot, the
/// tie-break) at a table of two, every deadline `--time`.
pub fn game(config: &CheckConfig) -> Robots {
    game_for(config, 2)
}

/// The check's rules for `players` seats (2, or 1 for the solo scenario).
fn game_for(config: &CheckConfig, players: usize) -> Robots {
    let mut g = (super::entry::ENTRY.build)(&config.options_with(players))
        .ok()
        .and_then(|built| Robots::from_options(&built.options()).ok())
        .unwrap_or_else(|| Robots::new(players).expect("one or two players"));
    let ms = config.time.per_move.as_millis() as u64;
    g.hourglass_ms = ms;
    g.first_declaration_ms = ms;
    g.prove_ms = ms;
    g
}

/// The options shown in the report.
pub fn options(config: &CheckConfig) -> Value {
    json!({
        "game": "robots",
        "rules": game(config).options(),
        "startup_ms": config.time.startup.as_millis() as u64,
        "seed": config.seed,
    })
}

fn hello(config: &CheckConfig, rounds: u32) -> Hello {
    hello_for(config, rounds, 2)
}

fn hello_for(config: &CheckConfig, rounds: u32, players: usize) -> Hello {
    let options = game_for(config, players).options();
    conversation::hello(config, "robots", options, BOT, players, rounds)
}

/// The shortest solution of a round's token from where the robots stand, if the solver finds
/// it within a small budget.
fn shortest(round: &RobotsRound) -> Option<Vec<crate::game::robots::Move>> {
    match solve(
        round.board(),
        round.robots(),
        round.token(),
        Budget::nodes(2_000_000),
    ) {
        Solution::Optimal(path) => Some(path),
        _ => None,
    }
}

/// A match state whose next token is an easy one (a shortest solution of 3 or 4 moves) from
/// where the robots stand: the pile is reordered to draw it first.
fn easy(g: &Robots, match_seed: u64, state: MatchState, round_no: u32) -> RobotsRound {
    let board = g.board(match_seed);
    let seed = round_seed(match_seed, 0, round_no);
    for i in 0..state.pile.len() {
        let mut s = state.clone();
        let token = s.pile.remove(i);
        s.pile.insert(0, token);
        let round = RobotsRound::new(g.clone(), board.clone(), s, seed);
        if shortest(&round).is_some_and(|p| (3..=4).contains(&p.len())) {
            return round;
        }
    }
    // No easy token here: the first one, whatever it takes (the caller tries other seeds).
    RobotsRound::new(g.clone(), board, state, seed)
}

/// The first round of a match for the scenario `tag`, with an easy token (the match seed is
/// searched for one whose robots allow it).
fn first_round(config: &CheckConfig, tag: u64) -> (u64, RobotsRound) {
    first_round_for(config, tag, 2)
}

/// [`first_round`] at a table of `players`.
fn first_round_for(config: &CheckConfig, tag: u64, players: usize) -> (u64, RobotsRound) {
    let g = game_for(config, players);
    for attempt in 0..64u64 {
        let match_seed = mix(config.seed ^ mix(tag) ^ mix(attempt << 32));
        let board = g.board(match_seed);
        let state = g.start_state(&board, match_seed);
        let round = easy(&g, match_seed, state, 1);
        if shortest(&round).is_some_and(|p| (3..=4).contains(&p.len())) {
            return (match_seed, round);
        }
    }
    let match_seed = mix(config.seed ^ mix(tag));
    let board = g.board(match_seed);
    let state = g.start_state(&board, match_seed);
    (match_seed, easy(&g, match_seed, state, 1))
}

/// One token at the check's table.
struct Table {
    round: RobotsRound,
    round_no: u32,
    t0: Instant,
    /// The length of the shortest solution.
    optimum: usize,
    /// The bot's declarations this token, in order.
    declared: Vec<u64>,
    /// When the bot passed (round time), if it did.
    passed: Option<f64>,
    time: Duration,
    /// Played alone (one player): a declaration is verified at once.
    solo: bool,
}

impl Table {
    fn new(round: RobotsRound, round_no: u32, time: Duration) -> Table {
        let optimum = shortest(&round).map_or(usize::MAX, |p| p.len());
        Table {
            round,
            round_no,
            t0: Instant::now(),
            optimum,
            declared: Vec::new(),
            passed: None,
            time,
            solo: false,
        }
    }

    fn ms(&self) -> f64 {
        crate::record::round_ms(self.t0.elapsed().as_secs_f64() * 1000.0)
    }

    fn deadline(&self) -> Option<Instant> {
        self.round
            .deadline_ms()
            .map(|d| self.t0 + Duration::from_secs_f64(d / 1000.0))
    }

    fn what(&self) -> String {
        let shortest = match self.optimum {
            usize::MAX => "not known".to_string(),
            n => format!("{n} moves"),
        };
        format!(
            "{} at {} (shortest solution: {shortest})",
            self.round.token(),
            self.round
                .board()
                .target(self.round.token())
                .map_or("?".into(), |c| c.to_string()),
        )
    }

    /// Sends `start`; round time runs from here.
    fn start(&mut self, talk: &mut Talk, seed: u64) {
        talk.send(&ToBot::Start(Start {
            round: self.round_no,
            colour: None,
            colours: None,
            first: 0,
            seed: seed & ((1 << 53) - 1),
            state: self.round.view(BOT),
        }));
        self.t0 = Instant::now();
    }

    fn announce(&mut self, talk: &mut Talk, applied: Vec<Applied>, by_arbiter: bool, at: f64) {
        for a in applied {
            let kind = match a.kind {
                "declare" => "declared",
                "pass" => "passed",
                "solution" => "verified",
                _ => "announcement",
            };
            talk.send_line(kind, announcement(&a, by_arbiter, Some(at)));
        }
    }

    /// The check's own seat acts.
    fn other(&mut self, talk: &mut Talk, kind: &str, message: Value) {
        let at = self.ms();
        let stamp = Stamp {
            ms: at,
            cpu_ms: None,
        };
        let applied = self
            .round
            .act(OTHER, kind, &message, stamp)
            .expect("the check's own seat acts by the rules");
        self.announce(talk, applied, false, at);
    }

    /// A message of the bot, judged by the rules: a refusal is the scenario's failure.
    fn bot(&mut self, talk: &mut Talk, kind: &str, message: &Value) -> Result<(), Problem> {
        let at = self.ms();
        let stamp = Stamp {
            ms: at,
            cpu_ms: None,
        };
        match self.round.act(BOT, kind, message, stamp) {
            Ok(applied) => {
                match kind {
                    "declare" => {
                        let n = message["moves"].as_u64().unwrap_or(0);
                        self.declared.push(n);
                        // (usize::MAX: the solver gave up, nothing to compare with.)
                        if (n as usize) < self.optimum && self.optimum != usize::MAX {
                            return Err(talk.problem(
                                Cause::Illegal,
                                format!(
                                    "declared {n} moves for {}: no solution is that short, it \
                                     cannot be proved",
                                    self.what()
                                ),
                                HINT_TOO_LOW.into(),
                            ));
                        }
                    }
                    "pass" => self.passed = Some(at),
                    _ => {}
                }
                self.announce(talk, applied, false, at);
                Ok(())
            }
            Err(refusal) => Err(talk.problem(
                Cause::Illegal,
                format!("the rules refuse its {kind}: {}", refusal.reason),
                match kind {
                    "declare" | "pass" => HINT_DECLARE,
                    "solution" => HINT_UNASKED_SOLUTION,
                    _ => HINT_MESSAGES,
                }
                .into(),
            )),
        }
    }

    /// Listens to the bot while declarations are open, until the rules close them (every
    /// seat passed, or the hourglass ran out). `stop` says when the scenario has seen enough
    /// (it is asked after each of the bot's messages).
    async fn thinking(
        &mut self,
        talk: &mut Talk,
        stop: impl Fn(&Table) -> bool,
    ) -> Result<(), Problem> {
        while matches!(self.round.to_act(), ToAct::Seats(_)) {
            let Some(deadline) = self.deadline() else {
                break;
            };
            match talk.listen(deadline, HINT_MESSAGES).await? {
                Some((kind, message)) => {
                    self.bot(talk, &kind, &message)?;
                    if stop(self) {
                        return Ok(());
                    }
                }
                None => {
                    let d = self.round.deadline_ms().expect("a deadline while thinking");
                    let applied = self.round.timeout(d);
                    self.announce(talk, applied, true, d);
                }
            }
        }
        Ok(())
    }

    /// Verification: the check's seat fails its demonstrations (or, with `win`, shows the
    /// shortest solution); with `strict`, the bot must show in time a solution the rules
    /// accept (otherwise a failed or missing demonstration is only announced, as in a match,
    /// so that scenarios about something else do not fail for it). Returns how many moves the
    /// bot showed, if it was asked.
    async fn verifying(
        &mut self,
        talk: &mut Talk,
        win: bool,
        strict: bool,
    ) -> Result<Option<usize>, Problem> {
        let mut shown = None;
        while let ToAct::Seat(seat, PROVE) = self.round.to_act() {
            if seat == OTHER {
                let moves = if win {
                    serde_json::to_value(shortest(&self.round).unwrap_or_default())
                        .expect("moves serialise")
                } else {
                    json!([{"robot": "red", "dir": "up"}])
                };
                self.other(talk, "solution", json!({ "moves": moves }));
                continue;
            }
            let turn_id = talk.next_turn_id();
            let at = self.ms();
            let d = self.round.deadline_ms().expect("a deadline while proving");
            let prove = wire::ToBot::Prove(wire::Prove {
                turn_id,
                state: self.round.view(BOT),
                time_ms: (d - at).max(0.0) as u64,
            });
            let mut line = serde_json::to_vec(&prove).expect("messages serialise");
            line.push(b'\n');
            talk.send_line("prove", line);
            let asked = self.declared.last().copied().unwrap_or(0);
            let deadline = self.deadline().expect("a deadline while proving");
            let Some((kind, message)) = talk.listen(deadline, HINT_MESSAGES).await? else {
                if !strict {
                    let applied = self.round.timeout(d);
                    self.announce(talk, applied, true, d);
                    continue;
                }
                return Err(talk
                    .silent_about("solution", self.time, true)
                    .await
                    .context(&format!(
                        "Asked to prove its declaration of {asked} moves for {}.",
                        self.what()
                    )));
            };
            if kind == "solution"
                && message
                    .get("turn_id")
                    .and_then(Value::as_u64)
                    .is_some_and(|t| t != turn_id)
            {
                return Err(talk.problem(
                    Cause::WrongTurnId,
                    format!(
                        "the solution names turn_id {}, but the prove asked was {turn_id}",
                        message["turn_id"]
                    ),
                    crate::check::hints::wrong_turn_id(
                        message["turn_id"].as_u64().unwrap_or(0),
                        turn_id,
                    ),
                ));
            }
            let at = self.ms();
            let applied = self
                .round
                .act(
                    BOT,
                    &kind,
                    &message,
                    Stamp {
                        ms: at,
                        cpu_ms: None,
                    },
                )
                .map_err(|r| {
                    if kind == "pass" && self.solo {
                        return talk.problem(
                            Cause::Illegal,
                            format!(
                                "playing alone, it passed after declaring {asked} moves for {}: \
                                 the rules refuse it ({})",
                                self.what(),
                                r.reason
                            ),
                            HINT_SOLO.into(),
                        );
                    }
                    talk.problem(
                        Cause::Illegal,
                        format!(
                            "asked to prove, it sent {kind}, which the rules refuse: {}",
                            r.reason
                        ),
                        HINT_PROVE.into(),
                    )
                })?;
            let failed = applied
                .iter()
                .find(|a| a.kind == "solution" && a.effects.get("ok") == Some(&json!(false)))
                .map(|a| a.effects["reason"].as_str().unwrap_or("").to_string());
            self.announce(talk, applied, false, at);
            if let Some(reason) = failed.filter(|_| strict) {
                return Err(talk.problem(
                    Cause::Illegal,
                    format!(
                        "its demonstration of its declaration of {asked} moves for {} failed: \
                         {reason}",
                        self.what()
                    ),
                    HINT_PROVE.into(),
                ));
            }
            shown = message["moves"].as_array().map(Vec::len);
        }
        Ok(shown)
    }

    /// Sends `end` with the round's outcome.
    fn end(&mut self, talk: &mut Talk) {
        let raw = self.round.outcome().expect("the round is over");
        let outcome = Outcome::new(raw.scores, &raw.points, &[false, false]);
        let winners = (0..2).filter(|&s| outcome.points[s] > 0).collect();
        talk.send(&ToBot::End(End {
            round: self.round_no,
            scores: outcome.scores.clone(),
            points: outcome.points.clone(),
            ranks: outcome.ranks.clone(),
            winners,
            forfeits: vec![],
        }));
    }

    /// The bot's declarations, in words.
    fn declarations(&self) -> String {
        let list: Vec<String> = self.declared.iter().map(u64::to_string).collect();
        match list.len() {
            0 => "no declaration".into(),
            1 => format!("declared {}", list[0]),
            _ => format!("declared {} (lowering)", list.join(", then ")),
        }
    }
}

const HINT_TOO_LOW: &str = "Declare only the length of a solution you have found: the rules \
    verify it, and a declaration you cannot prove is a failed demonstration. A solution needs \
    at least two moves of the robot that ends on the target (protocol/games/robots.md, \
    \"A solution\"); count every move, whichever robot makes it.";
const HINT_DECLARE: &str = "While the round is thinking, send {\"type\":\"declare\",\"moves\":N} \
    (N from 2 to 100, each declaration lower than your last) and, once you will not declare \
    again, {\"type\":\"pass\"}; after a pass, send no more declarations for this token \
    (protocol/SPEC.md section 13).";
const HINT_MESSAGES: &str = "Rock'n'Roll Robot has no turns: send \
    {\"type\":\"declare\",\"moves\":5} when you have a solution, {\"type\":\"pass\"} when you \
    will not declare again, and {\"type\":\"solution\",\"moves\":[...],\"turn_id\":N} when \
    asked to prove (protocol/SPEC.md section 13).";
const HINT_UNASKED_SOLUTION: &str = "Send a solution only to answer prove, and only once.";
const HINT_PROVE: &str = "Answer prove with {\"type\":\"solution\",\"moves\":[{\"robot\":\"red\",\
    \"dir\":\"up\"},...],\"turn_id\":N}: the moves from the positions of the token's start, at \
    most as many as your latest declaration (state.proving.moves), ending with a robot the \
    token accepts on the target after it moved at least twice. Check your slide function \
    against protocol/games/robots.md: walls on both sides of a cell, robots as obstacles, the \
    central block, diagonal walls (robots of another colour, and the black robot, turn).";
const HINT_NO_DECLARE: &str = "Declare as soon as your search finds a solution: \
    {\"type\":\"declare\",\"moves\":N}. These tokens have a solution of 3 or 4 moves; a \
    breadth-first search over the robots' positions finds it in milliseconds.";
const HINT_SOLO: &str = "Playing alone (hello.players is 1), your first declaration is verified \
    at once: the next message is prove, so answer it with your solution and send no pass (nor a \
    lower declaration) after declaring; both are refused (protocol/games/robots.md, \
    \"Playing alone\").";
const HINT_PASS: &str = "Once you will not declare again for this token, send \
    {\"type\":\"pass\"}: when every seat has passed, the hourglass ends at once and the \
    demonstrations start. A bot that never passes still plays, but every token then lasts the \
    whole hourglass (protocol/SPEC.md section 13).";

/// Starts a conversation; the start-up problems of a later scenario are its own. Idle bots
/// are never frozen: every seat thinks at once.
async fn open(config: &CheckConfig, rounds: u32, seen: &mut Seen) -> Result<Talk, Problem> {
    conversation::open(config, hello(config, rounds), false, seen).await
}

use conversation::close;

/// Runs `body` on a fresh conversation and closes it whatever happens.
macro_rules! with_talk {
    ($config:expr, $rounds:expr, $seen:expr, |$talk:ident| $body:expr) => {{
        let mut $talk = open($config, $rounds, $seen).await?;
        let verdict: Verdict = async { $body }.await;
        close($talk, $seen).await;
        verdict
    }};
}

/// Waits for the bot's first declaration; a pass before it, or nothing, is the problem.
async fn first_declaration(table: &mut Table, talk: &mut Talk) -> Result<f64, Problem> {
    table
        .thinking(talk, |t| !t.declared.is_empty() || t.passed.is_some())
        .await?;
    if table.passed.is_some() && table.declared.is_empty() {
        return Err(talk.problem(
            Cause::NoAnswer,
            format!("passed without declaring, on {}", table.what()),
            HINT_NO_DECLARE.into(),
        ));
    }
    if table.declared.is_empty() {
        let ms = table.time.as_millis();
        return Err(talk
            .silent_about("declare", table.time, false)
            .await
            .context(&format!(
                "No declaration within {ms} ms of start, on {}.",
                table.what()
            )));
    }
    Ok(table.ms())
}

async fn declare(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round(config, 11);
    with_talk!(config, 1, seen, |talk| {
        let mut table = Table::new(round, 1, config.time.per_move);
        table.start(&mut talk, seed);
        let at = first_declaration(&mut table, &mut talk).await?;
        Ok(format!(
            "{} moves after {at:.0} ms on {} (limit {} ms)",
            table.declared[0],
            table.what(),
            config.time.per_move.as_millis()
        ))
    })
}

async fn prove(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round(config, 12);
    with_talk!(config, 1, seen, |talk| {
        let mut table = Table::new(round, 1, config.time.per_move);
        table.start(&mut talk, seed);
        table.other(&mut talk, "pass", json!({"type": "pass"}));
        first_declaration(&mut table, &mut talk).await?;
        table.thinking(&mut talk, |_| false).await?;
        let shown = table.verifying(&mut talk, false, true).await?;
        table.end(&mut talk);
        talk.settle().await?;
        Ok(format!(
            "{}; proved it with {} moves on {}",
            table.declarations(),
            shown.unwrap_or(0),
            table.what()
        ))
    })
}

async fn others(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round(config, 13);
    with_talk!(config, 1, seen, |talk| {
        let mut table = Table::new(round, 1, config.time.per_move);
        table.start(&mut talk, seed);
        let low = table.optimum.saturating_sub(1).max(2);
        table.other(
            &mut talk,
            "declare",
            json!({"type": "declare", "moves": low}),
        );
        first_declaration(&mut table, &mut talk).await?;
        table.other(&mut talk, "pass", json!({"type": "pass"}));
        table.thinking(&mut talk, |_| false).await?;
        let shown = table.verifying(&mut talk, false, true).await?;
        if shown.is_none() {
            return Err(talk.problem(
                Cause::NoAnswer,
                "the bot was never asked to prove".into(),
                HINT_DECLARE.into(),
            ));
        }
        table.end(&mut talk);
        talk.settle().await?;
        Ok(format!(
            "seat 1 declared {low} and failed; the bot {} and proved it with {} moves",
            table.declarations(),
            shown.unwrap_or(0)
        ))
    })
}

/// Before: `check` sat only at a table of two, so a bot that passes after declaring when it
/// plays alone (refused, every token) passed every item.
async fn solo(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round_for(config, 17, 1);
    let mut talk = conversation::open(config, hello_for(config, 1, 1), false, seen).await?;
    let verdict: Verdict = async {
        let mut table = Table::new(round, 1, config.time.per_move);
        table.solo = true;
        table.start(&mut talk, seed);
        first_declaration(&mut table, &mut talk).await?;
        let shown = table.verifying(&mut talk, false, true).await?;
        if shown.is_none() {
            return Err(talk.problem(
                Cause::NoAnswer,
                "playing alone, its declaration was never verified".into(),
                HINT_SOLO.into(),
            ));
        }
        talk.settle().await?;
        Ok(format!(
            "alone: {}, asked to prove at once, proved it with {} moves on {}",
            table.declarations(),
            shown.unwrap_or(0),
            table.what()
        ))
    }
    .await;
    close(talk, seen).await;
    verdict
}

async fn pass(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round(config, 14);
    with_talk!(config, 1, seen, |talk| {
        let mut table = Table::new(round, 1, config.time.per_move);
        table.start(&mut talk, seed);
        table.other(&mut talk, "pass", json!({"type": "pass"}));
        let declared_at = first_declaration(&mut table, &mut talk).await?;
        table.thinking(&mut talk, |t| t.passed.is_some()).await?;
        let Some(passed_at) = table.passed else {
            return Err(talk.problem(
                Cause::NoAnswer,
                format!(
                    "no pass after its declaration, before the hourglass ran out ({} ms)",
                    config.time.per_move.as_millis()
                ),
                HINT_PASS.into(),
            ));
        };
        if !matches!(table.round.to_act(), ToAct::Seat(BOT, PROVE)) {
            return Err(talk.problem(
                Cause::NoAnswer,
                "every seat passed, yet the bot is not asked to prove".into(),
                HINT_PASS.into(),
            ));
        }
        table.verifying(&mut talk, false, false).await?;
        table.end(&mut talk);
        talk.settle().await?;
        Ok(format!(
            "{}, passed {:.0} ms later: the hourglass ended at once",
            table.declarations(),
            passed_at - declared_at
        ))
    })
}

async fn quiet(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round(config, 15);
    with_talk!(config, 2, seen, |talk| {
        let mut table = Table::new(round, 1, config.time.per_move);
        table.start(&mut talk, seed);
        let optimum = table.optimum;
        table.other(
            &mut talk,
            "declare",
            json!({"type": "declare", "moves": optimum}),
        );
        table.other(&mut talk, "pass", json!({"type": "pass"}));
        table.thinking(&mut talk, |_| false).await?;
        if table.verifying(&mut talk, true, true).await?.is_some() {
            return Err(talk.problem(
                Cause::Illegal,
                "the bot was asked to prove though seat 1 declared first".into(),
                HINT_TOO_LOW.into(),
            ));
        }
        table.end(&mut talk);
        talk.settle().await?;
        let first = table.declarations();
        let carry: MatchState =
            serde_json::from_value(table.round.carry().expect("over")).expect("a match state");
        let g = game(config);
        let next = easy(&g, seed, carry, 2);
        let mut table = Table::new(next, 2, config.time.per_move);
        table.start(&mut talk, seed ^ 2);
        table.other(&mut talk, "pass", json!({"type": "pass"}));
        first_declaration(&mut table, &mut talk)
            .await
            .map_err(|p| p.context("This was the second token, after one seat 1 won."))?;
        table.thinking(&mut talk, |_| false).await?;
        let shown = table.verifying(&mut talk, false, true).await?;
        table.end(&mut talk);
        talk.settle().await?;
        Ok(format!(
            "token 1 went to seat 1 (the bot {first}, and was asked nothing); token 2: {}, \
             proved with {} moves",
            table.declarations(),
            shown.unwrap_or(0)
        ))
    })
}

async fn bye(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let (seed, round) = first_round(config, 16);
    let mut talk = open(config, 1, seen).await?;
    let mut table = Table::new(round, 1, config.time.per_move);
    table.start(&mut talk, seed);
    table.other(&mut talk, "pass", json!({"type": "pass"}));
    let played: Result<(), Problem> = async {
        first_declaration(&mut table, &mut talk).await?;
        table.thinking(&mut talk, |_| false).await?;
        table.verifying(&mut talk, false, false).await?;
        table.end(&mut talk);
        Ok(())
    }
    .await;
    if let Err(p) = played {
        close(talk, seen).await;
        return Err(p);
    }
    seen.received += talk.received;
    seen.junk.merge(std::mem::take(&mut talk.junk));
    let (exit, ms) = talk.bye(BYE_GRACE).await?;
    Ok(format!("{exit} {ms:.0} ms after bye"))
}
