//! Perft tables: the number of move sequences of each length from a position, with statistics
//! about the last moves, stored in `tests/data/perft/*.txt` and checked here against the fast
//! engine (`rollarena::game::rolit::perft` and a statistics walk over its public `Position`), the
//! naive implementation (to the depths it can reach in the time budget), and the `perft`
//! command of the built binary.
//!
//! The tables were written by the naive implementation: `generate_perft_tables` (ignored; run
//! it with `cargo test --release --test tests generate_perft_tables -- --ignored`) rewrites
//! every file from [`CASES`]; `git diff tests/data` then shows what changed.
//!
//! The file format is described at the top of every file (see [`HEADER`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rollarena::game::rolit::bitboard::Squares;
use rollarena::game::rolit::{Colour, Position, Square, State, perft};

use super::naive::{self, Naive, Stats};

/// The comment at the top of every table file.
const HEADER: &str = "\
# Rolit perft table: checked by tests/rolit/perft.rs, written from the naive implementation
# (tests/rolit/naive.rs) by its ignored test `generate_perft_tables`.
#
# Lines starting with '#' are comments. Then header lines `key: value`:
#   name:     the case (the file name without .txt)
#   about:    what the position shows
#   start:    <size> <players> <first colour>    the start position, or
#   position: <JSON state on one line>           a position, as `rollarena perft --position` reads it
# Then one line per depth, from 1:
#   <depth> <leaves> <fallbacks> <corners> <edges> <flipped>
# leaves is the perft number: move sequences of exactly <depth> moves. The other columns count
# the last moves of those sequences: played where no capture was possible (the fallback),
# onto a corner, onto the outer ring of the board (corners included), and the balls they
# turned (summed).
";

/// How a case's position is given.
#[derive(Clone, Copy, Debug)]
pub enum Setup {
    Start {
        size: usize,
        players: usize,
        first: &'static str,
    },
    Rows {
        rows: &'static [&'static str],
        colours: &'static [&'static str],
        to_move: &'static str,
    },
}

/// One perft table.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub name: &'static str,
    pub about: &'static str,
    pub setup: Setup,
    pub depth: u32,
}

const RYGB: &[&str] = &["red", "yellow", "green", "blue"];
const RYG: &[&str] = &["red", "yellow", "green"];
const RG: &[&str] = &["red", "green"];

const fn start(
    name: &'static str,
    size: usize,
    players: usize,
    depth: u32,
    about: &'static str,
) -> Case {
    Case {
        name,
        about,
        setup: Setup::Start {
            size,
            players,
            first: "red",
        },
        depth,
    }
}

const fn rows(
    name: &'static str,
    rows: &'static [&'static str],
    colours: &'static [&'static str],
    to_move: &'static str,
    depth: u32,
    about: &'static str,
) -> Case {
    Case {
        name,
        about,
        setup: Setup::Rows {
            rows,
            colours,
            to_move,
        },
        depth,
    }
}

/// Every table. The mid-game positions come from seeded random games of the naive
/// implementation (so they are reachable), except the three marked "built by hand".
pub const CASES: &[Case] = &[
    start(
        "start-8x8-2p",
        8,
        2,
        9,
        "the start position, 8x8, red and green, red first",
    ),
    start(
        "start-8x8-3p",
        8,
        3,
        9,
        "the start position, 8x8, 3 players, red first",
    ),
    start(
        "start-8x8-4p",
        8,
        4,
        9,
        "the start position, 8x8, 4 players, red first",
    ),
    start(
        "start-6x6-2p",
        6,
        2,
        8,
        "the start position, 6x6, red and green, red first",
    ),
    start(
        "start-6x6-3p",
        6,
        3,
        8,
        "the start position, 6x6, 3 players, red first",
    ),
    start(
        "start-6x6-4p",
        6,
        4,
        8,
        "the start position, 6x6, 4 players, red first",
    ),
    start(
        "start-4x4-2p",
        4,
        2,
        13,
        "the start position, 4x4, red first, to the end of the game (12 moves; 13 gives 0)",
    ),
    rows(
        "mid-8x8-2p-green-vanished",
        &[
            "........", "........", "........", "...RRRR.", "...RR...", "..RRRR..", ".RR.....",
            ".R......",
        ],
        RG,
        "green",
        6,
        "green has no ball left (yellow and blue were captured too): green may play next to any \
         ball",
    ),
    rows(
        "mid-8x8-4p-corners",
        &[
            ".YBBBB..", ".YYBGGGG", ".RRYGG..", "..RYYRGG", "..RGYYG.", ".BRGYYY.", "B.RGG.Y.",
            ".YRGR...",
        ],
        RYGB,
        "blue",
        6,
        "4 players at move 40: blue's captures include the a8 corner and squares on three edges",
    ),
    rows(
        "mid-8x8-3p-fallback",
        &[
            "........", ".R.G....", "..R.....", ".G.RYYYY", "...RY...", "...YR...", "..Y.R...",
            "........",
        ],
        RYG,
        "green",
        6,
        "green has balls but no capture: 34 squares touching a ball are legal, edges included",
    ),
    rows(
        "end-8x8-2p",
        &[
            "..RRRRR.", "G.RRRRRR", "GGGGRGGG", "GRRGGGG.", "GGGRGGGG", "R.GRGRRR", ".RRRRRR.",
            "RRRRGG..",
        ],
        RG,
        "green",
        11,
        "the last 10 moves of an 8x8 game, three corners empty, to the end (11 gives 0)",
    ),
    rows(
        "mid-8x8-3p-blue",
        &[
            "Y.G.R.G.", "YGGGRRR.", "Y.Y.G.R.", "YGYGGG..", "Y.GBY.G.", "YG..GY..", "G...G...",
            "....G...",
        ],
        RYG,
        "yellow",
        7,
        "3 players: the blue ball on d4 belongs to nobody and can be captured",
    ),
    rows(
        "late-8x8-4p",
        &[
            "B...B..G", ".BR.BYGY", ".YYYYYYY", ".RRRGRYY", "GRRGGBGY", "GRGBRGGY", "GGGGGGGY",
            ".RGGBB.Y",
        ],
        RYGB,
        "green",
        9,
        "the last 11 moves of a 4-player game, with the a1 corner still empty",
    ),
    rows(
        "mid-8x8-4p-fallback",
        &[
            "...GGGB.", "..GBGG..", "Y.BBBGRR", ".Y.BBRRR", "YYYBRRRR", "...RBRRR", "..RRBB.R",
            "..RRBBBR",
        ],
        RYGB,
        "yellow",
        7,
        "yellow has balls but no capture at move 42: any square touching a ball, the h8 corner \
         included",
    ),
    rows(
        "wraps-8x8-2p",
        &[
            "........", "........", "R.......", "R.......", "R......G", "........", "........",
            "........",
        ],
        RG,
        "red",
        6,
        "built by hand: no capture for red, but a board that wrapped from the h file to the a \
         file would give red captures on g3, g4 and g5, and green ones on b3, b5 and b7",
    ),
    rows(
        "runs-8x8-4p",
        &[
            ".......R", "......G.", ".....Y..", "....B...", "...G....", "..Y.....", ".B......",
            ".GYBYGBR",
        ],
        RYGB,
        "red",
        6,
        "built by hand: red's only move a1 turns two runs of six balls of mixed colours, along \
         rank 1 and the long diagonal",
    ),
    rows(
        "mid-6x6-2p",
        &["......", ".RRR.R", "..RRR.", "..GRG.", "..G.GG", ".G..G."],
        RG,
        "green",
        7,
        "a 6x6 game at move 12",
    ),
    rows(
        "mid-6x6-3p-corners",
        &[".YYY..", "GGYR.G", ".GRRR.", "YGGG.R", ".YY...", "YYY..."],
        RYG,
        "red",
        9,
        "3 players on 6x6, red captures into the a6 corner",
    ),
    rows(
        "mid-6x6-3p-fallback",
        &["......", ".RG...", ".BR...", "......", "......", ".....Y"],
        RYG,
        "yellow",
        8,
        "built by hand: yellow's only ball is alone in the f1 corner, so yellow cannot capture \
         and may play next to any ball; the blue ball belongs to nobody",
    ),
    rows(
        "end-6x6-2p-fallback",
        &[".RRRR.", "RRRRRR", "GRRGRR", "GRRRGR", "GGGGGR", "RRRRRR"],
        RG,
        "red",
        3,
        "the last two moves of a 6x6 game: nothing to capture, both corners legal",
    ),
    rows(
        "end-6x6-4p-fallback",
        &["YYYYYY", "YYBRRY", "YYYYYY", "BRBRRY", "RRRRRY", ".GBG.."],
        RYGB,
        "green",
        4,
        "the last three moves of a 4-player 6x6 game, green cannot capture",
    ),
    rows(
        "mid-4x4-2p",
        &["....", ".RY.", ".BR.", "..GR"],
        RG,
        "red",
        11,
        "a 4x4 game after 2 moves, to the end (11 gives 0)",
    ),
];

/// The naive position of a case.
fn naive_of(setup: &Setup) -> Naive {
    match *setup {
        Setup::Start {
            size,
            players,
            first,
        } => Naive::start(size, players, naive::colour_number(first)),
        Setup::Rows {
            rows,
            colours,
            to_move,
        } => Naive::from_rows(rows, colours, to_move),
    }
}

/// The `start:` or `position:` header line of a case.
fn setup_line(setup: &Setup) -> String {
    match *setup {
        Setup::Start {
            size,
            players,
            first,
        } => format!("start: {size} {players} {first}"),
        Setup::Rows { .. } => format!(
            "position: {}",
            serde_json::to_string(&naive_of(setup).state_json()).unwrap()
        ),
    }
}

/// One table file, parsed.
#[derive(Debug)]
struct Table {
    file: PathBuf,
    headers: BTreeMap<String, String>,
    /// `rows[d - 1]` is depth d.
    rows: Vec<Stats>,
}

impl Table {
    /// The engine's position, read the way users give it: `--size/--players/--first` or the
    /// JSON state.
    fn position(&self) -> Position {
        if let Some(s) = self.headers.get("start") {
            let w: Vec<&str> = s.split_whitespace().collect();
            Position::start(
                w[0].parse().unwrap(),
                w[1].parse().unwrap(),
                Colour::from_name(w[2]).unwrap(),
            )
            .unwrap()
        } else {
            let state: State = serde_json::from_str(&self.headers["position"]).unwrap();
            state.to_position(0).unwrap()
        }
    }

    /// The naive position, built independently of the engine.
    fn naive(&self) -> Naive {
        if let Some(s) = self.headers.get("start") {
            let w: Vec<&str> = s.split_whitespace().collect();
            Naive::start(
                w[0].parse().unwrap(),
                w[1].parse().unwrap(),
                naive::colour_number(w[2]),
            )
        } else {
            let v: serde_json::Value = serde_json::from_str(&self.headers["position"]).unwrap();
            let rows: Vec<&str> = v["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            let colours: Vec<&str> = v["colours"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            Naive::from_rows(&rows, &colours, v["to_move"].as_str().unwrap())
        }
    }
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft")
}

fn parse_table(file: &Path) -> Table {
    let text = std::fs::read_to_string(file).unwrap();
    let mut headers = BTreeMap::new();
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let where_ = format!("{}:{}", file.display(), i + 1);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some((k, v)) = line.split_once(": ") {
            assert!(rows.is_empty(), "{where_}: header after the depth lines");
            headers.insert(k.to_string(), v.to_string());
            continue;
        }
        let n: Vec<u64> = line
            .split_whitespace()
            .map(|w| w.parse().unwrap_or_else(|_| panic!("{where_}: {line:?}")))
            .collect();
        assert_eq!(n.len(), 6, "{where_}: six numbers");
        assert_eq!(
            n[0],
            rows.len() as u64 + 1,
            "{where_}: depths go 1, 2, 3, ..."
        );
        rows.push(Stats {
            leaves: n[1],
            fallbacks: n[2],
            corners: n[3],
            edges: n[4],
            flipped: n[5],
        });
    }
    assert!(!rows.is_empty(), "{}: no depth lines", file.display());
    Table {
        file: file.to_path_buf(),
        headers,
        rows,
    }
}

fn tables() -> Vec<Table> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files.iter().map(|f| parse_table(f)).collect()
}

/// The table text of a case, computed with the naive implementation.
fn render_case(case: &Case) -> String {
    let nv = naive_of(&case.setup);
    let mut out = String::from(HEADER);
    out.push_str(&format!("name: {}\n", case.name));
    out.push_str(&format!("about: {}\n", case.about));
    out.push_str(&format!("{}\n", setup_line(&case.setup)));
    for d in 1..=case.depth {
        let s = nv.perft_stats(d);
        out.push_str(&format!(
            "{d} {} {} {} {} {}\n",
            s.leaves, s.fallbacks, s.corners, s.edges, s.flipped
        ));
    }
    out
}

/// Writes every table from the naive implementation. Slow (a minute or two in release);
/// `ROLIT_PERFT_ONLY=name,name` limits it to some tables.
#[test]
#[ignore = "rewrites tests/data/perft from the naive implementation; run it on purpose"]
fn generate_perft_tables() {
    std::fs::create_dir_all(data_dir()).unwrap();
    // ROLIT_PERFT_ONLY=name,name rewrites only those tables.
    let only = std::env::var("ROLIT_PERFT_ONLY").ok();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(case) = CASES.get(i) else { break };
                    if only
                        .as_ref()
                        .is_some_and(|o| !o.split(',').any(|n| n == case.name))
                    {
                        continue;
                    }
                    let started = std::time::Instant::now();
                    let text = render_case(case);
                    std::fs::write(data_dir().join(format!("{}.txt", case.name)), text).unwrap();
                    eprintln!("{}: {:.1} s", case.name, started.elapsed().as_secs_f64());
                }
            });
        }
    });
}

/// The files are exactly the cases above, with the same positions and depths.
#[test]
fn tables_are_the_cases() {
    let tables = tables();
    let names: Vec<&str> = tables.iter().map(|t| t.headers["name"].as_str()).collect();
    let mut expected: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    expected.sort();
    assert_eq!(names, expected, "run generate_perft_tables");
    for t in &tables {
        let case = CASES.iter().find(|c| c.name == t.headers["name"]).unwrap();
        let (key, value) = setup_line(&case.setup)
            .split_once(": ")
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .unwrap();
        assert_eq!(t.headers.get(&key), Some(&value), "{}", t.file.display());
        assert_eq!(t.rows.len() as u32, case.depth, "{}", t.file.display());
        assert_eq!(t.headers["about"], case.about);
    }
}

/// The outer ring and the corners of an `n`x`n` board, as bitboards on the engine's grid.
fn ring_and_corners(n: u8) -> (u64, u64) {
    let (mut ring, mut corners) = (0, 0);
    for f in 0..n {
        for r in 0..n {
            let edge = |v: u8| v == 0 || v == n - 1;
            let bit = Square::new(f, r).bit();
            if edge(f) || edge(r) {
                ring |= bit;
            }
            if edge(f) && edge(r) {
                corners |= bit;
            }
        }
    }
    (ring, corners)
}

/// Perft statistics with the fast engine's public API.
fn fast_stats(pos: &Position, depth: u32, masks: (u64, u64), s: &mut Stats) {
    if depth == 0 {
        s.leaves += 1;
        return;
    }
    let legal = pos.legal_moves();
    if depth == 1 {
        let n = legal.count_ones() as u64;
        s.leaves += n;
        if pos.capture_moves() == 0 {
            s.fallbacks += n;
        }
        s.edges += (legal & masks.0).count_ones() as u64;
        s.corners += (legal & masks.1).count_ones() as u64;
        for sq in Squares(legal) {
            let mut next = *pos;
            s.flipped += next.play_unchecked(Square(sq)).count_ones() as u64;
        }
        return;
    }
    for sq in Squares(legal) {
        let mut next = *pos;
        next.play_unchecked(Square(sq));
        fast_stats(&next, depth - 1, masks, s);
    }
}

/// Depths whose statistics the fast walk checks (it cannot count in bulk like `perft`).
const FAST_STATS_MAX_LEAVES: u64 = 1_000_000;
/// Depths the naive implementation checks in the normal run (it is slow on purpose).
const NAIVE_MAX_LEAVES: u64 = 40_000;

#[test]
fn fast_perft_matches_tables() {
    for t in tables() {
        let pos = t.position();
        let masks = ring_and_corners(pos.size());
        for (i, want) in t.rows.iter().enumerate() {
            let depth = i as u32 + 1;
            let what = format!("{} depth {depth}", t.file.display());
            assert_eq!(perft(&pos, depth), want.leaves, "perft, {what}");
            if want.leaves <= FAST_STATS_MAX_LEAVES {
                let mut got = Stats::default();
                fast_stats(&pos, depth, masks, &mut got);
                assert_eq!(got, *want, "statistics, {what}");
            }
        }
    }
}

#[test]
fn naive_matches_tables_at_low_depths() {
    let mut checked = 0;
    for t in tables() {
        let nv = t.naive();
        for (i, want) in t.rows.iter().enumerate() {
            if want.leaves > NAIVE_MAX_LEAVES {
                break;
            }
            let depth = i as u32 + 1;
            assert_eq!(
                nv.perft_stats(depth),
                *want,
                "{} depth {depth}",
                t.file.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 80, "only {checked} depths checked");
}

/// Every variant and every first colour, naive against fast, at a low depth (the tables are
/// for red first).
#[test]
fn every_first_colour_agrees_at_low_depth() {
    for (size, players) in super::agree::VARIANTS {
        for first in naive::colours_for(players) {
            let nv = Naive::start(size, players, first);
            let pos =
                Position::start(size as u8, players, super::agree::engine_colour(first)).unwrap();
            let depth = match size {
                4 => 13,
                6 => 5,
                _ => 4,
            };
            let naive_counts = nv.perft_counts(depth);
            for d in 1..=depth {
                assert_eq!(
                    perft(&pos, d),
                    naive_counts[d as usize],
                    "{size}x{size}, {players} players, {} first, depth {d}",
                    naive::NAMES[first as usize]
                );
            }
        }
    }
}

/// The tables are evidence about what the rules single out: together, the mid-game positions
/// reach the corners, the edges and the no-capture fallback, at the root and deeper; every
/// game of the end positions is played to a full board (one depth more gives 0).
#[test]
fn tables_reach_corners_edges_and_the_fallback() {
    let tables = tables();
    let positions: Vec<&Table> = tables
        .iter()
        .filter(|t| t.headers.contains_key("position"))
        .collect();
    assert!(positions.len() >= 10);
    let root_fallbacks = positions
        .iter()
        .filter(|t| t.rows[0].fallbacks == t.rows[0].leaves)
        .count();
    let root_corners = positions.iter().filter(|t| t.rows[0].corners > 0).count();
    assert!(
        root_fallbacks >= 4,
        "{root_fallbacks} positions start with the fallback"
    );
    assert!(
        root_corners >= 3,
        "{root_corners} positions start with a corner move"
    );
    for t in &positions {
        let reached = |f: fn(&Stats) -> u64| t.rows.iter().map(f).sum::<u64>() > 0;
        assert!(
            reached(|s| s.edges) && reached(|s| s.corners) && reached(|s| s.flipped),
            "{} does not reach the edges and corners",
            t.file.display()
        );
    }
    let ended = tables
        .iter()
        .filter(|t| t.rows.last().unwrap().leaves == 0)
        .count();
    assert!(ended >= 5);
    // The deepest fallbacks: somewhere past the root, the search meets positions where the
    // mover cannot capture although the root could.
    assert!(
        positions
            .iter()
            .any(|t| t.rows[0].fallbacks == 0 && t.rows.iter().any(|r| r.fallbacks > 0))
    );
}

/// Runs the built binary and returns its `<depth> <leaves>` lines.
fn cli_perft(args: &[&str]) -> Vec<(u32, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_rollarena"))
        .arg("perft")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w[..] {
                [d, n] => Some((d.parse().ok()?, n.parse().ok()?)),
                _ => None,
            }
        })
        .collect()
}

#[test]
fn cli_perft_matches_tables() {
    let table = |name: &str| {
        tables()
            .into_iter()
            .find(|t| t.headers["name"] == name)
            .unwrap()
    };
    let expect = |t: &Table, depth: usize| -> Vec<(u32, u64)> {
        t.rows[..depth]
            .iter()
            .enumerate()
            .map(|(i, s)| (i as u32 + 1, s.leaves))
            .collect()
    };
    let t = table("mid-8x8-3p-fallback");
    let state = &t.headers["position"];
    assert_eq!(
        cli_perft(&["--position", state, "--depth", "5"]),
        expect(&t, 5)
    );
    let t = table("start-6x6-3p");
    assert_eq!(
        cli_perft(&[
            "--size",
            "6",
            "--players",
            "3",
            "--first",
            "red",
            "--depth",
            "6"
        ]),
        expect(&t, 6)
    );
}
