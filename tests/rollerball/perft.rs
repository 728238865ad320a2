//! Perft tables for Rollerball: the number of decision sequences of each length from a state,
//! stored in `tests/data/perft/rollerball/*.txt` (a directory
//! of its own: Rolit's perft test reads every `.txt` file of `tests/data/perft/`) and checked here against the engine
//! (`rollarena::game::rollerball::perft`) to every depth and against the naive implementation
//! to the depths it reaches quickly.
//!
//! The tables were written by the naive implementation: `generate_rollerball_perft` (ignored;
//! `cargo test --release --test tests generate_rollerball_perft -- --ignored`) rewrites every
//! file from [`CASES`]. The file format is described at the top of every file ([`HEADER`]).

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::rollerball::{Perft, Rollerball, perft};

use super::naive::Naive;

const HEADER: &str = "\
# Rollerball perft table (rules rollerball-v4-hr2): checked by tests/rollerball/perft.rs,
# written from the naive implementation (tests/rollerball/naive.rs) by its ignored test
# `generate_rollerball_perft`.
#
# Lines starting with '#' are comments. Then header lines `key: value`:
#   name:     the case (the file name without .txt)
#   about:    what the state shows
#   round:    <players> <turn_limit> <chance seed>   the round, dealt by Rollerball::new
#   moves:    the decisions played from the deal to the state, canonical, separated by '|',
#             each by the seat asked (the lowest seat that has not bid, during the bid)
# Then one line per depth, from 1:
#   <depth> <leaves> <events> <over>
# leaves is the perft number: sequences of exactly <depth> decisions, each by the seat asked
# (bids one seat after another in seat order, so every combination of sealed bids counts
# once). events sums the public events announced after the last decision of each sequence;
# over counts the sequences after which the game is over.
";

/// One perft table.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub name: &'static str,
    pub about: &'static str,
    pub players: usize,
    pub turn_limit: u32,
    pub seed: u64,
    /// Random decisions from the deal (chosen by a generator seeded with `prefix_seed`) until
    /// the state reaches turn `until_turn` at an `until_phase` decision; "": the deal itself.
    pub until_turn: u32,
    pub until_phase: &'static str,
    pub prefix_seed: u64,
    /// Depth the table goes to.
    pub depth: u32,
    /// Depth the naive implementation is checked to in the test.
    pub naive_depth: u32,
}

pub const CASES: &[Case] = &[
    Case {
        name: "start-2p",
        about: "the deal, 2 players: both bids, then the bases and the workmen",
        players: 2,
        turn_limit: 360,
        seed: 1,
        until_turn: 0,
        until_phase: "",
        prefix_seed: 0,
        depth: 5,
        naive_depth: 3,
    },
    Case {
        name: "start-4p",
        about: "the deal, 4 players: the four sealed bids, then the first base",
        players: 4,
        turn_limit: 360,
        seed: 2,
        until_turn: 0,
        until_phase: "",
        prefix_seed: 0,
        depth: 5,
        naive_depth: 3,
    },
    Case {
        name: "start-6p",
        about: "the deal, 6 players: the first four of the six sealed bids",
        players: 6,
        turn_limit: 360,
        seed: 3,
        until_turn: 0,
        until_phase: "",
        prefix_seed: 0,
        depth: 4,
        naive_depth: 2,
    },
    Case {
        name: "cards-4p",
        about: "4 players, the setup cards after random bids, bases and workmen",
        players: 4,
        turn_limit: 360,
        seed: 7,
        until_turn: 0,
        until_phase: "card",
        prefix_seed: 70,
        depth: 3,
        naive_depth: 2,
    },
    Case {
        name: "mid-2p",
        about: "2 players, turn 12 after random play: move, use, then the next turn's balls",
        players: 2,
        turn_limit: 360,
        seed: 4,
        until_turn: 12,
        until_phase: "move",
        prefix_seed: 40,
        depth: 3,
        naive_depth: 2,
    },
    Case {
        name: "mid-4p",
        about: "4 players, turn 20 after random play",
        players: 4,
        turn_limit: 360,
        seed: 5,
        until_turn: 20,
        until_phase: "move",
        prefix_seed: 50,
        depth: 3,
        naive_depth: 2,
    },
    Case {
        name: "mid-6p",
        about: "6 players, turn 24 after random play: move, use and the extra move",
        players: 6,
        turn_limit: 360,
        seed: 6,
        until_turn: 24,
        until_phase: "move",
        prefix_seed: 60,
        depth: 3,
        naive_depth: 2,
    },
];

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/perft/rollerball")
        .join(format!("{name}.txt"))
}

/// The seat the perft walk asks: the lowest seat asked.
fn decider(nv: &Naive) -> Option<usize> {
    nv.asked().first().copied()
}

/// The naive implementation's counts.
pub fn naive_perft(nv: &Naive, depth: u32) -> Perft {
    let mut total = Perft::default();
    let Some(seat) = decider(nv) else {
        return total;
    };
    for mv in nv.legal(seat) {
        let mut next = nv.clone();
        next.play(seat, &mv);
        if depth <= 1 {
            total += Perft {
                leaves: 1,
                events: next.events.len() as u64,
                over: next.asked().is_empty() as u64,
            };
        } else {
            total += naive_perft(&next, depth - 1);
        }
    }
    total
}

/// The decisions from the deal to the case's state, chosen at random by the naive code.
fn prefix(case: &Case) -> Vec<String> {
    let mut nv = Naive::new(case.players, case.turn_limit, case.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(case.prefix_seed);
    let mut moves = Vec::new();
    let reached = |nv: &Naive| nv.turn >= case.until_turn && nv.phase == case.until_phase;
    while !case.until_phase.is_empty() && !reached(&nv) {
        let seat = decider(&nv).expect("the game lasts to the case's turn");
        let legal = nv.legal(seat);
        let mv = legal[rng.random_range(0..legal.len())].clone();
        nv.play(seat, &mv);
        moves.push(mv);
    }
    moves
}

/// A parsed table.
struct Table {
    players: usize,
    turn_limit: u32,
    seed: u64,
    moves: Vec<String>,
    rows: Vec<(u32, Perft)>,
}

fn read(name: &str) -> Table {
    let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut t = Table {
        players: 0,
        turn_limit: 0,
        seed: 0,
        moves: Vec::new(),
        rows: Vec::new(),
    };
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if let Some(r) = line.strip_prefix("round: ") {
            let v: Vec<u64> = r.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (t.players, t.turn_limit, t.seed) = (v[0] as usize, v[1] as u32, v[2]);
        } else if let Some(m) = line.strip_prefix("moves:") {
            t.moves = m
                .split('|')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
        } else if line.contains(": ") {
            continue;
        } else {
            let v: Vec<u64> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            t.rows.push((
                v[0] as u32,
                Perft {
                    leaves: v[1],
                    events: v[2],
                    over: v[3],
                },
            ));
        }
    }
    t
}

fn engine_state(t: &Table) -> Rollerball {
    let mut g = Rollerball::new(t.players, t.turn_limit, t.seed).unwrap();
    for mv in &t.moves {
        let seat = g.to_act().expect("not over").seats[0];
        g.apply_text(seat, mv)
            .unwrap_or_else(|e| panic!("prefix move refused: {e}"));
    }
    g
}

fn naive_state(t: &Table) -> Naive {
    let mut nv = Naive::new(t.players, t.turn_limit, t.seed);
    for mv in &t.moves {
        let seat = decider(&nv).unwrap();
        nv.play(seat, mv);
    }
    nv
}

#[test]
fn engine_matches_the_perft_tables() {
    for case in CASES {
        let t = read(case.name);
        assert_eq!(t.rows.len() as u32, case.depth, "{}", case.name);
        let g = engine_state(&t);
        for &(depth, want) in &t.rows {
            assert_eq!(perft(&g, depth), want, "{} depth {depth}", case.name);
        }
    }
}

#[test]
fn naive_matches_the_perft_tables() {
    for case in CASES {
        let t = read(case.name);
        let nv = naive_state(&t);
        for &(depth, want) in t.rows.iter().take(case.naive_depth as usize) {
            assert_eq!(naive_perft(&nv, depth), want, "{} depth {depth}", case.name);
        }
    }
}

/// Rewrites every table from the naive implementation.
#[test]
#[ignore]
fn generate_rollerball_perft() {
    for case in CASES {
        let moves = prefix(case);
        let t = Table {
            players: case.players,
            turn_limit: case.turn_limit,
            seed: case.seed,
            moves: moves.clone(),
            rows: Vec::new(),
        };
        let nv = naive_state(&t);
        let mut text = HEADER.to_string();
        text += &format!("name: {}\nabout: {}\n", case.name, case.about);
        text += &format!(
            "round: {} {} {}\n",
            case.players, case.turn_limit, case.seed
        );
        text += &format!("moves: {}\n", moves.join(" | "));
        for depth in 1..=case.depth {
            let p = naive_perft(&nv, depth);
            text += &format!("{depth} {} {} {}\n", p.leaves, p.events, p.over);
            eprintln!("{} {depth} {p:?}", case.name);
        }
        std::fs::write(path(case.name), text).unwrap();
    }
}
