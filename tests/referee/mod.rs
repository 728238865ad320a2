//! The rules of play as data: scripted bot lines with round times go into the referee, in
//! process, and the record and the messages it produces are checked. No process, no Python,
//! no timing lock: what only processes show (pipes, signals, the sandbox) is tested in
//! `tests/arbiter` and `tests/hostile`.

mod agreement;
mod clock;
mod goofspiel;
mod rollerball;
mod sequential;
mod simultaneous;

use rollarena::clock::Tc;
use rollarena::game::{Game, RoundSetup, Seat};
use rollarena::record::fault::ForfeitKind;
use rollarena::referee::{Failure, Input, Output, Referee, Settings};
use serde_json::Value;

/// Settings with a 1 s clock and a 100 ms margin, 2 retries, freezing on.
pub fn settings() -> Settings {
    Settings {
        move_ms: 1000.0,
        margin_ms: 100.0,
        retries: 2,
        freeze: true,
        hide_legal: false,
        max_unasked: 1000,
        max_log_bytes: 64 * 1024,
        timed: false,
    }
}

/// A referee over a fresh round of `game`, started: every live seat got `start`.
pub struct Table {
    pub referee: Referee,
    /// Every message each seat received, in order.
    pub received: Vec<Vec<Value>>,
    /// Every output that was not a line, in order (freeze, thaw, kill, drain).
    pub controls: Vec<Output>,
    /// Lines a seat had sent unasked, fed when the referee drains it.
    pub pending: Vec<Vec<Vec<u8>>>,
    seats: usize,
}

impl Table {
    pub fn new(game: &dyn Game, settings: Settings, seed: u64) -> Table {
        Table::with_failures(game, settings, seed, &[])
    }

    /// A table where `failures` happened at start-up (before `start`).
    pub fn with_failures(
        game: &dyn Game,
        settings: Settings,
        seed: u64,
        failures: &[(Seat, Failure)],
    ) -> Table {
        let tcs = vec![Tc::per_move(settings.move_ms as u64); game.seats()];
        Table::build(game, settings, seed, failures, &tcs)
    }

    /// A table whose seats play on the time controls `tcs` (in seat order).
    pub fn with_clocks(game: &dyn Game, settings: Settings, seed: u64, tcs: &[Tc]) -> Table {
        Table::build(game, settings, seed, &[], tcs)
    }

    fn build(
        game: &dyn Game,
        settings: Settings,
        seed: u64,
        failures: &[(Seat, Failure)],
        tcs: &[Tc],
    ) -> Table {
        let seats = game.seats();
        let round = game.new_round(RoundSetup {
            round: 0,
            match_seed: seed,
            round_seed: seed,
            chance_seed: seed,
        });
        let referee = Referee::new(round, seats, settings, 1, seed, 0).with_clocks(tcs);
        let mut t = Table {
            referee,
            received: vec![Vec::new(); seats],
            controls: Vec::new(),
            pending: vec![Vec::new(); seats],
            seats,
        };
        for (seat, failure) in failures {
            t.referee.input(
                0.0,
                Input::Failed {
                    seat: *seat,
                    failure: failure.clone(),
                },
            );
            t.pump(0.0);
        }
        t.referee.start(7);
        t.referee.input(0.0, Input::Tick);
        t.pump(0.0);
        t
    }

    /// Carries out the referee's outputs: lines are kept per seat, drains feed the pending
    /// unasked lines.
    fn pump(&mut self, at: f64) {
        loop {
            let outs: Vec<Output> = self.referee.take_outputs().collect();
            if outs.is_empty() {
                return;
            }
            for o in outs {
                match o {
                    Output::Send { seat, line, .. } => {
                        let v: Value = serde_json::from_slice(&line).expect("JSON line");
                        assert!(line.ends_with(b"\n"), "one line");
                        self.received[seat].push(v);
                    }
                    Output::Drain(seat) => {
                        self.controls.push(Output::Drain(seat));
                        for line in std::mem::take(&mut self.pending[seat]) {
                            self.referee.input(
                                at,
                                Input::Line {
                                    seat,
                                    line: &line,
                                    cpu_ms: None,
                                },
                            );
                        }
                        self.referee.input(at, Input::Drained(seat));
                    }
                    other => self.controls.push(other),
                }
            }
        }
    }

    /// The seat's bot sends `line` at round time `at`.
    pub fn says(&mut self, at: f64, seat: Seat, line: &str) -> &mut Table {
        self.referee.input(
            at,
            Input::Line {
                seat,
                line: line.as_bytes(),
                cpu_ms: Some(1.5),
            },
        );
        self.pump(at);
        self
    }

    /// The seat's bot fails at `at`.
    pub fn fails(&mut self, at: f64, seat: Seat, kind: ForfeitKind) -> &mut Table {
        let failure = Failure::new(kind, format!("scripted {kind}"));
        self.referee.input(at, Input::Failed { seat, failure });
        self.pump(at);
        self
    }

    /// Time reaches `at` with nothing from any bot.
    pub fn tick(&mut self, at: f64) -> &mut Table {
        self.referee.input(at, Input::Tick);
        self.pump(at);
        self
    }

    /// The seat sent `line` while nothing was asked of it (fed when it is next drained).
    pub fn queue(&mut self, seat: Seat, line: &str) -> &mut Table {
        self.pending[seat].push(line.as_bytes().to_vec());
        self
    }

    /// The last message the seat received.
    pub fn last(&self, seat: Seat) -> &Value {
        self.received[seat].last().expect("a message")
    }

    /// The open request of a seat: its last `turn` (or other request) not yet answered.
    pub fn request(&self, seat: Seat) -> &Value {
        self.received[seat]
            .iter()
            .rev()
            .find(|m| m.get("turn_id").is_some() && m["type"] != "illegal")
            .expect("a request")
    }

    /// The first legal move of the seat's open request.
    pub fn first_legal(&self, seat: Seat) -> String {
        self.request(seat)["legal"][0]
            .as_str()
            .expect("a square")
            .to_string()
    }

    /// The seat the referee waits on now (exactly one).
    pub fn asked(&self) -> Seat {
        let l = self.referee.listening();
        assert_eq!(l.len(), 1, "one seat asked, not {l:?}");
        l[0]
    }

    /// Plays the first legal move for whoever is asked, at `at`, until the round is over.
    pub fn play_out(&mut self, mut at: f64) -> &mut Table {
        while !self.referee.is_over() {
            let seat = self.asked();
            let mv = self.first_legal(seat);
            at += 1.0;
            self.says(at, seat, &format!(r#"{{"type":"move","move":"{mv}"}}"#));
        }
        self
    }

    pub fn seats(&self) -> usize {
        self.seats
    }
}

/// Two-player Rolit on 4x4 (12 moves a round).
pub fn rolit_4x4() -> rollarena::game::rolit::Rolit {
    rollarena::game::rolit::Rolit::new(4, 2).expect("a variant")
}

/// A move line.
pub fn mv(square: &str) -> String {
    format!(r#"{{"type":"move","move":"{square}"}}"#)
}
