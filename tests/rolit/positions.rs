//! Hand-built positions for the situations the rule documents describe, with the exact balls
//! turned, the exact legal moves and the refusal reasons a bot gets. Each position is played in
//! the fast engine (read from the JSON state a bot receives) and in the naive implementation.
//!
//! Boards are rows of letters from the highest rank down, as in the JSON state.

use rollarena::game::rolit::{Colour, Position, Rolit, RolitRound, Square, State};
use rollarena::game::{Game, Request, Round, RoundSetup, ToAct};
use serde_json::json;

use super::agree::bit_names;
use super::naive::{self, Naive};

const RG: &[&str] = &["red", "green"];
const RYG: &[&str] = &["red", "yellow", "green"];
const RYGB: &[&str] = &["red", "yellow", "green", "blue"];

/// The engine's position, read from the JSON state a bot receives.
fn position(rows: &[&str], colours: &[&str], to_move: &str) -> Position {
    let state = json!({"board": rows, "to_move": to_move, "ply": 1, "colours": colours});
    serde_json::from_value::<State>(state)
        .unwrap()
        .to_position(0)
        .unwrap()
}

fn sorted(squares: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `mv` in both implementations and checks the balls turned and the board after.
fn plays(
    rows: &[&str],
    colours: &[&str],
    to_move: &str,
    mv: &str,
    turned: &[&str],
    after: &[&str],
) {
    let mut pos = position(rows, colours, to_move);
    let got = pos
        .play(Square::parse(mv, rows.len() as u8).unwrap())
        .unwrap();
    assert_eq!(
        bit_names(got),
        sorted(turned),
        "engine: balls turned by {mv}"
    );
    assert_eq!(pos.rows(), after, "engine: board after {mv}");
    let mut nv = Naive::from_rows(rows, colours, to_move);
    let got = nv.play(naive::parse(mv)).unwrap();
    assert_eq!(
        naive::names(&got),
        sorted(turned),
        "naive: balls turned by {mv}"
    );
    assert_eq!(nv.rows(), after, "naive: board after {mv}");
}

/// The legal moves, sorted; the engine and the naive implementation must agree.
fn legal(rows: &[&str], colours: &[&str], to_move: &str) -> Vec<String> {
    let engine = bit_names(position(rows, colours, to_move).legal_moves());
    let nv = Naive::from_rows(rows, colours, to_move);
    assert_eq!(engine, naive::names(&nv.legal()));
    engine
}

/// The reason the engine refuses `mv`; the position must be unchanged and the naive
/// implementation must refuse it too.
fn refused(rows: &[&str], colours: &[&str], to_move: &str, mv: &str) -> String {
    let before = position(rows, colours, to_move);
    let mut pos = before;
    let reason = pos
        .play(Square::parse(mv, rows.len() as u8).unwrap())
        .unwrap_err()
        .to_string();
    assert_eq!(pos, before, "a refused move changed the position");
    let mut nv = Naive::from_rows(rows, colours, to_move);
    assert!(nv.play(naive::parse(mv)).is_err(), "naive accepts {mv}");
    reason
}

/// The 2019 rules, figures 6 and 7: "Yellow plays and returns 5 lines". Yellow's ball on d4
/// closes five of its eight lines; the other three turn nothing: south-west the run ends at
/// an empty square, west it reaches the edge without a yellow ball, north-west the first ball
/// is yellow's own.
#[test]
fn yellow_returns_five_lines() {
    let before = [
        "........", //
        "...Y....", // d7 closes the line north
        "...G.Y..", // d6 turned; f6 closes north-east
        "..YRB...", // c5 own (north-west: nothing); d5, e5 turned
        "RBR.GGRY", // west: R B R then the edge; east: G G R closed by h4
        "..GBR...", // c3 (south-west) open at a1; d3, e3 turned
        ".R.B.Y..", // d2 turned; f2 closes south-east
        "...Y....", // d1 closes the line south
    ];
    let after = [
        "........", "...Y....", "...Y.Y..", "..YYY...", "RBRYYYYY", "..GYY...", ".R.Y.Y..",
        "...Y....",
    ];
    let turned = ["d5", "d6", "e5", "e4", "f4", "g4", "e3", "d3", "d2"];
    plays(&before, RYGB, "yellow", "d4", &turned, &after);
    let nv = Naive::from_rows(&before, RYGB, "yellow");
    assert_eq!(nv.lines_for(naive::parse("d4"), 1).len(), 5);
}

/// "Rolling over a line stops at the first ball of your colour you reach": the balls behind
/// that ball stay, even a green ball that now sits between two red ones (only the lines from
/// the new ball count; other blockades are ignored).
#[test]
fn a_run_stops_at_the_first_own_ball() {
    let before = [
        "........", "........", "........", "........", "........", "G.......", "R.......",
        ".GYRGRG.",
    ];
    // a1: east G Y then R on d1 (turned: b1 c1; e1 G stays between d1 and f1);
    //     north R on a2 at once (nothing); north-east empty.
    let after = [
        "........", "........", "........", "........", "........", "G.......", "R.......",
        "RRRRGRG.",
    ];
    plays(&before, RG, "red", "a1", &["b1", "c1"], &after);

    // A ball turned by this move may sandwich another ball; that ball stays too.
    let before = [
        "........", "........", "........", "........", "........", "........", "GGR.....",
        "R.......",
    ];
    let after = [
        "........", "........", "........", "........", "........", "R.......", "RGR.....",
        "R.......",
    ];
    plays(&before, RG, "red", "a3", &["a2"], &after);
}

/// Runs that do not end at a ball of the mover's colour turn nothing: at the edge of the
/// board (on 6x6 too, where the fast engine's grid goes on past the f file), or at an empty
/// square even with an own ball behind it.
#[test]
fn open_runs_turn_nothing() {
    // Red on 6x6 plays d1: east e1 f1 green then the edge; west c1 green, b1 empty, a1 red;
    // north d2 green then d3 red: only that line turns.
    let before = ["......", "......", "......", "...R..", "...G..", "R.G.GG"];
    let after = ["......", "......", "......", "...R..", "...R..", "R.GRGG"];
    plays(&before, RG, "red", "d1", &["d2"], &after);
    // The longest run on 6x6, along the bottom edge: four balls of three colours.
    let before = ["......", "......", "......", "......", "......", ".GYBGR"];
    let after = ["......", "......", "......", "......", "......", "RRRRRR"];
    plays(&before, RG, "red", "a1", &["b1", "c1", "d1", "e1"], &after);
}

/// A run may mix colours, including colours nobody plays: yellow then blue then red turns
/// yellow and blue for red; in a 4-player game a run of four colours turns whole.
#[test]
fn mixed_runs_turn_whole() {
    let before = [
        "........", "........", "........", "...YBR..", "........", "........", "........",
        "........",
    ];
    let after = [
        "........", "........", "........", "..RRRR..", "........", "........", "........",
        "........",
    ];
    plays(&before, RG, "red", "c5", &["d5", "e5"], &after);
    let before = [
        "........", "........", "B.......", "Y.......", "G.......", "R.......", "Y.......",
        "........",
    ];
    let after = [
        "........", "........", "B.......", "B.......", "B.......", "B.......", "B.......",
        "B.......",
    ];
    // Blue on a1: north Y R G Y then its own ball on a6; the whole line turns blue.
    plays(
        &before,
        RYGB,
        "blue",
        "a1",
        &["a2", "a3", "a4", "a5"],
        &after,
    );
}

/// Two players play red and green; the yellow and blue balls of the start position belong to
/// nobody and are captured like any other. Played through the arbiter's `Round`.
#[test]
fn balls_of_a_colour_nobody_plays_are_captured() {
    let game = Rolit::new(8, 2).unwrap();
    let seed = (0..)
        .find(|&s| game.first_colour(s) == Colour::Red)
        .unwrap();
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: seed,
        round_seed: 0,
        chance_seed: 0,
    });
    assert_eq!(round.colours(), Some(vec!["red".into(), "green".into()]));
    assert_eq!(round.first(), 0);
    let start = round.public_view();
    assert_eq!(start["board"][3], "...RY...");
    assert_eq!(start["board"][4], "...BG...");
    let mut moves: Vec<String> = round
        .legal_moves(0)
        .unwrap()
        .into_iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    moves.sort();
    assert_eq!(moves, ["d3", "f3", "f5"]);
    let applied = round.play(0, &json!("f5")).unwrap();
    assert_eq!(
        applied.effects["flipped"],
        json!(["e5"]),
        "yellow's ball turns red"
    );
    assert_eq!(round.public_view()["board"][3], "...RRR..");
    // Green's captures all end at its one ball, e4.
    let mut moves: Vec<String> = round
        .legal_moves(1)
        .unwrap()
        .into_iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    moves.sort();
    assert_eq!(moves, ["c4", "c6", "e6", "g6"]);
    let applied = round.play(1, &json!("c4")).unwrap();
    assert_eq!(
        applied.effects["flipped"],
        json!(["d4"]),
        "blue's ball turns green"
    );
    assert_eq!(
        round.public_view(),
        json!({
            "board": ["........", "........", "........", "...RRR..", "..GGG...", "........",
                      "........", "........"],
            "to_move": "red",
            "ply": 3,
            "colours": ["red", "green"],
        })
    );
}

/// No capture possible, so any empty square touching a ball is legal; when a capture exists,
/// the others are refused with a reason naming the capturing squares.
#[test]
fn the_no_capture_fallback_and_mandatory_capture() {
    // Red's only ball is alone in the a8 corner: no run can end at it.
    let alone = [
        "R.......", "........", "........", "....GG..", "....GG..", "........", "........",
        "........",
    ];
    assert_eq!(
        legal(&alone, RG, "red"),
        sorted(&[
            "a7", "b7", "b8", "d3", "d4", "d5", "d6", "e3", "e6", "f3", "f6", "g3", "g4", "g5",
            "g6",
        ])
    );
    plays(
        &alone,
        RG,
        "red",
        "g6",
        &[],
        &[
            "R.......", "........", "......R.", "....GG..", "....GG..", "........", "........",
            "........",
        ],
    );
    assert!(refused(&alone, RG, "red", "c4").contains("c4 touches no ball"));

    // Here red can capture on d3, c4, f5 and e6, so c5 (touching d5) is refused.
    let cross = [
        "........", "........", "........", "...RG...", "...GR...", "........", "........",
        "........",
    ];
    assert_eq!(legal(&cross, RG, "red"), sorted(&["c4", "d3", "e6", "f5"]));
    assert_eq!(
        refused(&cross, RG, "red", "c5"),
        "a capture is possible, so a move that captures nothing is illegal: try one of d3, c4, \
         f5, e6"
    );

    // More than eight capturing squares: the reason names eight and says there are more.
    let star = [
        "........", "........", "........", "..GGG...", "..GRG...", "..GGG...", "......G.",
        ".......R",
    ];
    let caps = legal(&star, RG, "red");
    assert_eq!(caps.len(), 9);
    let reason = refused(&star, RG, "red", "h2");
    let (_, named) = reason.split_once("try one of ").unwrap();
    let named = named.strip_suffix(", ...").expect("says there are more");
    let named: Vec<&str> = named.split(", ").collect();
    assert_eq!(named.len(), 8);
    assert!(
        named.iter().all(|s| caps.contains(&s.to_string())),
        "{reason}"
    );
}

/// "When your colour disappears from the playing-board ... you can now put your ball in any
/// position on the board next to another ball": yellow has no ball left in a 3-player game.
#[test]
fn a_vanished_colour_plays_next_to_any_ball() {
    let rows = [
        "........", "........", "........", "...RG...", "...GR...", "...B....", "........",
        "........",
    ];
    let expected = [
        "c2", "c3", "c4", "c5", "c6", "d2", "d6", "e2", "e3", "e6", "f3", "f4", "f5", "f6",
    ];
    assert_eq!(legal(&rows, RYG, "yellow"), sorted(&expected));
    let mut pos = position(&rows, RYG, "yellow");
    assert_eq!(pos.play(Square::parse("f6", 8).unwrap()), Ok(0));
    assert_eq!(pos.to_move(), Colour::Green, "then green, clockwise");
    assert_eq!(pos.counts(), [2, 1, 2, 1]);
    // Through the arbiter's round: yellow's seat gets the whole list.
    let round = RolitRound::from_position(
        position(&rows, RYG, "yellow"),
        vec![Colour::Green, Colour::Red, Colour::Yellow],
    );
    assert_eq!(round.to_act(), ToAct::Seat(2, Request::TURN));
    let listed: Vec<String> = round
        .legal_moves(2)
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed.len(), expected.len());
}

/// Every refusal reason a bot can get from the rules, word for word.
#[test]
fn refusal_reasons() {
    let game = Rolit::new(8, 2).unwrap();
    let seed = (0..)
        .find(|&s| game.first_colour(s) == Colour::Red)
        .unwrap();
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: seed,
        round_seed: 0,
        chance_seed: 0,
    });
    let why = |round: &mut Box<dyn Round>, seat, mv: serde_json::Value| {
        let before = round.public_view();
        let reason = round.play(seat, &mv).unwrap_err().reason;
        assert_eq!(round.public_view(), before);
        reason
    };
    assert_eq!(why(&mut round, 1, json!("d3")), "it is not your turn");
    assert_eq!(
        why(&mut round, 0, json!(3)),
        "a move is a square name in a string, like \"d3\"; got 3"
    );
    assert_eq!(
        why(&mut round, 0, json!({"move": "d3"})),
        "a move is a square name in a string, like \"d3\"; got {\"move\":\"d3\"}"
    );
    assert_eq!(
        why(&mut round, 0, json!("d")),
        "\"d\" is not a square: a square is a file letter a-h then a rank 1-8, like \"d3\""
    );
    assert_eq!(
        why(&mut round, 0, json!("i1")),
        "i1 is off the 8x8 board (files a-h, ranks 1-8)"
    );
    assert_eq!(
        why(&mut round, 0, json!("a9")),
        "a9 is off the 8x8 board (files a-h, ranks 1-8)"
    );
    assert_eq!(
        why(&mut round, 0, json!("d4")),
        "d4 is occupied (a blue ball)"
    );
    assert_eq!(
        why(&mut round, 0, json!("a1")),
        "a1 touches no ball: a ball must be placed next to one already on the board"
    );
    assert_eq!(
        why(&mut round, 0, json!("c4")),
        "a capture is possible, so a move that captures nothing is illegal: try one of d3, f3, \
         f5"
    );
    // An upper-case file letter is accepted; the move is announced in lower case.
    let applied = round.play(0, &json!("D3")).unwrap();
    assert_eq!(applied.notation, json!("d3"));
    assert_eq!(applied.effects["flipped"], json!(["d4"]));
    // On 6x6 the board ends at f6.
    let game = Rolit::new(6, 4).unwrap();
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: 0,
        round_seed: 0,
        chance_seed: 0,
    });
    let ToAct::Seat(seat, _) = round.to_act() else {
        panic!()
    };
    assert_eq!(
        why(&mut round, seat, json!("g1")),
        "g1 is off the 6x6 board (files a-f, ranks 1-6)"
    );
}

/// The end: the last ball fills the board, the scores count every colour, a tie for first
/// splits the round's win, and no move is accepted any more. A forfeit (applied by the
/// arbiter) ranks the seat last with 0 points.
#[test]
fn the_end_scores_and_ties() {
    let rows = ["RRGG", "RYGB", "RRGG", "RRG."];
    // Green's last ball captures nothing (every line from d1 meets green at once).
    assert_eq!(legal(&rows, RG, "green"), ["d1"]);
    let mut round = RolitRound::from_position(
        position(&rows, RG, "green"),
        vec![Colour::Green, Colour::Red],
    );
    assert_eq!(round.first(), 0);
    assert!(round.outcome().is_none());
    let applied = round.play(0, &json!("d1")).unwrap();
    assert_eq!(applied.effects["flipped"], json!([]));
    assert_eq!(round.to_act(), ToAct::Over);
    assert_eq!(round.legal_moves(0), None);
    assert_eq!(
        round.play(1, &json!("a1")).unwrap_err().reason,
        "it is not your turn"
    );
    let o = round.outcome().unwrap();
    assert_eq!(
        serde_json::to_value(&o.scores).unwrap(),
        json!({"red": 7, "green": 7, "yellow": 1, "blue": 1})
    );
    assert_eq!(o.points, [7, 7]);
    assert_eq!(o.ranks, [1, 1]);
    assert_eq!(o.wins, [0.5, 0.5]);
    let f = o.with_forfeits(&o.points, &[false, true]);
    assert_eq!(
        (f.points, f.ranks, f.wins),
        (vec![7, 0], vec![1, 2], vec![1.0, 0.0])
    );
}

/// The first colour is drawn once per match and colours rotate: over k rounds every seat plays
/// every colour once and starts once. A number of rounds that is not a multiple of k gets a
/// warning.
#[test]
fn rotation_and_first_colour() {
    let game = Rolit::new(6, 4).unwrap();
    let names = |r| -> Vec<&str> { game.seat_colours(r).iter().map(|c| c.name()).collect() };
    assert_eq!(names(0), ["red", "yellow", "green", "blue"]);
    assert_eq!(names(1), ["yellow", "green", "blue", "red"]);
    assert_eq!(names(3), ["blue", "red", "yellow", "green"]);
    assert_eq!(names(4), names(0));
    let seed = 12345;
    let first = game.first_colour(seed);
    let mut starters = Vec::new();
    for r in 0..4 {
        let round = game.new_round(RoundSetup {
            round: r,
            match_seed: seed,
            round_seed: r as u64,
            chance_seed: r as u64,
        });
        assert_eq!(round.view(0)["to_move"], first.name());
        starters.push(round.first());
    }
    starters.sort();
    assert_eq!(starters, [0, 1, 2, 3]);
    // The draw covers every colour over many seeds.
    let mut drawn: Vec<Colour> = (0..64).map(|s| game.first_colour(s)).collect();
    drawn.sort();
    drawn.dedup();
    assert_eq!(drawn, Colour::ALL);
    assert!(
        game.schedule_warning(6)
            .unwrap()
            .contains("not a multiple of 4")
    );
    assert_eq!(game.schedule_warning(8), None);
    assert!(Rolit::new(4, 3).is_err());
    assert!(Rolit::new(10, 2).is_err());
}

/// The diagrams and refusal reasons of `protocol/games/rolit.md` are the engine's: each block
/// after a `<!-- rolit:start N -->` or `<!-- rolit:values N -->` marker is compared with the
/// engine's rendering, and every refusal reason the engine gives appears in the document.
#[test]
fn the_rules_document_matches_the_engine() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol/games/rolit.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let block = |marker: &str| -> String {
        let at = doc
            .find(marker)
            .unwrap_or_else(|| panic!("{marker} missing"));
        let rest = &doc[at..];
        let start = rest.find("```text\n").unwrap() + "```text\n".len();
        let len = rest[start..].find("```").unwrap();
        rest[start..start + len].to_string()
    };
    for n in [8u8, 6, 4] {
        let players = if n == 4 { 2 } else { 4 };
        let start = Position::start(n, players, Colour::Red).unwrap();
        assert_eq!(
            block(&format!("<!-- rolit:start {n} -->")),
            rollarena::game::rolit::render(&start),
            "start position {n}x{n}"
        );
        let mut values = String::new();
        for r in (0..n).rev() {
            values.push_str(&format!("{:>2} ", r + 1));
            for f in 0..n {
                let level = rollarena::game::rolit::values::level(Square::new(f, r), n);
                values.push_str(&format!(" {}", level as u8));
            }
            values.push('\n');
        }
        values.push_str("   ");
        for f in 0..n {
            values.push_str(&format!(" {}", (b'a' + f) as char));
        }
        values.push('\n');
        assert_eq!(
            block(&format!("<!-- rolit:values {n} -->")),
            values,
            "values {n}x{n}"
        );
    }
    // The refusal reasons, as the engine words them in the document's examples.
    let game = Rolit::new(8, 2).unwrap();
    let seed = (0..)
        .find(|&s| game.first_colour(s) == Colour::Red)
        .unwrap();
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: seed,
        round_seed: 0,
        chance_seed: 0,
    });
    for (seat, mv) in [
        (0, json!(3)),
        (0, json!("d")),
        (0, json!("i1")),
        (0, json!("d4")),
        (0, json!("a1")),
        (0, json!("c4")),
        (1, json!("d3")),
    ] {
        let reason = round.play(seat, &mv).unwrap_err().reason;
        assert!(
            doc.contains(&format!("`{reason}`")),
            "the document lacks the reason {reason:?}"
        );
    }
    let variant = Rolit::new(4, 3).unwrap_err().0;
    assert!(doc.contains(&format!("(\"{variant}\")")), "{variant}");
    for strict in ["d+3", "d03", "d3 ", " d3"] {
        assert!(Square::parse(strict, 8).is_err(), "{strict:?}");
    }
    assert_eq!(Square::parse("D3", 8).unwrap().to_string(), "d3");
}
