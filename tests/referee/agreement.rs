//! The verifier and the live arbiter cannot disagree, as a property over every game: random
//! stamped input sequences (legal and illegal moves, echoed and stale `turn_id`s, garbage,
//! logs, lines sent while nothing was asked, crashes, closed stdouts, over-long lines, floods,
//! timeouts and the rules' own deadlines, at random times, over several rounds) go through the
//! referee as the live arbiter feeds it (`arbiter::driver`: lines of the seats it listens to as
//! they come, the others' at the next drain, a tick at each deadline), and the record it writes
//! must verify. In every other case seat 0 plays on a time control of its own (a bank with an
//! increment and a first-move allowance), so flag falls and banks are re-judged too. Then one
//! random edit of that record (a move, a refused attempt's reason, a
//! time, a score, a state field, a forfeit, a duplicated line) must be refused, unless it
//! leaves the record as it was; a dropped round leaves its match unfinished in the report.
//!
//! CI runs a fixed seed and a few cases per game; the long run is the same test with more:
//! `ROLLARENA_PROP_CASES=2000 ROLLARENA_PROP_SEED=<any> cargo test --release --test tests
//! referee::agreement` (`bench/agreement` runs it and prints the time taken).

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use rollarena::clock::Tc;
use rollarena::game::registry::find;
use rollarena::game::robots::Robots;
use rollarena::game::{Game, Outcome, RoundSetup};
use rollarena::record::fault::ForfeitKind;
use rollarena::record::{FORMAT_VERSION, RoundRecord, SeatRecord, Settings as RecordSettings};
use rollarena::referee::{Failure, Input, Output, Referee, Settings};
use rollarena::seed::{chance_seed, round_seed, start_seed};
use rollarena::verify::verify;
use serde_json::{Value, json};

/// One thing a bot does, `dt` ms after the previous input.
#[derive(Clone, Debug)]
struct Act {
    kind: u8,
    seat: u8,
    pick: u16,
    dt: u16,
}

fn acts() -> impl Strategy<Value = Vec<Act>> {
    prop::collection::vec(
        (0u8..40, 0u8..8, any::<u16>(), 0u16..1400).prop_map(|(kind, seat, pick, dt)| Act {
            kind,
            seat,
            pick,
            dt,
        }),
        0..160,
    )
}

const MOVE_MS: u64 = 1000;
const MARGIN_MS: u64 = 100;
const RETRIES: u32 = 2;

/// The games under test, each at a small table.
fn games() -> Vec<(&'static str, Arc<dyn Game>)> {
    let build = |name: &str, players: u64| {
        let mut options = serde_json::Map::new();
        options.insert("players".into(), json!(players));
        (find(name).unwrap().build)(&options).unwrap()
    };
    let mut robots = Robots::new(2).unwrap();
    robots.hourglass_ms = 800;
    robots.first_declaration_ms = 1500;
    robots.prove_ms = 600;
    robots.solver_nodes = 20_000;
    vec![
        (
            "rolit",
            Arc::new(rollarena::game::rolit::Rolit::new(4, 2).unwrap()) as Arc<dyn Game>,
        ),
        (
            "rolit-6x6-3",
            Arc::new(rollarena::game::rolit::Rolit::new(6, 3).unwrap()),
        ),
        ("goofspiel", build("goofspiel", 2)),
        ("goofspiel-3", build("goofspiel", 3)),
        ("rollerball", build("rollerball", 2)),
        ("rollerball-3", build("rollerball", 3)),
        ("robots", Arc::new(robots)),
    ]
}

/// What the bots of one match do, fed through the referee as the live driver does.
struct Live<'g> {
    game: &'g dyn Game,
    seats: usize,
    /// The last request (`turn_id`) each seat was sent.
    asked: Vec<u64>,
    /// Lines a seat sent while it was not listened to, read at its next drain.
    pending: Vec<Vec<Vec<u8>>>,
    /// Each seat's time control.
    tcs: Vec<Tc>,
}

impl Live<'_> {
    fn pump(&mut self, referee: &mut Referee, at: f64) {
        loop {
            let outs: Vec<Output> = referee.take_outputs().collect();
            if outs.is_empty() {
                return;
            }
            for o in outs {
                match o {
                    Output::Send { seat, line, .. } => {
                        let v: Value = serde_json::from_slice(&line).unwrap();
                        if v["type"] != "illegal"
                            && let Some(t) = v["turn_id"].as_u64()
                        {
                            self.asked[seat] = t;
                        }
                    }
                    Output::Drain(seat) => {
                        for line in std::mem::take(&mut self.pending[seat]) {
                            referee.input(
                                at,
                                Input::Line {
                                    seat,
                                    line: &line,
                                    cpu_ms: Some(1.0),
                                },
                            );
                        }
                        referee.input(at, Input::Drained(seat));
                    }
                    Output::Kill(seat) => self.pending[seat].clear(),
                    _ => {}
                }
            }
        }
    }

    /// The line an act sends, for a seat whose open request is `turn_id`.
    fn line(&self, referee: &Referee, act: &Act, seat: usize) -> Vec<u8> {
        let t = self.asked[seat];
        let legal = referee.round().legal_moves(seat).unwrap_or_default();
        let pick = act.pick as usize;
        let robots = self.game.name() == "robots";
        let v = match act.kind % 12 {
            0..=3 if robots => json!({"type": "declare", "moves": 2 + pick % 25}),
            0..=3 if !legal.is_empty() => {
                let mut m = json!({"type": "move", "move": legal[pick % legal.len()]});
                if act.kind.is_multiple_of(2) {
                    m["turn_id"] = json!(t);
                }
                m
            }
            4 if robots => json!({"type": "pass"}),
            0..=4 => json!({"type": "move", "move": "zz9"}),
            5 => json!({"type": "move", "move": "zz9", "turn_id": t}),
            6 if !legal.is_empty() => {
                json!({"type": "move", "move": legal[pick % legal.len()], "turn_id": t.saturating_sub(1 + (pick % 3) as u64)})
            }
            7 => return b"not json {".to_vec(),
            8 => json!({"type": "log", "text": format!("thinking {pick}")}),
            9 if robots => json!({"type": "solution", "moves": []}),
            9 => json!({"type": "declare", "moves": pick % 9}),
            10 => json!({"type": "ready", "name": "again"}),
            _ => json!({"hello": pick}),
        };
        serde_json::to_vec(&v).unwrap()
    }

    /// Plays one round; returns its record.
    fn round(
        &mut self,
        acts: &[Act],
        round_no: u32,
        rounds: u32,
        carry: &mut Option<Value>,
        turn_id: &mut u64,
    ) -> RoundRecord {
        let game = self.game;
        let (match_seed, r) = (17u64, round_no - 1);
        let seed = round_seed(match_seed, 0, r);
        let setup = RoundSetup {
            round: r,
            match_seed,
            round_seed: seed,
            chance_seed: chance_seed(match_seed, 0, r),
        };
        let round = match carry.as_ref() {
            Some(c) => game.next_round(setup, c).unwrap(),
            None => game.new_round(setup),
        };
        let carried = carry.take().or_else(|| round.carried());
        let settings = Settings {
            move_ms: MOVE_MS as f64,
            margin_ms: MARGIN_MS as f64,
            retries: RETRIES,
            freeze: true,
            hide_legal: false,
            max_unasked: 4,
            max_log_bytes: 200,
            timed: game.simultaneous(),
        };
        let from = *turn_id;
        let mut referee =
            Referee::new(round, self.seats, settings, round_no, seed, from).with_clocks(&self.tcs);
        self.pending = vec![Vec::new(); self.seats];
        // A seat may fail to start (act kind 39 on the round's first act).
        if let Some(a) = acts.first()
            && a.kind == 39
        {
            let seat = a.seat as usize % self.seats;
            let failure = Failure::new(ForfeitKind::Startup, "no ready in time");
            referee.input(0.0, Input::Failed { seat, failure });
        }
        self.pump(&mut referee, 0.0);
        referee.start(start_seed(match_seed, 0, r));
        referee.input(0.0, Input::Tick);
        self.pump(&mut referee, 0.0);
        let mut now = 0.0f64;
        let mut acts = acts.iter();
        let mut guard = 0;
        while !referee.is_over() {
            guard += 1;
            assert!(guard < 20_000, "the round never ends");
            let deadline = referee.deadline();
            let Some(act) = acts.next() else {
                // The bots fall silent: every clock runs out, the rules' deadlines pass.
                let d = deadline.expect("a silent round has a deadline");
                now = now.max(d);
                referee.input(now, Input::Tick);
                self.pump(&mut referee, now);
                continue;
            };
            let at = now + f64::from(act.dt) + f64::from(act.pick % 1000) / 1000.0;
            if let Some(d) = deadline
                && at >= d
            {
                now = now.max(d);
                referee.input(now, Input::Tick);
                self.pump(&mut referee, now);
                continue;
            }
            now = at;
            let seat = act.seat as usize % self.seats;
            if referee.forfeited()[seat] {
                continue;
            }
            let failure = match act.kind {
                36 => Some(Failure::new(
                    ForfeitKind::Crash,
                    "the bot exited with status 3",
                )),
                37 => Some(Failure::new(
                    ForfeitKind::ClosedStdout,
                    "the bot closed its stdout but kept running",
                )),
                38 => Some(Failure::new(ForfeitKind::LineTooLong, "a line of 2 MiB")),
                _ => None,
            };
            if let Some(failure) = failure {
                referee.input(now, Input::Failed { seat, failure });
            } else {
                let line = self.line(&referee, act, seat);
                if referee.listening().contains(&seat) {
                    referee.input(
                        now,
                        Input::Line {
                            seat,
                            line: &line,
                            cpu_ms: Some(1.0 + f64::from(act.pick % 7)),
                        },
                    );
                } else {
                    self.pending[seat].push(line);
                }
            }
            self.pump(&mut referee, now);
        }
        *turn_id = referee.turn_id();
        let outcome: Outcome = referee.outcome().unwrap().clone();
        let (round, play) = referee.finish();
        *carry = round.carry();
        RoundRecord {
            format: FORMAT_VERSION,
            arbiter: "test".into(),
            game: game.name().into(),
            rules: game.rules_version(),
            options: game.options(),
            match_id: "agreement".into(),
            table: None,
            round: round_no,
            rounds,
            match_seed,
            seed,
            deal: None,
            settings: RecordSettings {
                move_ms: MOVE_MS,
                startup_ms: 1000,
                margin_ms: MARGIN_MS,
                retries: RETRIES,
                freeze: !game.simultaneous(),
                legal: true,
                clocks: self
                    .tcs
                    .iter()
                    .any(|t| !t.is_plain())
                    .then(|| self.tcs.clone()),
            },
            seats: (0..self.seats)
                .map(|s| SeatRecord {
                    name: format!("bot{s}"),
                    command: format!("bot{s}"),
                    bot_name: None,
                    bot_version: None,
                    bot_author: None,
                    files: Default::default(),
                })
                .collect(),
            colours: round.colours(),
            first: round.first(),
            turn_id_from: Some(from),
            carry: carried,
            ends_match: round.ends_match(),
            moves: play.moves,
            forfeits: play.forfeits,
            faults: play.faults,
            logs: play.logs,
            stderr: play.stderr,
            result: outcome,
            board: round.public_view(),
            started: "2026-11-26T00:00:00Z".into(),
            ended: "2026-11-26T00:00:01Z".into(),
        }
    }
}

/// A match of `rounds` rounds, each round played from its own slice of the acts.
fn play_match(game: &dyn Game, acts: &[Act], rounds: u32) -> Vec<RoundRecord> {
    let mut live = Live {
        game,
        seats: game.seats(),
        asked: vec![0; game.seats()],
        pending: Vec::new(),
        tcs: vec![Tc::per_move(MOVE_MS); game.seats()],
    };
    if acts.len() % 2 == 1 {
        live.tcs[0] = Tc {
            move_ms: MOVE_MS,
            bank_ms: Some(1500),
            increment_ms: 150,
            first_move_ms: 300,
        };
    }
    let (mut carry, mut turn_id) = (None, 0);
    let per = acts.len().div_ceil(rounds as usize).max(1);
    let mut out = Vec::new();
    for r in 1..=rounds {
        let from = ((r as usize - 1) * per).min(acts.len());
        let to = (from + per).min(acts.len());
        let record = live.round(&acts[from..to], r, rounds, &mut carry, &mut turn_id);
        let over = record.ends_match;
        out.push(record);
        if over {
            break;
        }
    }
    out
}

/// One edit of a record; `None` when the record has nothing of that kind.
fn edit(
    records: &mut Vec<RoundRecord>,
    sequential: bool,
    kind: u8,
    pick: usize,
) -> Option<&'static str> {
    let n = records.len();
    let r = &mut records[pick % n];
    let bots: Vec<usize> = (0..r.moves.len())
        .filter(|&i| !r.moves[i].by_arbiter)
        .collect();
    match kind % 10 {
        0 => {
            let i = *bots.get(pick % bots.len().max(1))?;
            r.moves[i].mv = json!("zz9");
            Some("a move")
        }
        1 => {
            let attempts: Vec<(usize, usize)> = r
                .moves
                .iter()
                .enumerate()
                .flat_map(|(i, m)| (0..m.refused.len()).map(move |k| (i, k)))
                .filter(|&(i, k)| !r.moves[i].refused[k].line.contains("bytes in all)"))
                .collect();
            let (i, k) = *attempts.get(pick % attempts.len().max(1))?;
            // The code is what is verified; the reason is words, free to be reworded.
            r.moves[i].refused[k].code = Some("edited".into());
            Some("a refused attempt's code")
        }
        2 if sequential => {
            let i = *bots.get(pick % bots.len().max(1))?;
            r.moves[i].ms += (MOVE_MS + MARGIN_MS) as f64 + 1.0;
            Some("a move's time past its clock")
        }
        2 => {
            let i = *bots.get(pick % bots.len().max(1))?;
            *r.moves[i].at_ms.as_mut()? += 1e6;
            Some("an action's round time past the rules' deadline")
        }
        3 => {
            let seat = pick % r.result.points.len();
            r.result.points[seat] += 1;
            Some("a score")
        }
        4 => {
            let board = r.board.as_object_mut()?;
            let key = board.keys().nth(pick % board.len().max(1))?.clone();
            board.insert(key, json!("edited"));
            Some("a state field")
        }
        // What the process layer saw (a crash, a closed stdout, a start-up failure, and in
        // simultaneous play every forfeit) is evidence fed as recorded; what the rules decide
        // (retries used up, a clock run out) is checked.
        5 if sequential => {
            let live: Vec<usize> = (0..r.forfeits.len())
                .filter(|&k| r.forfeits[k].ply > 0)
                .collect();
            let f = &mut r.forfeits[*live.get(pick % live.len().max(1))?];
            f.kind = if f.kind == ForfeitKind::Retries {
                ForfeitKind::Timeout
            } else {
                ForfeitKind::Retries
            };
            Some("a forfeit's kind")
        }
        5 => None,
        6 => {
            let i = pick % r.moves.len().max(1);
            let m = r.moves.get(i)?.clone();
            r.moves.insert(i, m);
            Some("a duplicated move")
        }
        7 => {
            let i = pick % r.moves.len().max(1);
            r.moves.get(i)?;
            r.moves.remove(i);
            Some("a dropped move")
        }
        9 => {
            let banked: Vec<usize> = (0..r.moves.len())
                .filter(|&i| r.moves[i].bank_ms.is_some())
                .collect();
            let i = *banked.get(pick % banked.len().max(1))?;
            *r.moves[i].bank_ms.as_mut()? += 0.001;
            Some("a move's bank")
        }
        _ => {
            let line = records[pick % n].clone();
            records.push(line);
            Some("a duplicated line")
        }
    }
}

fn runner() -> TestRunner {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    TestRunner::new(Config {
        cases: env("ROLLARENA_PROP_CASES").unwrap_or(12) as u32,
        rng_seed: RngSeed::Fixed(env("ROLLARENA_PROP_SEED").unwrap_or(26)),
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn every_record_the_referee_writes_verifies_and_every_edit_is_refused() {
    let started = std::time::Instant::now();
    let mut cases = 0u64;
    for (name, game) in games() {
        let mut runner = runner();
        let strategy = (acts(), 1u32..4, any::<u8>(), any::<u16>());
        let result = runner.run(&strategy, |(acts, rounds, kind, pick)| {
            let records = play_match(&*game, &acts, rounds);
            if let Err(d) = verify(&records) {
                let lines: Vec<String> = records
                    .iter()
                    .map(|r| serde_json::to_string(r).unwrap())
                    .collect();
                return Err(TestCaseError::fail(format!(
                    "{name}: a genuine record is refused: {d}\n{}",
                    lines.join("\n")
                )));
            }
            let mut edited = records.clone();
            let Some(what) = edit(&mut edited, !game.simultaneous(), kind, pick as usize) else {
                return Ok(());
            };
            if edited == records {
                return Ok(()); // an edit that changes nothing
            }
            match verify(&edited) {
                Err(_) => Ok(()),
                Ok(_) => Err(TestCaseError::fail(format!(
                    "{name}: an edit of {what} is accepted"
                ))),
            }
        });
        if let Err(e) = result {
            panic!("{e}");
        }
        cases += u64::from(runner.config().cases);
        // A dropped round leaves its match unfinished.
        let records = play_match(&*game, &[], 2);
        if records.len() == 2 && !records[0].ends_match {
            let report = verify(&records[1..]).unwrap();
            assert!(report.matches.iter().all(|m| !m.whole()), "{name}");
        }
    }
    eprintln!(
        "agreement: {cases} cases over {} games in {:.1} s",
        games().len(),
        started.elapsed().as_secs_f64()
    );
}
